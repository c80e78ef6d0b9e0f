package mcpclient

import (
	"context"
	"log/slog"
)

// redactHandler is a slog.Handler that removes a secret from every message
// and attribute before passing the record on. Connections with a secret
// give mcp-go a logger wrapped in it, since mcp-go logs server answers
// (which a careless server may use to echo a credential).
type redactHandler struct {
	h      slog.Handler
	secret string
}

// redactingLogger wraps l so that secret never reaches its output.
func redactingLogger(l *slog.Logger, secret string) *slog.Logger {
	if secret == "" {
		return l
	}
	return slog.New(redactHandler{h: l.Handler(), secret: secret})
}

func (r redactHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return r.h.Enabled(ctx, level)
}

func (r redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, redact(rec.Message, r.secret), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = r.attr(a)
	}
	return redactHandler{h: r.h.WithAttrs(clean), secret: r.secret}
}

func (r redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{h: r.h.WithGroup(name), secret: r.secret}
}

// attr returns a with the secret removed from its value (every kind is
// rendered as a string when it contains the secret).
func (r redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		group := v.Group()
		clean := make([]any, len(group))
		for i, g := range group {
			clean[i] = r.attr(g)
		}
		return slog.Group(a.Key, clean...)
	}
	if s := v.String(); redact(s, r.secret) != s {
		return slog.String(a.Key, redact(s, r.secret))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
