package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"vouch/tool"
)

// Elicitation (SPEC B12). vouch declares form and URL elicitation and
// serves it in both eras: an elicitation/create request that arrives on a
// call's own SSE response or on the legacy GET stream, an input_required
// result (SEP-2322) answered by retrying the call with inputResponses, and
// the -32042 "URL elicitation required" error, after which the call is
// re-sent once. Only a server whose tool call is in flight, and whose
// caller's context carries a tool.Asker, may ask; at most maxAsksPerCall
// times per call. Anything else is declined at once and the Asker (or
// Options.OnDeclined, outside a call) is told why.

// maxAsksPerCall bounds how many questions one tool call may put to the
// person.
const maxAsksPerCall = 3

// maxInputRounds bounds how many times one call is re-sent with
// inputResponses.
const maxInputRounds = maxAsksPerCall + 1

// respondWait bounds the POST that carries an answer back to the server.
const respondWait = 5 * time.Second

// codeURLElicitationRequired is the JSON-RPC error a server sends when a
// call needs the person to visit a URL first.
const codeURLElicitationRequired = -32042

// asking is a call in flight that may ask the person.
type asking struct {
	asker tool.Asker
	base  tool.Question
	ctx   context.Context // the call's
	n     atomic.Int32
}

type askingKey struct{}

func askingFrom(ctx context.Context) *asking {
	a, _ := ctx.Value(askingKey{}).(*asking)
	return a
}

// startAsking registers a call that may ask, and returns ctx carrying it
// (so a request on the call's own SSE response finds it) and a stop func.
func (c *conn) startAsking(ctx context.Context, id int64, base tool.Question) (context.Context, *asking, func()) {
	asker := tool.AskerFrom(ctx)
	if asker == nil {
		return ctx, nil, func() {}
	}
	a := &asking{asker: asker, base: base, ctx: ctx}
	c.mu.Lock()
	if c.asks == nil {
		c.asks = map[int64]*asking{}
	}
	c.asks[id] = a
	c.mu.Unlock()
	return context.WithValue(ctx, askingKey{}, a), a, func() {
		c.mu.Lock()
		delete(c.asks, id)
		c.mu.Unlock()
	}
}

// inFlight is the latest call in flight on this connection that may ask,
// for a request that arrives on the GET stream; nil when there is none.
func (c *conn) inFlight() *asking {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var latest *asking
	var at int64
	for id, a := range c.asks {
		if latest == nil || id > at {
			latest, at = a, id
		}
	}
	return latest
}

// answer is what vouch sends back for one elicitation.
type answer struct {
	result   map[string]any // an ElicitResult
	declined *declined      // set when vouch declined without asking
}

func (a answer) json() json.RawMessage {
	b, err := json.Marshal(a.result)
	if err != nil {
		return json.RawMessage(`{"action":"decline"}`)
	}
	return b
}

func action(act tool.Action) answer { return answer{result: map[string]any{"action": string(act)}} }

// elicit asks the person the question in params on behalf of a, or
// declines it; it blocks until the person answers or the call ends.
func (c *conn) elicit(a *asking, params []byte) answer {
	if a == nil {
		why := "vouch declined a request from the server for input: no tool call of it that may ask you is in flight."
		if c.onDeclined != nil {
			c.onDeclined(why)
		}
		return answer{result: map[string]any{"action": "decline"}, declined: decline("%s", why)}
	}
	q, d := parseQuestion(params, a.base)
	if d == nil && a.n.Add(1) > maxAsksPerCall {
		d = decline("vouch declined the server's request for input: a tool call may ask at most %d times.", maxAsksPerCall)
	}
	if d != nil {
		a.asker.Declined(q, d.Sentence)
		return answer{result: map[string]any{"action": "decline", "_meta": map[string]any{"vouch/declined": d.Sentence}}, declined: d}
	}
	ctx := a.ctx
	if q.IsURL() {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := c.watchComplete(q.ElicitationID, cancel)
		defer stop()
	}
	ans, err := a.asker.Ask(ctx, q)
	switch {
	case errors.Is(context.Cause(ctx), tool.ErrClosedByServer):
		return action(tool.Accept)
	case err != nil:
		return action(tool.Cancel)
	case ans.Action == tool.Accept && !q.IsURL():
		return answer{result: map[string]any{"action": "accept", "content": ans.Content}}
	case ans.Action == tool.Accept, ans.Action == tool.Decline:
		return action(ans.Action)
	}
	return action(tool.Cancel)
}

