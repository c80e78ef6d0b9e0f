package chat

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is the chat screen's bindings. Availability follows the state of
// the screen through SetEnabled (the root's syncKeys), so the help line
// shows exactly the keys that act now. The root routes them: the file
// named beside a binding is the root's (package tui).
type KeyMap struct {
	Send        key.Binding
	Newline     key.Binding
	Cancel      key.Binding // cancels a running turn (SPEC A5)
	Quit        key.Binding
	ModelPicker key.Binding
	Settings    key.Binding // Settings › Tools & Workflows (MCP servers, tools)
	CopyAnswer  key.Binding
	CopyCode    key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	HalfUp      key.Binding
	HalfDown    key.Binding
	Top         key.Binding
	Bottom      key.Binding
	Help        key.Binding

	// NewConversation starts a new, empty conversation; it acts only when
	// the Backend implements Conversations.
	NewConversation key.Binding
	// Runs opens the run history and Inbox the approvals inbox (SPEC H6,
	// H7, L2); each acts only when the Backend implements RunHistory or
	// Inbox.
	Runs  key.Binding
	Inbox key.Binding
	// OpenApp ("o") opens an MCP App view just announced, while the input
	// is empty; OpenLatestApp (alt+o) opens the latest one at any time.
	OpenApp       key.Binding
	OpenLatestApp key.Binding
	// Continue (alt+c) asks the model to continue the last reply when it
	// was cut off at its length limit (SPEC A7); it acts only then, with
	// the input empty and no run going.
	Continue key.Binding
	// Conversations (ctrl+p) opens the conversation list (SPEC L5); it
	// acts only when the Backend implements ConversationList.
	// HistoryUp and HistoryDown are ↑/↓: the input's history, or the
	// transcript's scrolling (tui/history says which, when).
	Conversations key.Binding
	HistoryUp     key.Binding
	HistoryDown   key.Binding
	// ExpandError (alt+e) shows a long error whole, or folds it again
	// (tui/errline); Retry (alt+r) sends the last message that got no
	// answer again (retry.go). Both act only then.
	ExpandError key.Binding
	Retry       key.Binding
	// Detach (ctrl+\, as in dtach) lets this terminal go while the session
	// process goes on (SPEC K4; attach.go); ctrl+a and ctrl+b are the
	// prefixes of screen and tmux.
	Detach key.Binding
	// AnswerPane (tab) moves the keyboard from the message to a pane that
	// appeared while the person was typing (SPEC D7, keyboard.go). The root
	// routes it while a pane waits for it; on the chat screen it is only
	// said, in the full help.
	AnswerPane key.Binding
	// ChooseTools (alt+t) opens the tool selector for the conversation
	// (toolselect_root.go): costliest first after a refusal for the tool
	// budget, by server otherwise.
	ChooseTools key.Binding
	// TakeOver (ctrl+t) is a viewer's key, which the session's client
	// routes (SPEC K4): it is only said, in the full help.
	TakeOver key.Binding
}

