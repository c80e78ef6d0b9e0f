package tool

import "context"

// Progress is a running tool call's latest progress (SPEC B11): Progress
// of Total (0: unknown) and a message, neutralised by the provider.
type Progress struct {
	Progress, Total float64
	Message         string
}

// progressKey carries a call's progress reporter in its context.
type progressKey struct{}

// WithProgress returns ctx whose tool call reports its progress to fn. A
// run sets it before every call; a provider that hears of progress (an
// MCP server's notifications) calls fn, which never blocks.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressReporter returns the reporter WithProgress put on ctx, or nil.
func ProgressReporter(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}
