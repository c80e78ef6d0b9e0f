package main

import (
	"context"
	"errors"

	"vouch/internal/sessiond"
)

func (h *sessionHost) startDetached(ctx context.Context, req sessiond.Request, send func(sessiond.Reply) error) error {
	return errors.New("not yet")
}

func (h *sessionHost) follow(ctx context.Context, req sessiond.Request, send func(sessiond.Reply) error) error {
	return errors.New("not yet")
}
