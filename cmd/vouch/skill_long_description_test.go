package main

import (
	"encoding/json"
	"strings"
	"testing"

	"vouch/skills/skilltest"
)

// TestSkillLongDescriptionInstallsWithAFinding (SPEC G4, G6; issue 28 item
// 21): a package whose description is longer than the Agent Skills
// specification's 1,024 characters — anthropics/skills' claude-api ships
// one of 1,068 — previews and installs with a low spec-limit finding that
// names both figures, keeps its description whole, and needs no
// acceptance; one beyond 4,096 characters is still refused (the
// rejections table).
func TestSkillLongDescriptionInstallsWithAFinding(t *testing.T) {
	state := t.TempDir()
	desc := strings.Repeat("Build apps with the API; ", 50)[:1068]
	pkg := skilltest.WriteTree(t, map[string]string{"SKILL.md": "---\nname: claude-api\ndescription: " + desc + "\n---\nUse the API.\n"})
	out, _ := cli(t, state, "", exitOK, "skill", "preview", pkg, "--json")
	var prev struct {
		Findings []struct {
			ID, Rule, Severity, Detail string
			Line                       int
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &prev); err != nil {
		t.Fatalf("skill preview --json: %v\n%s", err, out)
	}
	found := false
	for _, f := range prev.Findings {
		if f.Rule == "spec-limit" {
			found = true
			if f.Severity != "low" || f.Line != 3 || !strings.Contains(f.Detail, "1068 characters") || !strings.Contains(f.Detail, "1024") {
				t.Errorf("the finding is %+v, want a low one on line 3 naming 1068 and 1024", f)
			}
		}
	}
	if !found {
		t.Fatalf("no spec-limit finding in the preview:\n%s", out)
	}
	cli(t, state, "", exitOK, "skill", "install", pkg)
	list, _ := cli(t, state, "", exitOK, "skill", "list", "--json")
	if !strings.Contains(list, `"claude-api"`) {
		t.Fatalf("the package did not install:\n%s", list)
	}
}
