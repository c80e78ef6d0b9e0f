package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"vouch/agent"
	"vouch/internal/app/localskills"
	"vouch/internal/view"
	"vouch/policy"
	"vouch/store"
	"vouch/tool"
)

// SettingModel is the settings key of the last model the person chose.
const SettingModel = "model"

// ErrNoServer says what to do when no model server answers.
var ErrNoServer = errors.New("no model server answered")

// ChatConfig is what a Chat is wired from; App.ChatConfig fills it from
// a session, and a front end sets the model server and model.
type ChatConfig struct {
	DB         *store.DB
	Transcript agent.Transcript
	// ModelURL is the configured base URL; empty means probe the usual
	// local servers (SPEC A1) on first use.
	ModelURL   string
	APIKey     string
	Model      string
	Candidates []string
	Tools      []tool.Tool
	// MoreTools is asked at each run for the MCP tools it offers.
	MoreTools func() []tool.Tool
	// ToolLabel names a tool's server in what the model reads — the
	// listing of deferred tools and tool_search results — as the person
	// labelled it, never its UUID (issue 18 item 9; nil: the identity's
	// server part).
	ToolLabel func(identity string) string
	// Decide returns the policy frozen for one run; PolicyDigest the
	// digest of the snapshot it froze last, which run history keeps.
	Decide       func() func(policy.Call) policy.Decision
	PolicyDigest func() PolicyDigest
	// Freeze, when set, stands for both: it freezes the policy for one
	// run and returns the digest of exactly that snapshot, which this
	// chat's run history keeps — so runs of two chats starting at once on
	// one session's policy never record each other's (issue 28 item 19).
	Freeze func() (func(policy.Call) policy.Decision, PolicyDigest)
	// Audit records every decision.
	Audit  func(policy.Record)
	Limits agent.Limits
	// NewConversation starts an empty conversation and returns its
	// transcript (nil: the chat cannot start one).
	NewConversation func() (agent.Transcript, error)
	// Describe tells the approval pane where a tool comes from.
	Describe func(identity string) (ToolDescription, error)
	HTTP     *http.Client
	// Kind, when set, names the server in the status line (e.g. "demo").
	Kind string
	// RunKind is what run history calls this chat's runs (default chat);
	// HistoryErr receives history write failures.
	RunKind    store.RunKind
	HistoryErr func(error)
}

// ChatConfig returns the chat wiring of this session: its database, the
// current conversation, its tools, policy and run history.
func (a *App) ChatConfig() ChatConfig {
	_, transcript := a.Current()
	return ChatConfig{
		DB:              a.db,
		Transcript:      transcript,
		NewConversation: a.NewConversation,
		Describe:        a.DescribeTool,
		MoreTools:       a.RunTools,
		ToolLabel:       a.mcp.Label,
		Freeze:          a.policy.FreezeDigest,
		Audit:           a.policy.Audit,
		Limits:          agent.DefaultLimits(),
		HistoryErr:      a.ReportHistory,
	}
}

// PolicyEditor is the rule editor over the chat's database (nil: every
// call answers ErrNoDatabase); now stamps saved rules.
func (c ChatConfig) PolicyEditor(now func() time.Time) *PolicyEditor {
	return newPolicyEditor(c.DB, now)
}

// SkillCatalog is the installed skills of the chat's database as Settings
// › Skills asks for them (nil database: every call answers
// localskills.ErrNoCatalog), reading packages with load.
func (c ChatConfig) SkillCatalog(load localskills.Loader) *localskills.Catalog {
	if c.DB == nil {
		return localskills.NewCatalog(nil, load)
	}
	return localskills.NewCatalog(c.DB, admitSkills(c.DB, load)) // a managed lock and signatures (SPEC N3, N5)
}

// ChatInfo is view.ChatInfo (internal/view), shared with the interface.
type ChatInfo = view.ChatInfo

// Chat is the conversation service the terminal interface and a headless
// run talk to: it finds the model server, keeps the chosen model, and
// starts runs on the current conversation, kept in run history (SPEC H7).
// Its methods may block on I/O and are safe for concurrent use.
type Chat struct {
	cfg ChatConfig

	mu     sync.Mutex
	client *agent.Client
	chat   *agent.Chat
	model  string
	// urlNote says the configured URL was taken with /v1 (model_url.go).
	urlNote string
	// prefetching counts the tail reads History started.
	prefetching sync.WaitGroup
	// frozen is the digest of the snapshot this chat's run froze last
	// (cfg.Freeze); a chat runs one message at a time.
	frozen PolicyDigest
}

