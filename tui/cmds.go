package tui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/agent"
	"vouch/tui/kit"
	"vouch/tui/picker"
)

// Every function in this file returns a tea.Cmd. They are the only place the
// interface does I/O: each captures copies of its inputs, calls the Backend
// (or writes to the terminal) inside the closure, and returns a typed result
// message. None of them reads or writes the Model (STYLE habits 5 and 6).

// maxCopyBytes bounds what one OSC 52 write carries; terminals cap it, and
// some drop the whole sequence beyond their cap.
const maxCopyBytes = 512 << 10

// errTooLongToCopy is returned when a copy exceeds maxCopyBytes.
var errTooLongToCopy = errors.New("too long to copy through the terminal (over 512 KiB)")

// infoMsg carries the result of Backend.Info.
type infoMsg struct {
	info BackendInfo
	err  error
}

// historyMsg carries the result of Backend.History.
type historyMsg struct {
	messages []agent.Message
	err      error
}

// sendMsg carries the result of Backend.Send for run.
type sendMsg struct {
	run    int
	events <-chan agent.Event
	err    error
}

// copiedMsg reports an OSC 52 copy.
type copiedMsg struct {
	what string
	err  error
}

func loadInfo(b StatusSource) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		info, err := b.Info(ctx)
		if err != nil {
			err = fmt.Errorf("could not reach the model server: %w", err)
		}
		return infoMsg{info: info, err: err}
	}
}

func loadHistory(b Conversation) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msgs, err := b.History(ctx)
		if err != nil {
			err = fmt.Errorf("could not load the conversation: %w", err)
		}
		return historyMsg{messages: msgs, err: err}
	}
}

func loadModels(b ModelLister) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		models, err := b.Models(ctx)
		if err != nil {
			err = fmt.Errorf("could not list models: %w", err)
		}
		return picker.ModelsMsg{Models: models, Err: err}
	}
}

// send starts a run. ctx is the run's own context: cancelling it (Esc,
// ctrl+c) cancels the run (SPEC A5).
func send(ctx context.Context, b Conversation, run int, model, text string) tea.Cmd {
	return func() tea.Msg {
		events, err := b.Send(ctx, model, text)
		if err != nil {
			err = fmt.Errorf("could not send the message: %w", err)
		}
		return sendMsg{run: run, events: events, err: err}
	}
}

// copyToClipboard writes text to the terminal's clipboard with OSC 52, which
// works over SSH because the terminal, not the host, owns the clipboard.
// Inside tmux the sequence is written twice: plain (for set-clipboard on) and
// wrapped in tmux's DCS passthrough (for allow-passthrough on); a terminal
// that sees both sets the same text twice.
func copyToClipboard(w io.Writer, what, text string, tmux bool) tea.Cmd {
	return func() tea.Msg {
		if len(text) > maxCopyBytes {
			return copiedMsg{what: what, err: errTooLongToCopy}
		}
		_, err := io.WriteString(w, osc52(text, tmux))
		if err != nil {
			err = fmt.Errorf("could not write to the terminal: %w", err)
		}
		return copiedMsg{what: what, err: err}
	}
}

// osc52 returns the sequence that sets the clipboard to text.
func osc52(text string, tmux bool) string {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
	if !tmux {
		return seq
	}
	return seq + "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}
