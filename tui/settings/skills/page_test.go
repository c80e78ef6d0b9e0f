package skills

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
	"vouch/tui/settings/settingstest"
)

// shown returns the Skills page focused and loaded over sc.
func shown(t *testing.T, sc Catalog) Page {
	t.Helper()
	p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), sc).SetSize(76, 13).Focus()
	next, _, _ := p.Update(kittest.Run(t, cmd))
	return next.(Page)
}

func pstep(t *testing.T, p Page, msg tea.Msg) Page {
	t.Helper()
	next, _, _ := p.Update(msg)
	return next.(Page)
}

// TestSkillsPageRemovesAndInstalls: the installed skills show with
// version, findings and origin, the selected one's description and
// digest; x asks first (Cancel focused) and removes exactly the selected
// skill, every version; i opens the install preview; what the preview
// installed is said and the list reloads; failures are one sentence; no
// key acts before the first load (SPEC G4, G5, L2).
func TestSkillsPageRemovesAndInstalls(t *testing.T) {
	t.Run("the skills show", func(t *testing.T) {
		v := pstep(t, shown(t, catalog()), keyDown).View()
		for _, want := range []string{"notes", "v2", "1h ago", "pdf", "2 findings", "~/Downloads/pdf.zip", "7 files · sha256 " + sha[:20]} {
			if !strings.Contains(v, want) {
				t.Errorf("the page does not show %q:\n%s", want, v)
			}
		}
	})
	t.Run("x removes exactly the selected skill after yes", func(t *testing.T) {
		sc := catalog()
		p := pstep(t, shown(t, sc), keyDown)
		_, action, _ := p.Update(letter('x'))
		c := action.(kit.OpenModal).Modal
		if !strings.Contains(c.View(), "Remove pdf and every version of it?") {
			t.Errorf("the confirmation:\n%s", c.View())
		}
		if _, a, cmd := c.Update(keyEnter); a != (kit.CloseModal{}) || cmd != nil {
			t.Fatalf("enter on the focused Cancel: %v", a)
		}
		_, _, cmd := step(t, c, keyRight).Update(keyEnter)
		done := kittest.Run(t, cmd)
		if want := []string{"remove pdf {Rename: NewRevision:false ExpectSHA256: AcceptFindings:[]}"}; !slices.Equal(sc.got(), want) {
			t.Fatalf("the catalog got %v, want %v", sc.got(), want)
		}
		next, _, reload := p.Update(done)
		if reload == nil || !strings.Contains(next.View(), "Removed pdf.") {
			t.Errorf("after the remove: reload %v\n%s", reload != nil, next.View())
		}
	})
	t.Run("i opens the install preview and its result reloads", func(t *testing.T) {
		p := shown(t, catalog())
		_, action, _ := p.Update(letter('i'))
		if _, ok := action.(kit.OpenModal).Modal.(Install); !ok {
			t.Fatalf("i: action %#v", action)
		}
		next, _, reload := p.Update(InstalledMsg{skill: Summary{Name: "pdf", Version: 3}})
		if reload == nil || !strings.Contains(next.View(), "Installed pdf version 3; it is enabled nowhere and approves nothing.") {
			t.Errorf("after an install:\n%s", next.View())
		}
	})
	t.Run("failures are one sentence", func(t *testing.T) {
		for _, tc := range []struct{ op, want string }{
			{"list", "✗ Could not load the skills: database is locked."},
			{"remove", "✗ Could not remove the skill: database is locked."},
		} {
			sc := catalog()
			p := shown(t, sc)
			sc.errs[tc.op] = errors.New("database is locked")
			msg := kittest.Run(t, loadSkills(sc, p.Seq))
			if tc.op == "remove" {
				msg = kittest.Run(t, removeSkill(sc, "pdf"))
			}
			if v := pstep(t, p, msg).View(); !strings.Contains(v, tc.want) || !strings.Contains(v, "notes") {
				t.Errorf("%s failed:\n%s", tc.op, v)
			}
		}
	})
	t.Run("no key acts before the first load", func(t *testing.T) {
		p, _ := New(kittest.Common(80, 18), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), catalog()).SetSize(76, 13).Focus()
		if _, action, cmd := p.Update(letter('x')); action != nil || cmd != nil {
			t.Errorf("x before the load: %#v", action)
		}
		if !strings.Contains(p.View(), "Loading the skills…") {
			t.Errorf("no loading line:\n%s", p.View())
		}
	})
	t.Run("without a catalog it says so", func(t *testing.T) {
		p, cmd := New(kittest.Common(80, 18), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), nil).Focus()
		if _, action, _ := p.Update(letter('i')); cmd != nil || action != nil || !strings.Contains(p.View(), "Skills are not available here.") {
			t.Errorf("no catalog: %#v\n%s", action, p.View())
		}
	})
}

// TestSkillsPageNeutralisesPackageText: a skill's name, origin and
// description come from a package; none reaches the page, the
// confirmation or a notice with its control sequences (SPEC D3, G4).
func TestSkillsPageNeutralisesPackageText(t *testing.T) {
	sc := catalog()
	sc.skills = []Summary{{Name: kittest.Hostile, Origin: kittest.Hostile, Description: kittest.Hostile, SHA256: kittest.Hostile, Installed: kittest.T0}}
	p := shown(t, sc)
	kittest.Clean(t, p.View())
	_, action, _ := p.Update(letter('x'))
	kittest.Clean(t, action.(kit.OpenModal).Modal.View())
	kittest.Clean(t, pstep(t, p, InstalledMsg{skill: Summary{Name: kittest.Hostile}}).View())
	kittest.Clean(t, pstep(t, p, RemovedMsg{name: kittest.Hostile, err: errors.New(kittest.Hostile)}).View())
}

// TestSkillsPageFits: many skills with long names and origins and a long
// failure fit the area Settings gives the page at 80x24 and 60x16, the
// list scrolled so that the selected skill shows.
func TestSkillsPageFits(t *testing.T) {
	sc := catalog()
	for i := range 30 {
		sc.skills = append(sc.skills, Summary{Name: fmt.Sprintf("%s%d", strings.Repeat("long-skill-", 4), i), Version: 12,
			Origin: strings.Repeat("/very/long/path", 8), Installed: kittest.T0.Add(-59 * 60e9), SHA256: sha, Description: strings.Repeat("does things ", 20), Files: 120, Findings: 12})
	}
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			s := settingstest.Framed(New(kittest.Common(sz.W, sz.H), DefaultKeyMap(), kit.DefaultConfirmKeyMap(), sc), sz.W, sz.H)
			pg, cmd := s.Shown().Focus()
			p := pstep(t, pg.(Page), kittest.Run(t, cmd))
			for range 20 {
				p = pstep(t, p, keyDown)
			}
			p = pstep(t, p, RemovedMsg{name: "x", err: errors.New(strings.Repeat("the disk refused ", 10))})
			kittest.Fits(t, p.View(), p.Width, p.Height)
			v := settingstest.Framed(p, sz.W, sz.H).View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "› long-skil") || !strings.Contains(v, "✗ The disk refused") {
				t.Errorf("the selected skill or the failure does not show:\n%s", v)
			}
		})
	}
}
