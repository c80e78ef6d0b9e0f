package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/mcpclient/mcptest"
	"vouch/tool"
)

// scriptAsker answers every question with answer (nil: accept the
// defaults), recording what it was asked and what vouch declined.
type scriptAsker struct {
	answer func(tool.Question) tool.Answer

	mu       sync.Mutex
	asked    []tool.Question
	declined []string
}

func (a *scriptAsker) Ask(_ context.Context, q tool.Question) (tool.Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	if a.answer != nil {
		return a.answer(q), nil
	}
	return acceptDefaults(q), nil
}

func (a *scriptAsker) Declined(_ tool.Question, why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.declined = append(a.declined, why)
}

func (a *scriptAsker) seen() ([]tool.Question, []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]tool.Question(nil), a.asked...), append([]string(nil), a.declined...)
}

// acceptDefaults is a person who keeps every default and sends.
func acceptDefaults(q tool.Question) tool.Answer {
	return tool.Answer{Action: tool.Accept, Content: q.DefaultContent()}
}

func askPeer(t *testing.T, era mcptest.Era, onDeclined func(string, string)) (*mcptest.Server, *Manager, ServerConfig) {
	t.Helper()
	srv := newServer(t, mcptest.Options{Era: era, Tools: append([]string{"echo"}, mcptest.AskTools()...)})
	m, _ := newManager(t, Options{OnDeclined: onDeclined})
	return srv, m, activeServer(t, m, "deploys", srv.URL)
}

var eras = []struct {
	name string
	era  mcptest.Era
}{{"2026-07-28 input_required", mcptest.EraBoth}, {"legacy on the call's stream", mcptest.EraLegacy}}

func callAsking(t *testing.T, m *Manager, cfg ServerConfig, name string, a tool.Asker) (Result, error) {
	t.Helper()
	ctx := tool.WithAsker(context.Background(), a)
	return m.Call(ctx, cfg.ID, name, nil, CallOptions{Timeout: 20 * time.Second, CorrelationID: "corr-1"})
}

// TestElicitFormBothEras covers SPEC B12: the form reaches the person with
// its fields typed, titled and their defaults filled in (SEP-1034), who
// asks named with its host, and what the person sent reaches the server —
// as input_required on a 2026-07-28 connection and as elicitation/create on
// the call's stream on a legacy one.
func TestElicitFormBothEras(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			srv, m, cfg := askPeer(t, e.era, nil)
			a := &scriptAsker{answer: func(q tool.Question) tool.Answer {
				ans := acceptDefaults(q)
				ans.Content["name"] = "Grace"
				return ans
			}}
			res, err := callAsking(t, m, cfg, "ask", a)
			if err != nil || res.IsError {
				t.Fatalf("Call() = %+v, %v", res, err)
			}
			asked, _ := a.seen()
			if len(asked) != 1 {
				t.Fatalf("asked %d times, want 1", len(asked))
			}
			q := asked[0]
			if q.Server != "deploys" || q.Host != "127.0.0.1" || q.Tool != "ask" || q.CorrelationID != "corr-1" || q.Message != "Deploy where?" {
				t.Errorf("question = %+v, want the server's label, host, tool, call and message", q)
			}
			kinds := map[string]tool.Field{}
			for _, f := range q.Fields {
				kinds[f.Name] = f
			}
			want := map[string]tool.Kind{"name": tool.KindText, "email": tool.KindEmail, "site": tool.KindURI, "day": tool.KindDate,
				"count": tool.KindInteger, "ratio": tool.KindNumber, "dry": tool.KindBoolean, "env": tool.KindEnum, "regions": tool.KindMulti, "nickname": tool.KindText}
			for name, k := range want {
				if kinds[name].Kind != k {
					t.Errorf("field %s kind = %q, want %q", name, kinds[name].Kind, k)
				}
			}
			if f := kinds["count"]; !f.Required || f.Default != 3.0 || *f.Min != 1 || *f.Max != 9 {
				t.Errorf("count = %+v, want required, default 3, 1..9", f)
			}
			if f := kinds["env"]; f.Default != "dev" || len(f.Options) != 2 || f.Options[1].Label != "Production" {
				t.Errorf("env = %+v, want the titled choices with default dev", f)
			}
			if f := kinds["regions"]; len(f.DefaultItems()) != 1 || f.MinItems != 1 {
				t.Errorf("regions = %+v, want default [eu], minItems 1", f)
			}
			if f := kinds["dry"]; f.Default != true {
				t.Errorf("dry default = %v, want true", f.Default)
			}
			for _, s := range []string{`"action":"accept"`, `"name":"Grace"`, `"count":3`, `"env":"dev"`, `"regions":["eu"]`, `"dry":true`} {
				if !strings.Contains(res.Text, s) {
					t.Errorf("the server's result %q does not carry %s", res.Text, s)
				}
			}
			if got := srv.Answers(); len(got) != 1 {
				t.Errorf("the server received %d answers, want 1", len(got))
			}
		})
	}
}

