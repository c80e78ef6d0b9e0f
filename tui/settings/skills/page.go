package skills

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/settings"
)

// Page is the Skills page of Settings (SPEC G4, G5, L2): every
// installed skill with its version, origin, install time and number of
// scanner findings. From here the person opens the install preview and
// removes a skill after a confirmation whose default is Cancel. A skill's
// name, description and origin come from a package and pass through
// safetext. Without a Catalog the page says skills are not available.
type Page struct {
	kit.PageFrame
	kit.Loads
	common  kit.Common
	keys    PageKeyMap
	install InstallKeyMap
	confirm kit.ConfirmKeyMap
	catalog Catalog

	skills kit.ListCursor[Summary]
}

// New returns the page over sc (nil: it says skills are not available);
// it loads when focused. confirm is the remove confirmation's bindings.
func New(c kit.Common, keys KeyMap, confirm kit.ConfirmKeyMap, sc Catalog) Page {
	p := Page{common: c, keys: keys.Page, install: keys.Install, confirm: confirm, catalog: sc}
	p.syncKeys()
	return p
}

func (p Page) Title() string { return "Skills" }

// ShortHelp implements help.KeyMap.
func (p Page) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Install, k.Remove, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Page) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.Refresh, k.Close}, {k.Install, k.Remove}}
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

func (p Page) Blur() settings.Page {
	p.Active = false
	return p
}

func (p Page) reload() (Page, tea.Cmd) {
	if p.catalog == nil {
		return p, nil
	}
	return p, loadSkills(p.catalog, p.Begin())
}

func (p Page) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Page) handle(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case ListedMsg:
		if p.Settle(msg.seq, msg.err) {
			p.skills.Set(msg.skills, func(a, b Summary) bool { return a.Name == b.Name })
		}
		return p, nil, nil
	case InstalledMsg:
		done := fmt.Sprintf("Installed %s version %d; it is enabled nowhere and approves nothing.", safetext.Line(msg.skill.Name, 40), msg.skill.Version)
		return p.outcome(msg.err, done)
	case RemovedMsg:
		return p.outcome(msg.err, "Removed "+safetext.Line(msg.name, 40)+".")
	case tea.KeyMsg:
		return p.key(msg)
	}
	return p, nil, nil
}

func (p Page) outcome(err error, done string) (Page, kit.Action, tea.Cmd) {
	p.Report(err, done)
	p, cmd := p.reload()
	return p, nil, cmd
}

func (p Page) key(msg tea.KeyMsg) (Page, kit.Action, tea.Cmd) {
	k := p.keys
	cur, ok := p.skills.Selected()
	switch {
	case key.Matches(msg, k.Close):
		return p, kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		p.skills.Up()
	case key.Matches(msg, k.Down):
		p.skills.Down()
	case key.Matches(msg, k.Refresh):
		p.Notice = ""
		p, cmd := p.reload()
		return p, nil, cmd
	case key.Matches(msg, k.Install):
		p.Notice, p.Err = "", ""
		m := newInstall(p.common, p.install, p.catalog)
		return p, kit.OpenModal{Modal: m}, nil
	case key.Matches(msg, k.Remove) && ok:
		body := "Remove " + safetext.Line(cur.Name, 40) + " and every version of it? " +
			"Files no other skill uses are deleted; definitions it imported stay."
		c := kit.NewConfirm(p.common, p.confirm, "Remove skill", body, "Remove", removeSkill(p.catalog, cur.Name))
		return p, kit.OpenModal{Modal: c}, nil
	}
	return p, nil, nil
}

func (p *Page) syncKeys() {
	k := &p.keys
	avail := p.catalog != nil
	_, sel := p.skills.Selected()
	k.Up.SetEnabled(len(p.skills.Items) > 1)
	k.Down.SetEnabled(len(p.skills.Items) > 1)
	k.Refresh.SetEnabled(avail)
	k.Install.SetEnabled(avail)
	k.Remove.SetEnabled(avail && sel)
}

