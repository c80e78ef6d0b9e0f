package policy

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

const (
	testServer = "0f8fad5b-d9cb-469f-a165-70867728950e"
	testTool   = "mcp:" + testServer + ":files"
	testWS     = "/home/ana/project"
)

func decide(s Snapshot, identity, args string) Decision {
	return s.Decide(Call{Identity: identity, Arguments: json.RawMessage(args), CorrelationID: "call_1"})
}

type decideCase struct {
	name        string
	identity    string
	args        string
	want        Verdict
	wantEffect  Effect
	wantReason  string // a substring of the reason
	wantNoRule  bool
	wantHasRule bool
}

func runDecideCases(t *testing.T, s Snapshot, cases []decideCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := decide(s, tc.identity, tc.args)
			if d.Verdict != tc.want {
				t.Errorf("verdict: got %s, want %s (reason %q)", d.Verdict, tc.want, d.Reason)
			}
			if tc.wantEffect != "" && d.Effect != tc.wantEffect {
				t.Errorf("effect: got %s, want %s", d.Effect, tc.wantEffect)
			}
			if !strings.Contains(d.Reason, tc.wantReason) {
				t.Errorf("reason: got %q, want it to contain %q", d.Reason, tc.wantReason)
			}
			if !strings.HasSuffix(d.Reason, ".") || strings.Count(d.Reason, ". ") > 0 || strings.ContainsAny(d.Reason, "\n\x1b") {
				t.Errorf("reason: got %q, want one sentence on one line", d.Reason)
			}
			if tc.wantNoRule && d.Rule != nil {
				t.Errorf("rule: got %+v, want none (a default decided)", *d.Rule)
			}
			if tc.wantHasRule && d.Rule == nil {
				t.Error("rule: got none, want the identity's rule")
			}
		})
	}
}

