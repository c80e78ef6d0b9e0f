package skills

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"vouch/safetext"
	"vouch/tui/kit"
)

// Install is the skill install preview (SPEC G4, L2): the person types
// the path of a local package, vouch imports it without installing and
// shows the preview — source, name, version, digests, the instructions
// (folded), resources kept and excluded, definitions, requested built-in
// tools marked "request — grants nothing", scanner findings and conflicts,
// every string neutralised. i installs exactly what was previewed (the
// digest is checked again), v installs it as a new version when a skill of
// that name is installed, esc cancels and writes nothing. A package with
// high-severity findings (Preview.MustAccept) is not installed by i: a
// second confirmation names their IDs, settles afresh (SPEC D7), and y
// installs with those IDs accepted (SPEC G8). Installing enables and
// approves nothing.
type Install struct {
	common  kit.Common
	keys    InstallKeyMap
	catalog Catalog
	path    textinput.Model

	stage   installStage
	seq     int // number of the latest preview; older answers are dropped
	preview Preview
	lines   []string // the preview rendered for the current width
	offset  int      // first preview line shown
	err     string
	// settling is true while install waits for the keyboard to be quiet
	// after the preview appeared (settle.go, SPEC D7).
	settling bool
	settle   string
	// asNewRevision is whether the key that led to stageAccept was v.
	asNewRevision bool
	// unfold shows every line of the instructions (u; issue 18 item 8).
	unfold bool
}

// installStage is where the install preview is.
type installStage int

const (
	stagePath       installStage = iota // typing the path
	stagePreviewing                     // waiting for PreviewSkill
	stagePreview                        // showing the preview
	stageAccept                         // asking to accept the high-severity findings (SPEC G8)
	stageInstalling                     // waiting for InstallSkill
)

// previewFoldLines folds the instructions in the TUI preview.
const previewFoldLines = 12

func newInstall(c kit.Common, keys InstallKeyMap, sc Catalog) Install {
	in := kit.FieldInput(c.Styles.Modal, "", "e.g. ~/Downloads/pdf.zip", 4096)
	in.Focus()
	m := Install{common: c, keys: keys, catalog: sc, path: in}
	m.syncKeys()
	return m
}

// Init implements Modal.
func (m Install) Init() tea.Cmd { return textinput.Blink }

// KeyGrace implements Modal: it opens on the person's own key, and the
// preview appears only after the person pressed enter. Installing is a
// granting key: it waits for the root's settle period after the preview
// appeared (kit.Granter, SPEC D7), so an "i" typed ahead of the preview
// installs nothing.
func (m Install) KeyGrace() time.Duration { return 0 }

// Grants implements kit.Granter: install, install as a new version, and
// accepting the high-severity findings.
func (m Install) Grants(msg tea.KeyMsg) bool {
	return key.Matches(msg, m.keys.Install) || key.Matches(msg, m.keys.NewRevision) || key.Matches(msg, m.keys.Accept)
}

// Granting implements kit.Granter: the preview on screen, or the second
// confirmation of its findings, which settles afresh when it appears
// (SPEC D7, G8).
func (m Install) Granting() string {
	switch m.stage {
	case stagePreview:
		return fmt.Sprintf("%d %s", m.seq, m.preview.SHA256)
	case stageAccept:
		return fmt.Sprintf("accept %d %s", m.seq, m.preview.SHA256)
	}
	return ""
}

// WithSettling implements kit.SettleShower.
func (m Install) WithSettling(notice string) kit.Modal {
	m.settling, m.settle = notice != "", notice
	return m
}

// ShortHelp implements help.KeyMap.
func (m Install) ShortHelp() []key.Binding {
	k := m.keys
	// The scroll keys are said on the pane, under the preview.
	return []key.Binding{k.Preview, k.Install, k.NewRevision, k.Accept, k.Unfold, k.ChangePath, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (m Install) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{{k.Preview, k.ChangePath, k.Cancel}, {k.Install, k.NewRevision, k.Accept}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Unfold}}
}

func (m Install) boxWidth() int { return min(m.common.Width-4, 100) }

func (m Install) inner() int { return kit.InnerWidth(m.common.Styles.Modal, m.boxWidth()) }

// SetSize implements Modal.
func (m Install) SetSize(width, height int) kit.Modal {
	m.common = m.common.Sized(width, height)
	m.path.Width = m.inner() - 7
	m.render()
	return m
}