// TestElicitDeclineAndCancel covers SPEC B12: decline and cancel reach the
// server as such, with no content.
func TestElicitDeclineAndCancel(t *testing.T) {
	for _, e := range eras {
		for _, act := range []tool.Action{tool.Decline, tool.Cancel} {
			t.Run(e.name+"/"+string(act), func(t *testing.T) {
				srv, m, cfg := askPeer(t, e.era, nil)
				a := &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: act} }}
				if _, err := callAsking(t, m, cfg, "ask", a); err != nil {
					t.Fatalf("Call() error = %v", err)
				}
				got := srv.Answers()
				if len(got) != 1 || got[0] != `{"action":"`+string(act)+`"}` {
					t.Errorf("the server received %q, want one %s without content", got, act)
				}
			})
		}
	}
}

// TestElicitHostileText covers SPEC B12, D3: control sequences and bidi
// overrides in the message, titles, descriptions and choice labels are
// neutralized before the question leaves mcpclient.
func TestElicitHostileText(t *testing.T) {
	_, m, cfg := askPeer(t, mcptest.EraBoth, nil)
	a := &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: tool.Cancel} }}
	if _, err := callAsking(t, m, cfg, "ask_hostile", a); err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	asked, _ := a.seen()
	if len(asked) != 1 || len(asked[0].Fields) != 1 {
		t.Fatalf("asked = %+v, want one question with one field", asked)
	}
	f := asked[0].Fields[0]
	texts := []string{asked[0].Message, f.Title, f.Description, f.Options[0].Label}
	for _, s := range texts {
		if strings.ContainsAny(s, "\x1b\x07\u202e\u202c") {
			t.Errorf("hostile text reached the front end: %q", s)
		}
	}
	if f.Options[0].Value != "a" {
		t.Errorf("the choice's value = %q, want it sent back as the server named it", f.Options[0].Value)
	}
}

// TestElicitUnrenderableDeclined covers SPEC B12's bad input: a schema
// too wide, too deep, nested or with references is declined at once with
// one sentence the person is shown, and nothing hangs.
func TestElicitUnrenderableDeclined(t *testing.T) {
	cases := map[string]string{"ask_wide": "larger than", "ask_deep": "larger than", "ask_nested": "nested object"}
	for _, e := range eras {
		for name, want := range cases {
			t.Run(e.name+"/"+name, func(t *testing.T) {
				_, m, cfg := askPeer(t, e.era, nil)
				a := &scriptAsker{}
				start := time.Now()
				res, err := callAsking(t, m, cfg, name, a)
				asked, declined := a.seen()
				if len(asked) != 0 || len(declined) != 1 || !strings.Contains(declined[0], want) {
					t.Fatalf("asked %d, declined %q; want no question and one sentence with %q", len(asked), declined, want)
				}
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("the call took %s; a declined form must not wait", d)
				}
				// The server hears the reason: as an error on a legacy
				// stream (its tool fails), as a decline on input_required.
				if err == nil && !res.IsError && !strings.Contains(res.Text, `"action":"decline"`) {
					t.Errorf("result = %+v, want the server told of the decline", res)
				}
			})
		}
	}
}

// TestElicitSecretField covers SPEC B12: a field that asks for a token is
// flagged; the others are not.
func TestElicitSecretField(t *testing.T) {
	_, m, cfg := askPeer(t, mcptest.EraBoth, nil)
	a := &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: tool.Decline} }}
	if _, err := callAsking(t, m, cfg, "ask_secret", a); err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	asked, _ := a.seen()
	if len(asked) != 1 || !asked[0].AsksSecret() {
		t.Fatalf("asked = %+v, want a question flagged as asking for a secret", asked)
	}
	for _, f := range asked[0].Fields {
		if f.Secret != (f.Name == "api_token") {
			t.Errorf("field %s Secret = %v", f.Name, f.Secret)
		}
	}
}

