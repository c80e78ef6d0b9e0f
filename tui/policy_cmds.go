package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/policy"
	"vouch/tui/kit"
)

// The Cmds of the rule editor and of Settings › Policy. Like cmds.go, each
// captures copies of its inputs, calls the PolicyEditor inside the closure
// with a bounded context and returns a typed message; none reads or writes
// a model (STYLE habits 5 and 6).

// recentDecisions is how many audited decisions the Policy page shows.
const recentDecisions = 20

// policyMsg carries Rules and RecentDecisions for the load numbered seq.
// Each has its own error: one failing leaves the other on screen.
type policyMsg struct {
	seq        int
	rules      []policy.Rule
	rulesErr   error
	records    []policy.Record
	recordsErr error
	// changed names the rules whose tool changed (SPEC D8; PinChecker).
	changed map[string]bool
}

// ruleSavedMsg carries SaveRule. The editor that asked handles it; when
// the editor closed first, or once it has closed on success, the modal
// below receives it: the approval pane says the rule is stored, and the
// Policy page reloads.
type ruleSavedMsg struct {
	rule policy.Rule
	err  error
}

// ruleDeletedMsg carries DeleteRule.
type ruleDeletedMsg struct {
	identity string
	err      error
}

// policyEditor returns the Backend as a PolicyEditor, or nil when it does
// not implement the interface.
func (m Model) policyEditor() PolicyEditor {
	if pe, ok := m.backend.(PolicyEditor); ok {
		return pe
	}
	return nil
}

// loadPolicy asks pe for the rules and the most recent decisions.
func loadPolicy(pe PolicyEditor, seq int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		msg := policyMsg{seq: seq}
		msg.rules, msg.rulesErr = pe.Rules(ctx)
		if msg.rulesErr != nil {
			msg.rulesErr = fmt.Errorf("could not load the rules: %w", msg.rulesErr)
		}
		if pc, ok := pe.(PinChecker); ok && msg.rulesErr == nil {
			var err error
			if msg.changed, err = pc.ChangedTools(ctx); err != nil {
				msg.rulesErr = fmt.Errorf("could not check which classified tools changed: %w", err)
			}
		}
		msg.records, msg.recordsErr = pe.RecentDecisions(ctx, recentDecisions)
		if msg.recordsErr != nil {
			msg.recordsErr = fmt.Errorf("could not load the recent decisions: %w", msg.recordsErr)
		}
		return msg
	}
}

// saveRule stores r, which only the person's keys made (SPEC D1). The
// PolicyEditor's own sentence, such as "anything that writes asks", ends
// the error.
func saveRule(pe PolicyEditor, r policy.Rule) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := pe.SaveRule(ctx, r)
		if err != nil {
			err = fmt.Errorf("the rule was not saved: %w", err)
		}
		return ruleSavedMsg{rule: r, err: err}
	}
}

// deleteRule removes the rule of identity.
func deleteRule(pe PolicyEditor, identity string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), kit.LoadTimeout)
		defer cancel()
		err := pe.DeleteRule(ctx, identity)
		if err != nil {
			err = fmt.Errorf("could not delete the rule: %w", err)
		}
		return ruleDeletedMsg{identity: identity, err: err}
	}
}
