package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/policy"
	"vouch/tool"
)

// newWriteWorkspace builds newTestWorkspace's tree (escape hazards next to
// it) and returns its directory and the write tools by wire name.
func newWriteWorkspace(t *testing.T) (string, map[string]tool.Tool) {
	t.Helper()
	ws, _ := newTestWorkspace(t)
	return ws, openTools(t, ws, (*Workspace).WriteTools)
}

// readFile returns a file's content, or "<missing>".
func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "<missing>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWriteTools(t *testing.T) {
	big := `"` + strings.Repeat("x", fsMaxWriteBytes+1) + `"`
	tests := []struct {
		name    string
		tool    string
		args    string // %WS% is the workspace directory
		wantErr bool
		want    string            // a substring of the result
		files   map[string]string // path (relative to the workspace's parent) → content after
	}{
		{name: "create a file", tool: "fs_write", args: `{"path":"new.txt","content":"one\ntwo\n"}`,
			want: "created new.txt (2 lines, 8 B)", files: map[string]string{"ws/new.txt": "one\ntwo\n"}},
		{name: "create parent directories", tool: "fs_write", args: `{"path":"deep/er/x.txt","content":"x"}`,
			want: "created deep/er/x.txt", files: map[string]string{"ws/deep/er/x.txt": "x"}},
		{name: "replace a file", tool: "fs_write", args: `{"path":"a.txt","content":"bye\n"}`,
			want: "replaced a.txt (1 lines, 4 B)", files: map[string]string{"ws/a.txt": "bye\n"}},
		{name: "write an absolute path inside", tool: "fs_write", args: `{"path":"%WS%/sub/c.txt","content":"c"}`,
			want: "created sub/c.txt", files: map[string]string{"ws/sub/c.txt": "c"}},
		{name: "write through a symlinked directory inside", tool: "fs_write", args: `{"path":"link_subdir/d.txt","content":"d"}`,
			want: "created link_subdir/d.txt", files: map[string]string{"ws/sub/d.txt": "d"}},
		{name: "write an empty file", tool: "fs_write", args: `{"path":"empty.txt","content":""}`,
			want: "created empty.txt (0 lines, 0 B)", files: map[string]string{"ws/empty.txt": ""}},
		{name: "write ../ escape", tool: "fs_write", args: `{"path":"../secret.txt","content":"pwned"}`,
			wantErr: true, want: "outside the workspace", files: map[string]string{"secret.txt": "hello secret\n"}},
		{name: "write nested ../ escape", tool: "fs_write", args: `{"path":"sub/../../secret.txt","content":"pwned"}`,
			wantErr: true, want: "outside the workspace", files: map[string]string{"secret.txt": "hello secret\n"}},
		{name: "write absolute path outside", tool: "fs_write", args: `{"path":"%WS%/../evil.txt","content":"pwned"}`,
			wantErr: true, want: "outside the workspace", files: map[string]string{"evil.txt": "<missing>"}},
		{name: "write through a symlinked directory to /etc", tool: "fs_write", args: `{"path":"link_etc/vouch-must-not-exist","content":"x"}`,
			wantErr: true, want: "outside the workspace"},
		{name: "write a symlink that escapes", tool: "fs_write", args: `{"path":"link_rel_escape","content":"pwned"}`,
			wantErr: true, want: "is a symbolic link", files: map[string]string{"secret.txt": "hello secret\n"}},
		{name: "write a symlink inside", tool: "fs_write", args: `{"path":"link_inside","content":"x"}`,
			wantErr: true, want: "is a symbolic link", files: map[string]string{"ws/a.txt": "hello\nworld\n"}},
		{name: "write into .git", tool: "fs_write", args: `{"path":".git/hooks/pre-commit","content":"#!/bin/sh\n"}`,
			wantErr: true, want: "does not write inside .git", files: map[string]string{"ws/.git/hooks/pre-commit": "<missing>"}},
		{name: "write into .GIT", tool: "fs_write", args: `{"path":"sub/.GIT/config","content":"x"}`,
			wantErr: true, want: "does not write inside .git"},
		{name: "write a directory", tool: "fs_write", args: `{"path":"sub","content":"x"}`, wantErr: true, want: "sub is a directory"},
		{name: "write the root", tool: "fs_write", args: `{"path":".","content":"x"}`, wantErr: true, want: "names the workspace itself"},
		{name: "replace a binary file", tool: "fs_write", args: `{"path":"bin.dat","content":"x"}`,
			wantErr: true, want: "not a UTF-8 text file", files: map[string]string{"ws/bin.dat": "\x00\x01\x02binary"}},
		{name: "content with NUL", tool: "fs_write", args: `{"path":"n.txt","content":"a\u0000b"}`,
			wantErr: true, want: "content contains a NUL byte", files: map[string]string{"ws/n.txt": "<missing>"}},
		{name: "content not UTF-8", tool: "fs_write", args: "{\"path\":\"n.txt\",\"content\":\"a\xffb\"}",
			wantErr: true, want: "content is not valid UTF-8", files: map[string]string{"ws/n.txt": "<missing>"}},
		{name: "content over 1 MiB", tool: "fs_write", args: `{"path":"n.txt","content":` + big + `}`,
			wantErr: true, want: "fs_write writes at most 1.0 MiB", files: map[string]string{"ws/n.txt": "<missing>"}},
		{name: "path with a newline", tool: "fs_write", args: `{"path":"x\n+++ b/a.txt","content":"x"}`,
			wantErr: true, want: "control or invisible character"},
		{name: "path with a bidi override", tool: "fs_write", args: `{"path":"txt.\u202eexe","content":"x"}`,
			wantErr: true, want: "control or invisible character"},
		{name: "no path", tool: "fs_write", args: `{"path":"","content":"x"}`, wantErr: true, want: "path is required"},
		{name: "missing content", tool: "fs_write", args: `{"path":"n.txt"}`, wantErr: true, want: `argument "content" is required`},
		{name: "null content", tool: "fs_write", args: `{"path":"n.txt","content":null}`, wantErr: true, want: `argument "content" must be a string`},
		{name: "repeated path", tool: "fs_write", args: `{"path":"a.txt","content":"x","path":"b.txt"}`,
			wantErr: true, want: `argument "path" is given twice`, files: map[string]string{"ws/a.txt": "hello\nworld\n", "ws/b.txt": "<missing>"}},
		{name: "case-folded key", tool: "fs_write", args: `{"path":"a.txt","content":"x","PATH":"b.txt"}`,
			wantErr: true, want: `unknown argument "PATH"`, files: map[string]string{"ws/b.txt": "<missing>"}},
		{name: "not an object", tool: "fs_write", args: `["a.txt"]`, wantErr: true, want: "must be a JSON object"},

		{name: "edit one occurrence", tool: "fs_edit", args: `{"path":"a.txt","old":"world","new":"there"}`,
			want: "edited a.txt: replaced 1 lines at line 2 with 1 lines", files: map[string]string{"ws/a.txt": "hello\nthere\n"}},
		{name: "edit deletes with an empty new", tool: "fs_edit", args: `{"path":"a.txt","old":"hello\n","new":""}`,
			want: "edited a.txt", files: map[string]string{"ws/a.txt": "world\n"}},
		{name: "edit finds nothing", tool: "fs_edit", args: `{"path":"a.txt","old":"World","new":"x"}`,
			wantErr: true, want: "found no occurrence of old in a.txt; read the file again", files: map[string]string{"ws/a.txt": "hello\nworld\n"}},
		{name: "edit finds several", tool: "fs_edit", args: `{"path":"big.txt","old":"line 2","new":"x"}`,
			wantErr: true, want: "found 1111 occurrences of old in big.txt; include more of the surrounding lines"},
		{name: "edit finds several in one line", tool: "fs_edit", args: `{"path":"a.txt","old":"l","new":"L"}`,
			wantErr: true, want: "found 3 occurrences"},
		{name: "edit a missing file", tool: "fs_edit", args: `{"path":"nope.txt","old":"a","new":"b"}`,
			wantErr: true, want: "nope.txt does not exist; use fs_write to create it"},
		{name: "edit with an empty old", tool: "fs_edit", args: `{"path":"a.txt","old":"","new":"b"}`, wantErr: true, want: "old is empty"},
		{name: "edit with old equal to new", tool: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"hello"}`, wantErr: true, want: "nothing would change"},
		{name: "edit outside", tool: "fs_edit", args: `{"path":"../secret.txt","old":"hello","new":"pwned"}`,
			wantErr: true, want: "outside the workspace", files: map[string]string{"secret.txt": "hello secret\n"}},
		{name: "edit through an escaping symlink", tool: "fs_edit", args: `{"path":"link_rel_escape","old":"hello","new":"pwned"}`,
			wantErr: true, want: "is a symbolic link", files: map[string]string{"secret.txt": "hello secret\n"}},
		{name: "edit a binary file", tool: "fs_edit", args: `{"path":"bin.dat","old":"binary","new":"text"}`, wantErr: true, want: "not a UTF-8 text file"},
		{name: "edit new with NUL", tool: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"\u0000"}`, wantErr: true, want: "new contains a NUL byte"},
		{name: "edit without new", tool: "fs_edit", args: `{"path":"a.txt","old":"hello"}`, wantErr: true, want: `argument "new" is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, tools := newWriteWorkspace(t)
			args := strings.ReplaceAll(tt.args, "%WS%", filepath.ToSlash(ws))
			res, err := tools[tt.tool].Call(context.Background(), json.RawMessage(args))
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.wantErr || !strings.Contains(res.Text, tt.want) {
				t.Errorf("got %q (IsError=%v), want %q (IsError=%v)", res.Text, res.IsError, tt.want, tt.wantErr)
			}
			for rel, want := range tt.files {
				if got := readFile(t, filepath.Join(filepath.Dir(ws), rel)); got != want {
					t.Errorf("%s: got %.100q, want %.100q", rel, got, want)
				}
			}
			if _, err := os.Lstat("/etc/vouch-must-not-exist"); err == nil {
				t.Fatal("a write escaped to /etc")
			}
			leftovers, err := filepath.Glob(filepath.Join(ws, "*", ".*.vouch-*.tmp"))
			if more, _ := filepath.Glob(filepath.Join(ws, ".*.vouch-*.tmp")); err != nil || len(leftovers)+len(more) > 0 {
				t.Errorf("temporary files left behind: %v %v (%v)", leftovers, more, err)
			}
		})
	}
}

// TestWritePreview: Preview shows the unified diff of the call and writes
// nothing (SPEC D3).
func TestWritePreview(t *testing.T) {
	tests := []struct {
		name, tool, args, want, wantErr string
	}{
		{name: "replace", tool: "fs_write", args: `{"path":"a.txt","content":"hello\nthere\n"}`,
			want: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n"},
		{name: "create", tool: "fs_write", args: `{"path":"sub/n.txt","content":"a\nb"}`,
			want: "--- /dev/null\n+++ b/sub/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"},
		{name: "create empty", tool: "fs_write", args: `{"path":"e.txt","content":""}`, want: "--- /dev/null\n+++ b/e.txt\n(new empty file)\n"},
		{name: "same content", tool: "fs_write", args: `{"path":"a.txt","content":"hello\nworld\n"}`, want: "(no change: a.txt already has this content)\n"},
		{name: "edit", tool: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"hi"}`,
			want: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-hello\n+hi\n world\n"},
		{name: "an error is the preview's error", tool: "fs_write", args: `{"path":"../secret.txt","content":"x"}`, wantErr: "outside the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, tools := newWriteWorkspace(t)
			got, err := tools[tt.tool].(Previewer).Preview(context.Background(), json.RawMessage(tt.args))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q (%v), want %q", got, err, tt.want)
			}
			if a := readFile(t, filepath.Join(ws, "a.txt")); a != "hello\nworld\n" {
				t.Errorf("a.txt: got %q after a preview, want it unchanged", a)
			}
			for _, p := range []string{"sub/n.txt", "e.txt"} {
				if got := readFile(t, filepath.Join(ws, p)); got != "<missing>" {
					t.Errorf("%s: a preview created it", p)
				}
			}
		})
	}
}

