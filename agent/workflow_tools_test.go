package agent

import (
	"strings"
	"testing"

	"vouch/workflow"
)

// TestWorkflowTools: a run adds skill_load and skill_read only when it has
// enabled skills, and delegate (naming the helpers) only for a Subagents
// lead; each is counted as its entry in a request (SPEC H5, F1).
func TestWorkflowTools(t *testing.T) {
	role := workflow.Definition{Name: "r", Kind: workflow.KindRole, Role: &workflow.Role{Instructions: "x"}}
	sub := workflow.Definition{Name: "s", Kind: workflow.KindSubagents, Subagents: &workflow.Subagents{
		Lead: workflow.Part{Instructions: "lead"}, Helpers: []workflow.Part{{Name: "finder", Instructions: "find"}}}}
	wires := func(ts []WorkflowTool) string {
		var w []string
		for _, t := range ts {
			if t.Tokens <= 0 {
				return "zero tokens for " + t.Wire
			}
			w = append(w, t.Wire)
		}
		return strings.Join(w, " ")
	}
	for _, c := range []struct {
		def    workflow.Definition
		skills int
		want   string
	}{
		{role, 0, ""},
		{role, 2, "skill_load skill_read"},
		{sub, 0, "delegate"},
		{sub, 1, "skill_load skill_read delegate"},
	} {
		if got := wires(WorkflowTools(c.def, c.skills, nil)); got != c.want {
			t.Errorf("%s with %d skills: %q, want %q", c.def.Kind, c.skills, got, c.want)
		}
	}
	del := WorkflowTools(sub, 0, nil)[0]
	if !strings.Contains(string(del.Def.Parameters), `"enum":["finder"]`) {
		t.Errorf("delegate does not name the helpers: %s", del.Def.Parameters)
	}
}
