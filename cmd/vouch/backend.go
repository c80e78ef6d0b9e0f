package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"vouch/agent"

	"vouch/internal/app"
	"vouch/policy"
	"vouch/store"
	"vouch/tool"
	"vouch/tui"
)

// settingModel is the settings key of the last model the person chose.
const settingModel = "model"

// backendConfig is what the TUI's backend is wired from.
type backendConfig struct {
	db         *store.DB
	transcript agent.Transcript
	// modelURL is the configured base URL; empty means probe the usual local
	// servers (SPEC A1) on first use.
	modelURL   string
	apiKey     string
	model      string
	candidates []string
	tools      []tool.Tool
	// moreTools is asked at each run for the MCP tools it offers.
	moreTools func() []tool.Tool
	// toolLabel names a tool's server in listings and tool_search.
	toolLabel func(identity string) string
	// decide returns the policy frozen for one run; policyDigest the
	// digest of the snapshot it froze last, which run history keeps.
	decide       func() func(policy.Call) policy.Decision
	policyDigest func() app.PolicyDigest
	// audit records every decision.
	audit  func(policy.Record)
	limits agent.Limits
	// newConversation starts an empty conversation and returns its
	// transcript (nil: the TUI cannot start one).
	newConversation func() (agent.Transcript, error)
	// describe tells the approval pane where a tool comes from.
	describe func(identity string) (tui.ToolDescription, error)
	hc       *http.Client
	// kind, when set, names the server in the status line (e.g. "demo").
	kind string
	// runKind is what run history calls this backend's runs (default
	// chat); historyErr receives history write failures.
	runKind    store.RunKind
	historyErr func(error)
	// workflows serves the TUI's Agent Workflows panes (nil: none).
	workflows *workflowsTUI
}

// backend implements tui.Backend over the agent and the store. Its methods
// run inside tea.Cmds, never in Update or View.
type backend struct {
	cfg backendConfig
	// The Agent Workflows capabilities (tui.Workflows, Profiles,
	// RunHistory, Inbox); nil-safe.
	*workflowsTUI

	mu     sync.Mutex
	client *agent.Client
	chat   *agent.Chat
	model  string
}

var (
	_ tui.Backend       = (*backend)(nil)
	_ tui.ToolDescriber = (*backend)(nil)
	_ tui.Conversations = (*backend)(nil)
)

func newBackend(cfg backendConfig) *backend {
	if cfg.hc == nil {
		cfg.hc = &http.Client{}
	}
	if cfg.candidates == nil {
		cfg.candidates = agent.DefaultEndpoints()
	}
	return &backend{cfg: cfg, model: cfg.model, workflowsTUI: cfg.workflows}
}

// errNoServer says what to do when no model server answers.
var errNoServer = errors.New("no model server answered")

// connect returns the model client, probing local servers on first use. A
// failed probe is not remembered: the next call probes again.
func (b *backend) connect(ctx context.Context) (*agent.Client, *agent.Chat, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.client != nil {
		return b.client, b.chat, nil
	}
	url := b.cfg.modelURL
	if url == "" {
		eps := agent.Probe(ctx, b.cfg.hc, b.cfg.candidates)
		for _, ep := range eps {
			if ep.Err == nil {
				url = ep.BaseURL
				break
			}
		}
		if url == "" {
			return nil, nil, fmt.Errorf("%w at %s; start llama-server, LM Studio, Ollama or vLLM, or pass --model-url", errNoServer, strings.Join(b.cfg.candidates, ", "))
		}
	}
	b.client = agent.NewClient(url, b.cfg.apiKey, b.cfg.hc)
	b.chat = b.newChat()
	return b.client, b.chat, nil
}

// newChat builds the chat over the current transcript; b.mu is held.
func (b *backend) newChat() *agent.Chat {
	return agent.NewChat(agent.ChatConfig{
		Client:     b.client,
		Transcript: b.cfg.transcript,
		Tools:      b.cfg.tools,
		MoreTools:  b.cfg.moreTools,
		Decide:     b.cfg.decide,
		Audit:      b.cfg.audit,
		Limits:     b.cfg.limits,
	})
}

