package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"vouch/tool"
)

// readFixture is one skill with three declared files and, in the same
// blob store, files the manifest does not declare.
func readFixture() (*skillState, map[string]string) {
	blobs := newMemBlobs()
	declared := map[string]string{
		"SKILL.md":            "DECLARED-0 instructions",
		"references/guide.md": "DECLARED-1 guide",
		"notes.txt":           "DECLARED-2 notes",
	}
	s := tool.FrozenSkill{Name: "s", Origin: "local", Instructions: blobs.put("SKILL.md", declared["SKILL.md"]),
		Resources: []tool.FrozenFile{blobs.put("references/guide.md", declared["references/guide.md"]), blobs.put("./notes.txt", declared["notes.txt"])}}
	for _, p := range []string{"secret.txt", "references/hidden.md", "../etc/passwd", "/etc/passwd"} {
		blobs.put(p, "UNDECLARED "+p)
	}
	f, err := freezeWorkflow(WorkflowSpec{Definition: roleDef("r"), Skills: []tool.FrozenSkill{s}, Blobs: blobs, SkillBytesPerRun: 1 << 30})
	if err != nil {
		panic(err)
	}
	return newSkillState(f), declared
}

// checkRead asserts the SPEC H5 property for one requested path: a result
// is either "not found" or exactly the declared file the path cleans to;
// undeclared content never appears.
func checkRead(t *testing.T, st *skillState, declared map[string]string, p string) {
	args, err := json.Marshal(map[string]string{"name": "s", "path": p})
	if err != nil {
		t.Skip("not representable as JSON")
	}
	res := st.read(args)
	if strings.Contains(res.Text, "UNDECLARED") {
		t.Fatalf("path %q returned undeclared content: %q", p, res.Text)
	}
	want, isDeclared := declared[cleanSkillPath(p)]
	if res.IsError {
		if isDeclared {
			t.Fatalf("declared path %q refused: %q", p, res.Text)
		}
		return
	}
	if !isDeclared {
		t.Fatalf("path %q (cleaned %q) is not declared but returned %q", p, cleanSkillPath(p), res.Text)
	}
	if !strings.HasSuffix(res.Text, "\n"+want) {
		t.Fatalf("path %q returned %q, want the declared file %q", p, res.Text, want)
	}
	for other, content := range declared {
		if other != cleanSkillPath(p) && strings.Contains(res.Text, content) {
			t.Fatalf("path %q also returned %q", p, other)
		}
	}
}

var readSeeds = []string{
	"references/guide.md", "./references/guide.md", "references//guide.md", `references\guide.md`, " notes.txt ",
	"notes.txt", "./notes.txt", "SKILL.md", "secret.txt", "references/hidden.md", "../etc/passwd", "/etc/passwd",
	"references/../secret.txt", "references/../notes.txt", "/references/guide.md", "REFERENCES/guide.md", "%2e%2e/secret.txt",
	"references/guide.md/", "references/guide.md\x00", "", ".", "..", "references", "notes.txt/../secret.txt",
}

// TestSkillReadPaths covers SPEC H5: only declared files are ever read;
// traversal, absolute paths, undeclared files and case tricks are "not
// found", and the refusal names only the declared files.
func TestSkillReadPaths(t *testing.T) {
	st, declared := readFixture()
	for _, p := range readSeeds {
		t.Run(p, func(t *testing.T) { checkRead(t, st, declared, p) })
	}
	res := st.read(json.RawMessage(`{"name":"s","path":"secret.txt"}`))
	if !res.IsError || !strings.Contains(res.Text, `"SKILL.md", "references/guide.md", "notes.txt"`) || strings.Contains(res.Text, "hidden") {
		t.Errorf("refusal = %q, want the declared files only", res.Text)
	}
}

// FuzzSkillReadPath: for any path the model sends, skill_read returns a
// declared file or "not found", never anything undeclared (SPEC H5).
func FuzzSkillReadPath(f *testing.F) {
	for _, p := range readSeeds {
		f.Add(p)
	}
	st, declared := readFixture()
	f.Fuzz(func(t *testing.T, p string) { checkRead(t, st, declared, p) })
}

// TestSkillServeOffsets: a long file is read in per-call pieces that join
// to the whole text, on UTF-8 boundaries, each saying how to continue.
func TestSkillServeOffsets(t *testing.T) {
	blobs := newMemBlobs()
	text := strings.Repeat("héllo wörld ", 40)
	s := tool.FrozenSkill{Name: "s", Origin: "local", Instructions: blobs.put("SKILL.md", text)}
	f, err := freezeWorkflow(WorkflowSpec{Definition: roleDef("r"), Skills: []tool.FrozenSkill{s}, Blobs: blobs, SkillBytesPerCall: 7})
	if err != nil {
		t.Fatal(err)
	}
	st := newSkillState(f)
	var got strings.Builder
	offset := 0
	for range 200 {
		args, _ := json.Marshal(map[string]any{"name": "s", "offset": offset})
		res := st.load(args)
		if res.IsError {
			t.Fatalf("offset %d: %s", offset, res.Text)
		}
		_, body, _ := strings.Cut(res.Text, ":\n")
		chunk, note, more := strings.Cut(body, "\n[… ")
		got.WriteString(chunk)
		if !more {
			break
		}
		if !strings.Contains(note, "one call returns at most 7 bytes") {
			t.Fatalf("note %q", note)
		}
		offset += len(chunk)
	}
	if got.String() != text {
		t.Errorf("pieces joined to %q, want %q", got.String(), text)
	}
	for _, bad := range []string{`{"name":"s","offset":-1}`, `{"name":"s","offset":"x"}`, `{"name":"s","offset":100000}`} {
		if res := st.load(json.RawMessage(bad)); !res.IsError {
			t.Errorf("%s: %q, want an error", bad, res.Text)
		}
	}
}