// TestWriteStalePreview: a call previewed against one content writes
// nothing when the file has changed since; a call never previewed (policy
// allowed it) writes.
func TestWriteStalePreview(t *testing.T) {
	for _, name := range []string{"fs_write", "fs_edit"} {
		t.Run(name, func(t *testing.T) {
			ws, tools := newWriteWorkspace(t)
			args := json.RawMessage(`{"path":"a.txt","content":"new\n"}`)
			if name == "fs_edit" {
				args = json.RawMessage(`{"path":"a.txt","old":"world","new":"there"}`)
			}
			ctx := tool.WithCorrelationID(context.Background(), "corr-1")
			if _, err := tools[name].(Previewer).Preview(ctx, args); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\nworld\nmine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := tools[name].Call(ctx, args)
			if err != nil || !res.IsError || !strings.Contains(res.Text, "a.txt changed after the person saw the preview") {
				t.Fatalf("got %+v, %v; want a refusal", res, err)
			}
			if got := readFile(t, filepath.Join(ws, "a.txt")); got != "hello\nworld\nmine\n" {
				t.Fatalf("a.txt: got %q, want the person's own change kept", got)
			}
			res, err = tools[name].Call(tool.WithCorrelationID(context.Background(), "corr-2"), args)
			if err != nil || res.IsError {
				t.Fatalf("an unpreviewed call: got %+v, %v; want it to write", res, err)
			}
		})
	}
}