// TestDecideDefaults: with no rule, built-in reads run only inside the
// workspace, anything that writes asks, and every external tool asks (SPEC
// D1; issue 4 "Built-in read-only workspace tools are allowed inside the
// workspace scope; anything that writes asks").
func TestDecideDefaults(t *testing.T) {
	s := NewSnapshot(nil, Options{Workspace: testWS})
	runDecideCases(t, s, []decideCase{
		{name: "read relative inside", identity: "builtin:fs_read", args: `{"path":"notes/todo.md"}`, want: VerdictAllow, wantEffect: ReadOnly, wantReason: "inside the workspace", wantNoRule: true},
		{name: "list without a path is the root", identity: "builtin:fs_list", args: `{}`, want: VerdictAllow, wantEffect: ReadOnly},
		{name: "list empty path is the root", identity: "builtin:fs_list", args: `{"path":"","depth":2}`, want: VerdictAllow},
		{name: "search names a pattern, not a path", identity: "builtin:fs_search", args: `{"pattern":"../../etc"}`, want: VerdictAllow},
		{name: "read dot-dot inside stays inside", identity: "builtin:fs_read", args: `{"path":"a/../b.txt"}`, want: VerdictAllow},
		{name: "read ../x climbs out", identity: "builtin:fs_read", args: `{"path":"../x"}`, want: VerdictAsk, wantEffect: ReadOnly, wantReason: "climbs out of the workspace"},
		{name: "read a/../../b climbs out", identity: "builtin:fs_read", args: `{"path":"a/../../b"}`, want: VerdictAsk, wantReason: "climbs out"},
		{name: "read .. alone", identity: "builtin:fs_list", args: `{"path":".."}`, want: VerdictAsk},
		{name: "read escaped dots climb out", identity: "builtin:fs_read", args: `{"path":"\u002e\u002e/x"}`, want: VerdictAsk, wantReason: "climbs out"},
		{name: "read backslash climb counts", identity: "builtin:fs_read", args: `{"path":"..\\x"}`, want: VerdictAsk},
		{name: "read absolute inside", identity: "builtin:fs_read", args: `{"path":"/home/ana/project/go.mod"}`, want: VerdictAllow},
		{name: "read absolute root itself", identity: "builtin:fs_list", args: `{"path":"/home/ana/project"}`, want: VerdictAllow},
		{name: "read absolute outside", identity: "builtin:fs_read", args: `{"path":"/etc/passwd"}`, want: VerdictAsk, wantReason: "outside the workspace"},
		{name: "read absolute sibling prefix", identity: "builtin:fs_read", args: `{"path":"/home/ana/project2/x"}`, want: VerdictAsk, wantReason: "outside"},
		{name: "read absolute climbing out", identity: "builtin:fs_read", args: `{"path":"/home/ana/project/../other"}`, want: VerdictAsk},
		{name: "read NUL in path", identity: "builtin:fs_read", args: `{"path":"a\u0000b"}`, want: VerdictAsk, wantReason: "control characters"},
		{name: "read leading space", identity: "builtin:fs_read", args: `{"path":" ../x"}`, want: VerdictAsk, wantReason: "white space"},
		{name: "read path not a string", identity: "builtin:fs_read", args: `{"path":["../x"]}`, want: VerdictAsk, wantReason: "not a string"},
		{name: "read path null", identity: "builtin:fs_read", args: `{"path":null}`, want: VerdictAsk, wantReason: "not a string"},
		{name: "read path differing by case", identity: "builtin:fs_read", args: `{"PATH":"../x"}`, want: VerdictAsk, wantReason: "only by case"},
		{name: "read duplicate path keys", identity: "builtin:fs_read", args: `{"path":"ok.txt","path":"../../etc/passwd"}`, want: VerdictAsk, wantReason: "repeat the key"},
		{name: "read duplicate by escape", identity: "builtin:fs_read", args: `{"path":"ok.txt","p\u0061th":"/etc/passwd"}`, want: VerdictAsk, wantReason: "repeat the key"},
		{name: "read array arguments", identity: "builtin:fs_read", args: `["notes"]`, want: VerdictAsk, wantReason: "not a JSON object"},
		{name: "read invalid JSON", identity: "builtin:fs_read", args: `{"path":"x"`, want: VerdictAsk, wantReason: "not valid JSON"},
		{name: "read empty arguments", identity: "builtin:fs_read", args: ``, want: VerdictAsk},
		{name: "write asks", identity: "builtin:fs_write", args: `{"path":"notes.md","content":"hi"}`, want: VerdictAsk, wantEffect: Mutating, wantReason: "Anything that writes asks", wantNoRule: true},
		{name: "edit asks", identity: "builtin:fs_edit", args: `{}`, want: VerdictAsk, wantEffect: Mutating, wantReason: "Anything that writes asks"},
		{name: "unknown built-in asks", identity: "builtin:FS_READ", args: `{}`, want: VerdictAsk, wantReason: "Anything that writes asks"},
		{name: "external asks", identity: testTool, args: `{"path":"/srv/data"}`, want: VerdictAsk, wantEffect: Mutating, wantReason: "Every new external tool asks until you classify it", wantNoRule: true},
		{name: "malformed identity asks", identity: "weather", args: `{}`, want: VerdictAsk, wantEffect: Mutating},
	})
}

// TestDecideNoWorkspace: without a workspace root, relative reads still
// run and every absolute path asks.
func TestDecideNoWorkspace(t *testing.T) {
	for _, ws := range []string{"", "relative/dir"} {
		s := NewSnapshot(nil, Options{Workspace: ws})
		runDecideCases(t, s, []decideCase{
			{name: ws + " relative", identity: "builtin:fs_read", args: `{"path":"a.txt"}`, want: VerdictAllow},
			{name: ws + " absolute", identity: "builtin:fs_read", args: `{"path":"/home/ana/project/a.txt"}`, want: VerdictAsk, wantReason: "no workspace root is known"},
		})
	}
}

func underRule(values ...string) Rule {
	return Rule{Identity: testTool, Class: Allow, Effect: ReadOnly,
		Constraints: []Constraint{{Arg: "path", Kind: Under, Values: values}}}
}

