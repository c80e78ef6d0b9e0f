package tui

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"vouch/agent"
	"vouch/tui/approval"
	"vouch/tui/apps"
	"vouch/tui/chat"
	"vouch/tui/clipboard"
	"vouch/tui/history"
	"vouch/tui/kit"
	"vouch/tui/notes"
	"vouch/tui/phase"
	"vouch/tui/picker"
	"vouch/tui/settings/servers"
	"vouch/tui/toolselect"
)

// The smallest terminal the interface draws in (SPEC L1, L6): a common
// tmux split. Below it, View is a notice that names a waiting approval,
// and no key answers a modal (settle.go).
const (
	MinWidth  = 60
	MinHeight = 16
)

// DefaultKeyGrace is the settle period of a pane that grants something
// (SPEC D7): it takes no key until the keyboard has been quiet this long
// since it appeared, every key restarting the period (settle.go).
const DefaultKeyGrace = 500 * time.Millisecond

// inputHeight is the number of text lines in the input.
const inputHeight = 3

// Options configures New. The zero value works: it uses the real clock,
// colours, os.Stdout for clipboard writes and DefaultKeyGrace.
type Options struct {
	// Model is the model new runs use until the person picks another; when
	// empty, the model the Backend reports in its Info.
	Model string
	// Demo shows a "demo" badge in the status line (vouch demo).
	Demo bool
	// NoColor removes every colour from the output (NO_COLOR); emphasis is
	// kept with bold, faint and reverse.
	NoColor bool
	// Tmux makes clipboard copies also pass through tmux (TMUX is set).
	Tmux bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Renderer renders the styles; nil means lipgloss's default renderer.
	// A server that runs vouch per SSH session passes one per session.
	Renderer *lipgloss.Renderer
	// Clipboard receives OSC 52 sequences: the terminal the program draws
	// on. Nil means os.Stdout, the default output of a tea.Program.
	Clipboard io.Writer
	// KeyGrace overrides DefaultKeyGrace, the settle period, when
	// positive.
	KeyGrace time.Duration
	// Servers backs Settings › Tools & Workflows › MCP Servers and the
	// tools list (SPEC B, L2). Nil means the pages say that MCP servers are
	// not available here; Settings still opens.
	Servers Servers
	// Apps delivers MCP App views and their requests (SPEC J4; tui/apps).
	// Nil means no app is ever announced.
	Apps AppHost
	// Notifier receives terminal notifications while the terminal is not
	// focused (SPEC L4; tui/notes). Nil means no notifications.
	Notifier notes.Notifier
	// LongTurn is how long a turn runs before its end is notified; zero
	// means DefaultLongTurn.
	LongTurn time.Duration
}

// WithEnv returns o with NoColor and Tmux set from the environment through
// getenv (normally os.Getenv): NO_COLOR non-empty, and TMUX non-empty.
func (o Options) WithEnv(getenv func(string) string) Options {
	if getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
	if getenv("TMUX") != "" {
		o.Tmux = true
	}
	return o
}

// ProgramOptions are the tea.ProgramOptions the interface expects: the
// alternate screen, and no mouse capture, so the terminal's own text
// selection keeps working (SPEC L1).
func ProgramOptions() []tea.ProgramOption {
	// Focus reports (DECSET 1004) gate notifications (notify.go, SPEC L4).
	return []tea.ProgramOption{tea.WithAltScreen(), tea.WithReportFocus()}
}

// Model is the root of the interface. It routes messages: keys go to the top
// modal if there is one, else to the chat screen; results of Cmds go to the
// handler of their family (update_*.go). It implements tea.Model.
//
// Model is a value, but the transcript it shows lives behind a pointer
// (with its render cache), as Bubble Tea only ever uses the latest model.
type Model struct {
	common  Common
	backend Backend
	opts    Options
	after   func(time.Duration) <-chan time.Time

	keys   chat.KeyMap
	help   help.Model
	input  textarea.Model
	chat   *chat.Transcript
	modals modalStack

	model     string
	window    int // context window of the model in use, 0 if unknown
	info      BackendInfo
	infoState loadState
	history   loadState
	models    []agent.ModelInfo
	usage     agent.Usage
	hasUsage  bool
	// toolPlan is the last run's tool budget in figures (SPEC F1–F3).
	toolPlan    agent.ToolPlanSummary
	hasToolPlan bool
	// planWindow is the context window toolPlan's budget is a share of.
	planWindow int
	run        runState
	status     statusState
	quitting   bool
	chatHeight int

	// convPending is true while Conversations.NewConversation is in flight.
	convPending bool
	// apps is what the root knows of MCP App views (apps.go).
	apps appsState
	// inboxCount is how many calls of background runs wait in the
	// approvals inbox (update_inbox.go, SPEC H6).
	inboxCount int
	// settle is the armed settle tick (settle.go, SPEC D7).
	settle settleState
	// typed is when the person last typed text toward their message or a
	// field of theirs; zero once they sent it or moved the keyboard to a
	// pane (keyboard.go, SPEC D7).
	typed time.Time
	// toolRefused is set while the last message was refused for the tool
	// budget: alt+t opens the tool selector (toolselect_root.go).
	toolRefused bool
	// hist is where ↑/↓ stand in the input history (tui/history).
	hist history.State
	// recovery is what a failed turn left to retry (retry.go).
	recovery recoveryState
	// notify is the focus and turn timing of notifications (notify.go).
	notify notes.State
}

