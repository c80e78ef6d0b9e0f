package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/panics"
	"vouch/safetext"
	"vouch/tui/kit"
)

// profileRun is the "run now" prompt of the Profiles page (SPEC H6, H7):
// it asks for the task and starts a profile run in the background through
// ProfileRunner. The run goes on as a scheduled run does — calls that need
// approval wait in the approvals inbox, the run history keeps it — so the
// prompt closes as soon as the run has started, and the page below says
// which run it is. A refusal stays in the prompt with the task as typed.
type profileRun struct {
	common  Common
	keys    ProfileRunKeyMap
	runner  ProfileRunner
	profile string
	task    textinput.Model

	starting bool
	err      string
}

// profileRunMsg is what RunProfile answered.
type profileRunMsg struct {
	profile, runID string
	err            error
}

func newProfileRun(c Common, r ProfileRunner, profile string) profileRun {
	in := kit.FieldInput(c.Styles.Modal, "", "e.g. summarise what changed since yesterday", 4096)
	in.Focus()
	p := profileRun{common: c, keys: c.Keys.Workflow.RunNow, runner: r, profile: profile, task: in}
	p.syncKeys()
	return p
}

// runProfile starts profile on task in the background.
//
// A panic in the runner fails the start in a sentence instead of ending
// the program (Bubble Tea would catch it, restore the terminal and quit).
func runProfile(r ProfileRunner, profile, task string) tea.Cmd {
	return func() (msg tea.Msg) {
		defer panics.Recover("the run", "starting the profile run", func(e *panics.InternalError) {
			// Nothing here can keep the stack, so the sentence does not
			// point at the run's events.
			msg = profileRunMsg{profile: profile, err: fmt.Errorf("the run did not start: an internal error in vouch stopped it; "+
				"try again, and please report it (%w)", panics.ErrInternal)}
		})
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		id, err := r.RunProfile(ctx, profile, task)
		if err != nil {
			err = fmt.Errorf("the run did not start: %w", err)
		}
		return profileRunMsg{profile: profile, runID: id, err: err}
	}
}

// Init implements Modal.
func (p profileRun) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal: it opens on the person's own key.
func (p profileRun) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (p profileRun) ShortHelp() []key.Binding { return []key.Binding{p.keys.Start, p.keys.Cancel} }

// FullHelp implements help.KeyMap.
func (p profileRun) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p profileRun) boxWidth() int { return min(p.common.Width-4, 80) }

func (p profileRun) inner() int { return kit.InnerWidth(p.common.Styles.Modal, p.boxWidth()) }

// SetSize implements Modal.
func (p profileRun) SetSize(width, height int) kit.Modal {
	p.common = p.common.sized(width, height)
	p.task.Width = max(p.inner()-7, 10)
	return p
}

// Update implements Modal.
func (p profileRun) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p profileRun) handle(msg tea.Msg) (profileRun, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case profileRunMsg:
		if !p.starting || msg.profile != p.profile {
			return p, nil, nil
		}
		p.starting = false
		if msg.err != nil {
			p.err = kit.Sentence(msg.err)
			return p, nil, p.task.Focus()
		}
		// The Profiles page below says which run started.
		return p, kit.CloseModal{}, kit.DeliverMsg(msg)
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.keys.Cancel):
			return p, kit.CloseModal{}, nil
		case p.starting:
			return p, nil, nil
		case key.Matches(msg, p.keys.Start):
			task := strings.TrimSpace(p.task.Value())
			if task == "" {
				p.err = "Type what the run should do, then press enter."
				return p, nil, nil
			}
			p.starting, p.err = true, ""
			p.task.Blur()
			return p, nil, runProfile(p.runner, p.profile, task)
		}
	}
	if p.starting {
		return p, nil, nil
	}
	var cmd tea.Cmd
	p.task, cmd = p.task.Update(msg)
	return p, nil, cmd
}

func (p *profileRun) syncKeys() {
	p.keys.Start.SetEnabled(!p.starting)
}

// View implements Modal.
func (p profileRun) View() string {
	st := p.common.Styles.Modal
	w := p.inner()
	lines := []string{st.Title.Render("Run profile " + safetext.Line(p.profile, max(w-12, 8)) + " now"), ""}
	label := st.FocusedLabel
	if p.starting {
		label = st.Label
	}
	lines = append(lines, label.Render("Task ")+" "+p.task.View(), "")
	inbox, runs := p.common.Keys.Chat.Inbox.Help().Key, p.common.Keys.Chat.Runs.Help().Key
	switch {
	case p.err != "":
		lines = append(lines, kit.WrapLines(st.Error, "✗ "+p.err, w, 3)...)
	case p.starting:
		lines = append(lines, st.Detail.Render("Starting…"))
	default:
		lines = append(lines, kit.WrapLines(st.Detail, fmt.Sprintf("The run starts in the background with the profile as it is now. "+
			"Calls that need approval wait in the approvals inbox (%s); the run history (%s) keeps it.", inbox, runs), w, 3)...)
	}
	return kit.ModalBox(st, w, len(lines), lines)
}
