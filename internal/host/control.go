package host

import (
	"context"
	"fmt"

	"vouch/internal/sessiond"
)

// control answers a command's requests to the session: a detached run and
// following one (`vouch run --detach`, `vouch runs show --follow`).
func (h *sessionHost) control(ctx context.Context, req sessiond.Request, send func(sessiond.Reply) error) error {
	switch req.Op {
	case sessiond.OpRun:
		return h.startDetached(ctx, req, send)
	case sessiond.OpFollow:
		return h.follow(ctx, req, send)
	}
	return fmt.Errorf("the session does not know the request %q; run the same vouch binary as the session", req.Op)
}