// loadState is the progress of a start-up look-up.
type loadState int

const (
	loading loadState = iota
	loaded
	failed
)

// New returns the root model. It does no I/O: Init returns the Cmds that ask
// b for the conversation and the server's description, and the first frame
// shows the empty chat at once.
func New(b Backend, opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Clipboard == nil {
		opts.Clipboard = os.Stdout
	}
	if opts.KeyGrace <= 0 {
		opts.KeyGrace = DefaultKeyGrace
	}
	theme := kit.DefaultTheme()
	if opts.NoColor {
		theme = kit.NoColorTheme()
	}
	r := styleRenderer(opts) // NO_COLOR keeps bold, faint and reverse (nocolor.go)
	st := kit.DefaultStyles(r, theme)
	c := Common{Common: kit.Common{Width: MinWidth, Height: MinHeight, Styles: st, Now: opts.Now}, Keys: DefaultKeyMap()}

	h := help.New()
	h.Styles = st.Help

	in := textarea.New()
	in.SetPromptFunc(2, func(line int) string {
		if line == 0 {
			return "› "
		}
		return "  "
	})
	in.Placeholder = "Ask anything…"
	in.ShowLineNumbers = false
	in.CharLimit = 0
	in.EndOfBufferCharacter = ' '
	in.FocusedStyle = st.Input
	in.BlurredStyle = st.InputBlur
	styleCursor(&in, r)
	in.KeyMap.InsertNewline.SetKeys("alt+enter", "ctrl+j")
	in.SetHeight(inputHeight)
	in.Focus()

	m := Model{
		common:  c,
		backend: b,
		opts:    opts,
		after:   time.After,
		keys:    c.Keys.Chat,
		help:    h,
		input:   in,
		chat:    chat.NewTranscript(st),
		model:   opts.Model,
	}
	m.chat.Namer = toolNamer(b) // tools read "demo tools › lookup" (toolnames.go)
	m.layout()
	m.syncKeys()
	return m
}

// Init implements tea.Model: it loads the conversation and the server's
// description in the background. Models load when the picker first opens.
func (m Model) Init() tea.Cmd {
	return tea.Batch(loadHistory(m.backend), loadInfo(m.backend), textarea.Blink, m.initInbox(), apps.Wait(m.opts.Apps), m.watchRunEnds())
}

// Update implements tea.Model. It is a router; each family of messages has
// its handler in an update_*.go file.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m = m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		m, cmd = m.updateKeyRuns(msg)
	case sendMsg:
		m = m.noteTurnStart(msg) // notify.go
		m, cmd = m.updateSend(msg)
	case chat.StreamMsg:
		note := m.notifyStream(msg) // notify.go
		m, cmd = m.updateStream(msg)
		m = m.noteToolRefusal(msg) // toolselect_root.go
		cmd = tea.Batch(cmd, note)
	case infoMsg:
		m = m.updateInfo(msg)
	case historyMsg:
		m = m.updateHistory(msg)
	case picker.ModelsMsg:
		m, cmd = m.updateModels(msg)
	case clipboard.CopiedMsg:
		m = m.updateCopied(msg)
	case conversationStartedMsg:
		m = m.updateConversationStarted(msg)
	case conversationOpenedMsg:
		m, cmd = m.updateConversationOpened(msg) // conv_list.go
	case apps.Msg:
		m, cmd = m.updateAppMessage(msg)
	case approval.ConsentAnsweredMsg:
		m, cmd = m.updateAppConsentAnswered(msg)
	case approval.InboxCountMsg:
		note := m.notifyInbox(msg) // notify.go
		m, cmd = m.updateInboxCount(msg)
		cmd = tea.Batch(cmd, note)
	case tea.FocusMsg:
		m = m.elsewhere(false) // the person was elsewhere (keyboard.go)
		m, cmd = m.updateFocus(msg)
	case tea.BlurMsg:
		m, cmd = m.updateFocus(msg)
	case notes.NotifiedMsg:
		m = m.updateNotified(msg)
	case notes.RunEndMsg:
		m, cmd = m.updateRunEnd(msg)
	case servers.ActiveMsg: // a server switched on: do its tools fit? (toolselect_root.go)
		m, cmd = m.updateOther(msg)
		cmd = tea.Batch(cmd, m.checkToolFit(msg))
	case toolFitMsg:
		m, cmd = m.updateToolFit(msg)
	case toolselect.ChosenMsg:
		m = m.updateToolsChosen(msg)
	case approval.InboxAnsweredMsg:
		m, cmd = m.updateInboxAnswered(msg)
	case settleTickMsg:
		m = m.updateSettleTick(msg)
	case phase.TickMsg:
		m, cmd = m.updatePhaseTick(msg)
	default:
		m, cmd = m.updateOther(msg)
	}
	var settle tea.Cmd
	_, keyed := msg.(tea.KeyMsg)
	m, settle = m.syncSettle(keyed)
	if settle != nil {
		cmd = tea.Batch(cmd, settle)
	}
	before := m.chatHeight
	m.syncKeys()
	m.layout()
	if m.chatHeight != before {
		// The help line grew or shrank (full help of another modal, an
		// error line): the modals get the new height.
		m.modals = m.modals.resize(m.common.Width, m.chatHeight)
	}
	return m, cmd
}

