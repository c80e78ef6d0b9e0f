package tool

import (
	"context"
	"encoding/json"
	"errors"
)

// ErrInvalid means a tool offered to a run cannot be described to the model
// (empty or duplicate identity, invalid parameter schema).
var ErrInvalid = errors.New("invalid tool definition")

// Def is what the model is told about a tool.
type Def struct {
	Identity    string
	Description string
	Parameters  json.RawMessage
}

// Tool is an executable tool in a run. Implementations must be safe to call
// from the run's goroutine and must honour ctx.
type Tool interface {
	Def() Def
	Call(ctx context.Context, args json.RawMessage) (Result, error)
}

// Result is a tool's output as ordinary text.
type Result struct {
	Text    string
	IsError bool
}

// correlationKey carries a tool call's correlation ID in its context.
type correlationKey struct{}

// WithCorrelationID returns ctx carrying the correlation ID of the tool call
// about to run. Tool.Call has no parameter for it; a run sets it before every
// call so a tool (an MCP call, say) can carry the run's own ID (SPEC B7, H7).
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, correlationKey{}, id)
}

// CorrelationID returns the correlation ID set by WithCorrelationID, or "".
func CorrelationID(ctx context.Context) string {
	id, _ := ctx.Value(correlationKey{}).(string)
	return id
}
