package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/tool"
)

// everythingElicits covers SPEC B12 against the reference server: its
// form reaches the person with its defaults, what the person typed comes
// back in the tool's result; decline and cancel reach it as such; its URL
// request is shown whole and cancelled.
func everythingElicits(t *testing.T, m *Manager, serverID string) {
	t.Helper()
	call := func(name string, a tool.Asker, args ...string) Result {
		t.Helper()
		ctx := tool.WithAsker(context.Background(), a)
		raw := json.RawMessage(`{}`)
		if len(args) == 1 {
			raw = json.RawMessage(args[0])
		}
		res, err := m.Call(ctx, serverID, name, raw, CallOptions{Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	typed := &scriptAsker{answer: func(q tool.Question) tool.Answer {
		ans := acceptDefaults(q)
		for _, f := range q.Fields {
			if f.Kind == tool.KindText && f.Default == nil {
				ans.Content[f.Name] = "typed-by-vouch"
				break
			}
		}
		return ans
	}}
	res := call("trigger-elicitation-request", typed)
	asked, _ := typed.seen()
	if len(asked) != 1 || len(asked[0].Fields) == 0 {
		t.Fatalf("trigger-elicitation-request asked %+v", asked)
	}
	t.Logf("server-everything's form: %d fields; result %q", len(asked[0].Fields), res.Text)
	if !strings.Contains(res.Text, "typed-by-vouch") {
		t.Errorf("the result %q does not carry what the person typed", res.Text)
	}
	for _, act := range []tool.Action{tool.Decline, tool.Cancel} {
		res := call("trigger-elicitation-request", &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: act} }})
		if !strings.Contains(strings.ToLower(res.Text), string(act)) {
			t.Errorf("after %s the result reads %q", act, res.Text)
		}
	}
	const visit = "https://example.test/connect?step=1"
	url := &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: tool.Cancel} }}
	res = call("trigger-url-elicitation", url, `{"url":"`+visit+`"}`)
	asked, _ = url.seen()
	if len(asked) != 1 || asked[0].URL != visit {
		t.Fatalf("trigger-url-elicitation asked %+v, want the URL whole", asked)
	}
	if !strings.Contains(strings.ToLower(res.Text), "cancel") {
		t.Errorf("after cancel the result reads %q", res.Text)
	}
	// The -32042 path: the prerequisite URL is asked, the person is done,
	// the call is re-sent once and asks its own URL.
	done := &scriptAsker{answer: func(tool.Question) tool.Answer { return tool.Answer{Action: tool.Accept} }}
	res = call("trigger-url-elicitation", done, `{"url":"`+visit+`","errorPath":true}`)
	asked, _ = done.seen()
	if len(asked) != 2 || !asked[0].IsURL() || asked[1].URL != visit || res.IsError {
		t.Fatalf("the -32042 path asked %+v, result %+v", asked, res)
	}
	t.Logf("server-everything's -32042 prerequisite: %q; result %q", asked[0].URL, res.Text)
}