// TestDecideUnder: an allow rule narrowed to a folder allows inside it and
// asks one byte outside, for any trick that would make the policy judge a
// different path than the server reads (issue 4 "a path under a folder").
func TestDecideUnder(t *testing.T) {
	s := NewSnapshot([]Rule{underRule("/srv/data", "/tmp/scratch")}, Options{})
	runDecideCases(t, s, []decideCase{
		{name: "inside", identity: testTool, args: `{"path":"/srv/data/x.csv"}`, want: VerdictAllow, wantEffect: ReadOnly, wantReason: "You allow this tool without asking when", wantHasRule: true},
		{name: "the folder itself", identity: testTool, args: `{"path":"/srv/data"}`, want: VerdictAllow},
		{name: "trailing slash", identity: testTool, args: `{"path":"/srv/data/"}`, want: VerdictAllow},
		{name: "second folder", identity: testTool, args: `{"path":"/tmp/scratch/a"}`, want: VerdictAllow},
		{name: "other arguments ride along", identity: testTool, args: `{"limit":5,"path":"/srv/data/a","opts":{"path":"/etc"}}`, want: VerdictAllow},
		{name: "one byte outside", identity: testTool, args: `{"path":"/srv/data2"}`, want: VerdictAsk, wantReason: `"path" is "/srv/data2"`, wantHasRule: true},
		{name: "dot-dot out", identity: testTool, args: `{"path":"/srv/data/../etc"}`, want: VerdictAsk, wantReason: "climbs"},
		{name: "dot-dot that stays inside still asks", identity: testTool, args: `{"path":"/srv/data/a/../b"}`, want: VerdictAsk, wantReason: "climbs"},
		{name: "escaped dot-dot", identity: testTool, args: `{"path":"/srv/data/\u002e\u002e/etc"}`, want: VerdictAsk, wantReason: "climbs"},
		{name: "relative", identity: testTool, args: `{"path":"srv/data/x"}`, want: VerdictAsk},
		{name: "NUL", identity: testTool, args: `{"path":"/srv/data/x\u0000/../../etc"}`, want: VerdictAsk, wantReason: "control characters"},
		{name: "escape sequence", identity: testTool, args: `{"path":"/srv/data/\u001b[2J"}`, want: VerdictAsk, wantReason: "control characters"},
		{name: "invalid UTF-8", identity: testTool, args: "{\"path\":\"/srv/data/\xff\"}", want: VerdictAsk, wantReason: "control characters"},
		{name: "backslash", identity: testTool, args: `{"path":"/srv/data\\..\\etc"}`, want: VerdictAsk, wantReason: "backslash"},
		{name: "leading space", identity: testTool, args: `{"path":" /etc"}`, want: VerdictAsk, wantReason: "white space"},
		{name: "empty", identity: testTool, args: `{"path":""}`, want: VerdictAsk, wantReason: "empty"},
		{name: "missing", identity: testTool, args: `{"file":"/srv/data/x"}`, want: VerdictAsk, wantReason: `the call has no "path"`},
		{name: "case variant", identity: testTool, args: `{"Path":"/srv/data/x"}`, want: VerdictAsk, wantReason: "only by case"},
		{name: "case variant beside", identity: testTool, args: `{"path":"/srv/data/x","PATH":"/etc"}`, want: VerdictAsk, wantReason: "only by case"},
		{name: "not a string", identity: testTool, args: `{"path":7}`, want: VerdictAsk, wantReason: "not a string"},
		{name: "not an object", identity: testTool, args: `"/srv/data/x"`, want: VerdictAsk, wantReason: "not a JSON object"},
		{name: "null", identity: testTool, args: `null`, want: VerdictAsk},
		{name: "duplicate keys, last outside", identity: testTool, args: `{"path":"/srv/data/x","path":"/etc"}`, want: VerdictAsk, wantReason: "repeat the key"},
		{name: "duplicate keys, both inside", identity: testTool, args: `{"path":"/srv/data/x","path":"/srv/data/y"}`, want: VerdictAsk, wantReason: "repeat the key"},
	})
}

// TestDecideRelativeAndRootFolders: "." holds relative paths that do not
// climb; "/" holds every absolute path.
func TestDecideRelativeAndRootFolders(t *testing.T) {
	rel := NewSnapshot([]Rule{underRule(".")}, Options{})
	runDecideCases(t, rel, []decideCase{
		{name: "dot relative", identity: testTool, args: `{"path":"docs/a.md"}`, want: VerdictAllow},
		{name: "dot absolute", identity: testTool, args: `{"path":"/docs/a.md"}`, want: VerdictAsk},
		{name: "dot climbing", identity: testTool, args: `{"path":"../a.md"}`, want: VerdictAsk},
	})
	root := NewSnapshot([]Rule{underRule("/")}, Options{})
	runDecideCases(t, root, []decideCase{
		{name: "slash absolute", identity: testTool, args: `{"path":"/etc/hosts"}`, want: VerdictAllow},
		{name: "slash relative", identity: testTool, args: `{"path":"etc/hosts"}`, want: VerdictAsk},
	})
}

