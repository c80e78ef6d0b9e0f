package tui

import (
	"slices"
	"strings"
	"testing"

	"vouch/tui/settings/skills"
)

// TestSkillInstallHighFindingsConfirm (SPEC G8, D7): a preview with a
// high-severity finding shows its ID and severity; i does not install but
// asks a second confirmation naming the IDs; that confirmation settles
// afresh, so a y typed at once installs nothing; a y after the quiet
// period installs with exactly those IDs accepted; esc goes back.
func TestSkillInstallHighFindingsConfirm(t *testing.T) {
	const id = "hidden-comment-1a2b3c4d"
	b := newSkillsBackend()
	b.preview.Findings = append(b.preview.Findings, skills.PreviewFinding{ID: id, File: "SKILL.md", Line: 7, Rule: "hidden-instruction",
		Severity: "high", Detail: "HTML comment with instructions", Action: "shown"})
	b.preview.MustAccept = []string{id}
	m := openSkills(t, b)
	m = previewed(t, m, "pdf.zip")
	lines := strings.Join(topModal[skills.Install](t, m).Lines(), "\n")
	if !strings.Contains(lines, "SKILL.md:7 hidden-instruction (shown), high, ID hidden-comment-") || !strings.Contains(lines, "1a2b3c4d: HTML comment") {
		t.Errorf("the preview does not show the finding's severity and ID:\n%s", lines)
	}
	m = afterQuiet(m)
	m, _ = update(m, keyRune('i'))
	if g := topModal[skills.Install](t, m).Granting(); !strings.HasPrefix(g, "accept ") {
		t.Fatalf("after i the preview grants %q, want the second confirmation", g)
	}
	if v := m.View(); !strings.Contains(v, "1 high-severity finding: hidden-comment-") || !strings.Contains(v, "1a2b3c4d") || !strings.Contains(v, "y accepts") {
		t.Fatalf("no second confirmation naming %s:\n%s", id, v)
	}
	// The confirmation just appeared: a y now is typed ahead (SPEC D7).
	m, _ = update(m, keyRune('y'))
	if g := topModal[skills.Install](t, m).Granting(); !strings.HasPrefix(g, "accept ") {
		t.Fatalf("a y typed as the confirmation appeared acted (now granting %q)", g)
	}
	// esc goes back to the preview, and i asks again.
	m, _ = update(m, keyEsc)
	if _, ok := m.modals.top().(skills.Install); !ok {
		t.Fatalf("esc at the confirmation closed the preview: top %T", m.modals.top())
	}
	// The early y held the granting keys until tab.
	m = tabQuiet(m)
	m, _ = update(m, keyRune('i'))
	m = afterQuiet(m)
	m = press[skills.InstalledMsg](t, m, keyRune('y'))
	_, in, _ := b.calls()
	if len(in) != 1 || !slices.Equal(in[0].AcceptFindings, []string{id}) || in[0].ExpectSHA256 != sampleSum {
		t.Fatalf("installs %+v, want one with AcceptFindings [%s]", in, id)
	}
	_ = m
}
