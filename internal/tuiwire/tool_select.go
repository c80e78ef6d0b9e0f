package tuiwire

import (
	"context"
	"errors"

	"vouch/tui/toolselect"
)

var _ toolselect.Source = (*Backend)(nil)

// errNoToolSession is what the tool selector says without a session.
var errNoToolSession = errors.New("the tool selector needs vouch's session; choose tools in Settings › Tools instead")

// ToolChoices implements toolselect.Source over the session's current
// conversation (app.ToolSelection).
func (b *Backend) ToolChoices(_ context.Context, window int) (toolselect.Choices, error) {
	if b.session == nil {
		return toolselect.Choices{}, errNoToolSession
	}
	sel, err := b.session.ToolSelection(window)
	if err != nil {
		return toolselect.Choices{}, err
	}
	return sel, nil
}

// ApplyTools implements toolselect.Source (app.ApplyToolSelection).
func (b *Backend) ApplyTools(_ context.Context, all, off []string, asDefault bool) error {
	if b.session == nil {
		return errNoToolSession
	}
	return b.session.ApplyToolSelection(all, off, asDefault)
}
