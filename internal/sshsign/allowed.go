package sshsign

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"vouch/safetext"
)

// MaxAllowedSigners bounds an allowed_signers file.
const MaxAllowedSigners = 1 << 20

// AllowedSigner is one line of an allowed_signers file.
type AllowedSigner struct {
	// Principals are the comma-separated principals of the line, as
	// written (they may be patterns).
	Principals []string
	// Namespaces, when set, are the namespace patterns the key may sign
	// in; empty: any namespace.
	Namespaces []string
	// ValidAfter and ValidBefore bound when the key is trusted; zero: no
	// bound.
	ValidAfter, ValidBefore time.Time
	Key                     ssh.PublicKey
	// Line is the line number in the file.
	Line int
}

// LineError is an allowed_signers line vouch cannot read.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("allowed-signers line %d: %s; fix that line (git's allowed_signers format: principals, options, key type, key)", e.Line, e.Msg)
}

// ParseAllowedSigners reads an allowed_signers file: "principals
// [options] keytype base64-key [comment]" per line, # comments and blank
// lines skipped. loc places a valid-after or valid-before time without a
// trailing Z (ssh-keygen reads those as local time). It never panics.
func ParseAllowedSigners(data []byte, loc *time.Location) ([]AllowedSigner, error) {
	if len(data) > MaxAllowedSigners {
		return nil, &LineError{Msg: fmt.Sprintf("the file is %d bytes, more than %d", len(data), MaxAllowedSigners)}
	}
	var out []AllowedSigner
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxAllowedSigners)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := parseLine(line, loc)
		if err != nil {
			return nil, &LineError{Line: n, Msg: err.Error()}
		}
		s.Line = n
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, &LineError{Msg: err.Error()}
	}
	return out, nil
}

func parseLine(line string, loc *time.Location) (AllowedSigner, error) {
	var s AllowedSigner
	principals, rest := cutField(line)
	if principals == "" {
		return s, fmt.Errorf("no principals")
	}
	for _, p := range strings.Split(principals, ",") {
		if p == "" {
			return s, fmt.Errorf("an empty principal")
		}
		s.Principals = append(s.Principals, p)
	}
	rest = strings.TrimSpace(rest)
	if !isKeyType(firstField(rest)) {
		opts, after, err := cutOptions(rest)
		if err != nil {
			return s, err
		}
		if err := s.applyOptions(opts, loc); err != nil {
			return s, err
		}
		rest = strings.TrimSpace(after)
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return s, fmt.Errorf("the key does not parse (%s)", safetext.Line(err.Error(), 60))
	}
	if _, ok := key.(*ssh.Certificate); ok {
		return s, fmt.Errorf("a certificate is not a key vouch verifies")
	}
	s.Key = key
	return s, nil
}

// applyOptions sets the options of one line.
func (s *AllowedSigner) applyOptions(opts []string, loc *time.Location) error {
	for _, o := range opts {
		name, val, hasVal := strings.Cut(o, "=")
		name = strings.ToLower(name)
		if hasVal {
			if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
				return fmt.Errorf("the option %s needs a quoted value", safetext.Line(name, 30))
			}
			val = val[1 : len(val)-1]
		}
		var err error
		switch {
		case name == "cert-authority" && !hasVal:
			return fmt.Errorf("cert-authority lines are not supported: list each signer's own key instead")
		case name == "namespaces" && hasVal:
			for _, ns := range strings.Split(val, ",") {
				if ns = strings.TrimSpace(ns); ns != "" {
					s.Namespaces = append(s.Namespaces, ns)
				}
			}
		case name == "valid-after" && hasVal:
			s.ValidAfter, err = parseTime(val, loc)
		case name == "valid-before" && hasVal:
			s.ValidBefore, err = parseTime(val, loc)
		default:
			return fmt.Errorf("the option %s is not one vouch reads (namespaces, valid-after, valid-before)", safetext.Line(o, 40))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// parseTime reads ssh-keygen's YYYYMMDD[HHMM[SS]][Z].
func parseTime(v string, loc *time.Location) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	raw := v
	if u, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = u, time.UTC
	}
	layout := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(v)]
	if layout == "" {
		return time.Time{}, fmt.Errorf("the time %q is not YYYYMMDD[HHMM[SS]][Z]", safetext.Line(raw, 30))
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("the time %q is not YYYYMMDD[HHMM[SS]][Z]", safetext.Line(raw, 30))
	}
	return t, nil
}

// cutField splits s at its first run of spaces or tabs.
func cutField(s string) (string, string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func firstField(s string) string { f, _ := cutField(s); return f }

// cutOptions reads a comma-separated options field whose quoted values may
// hold commas and spaces, and returns the options and what follows it.
func cutOptions(s string) ([]string, string, error) {
	var opts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			cur.WriteByte(c)
		case quoted:
			cur.WriteByte(c)
		case c == ',':
			opts = append(opts, cur.String())
			cur.Reset()
		case c == ' ' || c == '\t':
			return append(opts, cur.String()), s[i:], nil
		default:
			cur.WriteByte(c)
		}
	}
	if quoted {
		return nil, "", fmt.Errorf("an option's quote is not closed")
	}
	return nil, "", fmt.Errorf("no key after the options")
}

// isKeyType reports whether f names an SSH public key type.
func isKeyType(f string) bool {
	return strings.HasPrefix(f, "ssh-") || strings.HasPrefix(f, "ecdsa-sha2-") || strings.HasPrefix(f, "sk-")
}

// allows reports whether the line's namespaces admit ns: a pattern list
// as ssh-keygen reads it (* and ?, a leading ! denies).
func (s AllowedSigner) allows(ns string) bool {
	if len(s.Namespaces) == 0 {
		return true
	}
	ok := false
	for _, p := range s.Namespaces {
		neg := strings.HasPrefix(p, "!")
		if m, err := path.Match(strings.TrimPrefix(p, "!"), ns); err == nil && m {
			if neg {
				return false
			}
			ok = true
		}
	}
	return ok
}