// TestDecideOneOfAndClasses: one-of matches exact strings; block blocks;
// ask asks; constraints AND together.
func TestDecideOneOfAndClasses(t *testing.T) {
	mode := "mcp:" + testServer + ":mode"
	both := "mcp:" + testServer + ":both"
	blocked := "mcp:" + testServer + ":drop_table"
	asked := "mcp:" + testServer + ":send"
	s := NewSnapshot([]Rule{
		{Identity: mode, Class: Allow, Effect: Idempotent, Constraints: []Constraint{{Arg: "mode", Kind: OneOf, Values: []string{"fast", "safe"}}}},
		{Identity: both, Class: Allow, Effect: Mutating, Constraints: []Constraint{
			{Arg: "mode", Kind: OneOf, Values: []string{"safe"}},
			{Arg: "dir", Kind: Under, Values: []string{"/srv"}},
		}},
		{Identity: blocked, Class: Block, Effect: Mutating},
		{Identity: asked, Class: Ask, Effect: Idempotent},
		{Identity: "builtin:fs_write", Class: Block, Effect: Mutating},
		{Identity: "builtin:fs_read", Class: Allow, Effect: ReadOnly, Constraints: []Constraint{{Arg: "path", Kind: Under, Values: []string{"docs"}}}},
	}, Options{Workspace: testWS})
	runDecideCases(t, s, []decideCase{
		{name: "one-of match", identity: mode, args: `{"mode":"fast"}`, want: VerdictAllow, wantEffect: Idempotent},
		{name: "one-of escaped match", identity: mode, args: `{"mode":"f\u0061st"}`, want: VerdictAllow},
		{name: "one-of near miss", identity: mode, args: `{"mode":"fast "}`, want: VerdictAsk, wantReason: `"mode" is one of "fast", "safe"`},
		{name: "one-of not a string", identity: mode, args: `{"mode":true}`, want: VerdictAsk, wantReason: "not a string"},
		{name: "both hold", identity: both, args: `{"mode":"safe","dir":"/srv/x"}`, want: VerdictAllow},
		{name: "second fails", identity: both, args: `{"mode":"safe","dir":"/etc"}`, want: VerdictAsk, wantReason: `"dir" is under "/srv"`},
		{name: "block", identity: blocked, args: `{}`, want: VerdictBlock, wantEffect: Mutating, wantReason: "blocked", wantHasRule: true},
		{name: "block with bad args still blocks", identity: blocked, args: `not json`, want: VerdictBlock},
		{name: "ask rule", identity: asked, args: `{}`, want: VerdictAsk, wantEffect: Idempotent, wantReason: "ask before every call", wantHasRule: true},
		{name: "blocked write", identity: "builtin:fs_write", args: `{}`, want: VerdictBlock},
		{name: "read rule narrows the workspace", identity: "builtin:fs_read", args: `{"path":"docs/a.md"}`, want: VerdictAllow, wantHasRule: true},
		{name: "read rule outside its folder", identity: "builtin:fs_read", args: `{"path":"src/a.go"}`, want: VerdictAsk, wantHasRule: true},
		{name: "read rule cannot widen the workspace", identity: "builtin:fs_read", args: `{"path":"../docs/a.md"}`, want: VerdictAsk, wantReason: "climbs out"},
	})
}

// TestDecideInvalidStoredRules: a rule that does not validate never
// allows — a write allowed by hand, an unknown class — but a blocking one
// still blocks.
func TestDecideInvalidStoredRules(t *testing.T) {
	s := NewSnapshot([]Rule{
		{Identity: "builtin:fs_write", Class: Allow, Effect: ReadOnly},
		{Identity: testTool, Class: "always", Effect: ReadOnly},
		{Identity: "mcp:" + testServer + ":x", Class: Block, Effect: "sideways"},
	}, Options{})
	runDecideCases(t, s, []decideCase{
		{name: "write allowed by hand asks", identity: "builtin:fs_write", args: `{}`, want: VerdictAsk, wantEffect: Mutating, wantReason: "stored rule for this tool is invalid"},
		{name: "unknown class asks", identity: testTool, args: `{}`, want: VerdictAsk, wantEffect: Mutating, wantReason: "invalid"},
		{name: "invalid block blocks", identity: "mcp:" + testServer + ":x", args: `{}`, want: VerdictBlock},
	})
	if got := s.Effect(testTool, ""); got != Mutating {
		t.Errorf("Effect of an invalid rule: got %s, want mutating", got)
	}
}

