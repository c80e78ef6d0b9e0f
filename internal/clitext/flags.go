package clitext

import (
	"flag"
	"regexp"
	"strings"
	"time"
)

// Go's flag package words a bad value as `invalid value "5x" for flag
// -call: parse error` (`invalid boolean value "x" for -json: …` for a
// switch); FlagProblem says instead what the flag takes.
var (
	badValue   = regexp.MustCompile(`^invalid (boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([A-Za-z0-9][A-Za-z0-9-]*): (.*)$`)
	singleDash = regexp.MustCompile(`(^|[\s:])-([A-Za-z][A-Za-z0-9-]*)`)
)

// outOfRange is the flag package's cause for a number too large.
const outOfRange = "value out of range"

// FlagProblem is the sentence for the parse error err of fs (issue 28
// item 15), its flags written as they are typed (--limit): for a value a
// flag does not take, what it takes — a whole number, a number, a
// duration, true or false — and the value given, quoted and escaped as
// Go quotes it, so no control character of it reaches the terminal; for
// an unknown flag, that fs has none of that name. command is the command
// as typed ("vouch tools plan"). The caller adds where its flags are read.
func FlagProblem(fs *flag.FlagSet, command string, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "there is no flag --" + strings.TrimLeft(name, "-") + " for '" + command + "'"
	}
	if m := badValue.FindStringSubmatch(msg); m != nil {
		if s := takes(fs, m[3], m[2], m[4]); s != "" {
			return s
		}
		return "--" + m[3] + " cannot be " + m[2] + ": " + m[4] // a flag of its own kind: its cause says
	}
	return singleDash.ReplaceAllString(msg, "$1--$2")
}

// takes says what flag name of fs takes, given the quoted value and
// Go's cause; "" when it is a flag of its own kind.
func takes(fs *flag.FlagSet, name, quoted, cause string) string {
	f := fs.Lookup(name)
	if f == nil {
		return ""
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	what := ""
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		what = "a whole number"
		if cause == outOfRange {
			what = "a whole number of at most 18 digits"
		}
	case float64:
		what = "a number, such as 0.25"
	case time.Duration:
		what = "a duration, such as 30s, 5m or 1h"
	case bool:
		return "--" + name + " is a switch: give it alone (or as --" + name + "=false), not with " + quoted
	default:
		return ""
	}
	return "--" + name + " needs " + what + ", not " + quoted
}
