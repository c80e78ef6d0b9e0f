package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
	"vouch/workflow"
)

// memBlobs is a SkillBlobs over a map; it counts reads.
type memBlobs struct {
	mu    sync.Mutex
	blobs map[string][]byte
	reads int
}

func newMemBlobs() *memBlobs { return &memBlobs{blobs: map[string][]byte{}} }

func (b *memBlobs) SkillBlob(sum string) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reads++
	data, ok := b.blobs[sum]
	if !ok {
		return nil, errors.New("no such blob")
	}
	return append([]byte(nil), data...), nil
}

// put stores content and returns its file reference at path.
func (b *memBlobs) put(path, content string) tool.FrozenFile {
	sum := sha256.Sum256([]byte(content))
	h := hex.EncodeToString(sum[:])
	b.mu.Lock()
	defer b.mu.Unlock()
	b.blobs[h] = []byte(content)
	return tool.FrozenFile{Path: path, SHA256: h, Size: int64(len(content))}
}

// testSkill builds a local skill: SKILL.md with instructions and the
// declared resources, in order (path, content pairs).
func testSkill(b *memBlobs, name, desc, instructions string, resources ...string) tool.FrozenSkill {
	s := tool.FrozenSkill{Name: name, Origin: "local", Description: desc, SHA256: strings.Repeat("ab", 32),
		Instructions: b.put("SKILL.md", instructions)}
	for i := 0; i+1 < len(resources); i += 2 {
		s.Resources = append(s.Resources, b.put(resources[i], resources[i+1]))
	}
	return s
}

// roleDef is a valid Role definition.
func roleDef(instructions string, preferred ...string) workflow.Definition {
	return workflow.Definition{Name: "writer", Kind: workflow.KindRole, Revision: 3,
		Role: &workflow.Role{Instructions: instructions, PreferredTools: preferred}}
}

// startWorkflow runs RunWorkflow in a goroutine with test defaults, but
// no clock: the real callers (`vouch run --profile`, the scheduler) set
// none, and a test clock here once hid a nil-clock panic in delegate.
func startWorkflow(ctx context.Context, c *Client, spec RunSpec, w WorkflowSpec) <-chan Event {
	now := spec.Now
	spec = withTestDefaults(spec)
	spec.Now = now
	if spec.History == nil {
		spec.History = []Message{{Role: RoleUser, Content: "the task"}}
	}
	ch := make(chan Event)
	go func() { _ = c.RunWorkflow(ctx, spec, w, ch) }() // the error is Done.Err, asserted by the tests
	return ch
}

// collectWorkflow reads events until Done, answering approvals with
// answer (nil: allow).
func collectWorkflow(t *testing.T, ch <-chan Event, answer func(ApprovalRequested) Decision) ([]Event, Done) {
	t.Helper()
	return collectWith(t, ch, func(v ApprovalRequested) {
		d := Decision{Allow: true}
		if answer != nil {
			d = answer(v)
		}
		v.Reply <- d
	})
}

// runWorkflowScript runs w against a fresh scripted server.
func runWorkflowScript(t *testing.T, script agenttest.Script, spec RunSpec, w WorkflowSpec) (*agenttest.Server, []Event, Done) {
	t.Helper()
	srv := agenttest.New(script)
	t.Cleanup(srv.Close)
	evs, done := collectWorkflow(t, startWorkflow(context.Background(), NewClient(srv.URL(), "", nil), spec, w), nil)
	return srv, evs, done
}

// systemOf is the system message of a request.
func systemOf(r agenttest.Request) string {
	if len(r.Messages) > 0 && r.Messages[0].Role == "system" {
		return r.Messages[0].Content
	}
	return ""
}

// call is a turn that makes one tool call.
func call(name, args string) agenttest.Turn {
	return agenttest.Turn{Steps: []agenttest.Step{agenttest.ToolCall(0, "c", name, args)}}
}

// finished returns the ToolCallFinished events, in order.
func finished(evs []Event) []ToolCallFinished { return eventsOf[ToolCallFinished](evs) }

// partsOf lists the parts as "kind:name" in PartStarted order.
func partsOf(evs []Event) []string {
	var out []string
	for _, p := range eventsOf[PartStarted](evs) {
		out = append(out, string(p.Part.Kind)+":"+p.Part.Name)
	}
	return out
}