// decide is the agent's Decide for this chat: cfg.Freeze, keeping its
// digest for the run's history, else cfg.Decide.
func (b *Chat) decide() func(policy.Call) policy.Decision {
	if b.cfg.Freeze == nil {
		if b.cfg.Decide == nil {
			return nil
		}
		return b.cfg.Decide()
	}
	d, digest := b.cfg.Freeze()
	b.mu.Lock()
	b.frozen = digest
	b.mu.Unlock()
	return d
}

// chatDecide is what the agent's chat calls for each run's policy: nil
// when the chat has none.
func (b *Chat) chatDecide() func() func(policy.Call) policy.Decision {
	if b.cfg.Freeze == nil && b.cfg.Decide == nil {
		return nil
	}
	return b.decide
}

// policyDigest is the digest run history records for this chat's run.
func (b *Chat) policyDigest() PolicyDigest {
	if b.cfg.Freeze == nil {
		if b.cfg.PolicyDigest == nil {
			return PolicyDigest{Error: "this run had no policy snapshot"}
		}
		return b.cfg.PolicyDigest()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.frozen
}

// NewChat returns the chat of cfg; it connects on first use.
func NewChat(cfg ChatConfig) *Chat {
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	if cfg.Candidates == nil {
		cfg.Candidates = agent.DefaultEndpoints()
	}
	return &Chat{cfg: cfg, model: cfg.Model}
}

// DB is the chat's database (nil in a chat without one).
func (b *Chat) DB() *store.DB { return b.cfg.DB }

// Connect returns the model client, probing local servers on first use. A
// failed probe is not remembered: the next call probes again.
func (b *Chat) Connect(ctx context.Context) (*agent.Client, error) {
	client, _, err := b.connect(ctx)
	return client, err
}

func (b *Chat) connect(ctx context.Context) (*agent.Client, *agent.Chat, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.client != nil {
		return b.client, b.chat, nil
	}
	url := b.cfg.ModelURL
	if url != "" {
		url, b.urlNote = resolveModelURL(ctx, b.cfg.HTTP, url)
	}
	if url == "" {
		eps := agent.Probe(ctx, b.cfg.HTTP, b.cfg.Candidates)
		for _, ep := range eps {
			if ep.Err == nil {
				url = ep.BaseURL
				break
			}
		}
		if url == "" {
			return nil, nil, fmt.Errorf("%w at %s; start llama-server, LM Studio, Ollama or vLLM, or pass --model-url", ErrNoServer, strings.Join(b.cfg.Candidates, ", "))
		}
	}
	b.client = agent.NewClient(url, b.cfg.APIKey, b.cfg.HTTP)
	if b.cfg.ModelURL != "" {
		b.client.URLGiven() // advice checks that address, not "pass --model-url"
	}
	if b.cfg.DB != nil {
		b.client.SetCountStore(b.cfg.DB) // token counts kept across runs (SPEC F4)
	}
	b.chat = b.newChat()
	return b.client, b.chat, nil
}

// newChat builds the chat over the current transcript; b.mu is held.
func (b *Chat) newChat() *agent.Chat {
	return agent.NewChat(agent.ChatConfig{
		Client: b.client,
		// Runs do not resend a message that was never answered.
		Transcript: answeredTranscript{b.cfg.Transcript},
		Tools:      b.cfg.Tools,
		MoreTools:  b.cfg.MoreTools,
		ToolLabel:  b.cfg.ToolLabel,
		Decide:     b.chatDecide(),
		Audit:      b.cfg.Audit,
		Limits:     b.cfg.Limits,
		// A stable prompt of vouch's own on every request (issue 17, SPEC A6).
		SystemPrompt: ChatSystemPrompt,
	})
}

// NewConversation starts an empty conversation; History and Send then work
// on it. The previous conversation stays stored.
func (b *Chat) NewConversation(context.Context) error {
	if b.cfg.NewConversation == nil {
		return errors.New("this session cannot start a new conversation")
	}
	t, err := b.cfg.NewConversation()
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.Transcript = t
	if b.client != nil {
		b.chat = b.newChat()
	}
	return nil
}

// DescribeTool tells the approval pane which server a tool comes from.
func (b *Chat) DescribeTool(_ context.Context, identity string) (ToolDescription, error) {
	if b.cfg.Describe == nil {
		return ToolDescription{}, errors.New("no description of tools is available here")
	}
	return b.cfg.Describe(identity)
}

func (b *Chat) currentModel() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.model
}

