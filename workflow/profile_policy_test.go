package workflow

import "testing"

// TestPolicySkillsValidate: a policy skill must be a local skill the
// profile enables; a server skill ("<label>/<name>") is never policy (SPEC
// I6).
func TestPolicySkillsValidate(t *testing.T) {
	base := Profile{Name: "p", Definition: "d", Skills: []string{"house-rules", "acme/refunds"}}
	for _, c := range []struct {
		name   string
		policy []string
		ok     bool
	}{
		{"none", nil, true},
		{"enabled local", []string{"house-rules"}, true},
		{"not enabled", []string{"other"}, false},
		{"server skill", []string{"acme/refunds"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := base
			p.PolicySkills = c.policy
			if err := p.Validate(); (err == nil) != c.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, c.ok)
			}
		})
	}
}