func TestAsksSecret(t *testing.T) {
	for s, want := range map[string]bool{"password": true, "apiKey": true, "API token": true, "client_secret": true,
		"Your passphrase": true, "monkey": false, "do not give us your phone number, pin, or other sensitive info": false, "keyboard layout": false, "name": false, "tokenizer": false} {
		if got := asksSecret(s); got != want {
			t.Errorf("asksSecret(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestElicitFlood covers SPEC B12: one call may ask at most 3 times; the
// rest are declined, with a line for the transcript.
func TestElicitFlood(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			_, m, cfg := askPeer(t, e.era, nil)
			a := &scriptAsker{}
			_, _ = callAsking(t, m, cfg, "ask_flood", a) // what the server makes of the declines is its own
			asked, declined := a.seen()
			if len(asked) != maxAsksPerCall || len(declined) == 0 || !strings.Contains(declined[0], "at most 3") {
				t.Errorf("asked %d, declined %q; want %d questions and the rest declined", len(asked), declined, maxAsksPerCall)
			}
		})
	}
}

// TestElicitURL covers SPEC B12's URL mode: the URL reaches the front end
// whole, and the person's "done" reaches the server.
func TestElicitURL(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			srv, m, cfg := askPeer(t, e.era, nil)
			a := &scriptAsker{}
			if _, err := callAsking(t, m, cfg, "ask_url", a); err != nil {
				t.Fatalf("Call() error = %v", err)
			}
			asked, _ := a.seen()
			if len(asked) != 1 || !asked[0].IsURL() || asked[0].URL != mcptest.AskURL || asked[0].ElicitationID != "el-1" {
				t.Fatalf("asked = %+v, want the URL question", asked)
			}
			if got := srv.Answers(); len(got) != 1 || got[0] != `{"action":"accept"}` {
				t.Errorf("the server received %q, want accept", got)
			}
		})
	}
}

// TestElicitURLRequiredError covers SPEC B12: after -32042 the same URL
// question is asked, and once the person is done the call is re-sent once;
// a person who cancels leaves the call failed, not re-sent.
func TestElicitURLRequiredError(t *testing.T) {
	srv, m, cfg := askPeer(t, mcptest.EraLegacy, nil)
	a := &scriptAsker{}
	res, err := callAsking(t, m, cfg, "ask_url_error", a)
	if err != nil || res.Text != "connected" {
		t.Fatalf("Call() = %+v, %v; want the re-sent call's answer", res, err)
	}
	if asked, _ := a.seen(); len(asked) != 1 || asked[0].URL != mcptest.AskURL {
		t.Errorf("asked = %+v, want the URL question", asked)
	}
	if n := srv.Calls("ask_url_error"); n != 2 {
		t.Errorf("the tool ran %d times, want 2 (re-sent once)", n)
	}

	srv, m, cfg = askPeer(t, mcptest.EraLegacy, nil)
	a = &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: tool.Cancel} }}
	if _, err := callAsking(t, m, cfg, "ask_url_error", a); err == nil {
		t.Error("Call() after a cancelled URL step succeeded")
	}
	if n := srv.Calls("ask_url_error"); n != 1 {
		t.Errorf("the tool ran %d times after a cancel, want 1", n)
	}
}

// TestElicitOnGetStream covers SPEC B12 on the legacy GET stream: a
// request that arrives there while the server's call is in flight is
// asked of that call's person.
func TestElicitOnGetStream(t *testing.T) {
	srv, m, cfg := askPeer(t, mcptest.EraLegacy, nil)
	a := &scriptAsker{}
	res, err := callAsking(t, m, cfg, "ask_get", a)
	if err != nil || res.IsError {
		t.Fatalf("Call() = %+v, %v", res, err)
	}
	if asked, _ := a.seen(); len(asked) != 1 || asked[0].Tool != "ask_get" {
		t.Fatalf("asked = %+v, want the GET stream's question put to the call's person", asked)
	}
	if got := srv.Answers(); len(got) != 1 || got[0] != `{"action":"accept","content":{"ok":true}}` {
		t.Errorf("the server received %q", got)
	}
}

// TestElicitAfterCallDeclined covers SPEC B12: a request that arrives
// when no call of the server is in flight is declined, and said.
func TestElicitAfterCallDeclined(t *testing.T) {
	said := make(chan string, 1)
	srv, m, cfg := askPeer(t, mcptest.EraLegacy, func(_, why string) { said <- why })
	a := &scriptAsker{}
	if _, err := callAsking(t, m, cfg, "ask_after", a); err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	select {
	case why := <-said:
		if !strings.Contains(why, "no tool call") {
			t.Errorf("OnDeclined said %q", why)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a request after the call ended was not declined within 10 s")
	}
	if asked, _ := a.seen(); len(asked) != 0 {
		t.Errorf("the person was asked %d times after the call ended", len(asked))
	}
	deadline := time.Now().Add(5 * time.Second)
	for srv.Requests("ask_after:decline") != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the server records the answer after vouch posts it
	}
	if srv.Requests("ask_after:decline") != 1 {
		t.Error("the server never received the decline")
	}
}

