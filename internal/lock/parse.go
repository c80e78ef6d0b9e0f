package lock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"vouch/safetext"
)

// MaxSize bounds a lockfile: a larger file is refused before it is parsed.
const MaxSize = 8 << 20

// ErrNewer means the lockfile was written in a format newer than this
// vouch reads.
var ErrNewer = errors.New("lockfile from a newer vouch")

// ParseError is a malformed lockfile: the line (0 when none applies) and
// what is wrong there.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("the lockfile is malformed at line %d: %s; fix that line or export the lockfile again", e.Line, e.Msg)
	}
	return fmt.Sprintf("the lockfile is malformed: %s; fix it or export the lockfile again", e.Msg)
}

// Parse reads a lockfile strictly: unknown keys, missing fields, bad
// digests, classes and duplicates are a *ParseError naming the line; a
// format newer than Format wraps ErrNewer and names the vouch that wrote
// it. Parse never panics, whatever data holds.
func Parse(data []byte) (Lock, error) {
	if len(data) > MaxSize {
		return Lock{}, &ParseError{Msg: fmt.Sprintf("it is %d bytes, more than the %d a lockfile may hold", len(data), MaxSize)}
	}
	var head struct {
		Format    any    `toml:"format"`
		WrittenBy string `toml:"written_by"`
	}
	if err := toml.Unmarshal(data, &head); err != nil {
		return Lock{}, decodeError(err)
	}
	f, ok := head.Format.(int64)
	switch {
	case head.Format == nil:
		return Lock{}, &ParseError{Msg: "it has no format line (format = 1), so it is not a vouch lockfile"}
	case !ok || f < 1:
		return Lock{}, &ParseError{Line: keyLine(data, "format"), Msg: "the format must be a whole number from 1"}
	case f > Format:
		by := cmpOr(safetext.Line(head.WrittenBy, 40), "a newer vouch")
		return Lock{}, fmt.Errorf("%w: the lockfile is format %d, written by %s; this vouch reads format %d only, so upgrade to %s or later", ErrNewer, f, by, Format, by)
	}
	var l Lock
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Lock{}, decodeError(err)
	}
	if err := validate(data, l); err != nil {
		return Lock{}, err
	}
	return l, nil
}

// decodeError turns the TOML library's error into a *ParseError.
func decodeError(err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		return &ParseError{Line: row, Msg: fmt.Sprintf("the key %q is not one a lockfile has", safetext.Line(strings.Join(e.Key(), "."), 60))}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return &ParseError{Line: row, Msg: safetext.Line(strings.TrimPrefix(de.Error(), "toml: "), 120)}
	}
	return &ParseError{Msg: safetext.Line(err.Error(), 120)}
}

// keyLine is the line of the first top-level "key =" in data, 0 if none.
func keyLine(data []byte, key string) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxSize)
	for n := 1; sc.Scan(); n++ {
		t := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(t, key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return n
		}
	}
	return 0
}

// blockLine is the line of the i-th (0-based) "[[kind]]" header in data,
// 0 if there is none.
func blockLine(data []byte, kind string, i int) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxSize)
	want := "[[" + kind + "]]"
	for n := 1; sc.Scan(); n++ {
		t := strings.ReplaceAll(strings.TrimSpace(sc.Text()), " ", "")
		if before, _, _ := strings.Cut(t, "#"); before == want {
			if i == 0 {
				return n
			}
			i--
		}
	}
	return 0
}
