package profiles

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

// RunPrompt is the "run now" prompt of the Profiles page (SPEC H6, H7):
// it asks for the task and starts a profile run in the background through
// Runner. The run goes on as a scheduled run does — calls that need
// approval wait in the approvals inbox, the run history keeps it — so the
// prompt closes as soon as the run has started, and the page below says
// which run it is. A refusal stays in the prompt with the task as typed.
type RunPrompt struct {
	common kit.Common
	keys   RunKeyMap
	// inbox and runs are the chat's keys, named in the sentence that says
	// where the run's approvals and history are.
	inbox, runs key.Binding
	runner      Runner
	profile     string
	task        textinput.Model

	starting bool
	err      string
}

// RunMsg is what RunProfile answered.
type RunMsg struct {
	profile, runID string
	err            error
}

func newRunPrompt(c kit.Common, keys KeyMap, r Runner, profile string) RunPrompt {
	in := kit.FieldInput(c.Styles.Modal, "", "e.g. summarise what changed since yesterday", 4096)
	in.Focus()
	p := RunPrompt{common: c, keys: keys.RunNow, inbox: keys.Inbox, runs: keys.Runs, runner: r, profile: profile, task: in}
	p.syncKeys()
	return p
}

// runProfile starts profile on task in the background.
//
// A panic in the runner fails the start in a sentence instead of ending
// the program (Bubble Tea would catch it, restore the terminal and quit).
func runProfile(r Runner, profile, task string) tea.Cmd {
	return func() (msg tea.Msg) {
		defer panics.Recover("the run", "starting the profile run", func(e *panics.InternalError) {
			// Nothing here can keep the stack, so the sentence does not
			// point at the run's events.
			msg = RunMsg{profile: profile, err: fmt.Errorf("the run did not start: an internal error in vouch stopped it; "+
				"try again, and please report it (%w)", panics.ErrInternal)}
		})
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		id, err := r.RunProfile(ctx, profile, task)
		if err != nil {
			err = fmt.Errorf("the run did not start: %w", err)
		}
		return RunMsg{profile: profile, runID: id, err: err}
	}
}

// Init implements Modal.
func (p RunPrompt) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal: it opens on the person's own key.
func (p RunPrompt) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (p RunPrompt) ShortHelp() []key.Binding { return []key.Binding{p.keys.Start, p.keys.Cancel} }

// FullHelp implements help.KeyMap.
func (p RunPrompt) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

func (p RunPrompt) boxWidth() int { return min(p.common.Width-4, 80) }

func (p RunPrompt) inner() int { return kit.InnerWidth(p.common.Styles.Modal, p.boxWidth()) }

// SetSize implements Modal.
func (p RunPrompt) SetSize(width, height int) kit.Modal {
	p.common = p.common.Sized(width, height)
	p.task.Width = max(p.inner()-7, 10)
	return p
}

// Update implements Modal.
func (p RunPrompt) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p RunPrompt) handle(msg tea.Msg) (RunPrompt, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case RunMsg:
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

func (p *RunPrompt) syncKeys() {
	p.keys.Start.SetEnabled(!p.starting)
}

// View implements Modal.
func (p RunPrompt) View() string {
	st := p.common.Styles.Modal
	w := p.inner()
	lines := []string{st.Title.Render("Run profile " + safetext.Line(p.profile, max(w-12, 8)) + " now"), ""}
	label := st.FocusedLabel
	if p.starting {
		label = st.Label
	}
	lines = append(lines, label.Render("Task ")+" "+p.task.View(), "")
	inbox, runs := p.inbox.Help().Key, p.runs.Help().Key
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