// TestElicitWithoutAsker covers SPEC B12: a call whose context carries no
// Asker (a headless run with no terminal) is never asked; the request is
// declined at once.
func TestElicitWithoutAsker(t *testing.T) {
	srv, m, cfg := askPeer(t, mcptest.EraBoth, nil)
	start := time.Now()
	if _, err := m.Call(context.Background(), cfg.ID, "ask", nil, CallOptions{Timeout: 20 * time.Second}); err != nil {
		t.Fatalf("Call() error = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
	if got := srv.Answers(); len(got) != 0 {
		t.Errorf("the server received %q, want the call to stop as a tool error", got)
	}
}

// FuzzParseQuestion: no elicitation a server sends panics vouch, and no
// text of a question that reaches the person carries a control sequence
// or a bidi override (SPEC B12, D3).
func FuzzParseQuestion(f *testing.F) {
	f.Add([]byte(`{"message":"hi","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}`))
	f.Add([]byte(`{"mode":"url","message":"go","url":"https://a.test/x","elicitationId":"1"}`))
	f.Add([]byte(`{"requestedSchema":{"type":"object","properties":{"e":{"type":"array","items":{"anyOf":[{"const":"a","title":"\u001b[2J"}]}}}}}`))
	f.Add([]byte(`{"requestedSchema":{"type":"object","properties":{"n":{"type":"integer","minimum":1,"default":"x"}}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, d := parseQuestion(raw, tool.Question{})
		if d != nil {
			if d.Sentence == "" || strings.ContainsAny(d.Sentence, "\x1b\u202e") {
				t.Fatalf("decline sentence %q", d.Sentence)
			}
			return
		}
		texts := []string{q.Message, q.URL, q.ElicitationID}
		for _, fl := range q.Fields {
			texts = append(texts, fl.Title, fl.Description, fl.Label())
			for _, o := range fl.Options {
				texts = append(texts, o.Label)
			}
		}
		for _, s := range texts {
			if strings.ContainsAny(s, "\x1b\x07\u202e\u2066") {
				t.Fatalf("unneutralized text %q", s)
			}
		}
	})
}

// blockingAsker signals each question on asked and waits for its context:
// a person who has not answered yet.
type blockingAsker struct{ asked chan tool.Question }

func (a blockingAsker) Ask(ctx context.Context, q tool.Question) (tool.Answer, error) {
	a.asked <- q
	<-ctx.Done()
	return tool.Answer{}, context.Cause(ctx)
}

func (blockingAsker) Declined(tool.Question, string) {}

// TestElicitCompleteClosesURL covers SPEC B12: the server's
// notifications/elicitation/complete closes the URL question still open
// (its context ends with tool.ErrClosedByServer) and the server hears the
// person is done.
func TestElicitCompleteClosesURL(t *testing.T) {
	srv, m, cfg := askPeer(t, mcptest.EraLegacy, nil)
	a := blockingAsker{asked: make(chan tool.Question, 1)}
	done := make(chan error, 1)
	go func() {
		_, err := callAsking(t, m, cfg, "ask_url_wait", a)
		done <- err
	}()
	select {
	case q := <-a.asked:
		if q.ElicitationID != "el-3" {
			t.Fatalf("asked %+v", q)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the URL question was not asked")
	}
	if err := srv.CompleteElicitation("el-3"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Call() error = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the completed question did not close")
	}
	if got := srv.Answers(); len(got) != 1 || got[0] != `{"action":"accept"}` {
		t.Errorf("the server received %q, want accept", got)
	}
}

// TestElicitOutsideToldToCallsInFlight covers SPEC B12: a request no call
// of its server may answer is said to the calls in flight of other
// servers, so the run's transcript has the line.
func TestElicitOutsideToldToCallsInFlight(t *testing.T) {
	asking := newServer(t, mcptest.Options{Era: mcptest.EraLegacy, Tools: mcptest.AskTools()})
	slow := newServer(t, mcptest.Options{Tools: []string{"slow"}})
	m, _ := newManager(t, Options{})
	acfg := activeServer(t, m, "asks", asking.URL)
	scfg := activeServer(t, m, "slow one", slow.URL)
	a := &scriptAsker{}
	ctx, cancel := context.WithCancel(tool.WithAsker(context.Background(), a))
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = m.Call(ctx, scfg.ID, "slow", json.RawMessage(`{"ms":20000}`), CallOptions{Timeout: 30 * time.Second}) // cancelled below
	}()
	if _, err := m.Call(context.Background(), acfg.ID, "ask_after", nil, CallOptions{}); err != nil {
		t.Fatalf("Call(ask_after) error = %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, declined := a.seen(); len(declined) == 1 {
			if !strings.Contains(declined[0], "no tool call") || !strings.Contains(declined[0], "(asks)") {
				t.Errorf("the call in flight was told %q", declined[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the call in flight was never told of the declined request")
		}
		time.Sleep(10 * time.Millisecond) // the request arrives on the server's schedule
	}
	cancel()
	<-done
}