// TestEffect: the reviewed effect, never a claim — the rule's, ReadOnly
// for the built-in reads, Mutating for the rest (SPEC B7, D1).
func TestEffect(t *testing.T) {
	s := NewSnapshot([]Rule{
		{Identity: testTool, Class: Ask, Effect: Idempotent},
		{Identity: "mcp:" + testServer + ":ro", Class: Block, Effect: ReadOnly},
	}, Options{})
	for _, tc := range []struct {
		identity string
		want     Effect
	}{
		{testTool, Idempotent},
		{"mcp:" + testServer + ":ro", ReadOnly},
		{"mcp:" + testServer + ":unknown", Mutating},
		{"builtin:fs_read", ReadOnly},
		{"builtin:fs_list", ReadOnly},
		{"builtin:fs_search", ReadOnly},
		{"builtin:fs_write", Mutating},
		{"", Mutating},
	} {
		t.Run(tc.identity, func(t *testing.T) {
			if got := s.Effect(tc.identity, ""); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestAskEverything: the fallback when rules cannot be read asks for every
// call, built-in reads included, and calls every effect mutating.
func TestAskEverything(t *testing.T) {
	s := AskEverything("vouch could not read its policy (disk full), so every call asks.")
	for _, id := range []string{"builtin:fs_read", testTool} {
		d := decide(s, id, `{}`)
		if d.Verdict != VerdictAsk || d.Effect != Mutating || !strings.Contains(d.Reason, "disk full") {
			t.Errorf("%s: got %+v, want ask, mutating, the reason", id, d)
		}
		if got := s.Effect(id, ""); got != Mutating {
			t.Errorf("%s effect: got %s, want mutating", id, got)
		}
	}
	if d := decide(AskEverything(""), testTool, `{}`); d.Verdict != VerdictAsk || d.Reason == "" {
		t.Errorf("empty reason: got %+v, want ask with a default reason", d)
	}
}

// TestSnapshotIsFrozen: changing the rules handed in, or the rule handed
// out, changes no later decision.
func TestSnapshotIsFrozen(t *testing.T) {
	rules := []Rule{underRule("/srv/data")}
	s := NewSnapshot(rules, Options{})
	rules[0].Constraints[0].Values[0] = "/"
	rules[0].Class = Block
	d := decide(s, testTool, `{"path":"/srv/data/x"}`)
	if d.Verdict != VerdictAllow {
		t.Fatalf("after editing the input: got %s, want allow", d.Verdict)
	}
	d.Rule.Constraints[0].Values[0] = "/"
	if r, _ := s.Rule(testTool); r.Constraints[0].Values[0] != "/srv/data" {
		t.Errorf("after editing a decision's rule: got %q, want /srv/data", r.Constraints[0].Values[0])
	}
	if d := decide(s, testTool, `{"path":"/etc"}`); d.Verdict != VerdictAsk {
		t.Errorf("after editing a decision's rule: got %s for /etc, want ask", d.Verdict)
	}
}

// TestDecideConcurrent: one snapshot, many goroutines (run with -race).
func TestDecideConcurrent(t *testing.T) {
	s := NewSnapshot([]Rule{underRule("/srv/data")}, Options{Workspace: testWS})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 200 {
				want := VerdictAllow
				args := `{"path":"/srv/data/x"}`
				if i%2 == 1 {
					want, args = VerdictAsk, `{"path":"/etc"}`
				}
				if d := decide(s, testTool, args); d.Verdict != want {
					t.Errorf("got %s, want %s", d.Verdict, want)
					return
				}
				_ = s.Effect(testTool, "")
			}
		})
	}
	wg.Wait()
}

// TestSummary words classifications for listings, class first.
func TestSummary(t *testing.T) {
	s := NewSnapshot([]Rule{underRule("/srv/data"), {Identity: "mcp:" + testServer + ":b", Class: Block, Effect: Mutating}}, Options{})
	for _, tc := range []struct{ identity, want string }{
		{testTool, `allow (your rule: "path" is under "/srv/data")`},
		{"mcp:" + testServer + ":b", "block (your rule)"},
		{"mcp:" + testServer + ":new", "ask (default for a new external tool)"},
		{"builtin:fs_read", "allow (built-in, read-only, inside the workspace)"},
		{"builtin:fs_write", "ask (built-in that writes; always asks)"},
	} {
		if got := s.Summary(tc.identity, ""); got != tc.want {
			t.Errorf("Summary(%s): got %q, want %q", tc.identity, got, tc.want)
		}
	}
}
