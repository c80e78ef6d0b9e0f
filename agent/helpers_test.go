package agent

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// fixedNow is the test clock.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// testTimeout bounds how long a test waits for a run; runs in these tests
// finish in milliseconds, so hitting it means a hang.
const testTimeout = 20 * time.Second

// withTestDefaults fills what a test's spec leaves empty: the fixed clock,
// the demo model and an 8192-token window.
func withTestDefaults(spec RunSpec) RunSpec {
	if spec.Now == nil {
		spec.Now = fixedNow
	}
	if spec.Model == "" {
		spec.Model = "demo-model"
	}
	if spec.ContextWindow == 0 {
		spec.ContextWindow = 8192
	}
	return spec
}

// startRun runs spec on c in a goroutine and returns its event channel.
func startRun(ctx context.Context, c *Client, spec RunSpec) <-chan Event {
	ch := make(chan Event)
	go c.Run(ctx, withTestDefaults(spec), ch)
	return ch
}

// collect reads events until Done; approvals are left unanswered.
func collect(t *testing.T, ch <-chan Event) ([]Event, Done) {
	t.Helper()
	return collectWith(t, ch, nil)
}

// collectWith reads events until Done, handing each ApprovalRequested to
// onApproval when it is set.
func collectWith(t *testing.T, ch <-chan Event, onApproval func(ApprovalRequested)) ([]Event, Done) {
	t.Helper()
	timer := time.NewTimer(testTimeout)
	defer timer.Stop()
	var evs []Event
	for {
		select {
		case ev := <-ch:
			evs = append(evs, ev)
			switch v := ev.(type) {
			case ApprovalRequested:
				if onApproval != nil {
					onApproval(v)
				}
			case Done:
				return evs, v
			}
		case <-timer.C:
			t.Fatalf("no Done after %s; events so far: %#v", testTimeout, evs)
		}
	}
}

// runScript runs one user message against a fresh scripted server.
func runScript(t *testing.T, script agenttest.Script, spec RunSpec, opts ...agenttest.Option) (*agenttest.Server, []Event, Done) {
	t.Helper()
	srv := agenttest.New(script, opts...)
	t.Cleanup(srv.Close)
	if spec.History == nil {
		spec.History = []Message{{Role: RoleUser, Content: "hello"}}
	}
	evs, done := collect(t, startRun(context.Background(), NewClient(srv.URL(), "", nil), spec))
	return srv, evs, done
}

// text joins the TextDelta events.
func text(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if d, ok := ev.(TextDelta); ok {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

// eventsOf returns the events of type T.
func eventsOf[T Event](evs []Event) []T {
	var out []T
	for _, ev := range evs {
		if v, ok := ev.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// funcTool is a Tool backed by a function.
type funcTool struct {
	def tool.Def
	fn  func(ctx context.Context, args json.RawMessage) (tool.Result, error)
}

func (f funcTool) Def() tool.Def { return f.def }
func (f funcTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	return f.fn(ctx, args)
}

// echoTool returns its arguments and counts calls on calls.
func echoTool(name string, calls chan<- json.RawMessage) tool.Tool {
	return funcTool{
		def: tool.Def{Identity: "builtin:" + name, Description: "echo", Parameters: json.RawMessage(`{"type":"object"}`)},
		fn: func(_ context.Context, args json.RawMessage) (tool.Result, error) {
			if calls != nil {
				calls <- args
			}
			return tool.Result{Text: "echo:" + string(args)}, nil
		},
	}
}

// closedURL returns a loopback base URL nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr + "/v1"
}
