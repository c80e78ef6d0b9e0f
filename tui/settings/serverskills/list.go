package serverskills

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// List lists the skills one MCP server serves, under that
// server (SPEC I1): each with its per-origin name, its state (unapproved,
// approved, review, changed, pinned, dynamic), its file count and its
// description in the server's words. It asks for the listing only when the
// person opens it — never on connect — and enter opens a skill's approval
// preview. An empty or partial listing says so; it never reads as "no
// skills".
type List struct {
	common kit.Common
	keys   ListKeyMap
	// approvalKeys are the approval preview's.
	approvalKeys ApprovalKeyMap
	skills       Backend
	server       settings.ServerView

	kit.Loads // a listing with an error is still shown: it may be partial
	listing   Listing
	cursor    int
}

// New returns the pane for the server v; Init lists its skills.
func New(c kit.Common, keys KeyMap, ss Backend, v settings.ServerView) List {
	p := List{common: c, keys: keys.List, approvalKeys: keys.Approval, skills: ss, server: v, Loads: kit.Loads{Seq: 1, Loading: true}}
	p.syncKeys()
	return p
}

// Init implements Modal: the listing is asked for now, when the person
// opened the pane.
func (p List) Init() tea.Cmd {
	return listServerSkills(p.skills, p.server.ID, p.Seq)
}

// KeyGrace implements Modal: the pane opens on the person's own key.
func (p List) KeyGrace() time.Duration { return 0 }

// ShortHelp implements help.KeyMap.
func (p List) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Up, k.Down, k.Preview, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (p List) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// SetSize implements Modal.
func (p List) SetSize(width, height int) kit.Modal {
	p.common = p.common.Sized(width, height)
	return p
}

// Reveal lists again when the preview above closes: an approval there
// changed a state shown here.
func (p List) Reveal() (kit.Modal, tea.Cmd) {
	p, cmd := p.reload()
	p.syncKeys()
	return p, cmd
}

func (p List) reload() (List, tea.Cmd) {
	return p, listServerSkills(p.skills, p.server.ID, p.Begin())
}

// Update implements Modal.
func (p List) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p List) handle(msg tea.Msg) (List, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ListedMsg:
		if msg.seq != p.Seq {
			return p, nil, nil
		}
		p.Loading, p.Loaded = false, true
		p.listing, p.Err = msg.listing, ""
		if msg.err != nil {
			p.Err = kit.Sentence(msg.err)
		}
		p.cursor = min(p.cursor, max(len(p.listing.Skills)-1, 0))
		return p, nil, nil
	case tea.KeyMsg:
		k := p.keys
		switch {
		case key.Matches(msg, k.Close):
			return p, kit.CloseModal{}, nil
		case key.Matches(msg, k.Up):
			p.cursor = max(p.cursor-1, 0)
		case key.Matches(msg, k.Down):
			p.cursor = min(p.cursor+1, max(len(p.listing.Skills)-1, 0))
		case key.Matches(msg, k.Refresh):
			var cmd tea.Cmd
			p, cmd = p.reload()
			return p, nil, cmd
		case key.Matches(msg, k.Preview):
			if p.cursor < len(p.listing.Skills) {
				return p, kit.OpenModal{Modal: newApproval(p.common, p.approvalKeys, p.skills, p.server, p.listing.Skills[p.cursor])}, nil
			}
		}
	}
	return p, nil, nil
}

func (p *List) syncKeys() {
	n := len(p.listing.Skills)
	p.keys.Up.SetEnabled(n > 1)
	p.keys.Down.SetEnabled(n > 1)
	p.keys.Preview.SetEnabled(n > 0)
	p.keys.Refresh.SetEnabled(!p.Loading)
}

func (p List) boxWidth() int { return min(p.common.Width-4, 76) }

// skillStateBadge renders a state as a symbol and a word, readable without
// colour.
func skillStateBadge(st kit.ModalStyles, s State) string {
	var style lipgloss.Style
	var sym string
	switch s {
	case StateApproved:
		style, sym = st.StatusOK, "●"
	case StatePinned:
		style, sym = st.StatusOK, "◆"
	case StateChanged, StateReview:
		style, sym = st.StatusWarn, "◐"
	case StateDynamic:
		style, sym = st.StatusBad, "✗"
	default:
		style, sym = st.StatusOff, "○"
	}
	return style.Render(sym + " " + safetext.Line(string(s), 10))
}

// skillStateWidth is the widest badge, "◐ unapproved".
const skillStateWidth = 12

// View implements Modal.
func (p List) View() string {
	st := p.common.Styles.Modal
	w := kit.InnerWidth(st, p.boxWidth())
	height := max(p.common.Height-4, 8)
	lines := []string{
		st.Title.Render(safetext.Line("Skills › "+p.server.Name, w)),
		st.Detail.Render(safetext.Line("Served by "+p.server.Name+"; untrusted until approved. Listed only when opened.", w)),
		"",
	}
	var foot []string
	if sel := p.selected(); sel != nil && sel.Sentence != "" {
		foot = append(foot, kit.WrapLines(st.Detail, sel.Sentence, w, 2)...)
	}
	switch {
	case p.Loading && !p.Loaded:
		foot = append(foot, st.Detail.Render("Listing skills…"))
	default:
		if p.Err != "" {
			foot = append(foot, kit.WrapLines(st.Error, "✗ "+p.Err, w, 2)...)
		}
		if p.listing.Summary != "" {
			foot = append(foot, kit.WrapLines(st.Detail, p.listing.Summary, w, 2)...)
		}
		for i, inv := range p.listing.Invalid {
			if i == 2 {
				foot = append(foot, st.Detail.Render(fmt.Sprintf("…and %d more not used", len(p.listing.Invalid)-2)))
				break
			}
			foot = append(foot, st.Error.Render(safetext.Line("not used: "+inv, w)))
		}
	}
	rows := max(height-len(lines)-len(foot)-1, 2)
	nameW := max((w-skillStateWidth-12)*2/5, 10)
	first := max(0, min(p.cursor-rows/2, len(p.listing.Skills)-rows))
	for i := first; i < len(p.listing.Skills) && i < first+rows; i++ {
		s := p.listing.Skills[i]
		cursor, name := "  ", st.Item.Render(kit.Pad(safetext.Line(s.Name, nameW), nameW))
		if i == p.cursor {
			cursor, name = st.Prompt.Render("› "), kit.Pad(st.Selected.Render(safetext.Line(s.Name, nameW)), nameW)
		}
		files := kit.Plural(s.Files, "file")
		if s.State == StateDynamic {
			files = "dynamic"
		}
		about := kit.FirstLine(s.Description, 0)
		if !s.Listed {
			about = "(not in the current listing) " + about
		}
		row := cursor + name + " " + kit.Pad(skillStateBadge(st, s.State), skillStateWidth) + " " + st.Detail.Render(kit.Pad(files, 9)) + " "
		lines = append(lines, row+st.Detail.Render(safetext.Line(about, max(w-lipgloss.Width(row), 1))))
	}
	if p.Loaded && len(p.listing.Skills) == 0 && p.Err == "" {
		lines = append(lines, st.Detail.Render("Nothing to show from this listing."))
	}
	for len(lines) < height-len(foot) {
		lines = append(lines, "")
	}
	return kit.ModalBox(st, w, height, append(lines, foot...))
}

func (p List) selected() *Skill {
	if p.cursor < 0 || p.cursor >= len(p.listing.Skills) {
		return nil
	}
	return &p.listing.Skills[p.cursor]
}

// Listing returns what the server listed, as shown.
func (p List) Listing() Listing { return p.listing }