func (b *Chat) setModel(m string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.model = m
}

// Info resolves the server, its kind, the model and its context window.
func (b *Chat) Info(ctx context.Context) (ChatInfo, error) {
	client, _, err := b.connect(ctx)
	if err != nil {
		return ChatInfo{ServerURL: b.cfg.ModelURL, Warning: err.Error()}, err
	}
	info := ChatInfo{ServerURL: client.BaseURL(), ServerKind: b.cfg.Kind}
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
	b.mu.Lock()
	if info.Warning == "" {
		info.Warning = b.urlNote
	}
	b.mu.Unlock()
	b.prefetch(ctx)
	return info, nil
}

// Models lists the server's models.
func (b *Chat) Models(ctx context.Context) ([]agent.ModelInfo, error) {
	client, _, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	return client.Models(ctx)
}

// History returns the stored conversation's newest messages, to show
// (shownHistory, transcript_tail.go), and prefetches.
func (b *Chat) History(ctx context.Context) ([]agent.Message, error) {
	b.mu.Lock()
	t := b.cfg.Transcript
	b.mu.Unlock()
	b.prefetch(ctx)
	return shownHistory(ctx, t)
}

// prefetch starts preparing the current conversation's first request in
// the background once the chat is connected and its model known
// (agent.Chat.Prefetch: the tail a run reads, decoded and weighed), so
// that the first Enter after launch finds it done (issue 29 item 4). The
// interface asks for Info and History at once, in either order, so both
// start it; a second start finds the tail kept and reads only what was
// added.
func (b *Chat) prefetch(ctx context.Context) {
	b.mu.Lock()
	chat, model := b.chat, b.model
	b.mu.Unlock()
	if chat != nil && model != "" {
		b.prefetching.Go(func() { chat.Prefetch(context.WithoutCancel(ctx), model) })
	}
}

// Send starts a run on model (or the current model when empty) and
// remembers the choice. The run is kept in run history (SPEC H7).
func (b *Chat) Send(ctx context.Context, model, text string) (<-chan agent.Event, error) {
	events, _, err := b.Start(ctx, model, text)
	return events, err
}

// Start is Send, also returning the run's history recorder (nil without a
// database).
func (b *Chat) Start(ctx context.Context, model, text string) (<-chan agent.Event, *RunRecorder, error) {
	events, err := b.startChat(ctx, model, text)
	if err != nil || b.cfg.DB == nil {
		return events, nil, err
	}
	kind := b.cfg.RunKind
	if kind == "" {
		kind = store.RunChat
	}
	rec := store.RunRecord{Kind: kind, Task: text}
	b.mu.Lock()
	rec.ConversationID = ConversationOf(b.cfg.Transcript)
	b.mu.Unlock()
	rr := newRunRecorder(b.cfg.DB, rec, b.policyDigest, b.cfg.HistoryErr)
	return rr.Follow(ctx, events), rr, nil
}

func (b *Chat) startChat(ctx context.Context, model, text string) (<-chan agent.Event, error) {
	client, chat, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	if model == "" {
		model = b.currentModel()
	}
	if model == "" {
		// No model is chosen, often because the server did not answer when
		// the interface asked for its models: then that is the cause to
		// say, not the missing choice (issue 28 item 11).
		if _, err := client.Models(ctx); err != nil {
			return nil, err
		}
		return nil, errors.New("no model is chosen; press ctrl+o to pick one, or pass --model")
	}
	if model != b.currentModel() {
		b.setModel(model)
	}
	if b.cfg.DB != nil {
		if err := b.cfg.DB.SetSetting(SettingModel, model); err != nil {
			return nil, fmt.Errorf("remember the model: %w", err)
		}
		b.noteModel(model) // the conversation list's model column (conversations.go)
	}
	// The run says itself when its request goes out, which calls policy
	// allowed, how its MCP calls progress and what they ask the person
	// (agent.RequestSent, CallAllowed, ToolProgress, InputRequested; SPEC
	// B11, B12).
	return chat.Send(ctx, model, text)
}

// Resolver resolves, for profile runs, the model server and model of the
// chat: the profile's model, or the chat's current one.
func (b *Chat) Resolver() Resolver {
	return func(ctx context.Context, model string) (*agent.Client, string, error) {
		client, _, err := b.connect(ctx)
		if err != nil {
			return nil, "", err
		}
		if model != "" {
			return client, model, nil
		}
		info, err := b.Info(ctx)
		if err != nil {
			return nil, "", err
		}
		return client, info.Model, nil
	}
}
