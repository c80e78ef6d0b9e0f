package lock

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const pinA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const pinB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
const hexC = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"

func sample() Lock {
	return Lock{
		WrittenBy: "vouch test",
		Servers:   []Server{{Name: "zeta", URL: "https://z.example/mcp"}, {Name: "notes", URL: "https://n.example/mcp", Header: "Authorization"}},
		Rules: []Rule{
			{Server: "notes", Tool: "write_note", Class: "ask", Effect: "mutating", Pin: pinA},
			{Server: "notes", Tool: "lookup", Class: "allow", Effect: "read-only", Pin: pinB,
				Constraints: []Constraint{{Arg: "key", Kind: "one-of", Values: []string{"b", "a"}}}},
			{Tool: "builtin:fs_write", Class: "block", Effect: "mutating"},
		},
		Skills:       []Skill{{Name: "pdf", Version: 2, SHA256: hexC, Accepted: []string{"H2", "H1"}, Files: []File{{Path: "b.md", SHA256: hexC}, {Path: "SKILL.md", SHA256: hexC}}}},
		ServerSkills: []ServerSkill{{Server: "notes", URI: "skill://notes/style", Set: pinA}},
		Profiles:     []Profile{{Name: "daily", Revision: 3, Digest: pinA, Definition: "writer", DefinitionRevision: 1, DefinitionDigest: pinB}},
	}
}

// SPEC N1: the same lock gives the same bytes whatever order it came in,
// one commented block per item, and it parses back to what was encoded.
func TestEncodeIsCanonical(t *testing.T) {
	a, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	shuffled := sample()
	shuffled.Rules[0], shuffled.Rules[2] = shuffled.Rules[2], shuffled.Rules[0]
	shuffled.Servers[0], shuffled.Servers[1] = shuffled.Servers[1], shuffled.Servers[0]
	b, err := Encode(shuffled)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("two encodings differ:\n%s\n---\n%s", a, b)
	}
	for _, want := range []string{"# tool mcp:notes:lookup\n[[rule]]", "# server notes\n[[server]]", "# skill pdf version 2\n[[skill]]", "format = 1"} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("the lockfile lacks %q:\n%s", want, a)
		}
	}
	if strings.Index(string(a), "mcp:notes:lookup") > strings.Index(string(a), "mcp:notes:write_note") {
		t.Errorf("rules are not sorted:\n%s", a)
	}
	back, err := Parse(a)
	if err != nil {
		t.Fatalf("Parse(Encode(...)): %v\n%s", err, a)
	}
	again, err := Encode(back)
	if err != nil || !bytes.Equal(again, a) {
		t.Fatalf("a parsed lock encodes differently (err %v):\n%s", err, again)
	}
}

// A label from a server cannot break out of its comment line.
func TestCommentsStayOneLine(t *testing.T) {
	l := Lock{Servers: []Server{{Name: "evil\n[[rule]]\ntool = \"builtin:x\"", URL: "https://e.example"}}}
	data, err := Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(back.Rules) != 0 || back.Servers[0].Name != l.Servers[0].Name {
		t.Fatalf("the name leaked out of its comment or string:\n%s", data)
	}
}

// Bad input: one sentence with the line (issue 27).
func TestParseErrorsNameTheLine(t *testing.T) {
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	lineOf := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	replace := func(old, new string) string { return strings.Replace(string(good), old, new, 1) }
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"syntax", replace(`class = 'block'`, `class = 'block`), lineOf(`class = 'block'`), "line"},
		{"unknown key", replace(`class = 'block'`, "class = 'block'\nsecret = 'x'"), lineOf(`class = 'block'`) + 1, `"rule.secret"`},
		{"bad class", replace(`class = 'block'`, `class = 'maybe'`), lineOf("# tool builtin:fs_write") + 1, `class "maybe"`},
		{"bad pin", replace(pinA, "sha256:zz"), 0, "pin"},
		{"no format", strings.Replace(string(good), "format = 1\n", "", 1), 0, "format"},
		{"duplicate server", replace(`name = 'zeta'`, `name = 'Notes'`), 0, "named twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse: %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), ". ") > 0 || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one sentence containing %q", err, tc.want)
			}
			if tc.line > 0 && pe.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if tc.line == 0 && tc.name != "no format" && pe.Line == 0 {
				t.Errorf("no line in %v", err)
			}
		})
	}
}

