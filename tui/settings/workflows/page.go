package workflows

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// SchedulesNote is what vouch says about schedules wherever it shows them
// — the Workflows page, always, and 'vouch workflows status' (SPEC H6):
// they are not a server. It is the one copy of that sentence.
const SchedulesNote = "Schedules are not a server: they fire only while vouch runs and what a run " +
	"needs (model server, MCP servers, keyring) is available. A missed or skipped run is recorded " +
	"with its reason; a call that needs approval waits in the approvals inbox."

// Page is the Workflows page of Settings › Tools & Workflows
// (SPEC H1, H6, L2): the Agent Workflows switch and every profile's
// schedule. The switch moves only once SetWorkflowsEnabled has answered.
type Page struct {
	kit.PageFrame
	kit.Loads
	common kit.Common
	keys   KeyMap
	w      Backend

	on        bool
	schedules []Schedule
	scroll    int
	toggling  bool
}

func New(c kit.Common, keys KeyMap, w Backend) Page {
	p := Page{common: c, keys: keys, w: w}
	p.syncKeys()
	return p
}

func (p Page) Title() string { return "Workflows" }

// ShortHelp implements help.KeyMap.
func (p Page) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Toggle, k.Down, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Page) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Toggle, k.Up, k.Down}, {k.Refresh, k.Close}}
}

func (p Page) SetSize(width, height int) settings.Page {
	p.Resize(width, height)
	return p
}

func (p Page) Focus() (settings.Page, tea.Cmd) {
	p.Active = true
	p, cmd := p.reload()
	return p, cmd
}

func (p Page) reload() (Page, tea.Cmd) {
	if p.w == nil {
		return p, nil
	}
	return p, loadWorkflows(p.w, p.Begin())
}

func (p Page) Blur() settings.Page {
	p.Active = false
	return p
}

func (p Page) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Page) handle(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		if p.Settle(msg.seq, msg.err) {
			p.on, p.schedules = msg.on, msg.schedules
		}
		return p, nil, nil
	case SetMsg:
		if !p.toggling {
			return p, nil, nil
		}
		p.toggling = false
		if msg.err != nil {
			p.Err, p.Notice = kit.Sentence(msg.err), ""
			return p, nil, nil
		}
		p.on, p.Err = msg.on, ""
		if msg.on {
			p.Notice = "Agent Workflows is on: profiles, MCP tools, skills and schedules are back as they were."
		} else {
			p.Notice = "Agent Workflows is off: nothing new starts and schedules wait; nothing was deleted."
		}
		// The schedules' paused state follows the switch.
		p, cmd := p.reload()
		return p, nil, cmd
	case tea.KeyMsg:
		k := p.keys
		switch {
		case key.Matches(msg, k.Close):
			return p, kit.CloseModal{}, nil
		case key.Matches(msg, k.Toggle):
			p.toggling, p.Notice = true, ""
			return p, nil, setWorkflows(p.w, !p.on)
		case key.Matches(msg, k.Refresh):
			p.Notice = ""
			p, cmd := p.reload()
			return p, nil, cmd
		case key.Matches(msg, k.Up):
			p.scroll = max(p.scroll-1, 0)
		case key.Matches(msg, k.Down):
			p.scroll = min(p.scroll+1, max(len(p.schedules)-1, 0))
		}
	}
	return p, nil, nil
}

func (p *Page) syncKeys() {
	k := &p.keys
	ready := p.w != nil && p.Loaded && !p.toggling
	k.Toggle.SetEnabled(ready)
	if p.on {
		k.Toggle.SetHelp("space", "turn off")
	} else {
		k.Toggle.SetHelp("space", "turn on")
	}
	k.Up.SetEnabled(len(p.schedules) > 1)
	k.Down.SetEnabled(len(p.schedules) > 1)
	k.Refresh.SetEnabled(p.w != nil)
}

func (p Page) View() string {
	st := p.common.Styles.Modal
	w := p.Width
	if p.w == nil {
		return st.Detail.Render("Agent Workflows is not available here.")
	}
	var state, about []string
	switch {
	case !p.Loaded && p.Err == "":
		state = []string{st.Detail.Render("Loading…")}
	case p.Loaded:
		on := st.StatusOff.Render("○ off")
		if p.on {
			on = st.StatusOK.Render("● on")
		}
		if p.toggling {
			on += st.Detail.Render(" · changing…")
		}
		state = []string{st.Label.Render("Agent Workflows  ") + on}
		about = kit.WrapLines(st.Detail, "One switch for this device: profiles, MCP servers and skills. "+
			"Off stops new workflow activity and deletes nothing.", w, 2)
	}
	header := st.Group.Render(fmt.Sprintf("Schedules (%d)", len(p.schedules)))
	foot := p.Said(st, w)
	lines := slices.Concat(state, about, []string{""}, kit.WrapLines(st.Detail, SchedulesNote, w, 4), []string{"", header})
	if len(lines)+len(foot)+scheduleRows > p.Height {
		// A short page (SPEC L6): the switch, the note in a line, the
		// schedules and what the page says, which the frame would cut.
		lines = slices.Concat(state, kit.WrapLines(st.Detail, SchedulesNote, w, 1), []string{header})
		foot = p.SaidIn(st, w, max(min(p.Height-len(lines)-1, 2), 1))
	}
	room := max(p.Height-len(lines)-len(foot), 1)
	var body []string
	if p.Loaded && len(p.schedules) == 0 {
		body = append(body, st.Detail.Render("No profile has a schedule. Set one in a profile's editor."))
	}
	for _, s := range p.schedules[min(p.scroll, len(p.schedules)):] {
		body = append(body, p.scheduleLines(s, w)...)
	}
	if len(body) > room {
		body = body[:room]
	}
	for len(body) < room {
		body = append(body, "")
	}
	lines = append(lines, body...)
	return strings.Join(append(lines, foot...), "\n")
}

// scheduleLines renders one schedule on two lines: the profile, its spec
// and when it fires next; then the task and what happened last.
func (p Page) scheduleLines(s Schedule, w int) []string {
	st := p.common.Styles.Modal
	now := p.common.Now()
	next := "next " + kit.Until(now, s.Next)
	if s.Paused != "" {
		next = st.StatusWarn.Render("paused: " + safetext.Line(s.Paused, w/2))
	} else {
		next = st.Detail.Render(next)
	}
	head := st.Item.Render(safetext.Line(s.Profile, 24)) + st.Detail.Render(" · "+safetext.Line(s.Spec, 28)+" · ") + next
	last := "never fired"
	if !s.LastAt.IsZero() || s.Last != "" {
		last = "last: " + safetext.Line(s.Last, 0) + " " + kit.Ago(now, s.LastAt)
	}
	sub := "  " + safetext.Line(s.Task, 0)
	return []string{
		kit.Cut(head, w),
		st.Detail.Render(kit.Cut(sub+" — "+last, w)),
	}
}

// scheduleRows is the lines of one schedule.
const scheduleRows = 2

// On reports the switch as the backend last said it is.
func (p Page) On() bool { return p.on }

// Keys returns the page's bindings as they stand, each enabled or not by
// state.
func (p Page) Keys() KeyMap { return p.keys }