// resize applies a new terminal size to every part. Items re-wrap lazily:
// their caches are keyed by width, and only visible items render.
func (m Model) resize(width, height int) Model {
	changed := width != m.common.Width || height != m.common.Height
	m.common = m.common.sized(width, height)
	if changed {
		// The top modal may have disappeared or appeared again, and the
		// person was elsewhere (keyboard.go).
		m = m.elsewhere(false)
	}
	m.input.SetWidth(width)
	m.help.Width = width
	m.layout()
	m.modals = m.modals.resize(width, m.chatHeight)
	return m
}

// layout divides the height between transcript, rule, input, status line
// and help.
func (m *Model) layout() {
	helpLines := lipgloss.Height(m.renderHelp(m.help)) // help.go
	errLines := len(m.errorLine().Lines()) + len(m.phaseLines())
	m.chatHeight = max(m.common.Height-helpLines-errLines-1-inputHeight-1, 1)
	m.chat.SetSize(m.common.Width, m.chatHeight)
}

// helpKeys is what the help line shows: the top modal's bindings, else the
// chat screen's (STYLE habit 4). Key routing follows the same rule, so the
// two cannot disagree.
func (m Model) helpKeys() help.KeyMap {
	if e, ok := m.modals.topEntry(); ok {
		if _, every := grantsNow(e); e.held && every {
			return newHeldKeyMap(m.common.Keys.Chat.AnswerPane, m.common.Keys.Approval.Stop)
		}
		return e.modal
	}
	if m.help.ShowAll && lipgloss.Height(kit.FullHelpView(m.help, m.keys.FullHelp())) > m.common.Height/2 {
		return m.keys.ActingNow() // a small screen: the keys that act now
	}
	return m.keys
}

// syncKeys enables the bindings that act in the current state.
func (m *Model) syncKeys() {
	idle := m.run.phase == phaseIdle
	running := m.run.phase == phaseStarting || m.run.phase == phaseStreaming
	empty := m.input.Length() == 0
	m.keys.Send.SetEnabled(idle && !m.convPending)
	m.keys.Cancel.SetEnabled(running)
	m.keys.Quit.SetEnabled(!running)
	m.keys.Help.SetEnabled(empty)
	if m.help.ShowAll {
		m.keys.Help.SetHelp("?", "fewer keys")
	} else {
		m.keys.Help.SetHelp("?", "more keys")
	}
	m.keys.Top.SetEnabled(empty)
	m.keys.Bottom.SetEnabled(empty)
	answer := m.chat.LastAnswer() != nil
	m.keys.CopyAnswer.SetEnabled(answer)
	m.keys.CopyCode.SetEnabled(answer)
	m.keys.NewConversation.SetEnabled(m.canStartConversation())
	m.keys.Conversations.SetEnabled(m.conversationList() != nil)
	m.keys.OpenApp.SetEnabled(m.appKeyEnabled())
	last := m.chat.LastAnswer()
	m.keys.Continue.SetEnabled(idle && empty && !m.convPending && last != nil && last.CutOff)
	m.keys.OpenLatestApp.SetEnabled(m.opts.Apps != nil && m.apps.Any())
	m.keys.Runs.SetEnabled(m.runHistory() != nil)
	m.keys.Inbox.SetEnabled(m.inboxBackend() != nil)
	m.syncRecoveryKeys() // alt+r, alt+e (retry.go)
}

// runPhase is where the current run is.
type runPhase int

const (
	phaseIdle       runPhase = iota
	phaseStarting            // Backend.Send is in flight
	phaseStreaming           // events are arriving
	phaseCancelling          // cancelled; waiting for Done
)

// runState is the run in progress, if any.
type runState struct {
	id     int // increases with every send; stale messages are ignored
	phase  runPhase
	cancel context.CancelFunc
	user   *chat.Item // the person's message that started the run

	answer    *chat.Item // assistant text being streamed, nil between turns
	reasoning *chat.Item // reasoning being streamed, nil when none
	tools     []*chat.Item
	// approvals are the run's tool calls waiting for the person; the
	// first is on screen (update_approval.go, SPEC D4).
	approvals approval.Queue
	// promptCut is the last Usage's PromptCut: the server cut the prompt
	// on its own (SPEC A7, F4); said in the status line.
	promptCut int

	firstDelta time.Time // for the live rate
	lastDelta  time.Time
	deltas     int

	// turn is what the phase line says (phase.go, issue 18 item 1).
	turn turnPhase
}
