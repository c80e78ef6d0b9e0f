package skills

import (
	"reflect"
	"strings"
	"testing"
)

const roleDef = `{"name": "pdf-reviewer", "kind": "role", "description": "Reviews PDFs", "role": {"instructions": "Review the PDF.", "preferred_tools": ["builtin:fs_read"]}}`

func sidecarPkg(t *testing.T, sidecarJSON string) (*Package, error) {
	return importPath(t, folder(t, skillMD(minimalSkill+"\nAlso see references/extra.md.\n"), guide,
		member{name: "references/extra.md", body: "extra\n"},
		member{name: "scripts/run.sh", body: "echo\n"},
		member{name: SidecarName, body: sidecarJSON}))
}

func TestSidecar(t *testing.T) {
	p, err := sidecarPkg(t, `{"format": 1, "requested_tools": ["builtin:fs_read", "builtin:fs_list", "builtin:fs_read"], "resources": ["./references/extra.md"], "definitions": [`+roleDef+`]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Resources, []string{"references/extra.md"}) {
		t.Errorf("resources %v: the sidecar's list replaces the linked files", p.Resources)
	}
	if !reflect.DeepEqual(p.RequestedTools, []string{"builtin:fs_list", "builtin:fs_read"}) {
		t.Errorf("requested tools %v", p.RequestedTools)
	}
	if len(p.Definitions) != 1 || p.Definitions[0].Name != "pdf-reviewer" || p.Definitions[0].Origin != "skill:demo@"+p.SHA256 {
		t.Errorf("definitions %+v", p.Definitions)
	}
	if keptFile(p, SidecarName) == nil {
		t.Error("the sidecar is part of the package digest and should be kept")
	}
}

func TestSidecarRejections(t *testing.T) {
	cases := []struct{ name, json, want string }{
		{"unknown field", `{"format": 1, "hooks": ["x"]}`, "documented shape"},
		{"not JSON", `format = 1`, "not valid JSON"},
		{"trailing data", `{"format": 1} {}`, "after its closing brace"},
		{"wrong format", `{"format": 2}`, "format 2"},
		{"command tool", `{"format": 1, "requested_tools": ["bash"]}`, `"bash"`},
		{"MCP tool", `{"format": 1, "requested_tools": ["mcp:srv:tool"]}`, "not a built-in tool"},
		{"resource excluded", `{"format": 1, "resources": ["scripts/run.sh"]}`, "not a kept text file"},
		{"resource missing", `{"format": 1, "resources": ["nope.md"]}`, "not a kept text file"},
		{"resource escapes", `{"format": 1, "resources": ["../x.md"]}`, "not a kept text file"},
		{"invalid definition", `{"format": 1, "definitions": [{"name": "Bad Name", "kind": "role", "role": {"instructions": "x"}}]}`, "definition 1 is invalid"},
		{"definition claims the person", `{"format": 1, "definitions": [{"name": "r", "kind": "role", "origin": "person", "role": {"instructions": "x"}}]}`, "only vouch records"},
		{"definition edited flag", `{"format": 1, "definitions": [{"name": "r", "kind": "role", "edited_by_person": true, "role": {"instructions": "x"}}]}`, "only vouch records"},
		{"duplicate definition", `{"format": 1, "definitions": [` + roleDef + `,` + roleDef + `]}`, "twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sidecarPkg(t, tc.json)
			wantRejection(t, err, SidecarName, tc.want)
		})
	}
}

func TestBuiltinFor(t *testing.T) {
	cases := map[string]string{
		"Read": "builtin:fs_read", "Write": "builtin:fs_write", "Edit": "builtin:fs_edit", "MultiEdit": "builtin:fs_edit",
		"Grep": "builtin:fs_search", "Glob": "builtin:fs_list", "LS": "builtin:fs_list", "Read(./docs/**)": "builtin:fs_read",
		"builtin:fs_search": "builtin:fs_search", " read ": "builtin:fs_read",
		"Bash": "", "Bash(git:*)": "", "Bash(git add:*)": "", "WebFetch": "", "mcp__github__create_issue": "", "builtin:shell": "", "": "",
	}
	for in, want := range cases {
		got, ok := BuiltinFor(in)
		if got != want && !(want == "" && !ok) || ok != (want != "") {
			t.Errorf("BuiltinFor(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// allowed-tools never widens into commands: unmapped names are warnings.
func TestAllowedToolsWithoutSidecar(t *testing.T) {
	doc := strings.Replace(minimalSkill, "---\n#", "allowed-tools: Read Write Bash(rm:*) WebFetch\n---\n#", 1)
	p := mustImport(t, folder(t, skillMD(doc), guide))
	if !reflect.DeepEqual(p.RequestedTools, []string{"builtin:fs_read", "builtin:fs_write"}) {
		t.Errorf("requested %v", p.RequestedTools)
	}
	w := strings.Join(p.Warnings, "\n")
	if !strings.Contains(w, `"Bash(rm:*)"`) || !strings.Contains(w, `"WebFetch"`) {
		t.Errorf("warnings %q", w)
	}
}