// DefaultKeyMap returns the chat screen's default bindings.
//
// ctrl+x opens Settings: it is no editing key of the input (ctrl+t, the
// first idea, transposes characters there), and not ctrl+s or ctrl+q, which
// terminals may take for flow control.
//
// ctrl+l starts a new conversation: the textarea leaves it free, and in a
// shell it clears the screen, which is close to what it does here.
//
// ctrl+r opens the run history: the textarea leaves it free. ctrl+e opens
// the approvals inbox: it is only the textarea's second key for the end of
// the line, which End still does while the input has text. ctrl+a and
// ctrl+b were no choice: they are the prefixes of screen and tmux.
//
// alt+c continues a reply cut off at its length limit: it is the
// textarea's "capitalize word", which does nothing on the empty input the
// key needs.
//
// alt+e (the whole error) and alt+r (retry) are bound to nothing in the
// textarea, so neither takes a typed letter: "e" or "r" on an empty input
// is the first letter of a message.
//
// Some keys are shared with the input on purpose and enabled by state:
// Home/End move the transcript only while the input is empty, "?" toggles
// help only while the input is empty, and ctrl+c cancels a running turn,
// clears a non-empty input, or quits when there is nothing else to stop.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("ctrl+j", "newline")),
		Cancel:      key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel"), key.WithDisabled()),
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		ModelPicker: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "model")),
		Settings:    key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "settings")),
		CopyAnswer:  key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy answer"), key.WithDisabled()),
		CopyCode:    key.NewBinding(key.WithKeys("alt+y", "ctrl+g"), key.WithHelp("ctrl+g", "copy code"), key.WithDisabled()),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/dn", "page up/down")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		HalfUp:      key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up")),
		HalfDown:    key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down")),
		Top:         key.NewBinding(key.WithKeys("home", "ctrl+home"), key.WithHelp("home", "top")),
		Bottom:      key.NewBinding(key.WithKeys("end", "ctrl+end"), key.WithHelp("end", "bottom")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),

		NewConversation: key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "new conversation"), key.WithDisabled()),
		Runs:            key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "run history"), key.WithDisabled()),
		Inbox:           key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "approvals inbox"), key.WithDisabled()),
		OpenApp:         key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open app"), key.WithDisabled()),
		OpenLatestApp:   key.NewBinding(key.WithKeys("alt+o"), key.WithHelp("alt+o", "open app"), key.WithDisabled()),
		Continue:        key.NewBinding(key.WithKeys("alt+c"), key.WithHelp("alt+c", "continue reply"), key.WithDisabled()),
		Conversations:   key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "conversations"), key.WithDisabled()),
		HistoryUp:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "history · scroll")),
		HistoryDown:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next prompt")),
		ExpandError:     key.NewBinding(key.WithKeys("alt+e"), key.WithHelp("alt+e", "whole error"), key.WithDisabled()),
		Retry:           key.NewBinding(key.WithKeys("alt+r"), key.WithHelp("alt+r", "retry"), key.WithDisabled()),
		Detach:          key.NewBinding(key.WithKeys("ctrl+\\"), key.WithHelp("ctrl+\\", "detach")),
		AnswerPane:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "answer a pane")),
		ChooseTools:     key.NewBinding(key.WithKeys("alt+t"), key.WithHelp("alt+t", "choose tools")),
		TakeOver:        key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "take over (a viewer)")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Cancel, k.Continue, k.Retry, k.ExpandError, k.OpenApp, k.Newline, k.ModelPicker, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap: "?" is every key (issue 28 item 2).
// A key that acts only in some moments (esc, alt+c, alt+r, alt+e, o,
// alt+o, the copies) is listed even when it does not act now;
// one the Backend does not offer at all stays out. TestFullHelpIsEveryKey
// fails when a binding of KeyMap is missing from it.
func (k KeyMap) FullHelp() [][]key.Binding {
	sometimes := func(b key.Binding) key.Binding {
		b.SetEnabled(true) // what it does when it does not act now: the status line says (unboundAlt)
		return b
	}
	return [][]key.Binding{
		{k.Send, k.Newline, sometimes(k.Cancel), sometimes(k.Continue), sometimes(k.Retry), sometimes(k.ExpandError), k.Quit, k.Help},
		{k.ModelPicker, k.NewConversation, k.Conversations, k.Settings, k.ChooseTools, sometimes(k.CopyAnswer), sometimes(k.CopyCode)},
		{k.Runs, k.Inbox, sometimes(k.OpenApp), sometimes(k.OpenLatestApp), k.Detach, k.TakeOver},
		{k.HistoryUp, k.PageUp, k.HalfUp, k.HalfDown, k.Top, k.Bottom, k.AnswerPane}, // HistoryUp's and PageUp's help name ↓ and pgdn too
	}
}

// ActingNow is k with its full help cut to the keys that act now, for a
// screen too small for every key (SPEC L6).
func (k KeyMap) ActingNow() help.KeyMap { return actingNow{k} }

type actingNow struct{ KeyMap }

// FullHelp implements help.KeyMap: the bindings as they stand, so that
// those off now are left out.
func (k actingNow) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Send, k.Newline, k.Cancel, k.Continue, k.Retry, k.ExpandError, k.Quit, k.Help},
		{k.ModelPicker, k.NewConversation, k.Conversations, k.Settings, k.CopyAnswer, k.CopyCode},
		{k.Runs, k.Inbox, k.OpenLatestApp, k.Detach},
		{k.HistoryUp, k.PageUp, k.HalfUp, k.HalfDown, k.Top, k.Bottom, k.AnswerPane}}
}

// Unbound is what the status line says for a key pressed that did not act
// (an alt key, issue 28 item 1): what its binding does and that it does
// not apply now, or that it is bound to nothing. The words are the key
// map's own.
func (k KeyMap) Unbound(pressed string) string {
	for _, g := range k.FullHelp() {
		for _, b := range g {
			if slices.Contains(b.Keys(), pressed) {
				return pressed + " (" + b.Help().Desc + ") does not apply now."
			}
		}
	}
	return pressed + " does nothing here; ? shows every key."
}