// render lays the preview out for the current width.
func (m *Install) render() {
	if m.stage == stagePreview || m.stage == stageAccept || m.stage == stageInstalling {
		fold := previewFoldLines
		if m.unfold {
			fold = 0
		}
		m.lines = PreviewLines(m.preview, m.inner(), fold)
		m.offset = min(m.offset, m.maxOffset())
	}
}

// bodyRows is how many preview lines fit: the frame, the title, the path
// line, a blank line (not in a small window), the scroll line and the
// footer take the rest.
func (m Install) bodyRows() int {
	st := m.common.Styles.Modal
	return max(m.common.Height-st.Frame.GetVerticalFrameSize()-3-m.gap()-len(m.footer()), 3)
}

// installCompactBelow is the height under which the preview leaves out the
// blank line under the path, so that at 60x16 (SPEC L6) the footer that
// says what i does is not cut off.
const installCompactBelow = 14

// gap is the blank line under the path: 1, or 0 in a small window.
func (m Install) gap() int {
	if m.common.Height < installCompactBelow {
		return 0
	}
	return 1
}

func (m Install) maxOffset() int { return max(len(m.lines)-m.bodyRows(), 0) }

// Update implements Modal.
func (m Install) Update(msg tea.Msg) (kit.Modal, kit.Action, tea.Cmd) {
	m, action, cmd := m.handle(msg)
	m.syncKeys()
	return m, action, cmd
}

func (m Install) handle(msg tea.Msg) (Install, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case PreviewMsg:
		if msg.seq != m.seq || m.stage != stagePreviewing {
			return m, nil, nil
		}
		if msg.err != nil {
			m.stage, m.err = stagePath, kit.Sentence(msg.err)
			return m, nil, m.path.Focus()
		}
		m.stage, m.preview, m.offset, m.unfold = stagePreview, msg.preview, 0, false
		m.render()
		return m, nil, nil
	case InstalledMsg:
		if m.stage != stageInstalling {
			return m, nil, nil
		}
		if msg.err != nil {
			m.stage, m.err = stagePreview, kit.Sentence(msg.err)
			return m, nil, nil
		}
		// The page below says what was installed and reloads.
		return m, kit.CloseModal{}, kit.DeliverMsg(msg)
	case tea.KeyMsg:
		return m.key(msg)
	}
	if m.stage == stagePath {
		var cmd tea.Cmd
		m.path, cmd = m.path.Update(msg)
		return m, nil, cmd
	}
	return m, nil, nil
}

func (m Install) key(msg tea.KeyMsg) (Install, kit.Action, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Cancel) && m.stage == stageAccept:
		m.stage = stagePreview
		return m, nil, nil
	case key.Matches(msg, k.Cancel):
		return m, kit.CloseModal{}, nil
	case key.Matches(msg, k.Preview):
		path := strings.TrimSpace(m.path.Value())
		if path == "" {
			m.err = "Type the path of a skill package: a .zip, a .tar.gz, a folder or a SKILL.md."
			return m, nil, nil
		}
		m.seq++
		m.stage, m.err = stagePreviewing, ""
		m.path.Blur()
		return m, nil, previewSkill(m.catalog, m.seq, path, InstallOptions{})
	case key.Matches(msg, k.Install), key.Matches(msg, k.NewRevision):
		newRev := key.Matches(msg, k.NewRevision)
		if len(m.preview.MustAccept) > 0 {
			// High-severity findings: a second, explicit confirmation
			// naming their IDs (SPEC G8).
			m.stage, m.err, m.asNewRevision = stageAccept, "", newRev
			return m, nil, nil
		}
		m.stage, m.err = stageInstalling, ""
		opts := InstallOptions{NewRevision: newRev, ExpectSHA256: m.preview.SHA256}
		return m, nil, installSkill(m.catalog, strings.TrimSpace(m.path.Value()), opts)
	case key.Matches(msg, k.Accept):
		m.stage, m.err = stageInstalling, ""
		opts := InstallOptions{NewRevision: m.asNewRevision, ExpectSHA256: m.preview.SHA256,
			AcceptFindings: append([]string(nil), m.preview.MustAccept...)}
		return m, nil, installSkill(m.catalog, strings.TrimSpace(m.path.Value()), opts)
	case key.Matches(msg, k.ChangePath):
		m.stage, m.err = stagePath, ""
		return m, nil, m.path.Focus()
	case key.Matches(msg, k.Unfold):
		m.unfold = !m.unfold
		m.render()
		return m, nil, nil
	case m.stage != stagePath:
		m.offset, _ = kit.ScrollKey(msg, kit.ScrollKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown}, m.offset, m.bodyRows(), len(m.lines))
	default:
		var cmd tea.Cmd
		m.path, cmd = m.path.Update(msg)
		return m, nil, cmd
	}
	return m, nil, nil
}

