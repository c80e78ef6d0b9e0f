package serverskills

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func openList(b Backend, w, h int) kit.Modal {
	return New(kittest.Common(w, h), DefaultKeyMap(), b, server).SetSize(w, h)
}

// listed returns the pane with its listing answered.
func listed(t *testing.T, b Backend, w, h int) kit.Modal {
	t.Helper()
	l := openList(b, w, h)
	return step(t, l, kittest.Run(t, l.Init()))
}

// TestServerSkillsListsWhenOpened: the listing is asked for when the pane
// opens, of exactly its server, and shows each skill's name, state, files
// and first line of description, the selected one's sentence, the summary
// and entries not used; enter opens exactly the selected skill's preview;
// before the listing nothing opens; a listing that failed part-way shows
// what arrived and the failure in one sentence (SPEC I1).
func TestServerSkillsListsWhenOpened(t *testing.T) {
	t.Run("list, then preview the selected skill", func(t *testing.T) {
		b := backend()
		l := openList(b, 80, 18)
		if len(b.got()) != 0 {
			t.Fatalf("the pane called %v before Init", b.got())
		}
		if _, action, cmd := l.Update(keyEnter); action != nil || cmd != nil {
			t.Errorf("enter before the listing: %#v", action)
		}
		if !strings.Contains(l.View(), "Listing skills…") {
			t.Errorf("no listing line:\n%s", l.View())
		}
		l = step(t, l, kittest.Run(t, l.Init()))
		v := l.View()
		for _, want := range []string{"docs/notes", "○ unapproved", "2 files", "Take notes.", "◐ changed",
			"Not approved: nothing of it reaches a run.", "2 skills listed.", "not used: skill://x: no SKILL.md"} {
			if !strings.Contains(v, want) {
				t.Errorf("the pane does not show %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "Second line.") {
			t.Errorf("more than the description's first line shows:\n%s", v)
		}
		_, action, _ := step(t, l, keyDown).Update(keyEnter)
		open, ok := action.(kit.OpenModal)
		if !ok {
			t.Fatalf("enter: action %#v, want the preview", action)
		}
		kittest.Run(t, open.Modal.Init())
		if want := []string{call{op: "list", server: "s-1"}.String(), call{op: "preview", server: "s-1", uri: uriDeploy}.String()}; !slices.Equal(b.got(), want) {
			t.Errorf("the backend got %v, want %v", b.got(), want)
		}
	})
	t.Run("a partial listing shows what arrived and the failure", func(t *testing.T) {
		b := backend()
		b.errs["list"] = errors.New("the server closed the stream after 2 skills")
		v := listed(t, b, 80, 18).View()
		if !strings.Contains(v, "✗ The server closed the stream after 2 skills.") || !strings.Contains(v, "docs/notes") {
			t.Errorf("partial listing:\n%s", v)
		}
	})
	t.Run("an empty listing never reads as no skills", func(t *testing.T) {
		b := backend()
		b.listing = Listing{}
		v := listed(t, b, 80, 18).View()
		if !strings.Contains(v, "Nothing to show from this listing.") || strings.Contains(strings.ToLower(v), "no skills") {
			t.Errorf("empty listing:\n%s", v)
		}
	})
	t.Run("r lists again and an older listing is dropped", func(t *testing.T) {
		b := backend()
		l := listed(t, b, 80, 18)
		l, _, cmd := l.Update(letter('r'))
		if _, _, again := l.Update(letter('r')); again != nil {
			t.Error("r listed again while a listing was out")
		}
		l = step(t, l, ListedMsg{seq: 1, listing: Listing{}})
		if len(l.(List).Listing().Skills) != 2 {
			t.Error("an older listing replaced the one shown")
		}
		step(t, l, kittest.Run(t, cmd))
		if n := len(b.got()); n != 2 {
			t.Errorf("%d listings, want 2", n)
		}
	})
}

// TestServerSkillsNeutralisesServerText: the skill names, descriptions,
// sentences, the summary, entries not used and a failure, all in a
// server's words, are drawn without their control sequences (SPEC D3,
// I1).
func TestServerSkillsNeutralisesServerText(t *testing.T) {
	b := backend()
	b.listing = Listing{Skills: []Skill{{URI: kittest.Hostile, Name: kittest.Hostile, Description: kittest.Hostile, State: State(kittest.Hostile), Sentence: kittest.Hostile}},
		Summary: kittest.Hostile, Invalid: []string{kittest.Hostile, kittest.Hostile, kittest.Hostile}}
	b.errs["list"] = errors.New(kittest.Hostile)
	l := New(kittest.Common(80, 18), DefaultKeyMap(), b, server)
	l.server.Name = kittest.Hostile
	kittest.Clean(t, l.View())
	kittest.Clean(t, step(t, l, kittest.Run(t, l.Init())).View())
}

// TestServerSkillsListFits: many skills with long names and descriptions,
// a long summary and failure fit the area above the input at 80x24 and
// 60x16, with the selected skill on screen.
func TestServerSkillsListFits(t *testing.T) {
	b := backend()
	for i := range 30 {
		b.listing.Skills = append(b.listing.Skills, Skill{URI: fmt.Sprint(i), Name: fmt.Sprintf("docs/%s%d", strings.Repeat("long-name-", 4), i),
			Description: strings.Repeat("a description ", 20), State: StateReview, Files: 120, Sentence: strings.Repeat("what to do ", 20)})
	}
	b.listing.Summary = strings.Repeat("the listing was partial ", 6)
	b.errs["list"] = errors.New(strings.Repeat("the server hung up ", 8))
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			l := listed(t, b, sz.W, sz.H)
			for range 10 {
				l = step(t, l, tea.Msg(keyDown))
			}
			v := l.View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "› ") {
				t.Errorf("the selected skill does not show:\n%s", v)
			}
		})
	}
}