// TestWriteToolsThroughRun: an fs_write or fs_edit call the policy asks
// for carries its unified diff in the ApprovalRequested; denied, the file
// is unchanged; allowed, it holds exactly the previewed result; changed by
// someone while the person looked, nothing is written (SPEC D3, D5).
func TestWriteToolsThroughRun(t *testing.T) {
	tests := []struct {
		name, wire, args string
		allow            bool
		meddle           bool // change a.txt while the person looks
		wantFile         string
		wantPreview      string
		wantResult       string
	}{
		{name: "fs_write denied", wire: "fs_write", args: `{"path":"a.txt","content":"hello\nthere\n"}`,
			wantFile: "hello\nworld\n", wantPreview: "-world\n+there\n", wantResult: "denied"},
		{name: "fs_write allowed", wire: "fs_write", args: `{"path":"a.txt","content":"hello\nthere\n"}`, allow: true,
			wantFile: "hello\nthere\n", wantPreview: "-world\n+there\n", wantResult: "replaced a.txt"},
		{name: "fs_edit allowed", wire: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"goodbye"}`, allow: true,
			wantFile: "goodbye\nworld\n", wantPreview: "-hello\n+goodbye\n", wantResult: "edited a.txt"},
		{name: "fs_edit denied", wire: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"goodbye"}`,
			wantFile: "hello\nworld\n", wantPreview: "-hello\n+goodbye\n", wantResult: "denied"},
		{name: "fs_edit allowed after the file changed", wire: "fs_edit", args: `{"path":"a.txt","old":"hello","new":"goodbye"}`,
			allow: true, meddle: true, wantFile: "hello\nworld\nmeddled\n", wantPreview: "-hello\n+goodbye\n", wantResult: "changed after the person saw the preview"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, tools := newWriteWorkspace(t)
			var req ApprovalRequested
			res := runGate(t, agenttest.Script{Turns: []agenttest.Turn{
				{Steps: []agenttest.Step{agenttest.ToolCall(0, "call_1", tt.wire, tt.args)}},
				agenttest.Reply("Done."),
			}}, RunSpec{Tools: []tool.Tool{tools["fs_write"], tools["fs_edit"]}, Decide: askFor(IdentityFSWrite, IdentityFSEdit)},
				func(_ int, r ApprovalRequested) *Decision {
					req = r
					if tt.meddle {
						if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\nworld\nmeddled\n"), 0o644); err != nil {
							t.Error(err)
						}
					}
					return &Decision{Allow: tt.allow}
				})
			if res.done.Reason != StopDone || len(res.approvals) != 1 {
				t.Fatalf("got Done %s %v and %d approval requests, want done and 1", res.done.Reason, res.done.Err, len(res.approvals))
			}
			if !strings.HasPrefix(req.Preview, "--- a/a.txt\n+++ b/a.txt\n@@ ") || !strings.Contains(req.Preview, tt.wantPreview) {
				t.Errorf("preview: got %q, want a unified diff with %q", req.Preview, tt.wantPreview)
			}
			got := readFile(t, filepath.Join(ws, "a.txt"))
			if got != tt.wantFile {
				t.Errorf("a.txt: got %q, want %q", got, tt.wantFile)
			}
			if tt.allow && !tt.meddle {
				if applied, err := applyUnified("hello\nworld\n", req.Preview); err != nil || applied != got {
					t.Errorf("the file is %q, the previewed result %q (%v); want them equal", got, applied, err)
				}
			}
			fin := eventsOf[ToolCallFinished](res.evs)
			if len(fin) != 1 || !strings.Contains(fin[0].Result, tt.wantResult) {
				t.Errorf("result: got %+v, want %q", fin, tt.wantResult)
			}
		})
	}
}