// watchComplete routes notifications/elicitation/complete for id to done.
func (c *conn) watchComplete(id string, done context.CancelCauseFunc) (stop func()) {
	c.mu.Lock()
	if c.completes == nil {
		c.completes = map[string]context.CancelCauseFunc{}
	}
	c.completes[id] = done
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.completes, id)
		c.mu.Unlock()
	}
}

// onComplete closes the URL question a notifications/elicitation/complete
// names.
func (c *conn) onComplete(n mcp.JSONRPCNotification) {
	id, _ := n.Params.AdditionalFields["elicitationId"].(string)
	c.mu.RLock()
	done := c.completes[id]
	c.mu.RUnlock()
	if done != nil {
		done(tool.ErrClosedByServer)
	}
}

// serveRequest answers a request the server sends vouch: a ping, an
// elicitation (served, SPEC B12), or anything else (refused at once,
// SPEC B9). An elicitation's answer may take the person longer than
// mcp-go waits for a handler, so vouch posts it itself.
func (c *conn) serveRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method != string(mcp.MethodElicitationCreate) {
		return refuseServerRequest(ctx, req)
	}
	a := askingFrom(ctx)
	if a == nil {
		a = c.inFlight()
	}
	params, err := json.Marshal(req.Params)
	if err != nil {
		params = nil
	}
	ans := c.elicit(a, params)
	resp := transport.NewJSONRPCResultResponse(req.ID, ans.json())
	if ans.declined != nil && a != nil {
		// The reason goes to the server as well as to the person.
		resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INVALID_PARAMS, ans.declined.Sentence, nil)
	}
	c.respond(resp)
	return nil, nil
}

// respond posts one JSON-RPC response to the server.
func (c *conn) respond(resp *transport.JSONRPCResponse) {
	body, err := json.Marshal(resp)
	if err != nil {
		c.logger.Debug("mcp: cannot encode an answer", "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), respondWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		c.logger.Debug("mcp: cannot post an answer", "err", err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id := c.tr.GetSessionId(); id != "" && !c.modern {
		req.Header.Set(transport.HeaderKeySessionID, id)
	}
	if c.version != "" {
		req.Header.Set(transport.HeaderKeyProtocolVersion, c.version)
	}
	if c.headerName != "" && c.headerValue != "" {
		req.Header.Set(c.headerName, c.headerValue)
	}
	r, err := c.hc.Do(req)
	if err != nil {
		c.logger.Debug("mcp: the answer did not reach the server", "err", err)
		return
	}
	if err := r.Body.Close(); err != nil {
		c.logger.Debug("mcp: close", "err", err)
	}
}

// fulfil answers an input_required result's requests (SEP-2322): each
// elicitation is asked, in the order the server wrote them. ok is false
// when a request is one vouch does not serve (sampling, roots) or the
// result is malformed: then the result stands as the tool error it is.
func (c *conn) fulfil(a *asking, raw json.RawMessage) (responses map[string]json.RawMessage, state string, ok bool) {
	var requests []byte
	if eachField(raw, func(k string, v []byte) bool {
		switch k {
		case "inputRequests":
			requests = v
		case "requestState":
			state = smallString(v, 64<<10)
		}
		return true
	}) != nil || len(requests) == 0 {
		return nil, "", false
	}
	responses = map[string]json.RawMessage{}
	ok = true
	err := eachField(requests, func(id string, v []byte) bool {
		var r struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(v, &r) != nil || r.Method != string(mcp.MethodElicitationCreate) {
			ok = false
			return false
		}
		responses[id] = c.elicit(a, r.Params).json()
		return true
	})
	return responses, state, ok && err == nil
}

// urlRequired asks the URL questions of a -32042 error; it reports whether
// the person said they are done with every one, so the call may be re-sent.
func (c *conn) urlRequired(a *asking, err error) bool {
	var rpc *rpcError
	if a == nil || !errors.As(err, &rpc) || rpc.Code != codeURLElicitationRequired || len(rpc.Data) == 0 {
		return false
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if json.Unmarshal(rpc.Data, &data) != nil || len(data.Elicitations) == 0 {
		return false
	}
	for _, e := range data.Elicitations {
		if got := c.elicit(a, e); got.result["action"] != string(tool.Accept) {
			return false
		}
	}
	return true
}