// Bad input: a lockfile from a newer vouch names the version it needs.
func TestParseNewerFormat(t *testing.T) {
	_, err := Parse([]byte("format = 2\nwritten_by = \"vouch 9.1.0\"\n[[gadget]]\nx = 1\n"))
	if !errors.Is(err, ErrNewer) || !strings.Contains(err.Error(), "vouch 9.1.0 or later") {
		t.Fatalf("Parse: %v, want ErrNewer naming vouch 9.1.0", err)
	}
}

// SPEC N3: what is looser than the lock, and what is not.
func TestLooser(t *testing.T) {
	lockRule := Rule{Server: "notes", Tool: "lookup", Class: "allow", Effect: "idempotent", Pin: pinA,
		Constraints: []Constraint{{Arg: "path", Kind: "under", Values: []string{"/srv/data"}}}}
	with := func(f func(*Rule)) Rule {
		r := lockRule
		r.Constraints = append([]Constraint(nil), lockRule.Constraints...)
		f(&r)
		return r
	}
	tests := []struct {
		name  string
		have  Rule
		want  Rule
		loose bool
	}{
		{"same", lockRule, lockRule, false},
		{"allow where the lock asks", with(func(r *Rule) {}), Baseline("notes", "lookup"), true},
		{"ask where the lock allows", with(func(r *Rule) { r.Class, r.Constraints = "ask", nil }), lockRule, false},
		{"block", with(func(r *Rule) { r.Class, r.Effect, r.Constraints = "block", "read-only", nil }), lockRule, false},
		{"dropped constraint", with(func(r *Rule) { r.Constraints = nil }), lockRule, true},
		{"wider folder", with(func(r *Rule) { r.Constraints[0].Values = []string{"/srv"} }), lockRule, true},
		{"escaping folder", with(func(r *Rule) { r.Constraints[0].Values = []string{"/srv/data/../etc"} }), lockRule, true},
		{"narrower folder", with(func(r *Rule) { r.Constraints[0].Values = []string{"/srv/data/in"} }), lockRule, false},
		{"extra constraint", with(func(r *Rule) {
			r.Constraints = append(r.Constraints, Constraint{Arg: "m", Kind: "one-of", Values: []string{"a"}})
		}), lockRule, false},
		{"looser effect", with(func(r *Rule) { r.Effect = "read-only" }), lockRule, true},
		{"tighter effect", with(func(r *Rule) { r.Effect = "mutating" }), lockRule, false},
		{"another definition", with(func(r *Rule) { r.Pin = pinB }), lockRule, true},
		{"ask on a new definition", with(func(r *Rule) { r.Class, r.Pin, r.Constraints = "ask", pinB, nil }), lockRule, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			why := Looser(tc.have, tc.want)
			if (why != "") != tc.loose {
				t.Fatalf("Looser = %q, want looser %v", why, tc.loose)
			}
		})
	}
}

// SPEC N2: every drift is named, in the words.
func TestDiff(t *testing.T) {
	want := sample()
	have := sample()
	if d := Diff(have, nil, want); len(d) != 0 {
		t.Fatalf("a machine equal to the lock drifts: %v", d)
	}
	have.Rules[1].Class, have.Rules[1].Constraints = "ask", nil
	have.Skills[0].Version, have.Skills[0].SHA256 = 3, strings.Repeat("d", 64)
	have.Servers = have.Servers[:1]
	have.Profiles = append(have.Profiles, Profile{Name: "extra", Digest: pinA})
	served := map[string]string{"mcp:notes:write_note": pinB}
	var got []string
	for _, d := range Diff(have, served, want) {
		got = append(got, d.Text)
	}
	for _, w := range []string{
		"tool mcp:notes:lookup: rule ask, the lock says allow (key in a,b)",
		"skill pdf: version 3, the lock pins 2",
		"server notes: the served definition of write_note differs from the pinned one",
		"server zeta: not configured here, the lock names it at https://z.example/mcp",
		"profile extra: defined here, the lock does not name it",
	} {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("no drift %q in\n%s", w, strings.Join(got, "\n"))
		}
	}
}

func FuzzParse(f *testing.F) {
	good, err := Encode(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte("format = 2\n"))
	f.Add([]byte("format = 1\n[[rule]]\ntool = \"x\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		out, err := Encode(l)
		if err != nil {
			t.Fatalf("a parsed lock does not encode: %v", err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("an encoded lock does not parse: %v\n%s", err, out)
		}
	})
}