// TestWriteToolsAskUnderLocalPolicy: with vouch's real local policy, a
// write asks — with no rule, and with an allow rule stored by hand — and
// the request carries the diff (SPEC D1, D3).
func TestWriteToolsAskUnderLocalPolicy(t *testing.T) {
	tests := []struct {
		name  string
		rules []policy.Rule
	}{
		{name: "no rule"},
		{name: "an allow rule stored by hand", rules: []policy.Rule{
			{Identity: IdentityFSWrite, Class: policy.Allow, Effect: policy.ReadOnly},
			{Identity: IdentityFSEdit, Class: policy.Allow, Effect: policy.ReadOnly},
		}},
	}
	for _, tt := range tests {
		for _, call := range [][2]string{
			{"fs_write", `{"path":"a.txt","content":"x\n"}`},
			{"fs_edit", `{"path":"a.txt","old":"world","new":"x"}`},
		} {
			t.Run(tt.name+"/"+call[0], func(t *testing.T) {
				ws, tools := newWriteWorkspace(t)
				snap := policy.NewSnapshot(tt.rules, policy.Options{Workspace: ws})
				res := runGate(t, turns([][2]string{call}),
					RunSpec{Tools: []tool.Tool{tools["fs_write"], tools["fs_edit"]}, Decide: snap.Decide}, answers(false))
				if len(res.approvals) != 1 || !strings.HasPrefix(res.approvals[0].Preview, "--- a/a.txt\n") {
					t.Fatalf("got requests %+v, want one with the diff", res.approvals)
				}
				if got := readFile(t, filepath.Join(ws, "a.txt")); got != "hello\nworld\n" {
					t.Errorf("a.txt: got %q after a denial, want it unchanged", got)
				}
			})
		}
	}
}