// Column widths of the Skills page.
const (
	skillVerColWidth       = 4  // "v12"
	skillInstalledColWidth = 9  // "59m ago"
	skillFindingsColWidth  = 11 // "12 findings"
)

func (p Page) View() string {
	st := p.common.Styles.Modal
	w := p.Width
	if p.catalog == nil {
		return st.Detail.Render("Skills are not available here.")
	}
	var lines []string
	foot := p.footer(w)
	avail := max(p.Height-len(foot), 1)
	switch {
	case p.Loading && !p.Loaded:
		lines = append(lines, st.Detail.Render("Loading the skills…"))
	case len(p.skills.Items) == 0 && p.Loaded:
		lines = append(lines, kit.WrapLines(st.Detail, "No skills installed. Press i to preview a skill package from a local file (.zip, .tar.gz, a folder or a SKILL.md) and install it.", w, 3)...)
	default:
		lines = append(lines, p.rows(w, avail)...)
	}
	if len(lines) > avail {
		lines = lines[:avail]
	}
	for len(lines) < avail {
		lines = append(lines, "")
	}
	return strings.Join(append(lines, foot...), "\n")
}

// rows are the column titles and one row per skill in at most height
// lines, scrolled so that the selected one shows; it has its description
// and digest below it.
func (p Page) rows(w, height int) []string {
	st := p.common.Styles.Modal
	rest := w - 2 - skillVerColWidth - skillInstalledColWidth - skillFindingsColWidth - 4
	nameW := max(rest*2/5, 10)
	originW := max(rest-nameW, 8)
	lines := []string{st.Detail.Render("  " + kit.Pad("Skill", nameW) + " " + kit.Pad("Ver", skillVerColWidth) + " " +
		kit.Pad("Installed", skillInstalledColWidth) + " " + kit.Pad("Findings", skillFindingsColWidth) + " Origin")}
	now := p.common.Now()
	blocks := make([][]string, len(p.skills.Items))
	for i, s := range p.skills.Items {
		cursor, name := "  ", st.Item.Render(kit.Pad(safetext.Line(s.Name, nameW), nameW))
		if i == p.skills.Cursor {
			cursor, name = st.Prompt.Render("› "), kit.Pad(st.Selected.Render(safetext.Line(s.Name, nameW)), nameW)
		}
		findings := st.Item.Render(kit.Pad("none", skillFindingsColWidth))
		if s.Findings > 0 {
			findings = st.StatusWarn.Render(kit.Pad(kit.Plural(s.Findings, "finding"), skillFindingsColWidth))
		}
		b := []string{cursor + name + " " + st.Item.Render(kit.Pad(fmt.Sprintf("v%d", s.Version), skillVerColWidth)) + " " +
			st.Item.Render(kit.Pad(kit.Ago(now, s.Installed), skillInstalledColWidth)) + " " + findings + " " +
			st.Detail.Render(safetext.Line(s.Origin, originW))}
		if i == p.skills.Cursor {
			if d := kit.FirstLine(s.Description, w-4); d != "" {
				b = append(b, st.Detail.Render("    "+d))
			}
			b = append(b, st.Detail.Render("    "+safetext.Line(fmt.Sprintf("%s · sha256 %s", kit.Plural(s.Files, "file"), s.SHA256), w-4)))
		}
		blocks[i] = b
	}
	return append(lines, kit.ScrollBlocks(blocks, p.skills.Cursor, max(height-1, 1))...)
}

func (p Page) footer(w int) []string {
	st := p.common.Styles.Modal
	if said := p.Said(st, w); said != nil {
		return said
	}
	s := kit.Plural(len(p.skills.Items), "skill") + " installed · a skill is used only where a profile enables it"
	if p.Loading {
		s += " · refreshing…"
	}
	return []string{st.Detail.Render(safetext.Line(s, w))}
}
