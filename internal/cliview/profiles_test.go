package cliview

import (
	"strings"
	"testing"
	"time"

	"vouch/workflow"
)

func TestProfileListAndShow(t *testing.T) {
	if got := ProfileList(nil); !strings.HasPrefix(got, "no profiles; create one with") {
		t.Fatalf("empty list = %q", got)
	}
	temp := 0.2
	p := workflow.Profile{Name: "night" + hostile, Revision: 2, Definition: "role", DefinitionRevision: 4,
		Updated: time.Date(2026, 3, 1, 9, 30, 0, 0, time.Local), Temperature: &temp, ToolBudget: 0.25,
		Tools: []string{"builtin:fs_read"}}
	list := ProfileList([]workflow.Profile{p})
	if !strings.HasPrefix(list, "NAME ") || !strings.Contains(list, "  2         role  ") {
		t.Fatalf("ProfileList =\n%s", list)
	}
	assertNeutral(t, list)
	got := Profile(p)
	for _, want := range []string{
		"definition   role (revision 4)\n",
		"model        the chat's model\n",
		"temperature  0.2\n",
		"tool budget  25% of the window\n",
		"workspace    the folder vouch runs in\n",
		"tools        builtin:fs_read\n",
		"skills       none\n",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("Profile lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "precedence") || strings.Contains(got, "schedule") {
		t.Fatalf("a profile without skills or schedule shows them:\n%s", got)
	}
	assertNeutral(t, got)
}

func TestDefinitionListOrigin(t *testing.T) {
	if got := DefinitionList(nil); got != "no definitions; add one with: vouch definition add FILE.json\n" {
		t.Fatalf("empty list = %q", got)
	}
	got := DefinitionList([]workflow.Definition{{Name: "d" + hostile, Kind: "role", Revision: 1, Origin: "skill x", EditedByPerson: true}, {Name: "e", Kind: "flow", Revision: 2}})
	if !strings.Contains(got, "skill x (edited)\n") || !strings.HasSuffix(got, "  person\n") {
		t.Fatalf("DefinitionList =\n%s", got)
	}
	assertNeutral(t, got)
}
