package clitext

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

// TestFlagProblem (issue 28 item 15): a value a flag does not take says
// what the flag takes, with the value quoted as Go quotes it; a flag of
// its own kind keeps its cause; an unknown flag is named as typed.
func TestFlagProblem(t *testing.T) {
	fs := flag.NewFlagSet("vouch runs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("limit", 20, "")
	fs.Duration("call", 0, "")
	fs.Float64("tool-budget", 0, "")
	fs.Bool("json", false, "")
	fs.Func("url", "", func(string) error { return errors.New("not a URL; pass one like http://127.0.0.1:8080/v1") })
	for _, tc := range []struct{ args, want string }{
		{"--limit x", `--limit needs a whole number, not "x"`},
		{"--limit 99999999999999999999", `--limit needs a whole number of at most 18 digits, not "99999999999999999999"`},
		{"--call 5x", `--call needs a duration, such as 30s, 5m or 1h, not "5x"`},
		{"--tool-budget lots", `--tool-budget needs a number, such as 0.25, not "lots"`},
		{"--json=maybe", `--json is a switch: give it alone (or as --json=false), not with "maybe"`},
		{"--url :::", `--url cannot be ":::": not a URL; pass one like http://127.0.0.1:8080/v1`},
		{"--nosuch", `there is no flag --nosuch for 'vouch runs'`},
		{"-limit \x1b[2Jx", `--limit needs a whole number, not "\x1b[2Jx"`},
	} {
		err := fs.Parse(strings.Fields(tc.args))
		if err == nil {
			t.Fatalf("%s parsed", tc.args)
		}
		if got := FlagProblem(fs, "vouch runs", err); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}
