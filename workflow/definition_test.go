package workflow

import (
	"reflect"
	"testing"
)

// TestCloneIsDeep: editing every slice and pointer of the original leaves
// the clone as it was (SPEC H4: a run keeps its frozen definition).
func TestCloneIsDeep(t *testing.T) {
	defs := []Definition{
		{Name: "r", Kind: KindRole, Role: &Role{Instructions: "i", PreferredTools: []string{"builtin:a"}}},
		{Name: "f", Kind: KindFlow, Flow: &Flow{Steps: []Step{{Name: "s", Instructions: "i", Tools: []string{"builtin:a"}}}}},
		{Name: "s", Kind: KindSubagents, Subagents: &Subagents{Lead: Part{Instructions: "l", Tools: []string{"builtin:a"}},
			Helpers: []Part{{Name: "h", Instructions: "i", Tools: []string{"builtin:a"}}}}},
	}
	for _, d := range defs {
		c := d.Clone()
		if !reflect.DeepEqual(c, d) {
			t.Fatalf("%s: clone differs: %+v", d.Name, c)
		}
		switch d.Kind {
		case KindRole:
			d.Role.Instructions, d.Role.PreferredTools[0] = "x", "builtin:x"
		case KindFlow:
			d.Flow.Steps[0].Instructions, d.Flow.Steps[0].Tools[0] = "x", "builtin:x"
		case KindSubagents:
			d.Subagents.Lead.Tools[0], d.Subagents.Helpers[0].Instructions, d.Subagents.Helpers[0].Tools[0] = "builtin:x", "x", "builtin:x"
		}
		if reflect.DeepEqual(c, d) {
			t.Errorf("%s: editing the original changed the clone", d.Name)
		}
		if err := c.Validate(); err != nil || containsX(c) {
			t.Errorf("%s: clone %+v changed (%v)", d.Name, c, err)
		}
	}
}

func containsX(d Definition) bool {
	switch {
	case d.Role != nil:
		return d.Role.Instructions == "x" || d.Role.PreferredTools[0] == "builtin:x"
	case d.Flow != nil:
		return d.Flow.Steps[0].Instructions == "x" || d.Flow.Steps[0].Tools[0] == "builtin:x"
	default:
		return d.Subagents.Lead.Tools[0] == "builtin:x" || d.Subagents.Helpers[0].Tools[0] == "builtin:x"
	}
}
