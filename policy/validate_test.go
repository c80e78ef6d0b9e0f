package policy

import (
	"errors"
	"strings"
	"testing"
)

// TestValidateRule: every malformed rule is refused with one sentence that
// wraps ErrInvalidRule, and a rule that would allow a write wraps
// ErrWriteAllow (issue 4 "anything that writes asks").
func TestValidateRule(t *testing.T) {
	ok := Rule{Identity: testTool, Class: Allow, Effect: ReadOnly}
	with := func(f func(*Rule)) Rule {
		r := ok
		f(&r)
		return r
	}
	under := func(vals ...string) []Constraint { return []Constraint{{Arg: "path", Kind: Under, Values: vals}} }
	tests := []struct {
		name    string
		rule    Rule
		wantErr error
		wantMsg string
	}{
		{name: "allow external", rule: ok},
		{name: "ask with effect", rule: with(func(r *Rule) { r.Class, r.Effect = Ask, Idempotent })},
		{name: "block a write", rule: Rule{Identity: "builtin:fs_write", Class: Block, Effect: Mutating}},
		{name: "ask a write", rule: Rule{Identity: "builtin:fs_edit", Class: Ask, Effect: Mutating}},
		{name: "allow a read with a folder", rule: Rule{Identity: "builtin:fs_read", Class: Allow, Effect: ReadOnly, Constraints: under("docs")}},
		{name: "tool name with colon and space", rule: with(func(r *Rule) { r.Identity = "mcp:" + testServer + ":ns:get thing" })},
		{name: "under root and dot", rule: with(func(r *Rule) { r.Constraints = under("/", ".") })},
		{name: "one-of", rule: with(func(r *Rule) { r.Constraints = []Constraint{{Arg: "mode", Kind: OneOf, Values: []string{"a", "b"}}} })},

		{name: "allow a write", rule: Rule{Identity: "builtin:fs_write", Class: Allow, Effect: Mutating}, wantErr: ErrWriteAllow, wantMsg: "anything that writes asks"},
		{name: "allow an unknown built-in", rule: Rule{Identity: "builtin:shell", Class: Allow, Effect: ReadOnly}, wantErr: ErrWriteAllow},
		{name: "unknown class", rule: with(func(r *Rule) { r.Class = "maybe" }), wantErr: ErrInvalidRule, wantMsg: `the class "maybe" is not ask, allow or block`},
		{name: "empty class", rule: with(func(r *Rule) { r.Class = "" }), wantErr: ErrInvalidRule},
		{name: "unknown effect", rule: with(func(r *Rule) { r.Effect = "safe" }), wantErr: ErrInvalidRule, wantMsg: `the effect "safe" is not read-only, idempotent or mutating`},
		{name: "empty effect", rule: with(func(r *Rule) { r.Effect = "" }), wantErr: ErrInvalidRule},
		{name: "no prefix", rule: with(func(r *Rule) { r.Identity = "lookup" }), wantErr: ErrInvalidRule, wantMsg: "neither mcp:<server-id>:<tool> nor builtin:<name>"},
		{name: "server name, not ID", rule: with(func(r *Rule) { r.Identity = "mcp:weather:lookup" }), wantErr: ErrInvalidRule, wantMsg: "not its name"},
		{name: "upper-case server ID", rule: with(func(r *Rule) { r.Identity = "mcp:" + strings.ToUpper(testServer) + ":x" }), wantErr: ErrInvalidRule},
		{name: "no tool", rule: with(func(r *Rule) { r.Identity = "mcp:" + testServer + ":" }), wantErr: ErrInvalidRule},
		{name: "no tool, no colon", rule: with(func(r *Rule) { r.Identity = "mcp:" + testServer }), wantErr: ErrInvalidRule},
		{name: "control in tool", rule: with(func(r *Rule) { r.Identity = "mcp:" + testServer + ":a\x1b[2Jb" }), wantErr: ErrInvalidRule, wantMsg: `\x1b`},
		{name: "tool too long", rule: with(func(r *Rule) { r.Identity = "mcp:" + testServer + ":" + strings.Repeat("a", 129) }), wantErr: ErrInvalidRule},
		{name: "empty built-in", rule: Rule{Identity: "builtin:", Class: Ask, Effect: Mutating}, wantErr: ErrInvalidRule},
		{name: "built-in with slash", rule: Rule{Identity: "builtin:fs/read", Class: Ask, Effect: Mutating}, wantErr: ErrInvalidRule},
		{name: "constraint on ask", rule: with(func(r *Rule) { r.Class, r.Constraints = Ask, under("/srv") }), wantErr: ErrInvalidRule, wantMsg: "constraints narrow an allow rule"},
		{name: "constraint without arg", rule: with(func(r *Rule) { r.Constraints = []Constraint{{Kind: Under, Values: []string{"/srv"}}} }), wantErr: ErrInvalidRule},
		{name: "unknown kind", rule: with(func(r *Rule) { r.Constraints = []Constraint{{Arg: "p", Kind: "prefix", Values: []string{"/srv"}}} }), wantErr: ErrInvalidRule, wantMsg: `"prefix" is not "under" or "one-of"`},
		{name: "no values", rule: with(func(r *Rule) { r.Constraints = under() }), wantErr: ErrInvalidRule},
		{name: "empty value", rule: with(func(r *Rule) { r.Constraints = []Constraint{{Arg: "m", Kind: OneOf, Values: []string{""}}} }), wantErr: ErrInvalidRule},
		{name: "unclean folder", rule: with(func(r *Rule) { r.Constraints = under("/srv/data/") }), wantErr: ErrInvalidRule, wantMsg: `write it as "/srv/data"`},
		{name: "folder with dot-dot", rule: with(func(r *Rule) { r.Constraints = under("/srv/../etc") }), wantErr: ErrInvalidRule, wantMsg: `write it as "/etc"`},
		{name: "folder climbing", rule: with(func(r *Rule) { r.Constraints = under("../up") }), wantErr: ErrInvalidRule, wantMsg: `starts with ".."`},
		{name: "folder with NUL", rule: with(func(r *Rule) { r.Constraints = under("/srv\x00") }), wantErr: ErrInvalidRule, wantMsg: "control characters"},
		{name: "folder with backslash", rule: with(func(r *Rule) { r.Constraints = under(`C:\data`) }), wantErr: ErrInvalidRule, wantMsg: "backslash"},
		{name: "note too long", rule: with(func(r *Rule) { r.Note = strings.Repeat("n", 1001) }), wantErr: ErrInvalidRule},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateRule(tc.rule)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tc.wantErr)
			}
			if err == nil {
				return
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.wantMsg) {
				t.Errorf("got %q, want it to contain %q", msg, tc.wantMsg)
			}
			if strings.ContainsAny(msg, "\n\x1b") || strings.HasSuffix(msg, ".") {
				t.Errorf("got %q, want one line without a final period (the CLI adds it)", msg)
			}
		})
	}
}
