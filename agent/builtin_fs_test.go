package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"vouch/tool"
)

// newTestWorkspace builds a workspace with escape hazards next to it and
// returns its tools by wire name.
func newTestWorkspace(t *testing.T) (string, map[string]tool.Tool) {
	t.Helper()
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "hello\nworld\n")
	write("sub/b.go", "package b\nfunc Hello() {}\n")
	write("bin.dat", "\x00\x01\x02binary")
	write(".git/config", "hello from git\n")
	var big strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	write("big.txt", big.String())
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte("hello secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"link_etc":        "/etc",
		"link_passwd":     "/etc/passwd",
		"link_rel_escape": "../secret.txt",
		"link_inside":     "a.txt",
		"link_subdir":     "sub",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return ws, openTools(t, ws, (*Workspace).Tools)
}

// openTools opens the workspace at ws for the test and returns the tools
// set picks from it, by bare name.
func openTools(t *testing.T, ws string, set func(*Workspace) []tool.Tool) map[string]tool.Tool {
	t.Helper()
	w, err := OpenWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	tools := map[string]tool.Tool{}
	for _, tool := range set(w) {
		tools[strings.TrimPrefix(tool.Def().Identity, "builtin:")] = tool
	}
	return tools
}

func TestWorkspaceTools(t *testing.T) {
	ws, tools := newTestWorkspace(t)
	tests := []struct {
		name    string
		tool    string
		args    string
		wantErr bool
		want    []string // substrings of the result
		notWant []string
	}{
		{name: "read a file", tool: "fs_read", args: `{"path":"a.txt"}`, want: []string{"hello\nworld\n"}},
		{name: "read through an inner ..", tool: "fs_read", args: `{"path":"sub/../a.txt"}`, want: []string{"hello"}},
		{name: "read an absolute path inside", tool: "fs_read", args: `{"path":` + quoteJSON(filepath.Join(ws, "a.txt")) + `}`, want: []string{"hello"}},
		{name: "read a symlink inside", tool: "fs_read", args: `{"path":"link_inside"}`, want: []string{"world"}},
		{name: "read ../ escape", tool: "fs_read", args: `{"path":"../secret.txt"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"secret\n"}},
		{name: "read nested ../ escape", tool: "fs_read", args: `{"path":"sub/../../secret.txt"}`, wantErr: true, want: []string{"outside the workspace"}},
		{name: "read absolute path outside", tool: "fs_read", args: `{"path":"/etc/passwd"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"root:"}},
		{name: "read symlink to /etc/passwd", tool: "fs_read", args: `{"path":"link_passwd"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"root:"}},
		{name: "read through symlinked dir to /etc", tool: "fs_read", args: `{"path":"link_etc/passwd"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"root:"}},
		{name: "read relative symlink escape", tool: "fs_read", args: `{"path":"link_rel_escape"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"secret"}},
		{name: "read binary", tool: "fs_read", args: `{"path":"bin.dat"}`, want: []string{"bin.dat is a binary file (9 B)"}, notWant: []string{"binary\x00"}},
		{name: "read a directory", tool: "fs_read", args: `{"path":"sub"}`, wantErr: true, want: []string{"is a directory; use fs_list"}},
		{name: "read a missing file", tool: "fs_read", args: `{"path":"nope.txt"}`, wantErr: true, want: []string{"no such file"}},
		{name: "read without a path", tool: "fs_read", args: `{}`, wantErr: true, want: []string{"path is required"}},
		{name: "read wrong argument type", tool: "fs_read", args: `{"path":7}`, wantErr: true, want: []string{"do not match the tool's parameters"}},
		{name: "read in parts", tool: "fs_read", args: `{"path":"big.txt","max_lines":3,"start_line":10}`,
			want: []string{"line 10\nline 11\nline 12\n[… more lines follow; call fs_read with start_line=13 to continue]"}, notWant: []string{"line 9\n"}},
		{name: "read bounded", tool: "fs_read", args: `{"path":"big.txt","max_lines":100000}`, want: []string{"line 1\n", "call fs_read with start_line="}, notWant: []string{"line 3000\n"}},
		{name: "read past the end", tool: "fs_read", args: `{"path":"a.txt","start_line":5}`, wantErr: true, want: []string{"has only 2 lines"}},

		{name: "list root", tool: "fs_list", args: `{}`, want: []string{"a.txt  12 B\n", "sub/\n", "link_etc@ (symbolic link)\n"}, notWant: []string{"root:"}},
		{name: "list depth 2", tool: "fs_list", args: `{"path":".","depth":2}`, want: []string{"sub/\n  b.go"}, notWant: []string{"config"}},
		{name: "list symlinked dir to /etc", tool: "fs_list", args: `{"path":"link_etc"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"passwd"}},
		{name: "list symlinked dir inside", tool: "fs_list", args: `{"path":"link_subdir"}`, want: []string{"b.go"}},
		{name: "list parent", tool: "fs_list", args: `{"path":"../"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"secret"}},
		{name: "list absolute outside", tool: "fs_list", args: `{"path":"/etc"}`, wantErr: true, want: []string{"outside the workspace"}},

		{name: "search case-insensitive", tool: "fs_search", args: `{"pattern":"hello"}`, want: []string{"a.txt:1: hello\n", "sub/b.go:2: func Hello() {}\n"},
			notWant: []string{"secret", ".git", "root:"}},
		{name: "search case-sensitive", tool: "fs_search", args: `{"pattern":"hello","case_sensitive":true}`, want: []string{"a.txt:1: hello"}, notWant: []string{"b.go"}},
		{name: "search regex", tool: "fs_search", args: `{"pattern":"^func","regex":true}`, want: []string{"sub/b.go:2:"}},
		{name: "search literal metacharacters", tool: "fs_search", args: `{"pattern":"Hello()"}`, want: []string{"sub/b.go:2:"}},
		{name: "search result cap", tool: "fs_search", args: `{"pattern":"line","max_results":2}`, want: []string{"[stopped at 2 matches"}},
		{name: "search no match", tool: "fs_search", args: `{"pattern":"zebra"}`, want: []string{`no matches for "zebra"`}},
		{name: "search bad regex", tool: "fs_search", args: `{"pattern":"(","regex":true}`, wantErr: true, want: []string{"not a valid regular expression"}},
		{name: "search outside", tool: "fs_search", args: `{"pattern":"hello","path":"../"}`, wantErr: true, want: []string{"outside the workspace"}, notWant: []string{"secret"}},
		{name: "search symlinked dir to /etc", tool: "fs_search", args: `{"pattern":"root","path":"link_etc"}`, wantErr: true, notWant: []string{"root:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tools[tt.tool].Call(context.Background(), json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.wantErr {
				t.Errorf("got IsError=%v, want %v (result %.300q)", res.IsError, tt.wantErr, res.Text)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("got %.300q, want it to contain %q", res.Text, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(res.Text, w) {
					t.Errorf("got %.300q, want it not to contain %q", res.Text, w)
				}
			}
			if len(res.Text) > fsMaxReadBytes+200 {
				t.Errorf("got %d bytes, want output bounded near %d", len(res.Text), fsMaxReadBytes)
			}
		})
	}
}

func TestWorkspaceToolDefs(t *testing.T) {
	_, tools := newTestWorkspace(t)
	ids := []string{}
	for _, tool := range tools {
		def := tool.Def()
		ids = append(ids, def.Identity)
		var schema map[string]any
		if err := json.Unmarshal(def.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: got schema %s (%v), want a JSON-schema object", def.Identity, def.Parameters, err)
		}
	}
	wire, err := tool.WireNames(ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fs_list", "fs_read", "fs_search"} {
		if _, ok := wire[name]; !ok {
			t.Errorf("got wire names %v, want %s", wire, name)
		}
	}
}

func TestWorkspaceCancelled(t *testing.T) {
	_, tools := newTestWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tools["fs_search"].Call(ctx, json.RawMessage(`{"pattern":"x"}`)); err == nil {
		t.Error("got no error from a cancelled call, want ctx.Err()")
	}
}

func quoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
