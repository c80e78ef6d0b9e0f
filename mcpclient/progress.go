package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"vouch/tool"
)

// Progress is one progress notification of a running tool call (SPEC B11),
// for a front end to show. Message is the server's text, neutralized and
// capped; Total is 0 when the server did not say.
type Progress struct {
	ServerID      string
	Tool          string
	CorrelationID string
	Progress      float64
	Total         float64
	Message       string
}

// ProgressFunc receives a call's progress notifications. It is called on
// mcp-go's notification goroutine, so it must not block: a front end sends
// the value on to its event loop (a Bubble Tea program's Send from outside
// Update, or a buffered channel) and returns.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress returns a context whose tool calls report progress to fn
// (SPEC B11). Calls made through the tool.Tool adapter (AgentTool,
// AgentTools) report to the run's own reporter (tool.WithProgress) when
// ctx has none of these; CallOptions.OnProgress takes precedence.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressFrom(ctx context.Context) ProgressFunc {
	if fn, ok := ctx.Value(progressKey{}).(ProgressFunc); ok {
		return fn
	}
	if report := tool.ProgressReporter(ctx); report != nil {
		return func(p Progress) { report(tool.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message}) }
	}
	return nil
}

// maxProgressMessage caps a progress message.
const maxProgressMessage = 200

// cancelWait bounds the notifications/cancelled vouch sends for an
// abandoned call.
const cancelWait = time.Second

// watchProgress registers fn for token until the returned func is called.
func (c *conn) watchProgress(token string, fn func(Progress)) (stop func()) {
	if fn == nil {
		return func() {}
	}
	c.mu.Lock()
	if c.progress == nil {
		c.progress = map[string]func(Progress){}
	}
	c.progress[token] = fn
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.progress, token)
		c.mu.Unlock()
	}
}

// onProgress delivers a notifications/progress to the call whose token it
// names; notifications for other tokens are dropped.
func (c *conn) onProgress(n mcp.JSONRPCNotification) {
	raw, err := json.Marshal(n.Params.AdditionalFields)
	if err != nil {
		return
	}
	var p struct {
		Token    any     `json:"progressToken"`
		Progress float64 `json:"progress"`
		Total    float64 `json:"total"`
		Message  string  `json:"message"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return
	}
	token, ok := p.Token.(string)
	if !ok {
		return
	}
	c.mu.RLock()
	fn := c.progress[token]
	c.mu.RUnlock()
	if fn != nil {
		fn(Progress{Progress: p.Progress, Total: p.Total, Message: cleanText(redact(p.Message, c.secret), maxProgressMessage)})
	}
}

// cancelRequest tells the server that vouch abandoned request id (SPEC
// B11), within cancelWait. A failure is only logged: the call has already
// failed, and says so.
func (c *conn) cancelRequest(id int64, reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), cancelWait)
	defer cancel()
	err := c.tr.SendNotification(ctx, mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationCancelled),
		Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
	}})
	if err != nil {
		c.logger.Debug("mcp: cannot send notifications/cancelled", "err", err)
	}
}

// callTimeoutSentence says that a tool ran past its call timeout and what
// to do (SPEC B11).
func callTimeoutSentence(timeout time.Duration) string {
	return fmt.Sprintf("The tool ran past the call timeout of %s, so vouch cancelled it (it may have done part of its work); if it needs longer, raise the server's call timeout (vouch server timeout NAME --call 5m).", roundDuration(timeout))
}