// syncKeys enables the bindings of the current stage. Install is offered
// only when no conflict blocks it; a same-name skill offers a new version
// instead.
func (m *Install) syncKeys() {
	k := &m.keys
	showing := m.stage == stagePreview
	blocked, isBlocked := m.preview.Blocked()
	k.Preview.SetEnabled(m.stage == stagePath)
	k.Install.SetEnabled(showing && !isBlocked)
	k.NewRevision.SetEnabled(showing && isBlocked && strings.HasPrefix(blocked.What, "a skill named"))
	k.ChangePath.SetEnabled(showing)
	k.Unfold.SetEnabled((showing || m.stage == stageAccept) && countInstructionLines(m.preview) > previewFoldLines)
	if m.unfold {
		k.Unfold.SetHelp("u", "fold instructions")
	} else {
		k.Unfold.SetHelp("u", "all instructions")
	}
	k.Accept.SetEnabled(m.stage == stageAccept)
	scroll := (showing || m.stage == stageAccept) && len(m.lines) > m.bodyRows()
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown} {
		b.SetEnabled(scroll)
	}
}

// footer is the error, the blocking conflict, or the state.
func (m Install) footer() []string {
	st := m.common.Styles.Modal
	w := m.inner()
	switch {
	case m.err != "":
		return kit.WrapLines(st.Error, "✗ "+m.err, w, 3)
	case m.stage == stagePreviewing:
		return []string{st.Detail.Render("Reading the package…")}
	case m.stage == stageInstalling:
		return []string{st.Detail.Render("Installing…")}
	case m.stage == stagePath:
		return kit.WrapLines(st.Detail, "A .zip, .tar.gz, folder or SKILL.md on this machine. Nothing in it runs; nothing is installed before you confirm.", w, 2)
	case m.stage == stageAccept:
		lead := kit.SettleLead(m.settle)
		return kit.WrapLines(st.StatusWarn, fmt.Sprintf("%s%s: %s. y accepts these findings by ID and installs; esc goes back to the preview.",
			lead, kit.Plural(len(m.preview.MustAccept), "high-severity finding"), safetext.Line(strings.Join(m.preview.MustAccept, ", "), 400)), w, 4)
	}
	if c, ok := m.preview.Blocked(); ok {
		return kit.WrapLines(st.StatusWarn, "Not installable as is: "+c.What+". Press v for a new version, or rename it with vouch skill install FILE --rename NEW.", w, 3)
	}
	lead := kit.SettleLead(m.settle)
	return kit.WrapLines(st.Detail, lead+"i installs it; it is enabled nowhere and approves nothing. esc cancels and writes nothing.", w, 2)
}

// View implements Modal.
func (m Install) View() string {
	st := m.common.Styles.Modal
	w := m.inner()
	lines := []string{st.Title.Render("Install a skill")}
	if m.stage == stagePath {
		lines = append(lines, st.FocusedLabel.Render("File ")+" "+m.path.View())
	} else {
		lines = append(lines, st.Label.Render("File ")+" "+st.Item.Render(safetext.Line(m.path.Value(), w-7)))
	}
	if m.gap() > 0 {
		lines = append(lines, "")
	}
	rows := m.bodyRows()
	var body []string
	scroll := ""
	if m.stage == stagePreview || m.stage == stageAccept || m.stage == stageInstalling {
		end := min(m.offset+rows, len(m.lines))
		body = append(body, m.lines[m.offset:end]...)
		if m.maxOffset() > 0 {
			scroll = st.Detail.Render(fmt.Sprintf("— lines %d–%d of %d; ↑/↓ and pgup/pgdn scroll —", m.offset+1, end, len(m.lines)))
		}
	}
	for len(body) < rows {
		body = append(body, "")
	}
	lines = append(lines, body...)
	lines = append(lines, scroll)
	lines = append(lines, m.footer()...)
	return kit.ModalBox(st, w, m.common.Height-st.Frame.GetVerticalFrameSize(), lines)
}

// Lines returns the preview's lines as drawn, before scrolling.
func (m Install) Lines() []string { return append([]string(nil), m.lines...) }