func TestWriteToolDefs(t *testing.T) {
	_, tools := newWriteWorkspace(t)
	ids := []string{}
	for _, tool := range tools {
		def := tool.Def()
		ids = append(ids, def.Identity)
		var schema map[string]any
		if err := json.Unmarshal(def.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: got schema %s (%v), want a JSON-schema object", def.Identity, def.Parameters, err)
		}
		if !strings.Contains(def.Description, "asks them every time") {
			t.Errorf("%s: got description %q, want it to say the person is asked every time", def.Identity, def.Description)
		}
		if _, ok := tool.(Previewer); !ok {
			t.Errorf("%s is not a Previewer", def.Identity)
		}
	}
	wire, err := tool.WireNames(ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fs_write", "fs_edit"} {
		if _, ok := wire[name]; !ok {
			t.Errorf("got wire names %v, want %s", wire, name)
		}
	}
}

func BenchmarkWritePreview64KB(b *testing.B) {
	dir := b.TempDir()
	old := numbered(1, 14000)[:64<<10]
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(old), 0o644); err != nil {
		b.Fatal(err)
	}
	w, err := OpenWorkspace(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = w.Close() })
	edit := w.WriteTools()[1].(Previewer)
	args := json.RawMessage(`{"path":"f.txt","old":"\n6000\n","new":"\nsix thousand\n"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := edit.Preview(context.Background(), args); err != nil {
			b.Fatal(err)
		}
	}
}