// NewConversation starts an empty conversation; History and Send then work
// on it. The previous conversation stays stored.
func (b *backend) NewConversation(context.Context) error {
	if b.cfg.newConversation == nil {
		return errors.New("this session cannot start a new conversation")
	}
	t, err := b.cfg.newConversation()
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.transcript = t
	if b.client != nil {
		b.chat = b.newChat()
	}
	return nil
}

// DescribeTool tells the approval pane which server a tool comes from.
func (b *backend) DescribeTool(_ context.Context, identity string) (tui.ToolDescription, error) {
	if b.cfg.describe == nil {
		return tui.ToolDescription{}, errors.New("no description of tools is available here")
	}
	return b.cfg.describe(identity)
}

func (b *backend) currentModel() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.model
}

func (b *backend) setModel(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.model = m
}

// Info resolves the server, its kind, the model and its context window.
func (b *backend) Info(ctx context.Context) (tui.BackendInfo, error) {
	client, _, err := b.connect(ctx)
	if err != nil {
		return tui.BackendInfo{ServerURL: b.cfg.modelURL, Warning: err.Error()}, err
	}
	info := tui.BackendInfo{ServerURL: client.BaseURL(), ServerKind: b.cfg.kind}
	if info.ServerKind == "" {
		kind, err := client.Kind(ctx)
		if err != nil {
			info.Warning = err.Error()
			return info, err
		}
		info.ServerKind = kind
	}
	model := b.currentModel()
	if model == "" {
		models, err := client.Models(ctx)
		if err != nil {
			info.Warning = err.Error()
			return info, err
		}
		if len(models) == 0 {
			err := fmt.Errorf("the model server at %s lists no models; load one there, or pass --model", client.BaseURL())
			info.Warning = err.Error()
			return info, err
		}
		model = models[0].ID
		b.setModel(model)
	}
	info.Model = model
	n, _, err := client.ContextWindow(ctx, model)
	if err != nil {
		info.Warning = err.Error()
	}
	info.ContextWindow = n
	return info, nil
}

// Models lists the server's models.
func (b *backend) Models(ctx context.Context) ([]agent.ModelInfo, error) {
	client, _, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	return client.Models(ctx)
}

// History returns the stored conversation.
func (b *backend) History(ctx context.Context) ([]agent.Message, error) {
	b.mu.Lock()
	t := b.cfg.transcript
	b.mu.Unlock()
	return t.Messages(ctx)
}

// Send starts a run on model (or the current model when empty) and
// remembers the choice. The run is kept in run history (SPEC H7).
func (b *backend) Send(ctx context.Context, model, text string) (<-chan agent.Event, error) {
	events, _, err := b.send(ctx, model, text)
	return events, err
}

// send is Send, also returning the run's history recorder (nil without a
// database).
func (b *backend) send(ctx context.Context, model, text string) (<-chan agent.Event, *app.RunRecorder, error) {
	events, err := b.startChat(ctx, model, text)
	if err != nil || b.cfg.db == nil {
		return events, nil, err
	}
	kind := b.cfg.runKind
	if kind == "" {
		kind = store.RunChat
	}
	rec := store.RunRecord{Kind: kind, Task: text}
	b.mu.Lock()
	rec.ConversationID = app.ConversationOf(b.cfg.transcript)
	b.mu.Unlock()
	rr := app.NewRunRecorder(b.cfg.db, rec, b.cfg.policyDigest, b.cfg.historyErr)
	return rr.Follow(ctx, events), rr, nil
}

func (b *backend) startChat(ctx context.Context, model, text string) (<-chan agent.Event, error) {
	_, chat, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	if model == "" {
		model = b.currentModel()
	}
	if model == "" {
		return nil, errors.New("no model is chosen; press ctrl+o to pick one, or pass --model")
	}
	if model != b.currentModel() {
		b.setModel(model)
	}
	if b.cfg.db != nil {
		if err := b.cfg.db.SetSetting(settingModel, model); err != nil {
			return nil, fmt.Errorf("remember the model: %w", err)
		}
	}
	return chat.Send(ctx, model, text)
}
