package agent

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vouch/agent/agenttest"
)

// backgroundLog notes each background /tokenize (add_special false: a
// text counted after a run, not a request's prompt) sent while held is set.
type backgroundLog struct {
	held      atomic.Bool
	mu        sync.Mutex
	whileHeld int
	total     int
}

func (l *backgroundLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/tokenize" && req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte(`"add_special":false`)) {
			l.mu.Lock()
			l.total++
			if l.held.Load() {
				l.whileHeld++
			}
			l.mu.Unlock()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (l *backgroundLog) counts() (whileHeld, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.whileHeld, l.total
}

// TestBackgroundCountingWaitsForStream (SPEC A3, F4; issue 29 item 3):
// what a run leaves to count in the background is not counted while
// another reply of the same client streams; it is counted once that
// stream ended.
func TestBackgroundCountingWaitsForStream(t *testing.T) {
	gate := make(chan struct{})
	srv := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{{Repeat: true, Respond: func(req agenttest.Request) []agenttest.Step {
		if strings.Contains(req.LastUser(), "hold") {
			return []agenttest.Step{agenttest.Text("holding "), agenttest.Wait(gate), agenttest.Text("released")}
		}
		return []agenttest.Step{agenttest.Text("ok")}
	}}}}, agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
	defer srv.Close()
	log := &backgroundLog{}
	client := NewClient(srv.URL(), "", &http.Client{Transport: log})
	yielded := make(chan struct{}, 1)
	client.count.yielding = func() {
		select {
		case yielded <- struct{}{}:
		default:
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if _, err := client.Kind(ctx); err != nil {
		t.Fatal(err)
	}
	held := NewChat(ChatConfig{Client: client, Transcript: NewMemoryTranscript(), Now: fixedNow})
	heldEvents, err := held.Send(ctx, "demo-model", "hold this reply")
	if err != nil {
		t.Fatal(err)
	}
	for ev := range heldEvents { // until the held reply streams
		if _, ok := ev.(TextDelta); ok {
			break
		}
	}
	log.held.Store(true)

	counted := NewChat(ChatConfig{Client: client, Transcript: NewMemoryTranscript(longHistory(6)...),
		Tools: bulkyTools(4, nil), SystemPrompt: "You are vouch's assistant.", Now: fixedNow})
	if d := doneOf(t, counted, ctx, "leave texts to count"); d.Reason != StopDone {
		t.Fatalf("run ended %v: %v", d.Reason, d.Err)
	}
	select {
	case <-yielded:
	case <-time.After(testTimeout):
		t.Fatal("background counting did not wait for the reply in flight")
	}
	log.held.Store(false)
	close(gate)
	for ev := range heldEvents {
		if d, ok := ev.(Done); ok && d.Reason != StopDone {
			t.Fatalf("held run ended %v: %v", d.Reason, d.Err)
		}
	}
	client.waitCounting()
	whileHeld, total := log.counts()
	if whileHeld != 0 {
		t.Errorf("%d background counts were sent while another reply streamed, want 0", whileHeld)
	}
	if total == 0 {
		t.Error("nothing was counted after the reply ended; the texts the run left must still be counted")
	}
}

// doneOf sends text through chat and returns the run's Done.
func doneOf(t *testing.T, chat *Chat, ctx context.Context, text string) Done {
	t.Helper()
	events, err := chat.Send(ctx, "demo-model", text)
	if err != nil {
		t.Fatal(err)
	}
	var done Done
	for ev := range events {
		if d, ok := ev.(Done); ok {
			done = d
		}
	}
	return done
}
