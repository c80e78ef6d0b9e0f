package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"vouch/agent"
	"vouch/internal/panics"

	"vouch/mcpclient"
	"vouch/mcpclient/apps"
	"vouch/tool"
)

// AppsService connects MCP Apps (SPEC J) to the rest of vouch. A run's MCP
// tool bound to a ui:// resource also opens a view when called: the
// resource is read and checked, the view served by the loopback viewer,
// and the front end told (AppEvents). The views' requests come back here: a
// tools/call passes agent.Gate — the same policy, approval pane and audit
// as a run's calls — and ui/open-link and ui/message ask the person.
// Views exist only for tool calls of connected servers (SPEC J5). It is
// safe for concurrent use.
//
// E is the front end's event type: the service publishes each AppEvent
// as toFront makes it, on the channel AppEvents returns, so that the
// terminal interface reads its own types (cmd/vouch converts) and this
// package need not know them.
type AppsService[E any] struct {
	mgr     *mcpclient.Manager
	policy  *Policy
	version string
	getenv  func(string) string
	now     func() time.Time

	events  chan E
	toFront func(AppEvent) E
	life    context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup

	mu     sync.Mutex
	viewer *apps.Viewer
	views  []*appView // oldest first
	nextID int
	closed bool
	// internal are the panics the host's goroutines recovered; Close
	// reports them.
	internal []*panics.InternalError
}

// appView is one open view.
type appView struct {
	id     string
	bridge *apps.Bridge
	url    string
}

// maxAppViews bounds the open views; the oldest is torn down first.
const maxAppViews = 8

// NewAppsService returns the MCP Apps host over mgr's servers, deciding
// the views' calls with p; version is what the views are told the host
// is, getenv reads VOUCH_BROWSER and SSH_CONNECTION, and toFront turns
// each event into the front end's type.
func NewAppsService[E any](mgr *mcpclient.Manager, p *Policy, version string, getenv func(string) string, toFront func(AppEvent) E) *AppsService[E] {
	life, stop := context.WithCancel(context.Background())
	return &AppsService[E]{mgr: mgr, policy: p, version: version, getenv: getenv, now: time.Now,
		events: make(chan E, 16), toFront: toFront, life: life, stop: stop}
}

// AppEvents delivers the apps' events, in order (tui.AppHost).
func (s *AppsService[E]) AppEvents() <-chan E { return s.events }

// publish delivers ev to the TUI, waiting for it (events are
// must-deliver) until ctx or the service ends.
func (s *AppsService[E]) publish(ctx context.Context, ev AppEvent) bool {
	front := s.toFront(ev)
	select {
	case s.events <- front:
		return true
	case <-ctx.Done():
	case <-s.life.Done():
	}
	return false
}

// Wrap returns tools with every MCP tool bound to an app resource wrapped
// so that its calls open a view.
func (s *AppsService[E]) Wrap(tools []tool.Tool) []tool.Tool {
	out := make([]tool.Tool, len(tools))
	for i, t := range tools {
		out[i] = t
		serverID, name, ok := mcpclient.ParseIdentity(t.Def().Identity)
		if !ok {
			continue
		}
		if e, ok := s.mgr.AppTool(serverID, name); ok && e.ResourceURI() != "" {
			out[i] = &appTool[E]{s: s, inner: t, entry: e}
		}
	}
	return out
}

// appTool is an MCP tool with a view: the model reads the same text as
// from any call, and the view receives the result as the server sent it.
type appTool[E any] struct {
	s     *AppsService[E]
	inner tool.Tool
	entry mcpclient.ToolEntry
}

// Def implements tool.Tool.
func (t *appTool[E]) Def() tool.Def { return t.inner.Def() }

// Call implements tool.Tool. The view is prepared beside the call; a
// failure to show it never changes the result (SPEC J3).
func (t *appTool[E]) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	corr := tool.CorrelationID(ctx)
	if corr == "" {
		corr = uuid.NewString()
	}
	outcome := make(chan func(*apps.Bridge), 1)
	if !t.s.startView(t.entry, corr, args, outcome) {
		return t.inner.Call(ctx, args)
	}
	res, raw, err := t.s.mgr.CallRaw(ctx, t.entry.ServerID, t.entry.Name, args, mcpclient.CallOptions{
		CorrelationID: corr, Effect: t.s.policy.Effect(t.entry.Identity, t.entry.Digest), Reviewed: t.entry.Digest})
	if err != nil {
		reason := err.Error()
		outcome <- func(b *apps.Bridge) { b.SetToolCancelled(reason) }
		return tool.Result{}, err
	}
	outcome <- func(b *apps.Bridge) {
		if err := b.SetToolResult(raw); err != nil {
			b.SetToolCancelled(err.Error())
		}
	}
	return tool.Result{Text: res.Text, IsError: res.IsError}, nil
}

// startView prepares the view of one call in the background; outcome
// later carries what to tell it. false when the service is closed.
func (s *AppsService[E]) startView(e mcpclient.ToolEntry, corr string, args json.RawMessage, outcome <-chan func(*apps.Bridge)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.nextID++
	id := fmt.Sprintf("v%d", s.nextID)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		// A panic while the view opens (server, viewer or bridge code)
		// costs the view, never the session: the tool's result is
		// unchanged, the front end is told, Close reports it.
		defer panics.Recover("the app view", "opening the view of "+e.Name, func(ie *panics.InternalError) {
			s.recovered(ie)
			s.publish(s.life, AppProblem{CorrelationID: corr, Tool: e.Name, Server: e.ServerName,
				Sentence: "the view could not be shown: an internal error in vouch's apps host; the tool's result is unchanged — please report it"})
		})
		s.openView(id, e, corr, args, outcome)
	}()
	return true
}

// recovered keeps an internal error of the host's goroutines for Close.
func (s *AppsService[E]) recovered(e *panics.InternalError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.internal = append(s.internal, e)
}

// guardedTeardown is teardown in a goroutine of its own, a panic
// recovered and kept for Close.
func (s *AppsService[E]) guardedTeardown(v *appView, reason string) {
	defer panics.Recover("the app view", "tearing down view "+v.id, s.recovered)
	s.teardown(v, reason)
}

// resourceTimeout bounds reading and checking a view's resource.
const resourceTimeout = 30 * time.Second

func (s *AppsService[E]) openView(id string, e mcpclient.ToolEntry, corr string, args json.RawMessage, outcome <-chan func(*apps.Bridge)) {
	problem := func(err error) {
		s.publish(s.life, AppProblem{CorrelationID: corr, Tool: e.Name, Server: e.ServerName, Sentence: err.Error()})
	}
	ctx, cancel := context.WithTimeout(s.life, resourceTimeout)
	defer cancel()
	res, err := s.mgr.ReadUIResource(ctx, e.ServerID, e.ResourceURI())
	if err != nil {
		problem(err)
		return
	}
	csp, err := apps.ValidateCSP(res.CSP)
	if err != nil {
		problem(err)
		return
	}
	viewer, err := s.ensureViewer()
	if err != nil {
		problem(err)
		return
	}
	b := apps.NewBridge(apps.BridgeOptions{
		View: apps.ViewInfo{ID: id, ServerID: e.ServerID, ServerName: e.ServerName, Tool: e.ToolInfo,
			ResourceURI: e.ResourceURI(), CorrelationID: corr},
		Resource: res, CSP: csp, Host: s, HostVersion: s.version,
		Lookup: func(serverID, name string) (mcpclient.ToolInfo, bool) {
			t, ok := s.mgr.AppTool(serverID, name)
			return t.ToolInfo, ok
		},
	})
	b.SetToolInput(args)
	url, err := viewer.Open(b)
	if err != nil {
		problem(err)
		return
	}
	s.keep(&appView{id: id, bridge: b, url: url})
	ev := AppAvailable{ViewID: id, CorrelationID: corr, Tool: e.Name, Server: e.ServerName, URL: url}
	if s.getenv("SSH_CONNECTION") != "" {
		ev.SSH = sshLine(viewer)
	}
	s.publish(s.life, ev)
	select {
	case tell := <-outcome:
		tell(b)
	case <-s.life.Done():
	}
}

// sshLine is the command to run on the person's machine to reach the
// viewer through SSH: both ports forwarded to the same numbers.
func sshLine(v *apps.Viewer) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "<this host>"
	}
	return "ssh -N " + v.SSHForward() + " " + host
}

// ensureViewer starts the viewer on first use.
func (s *AppsService[E]) ensureViewer() (*apps.Viewer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, apps.ErrClosed
	}
	if s.viewer == nil {
		v, err := apps.NewViewer(apps.ViewerOptions{})
		if err != nil {
			return nil, err
		}
		s.viewer = v
	}
	return s.viewer, nil
}

// keep records an open view, tearing down the oldest beyond maxAppViews.
func (s *AppsService[E]) keep(v *appView) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.views = append(s.views, v)
	for len(s.views) > maxAppViews {
		old := s.views[0]
		s.views = s.views[1:]
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.guardedTeardown(old, "vouch shows at most 8 app views; this one was the oldest")
		}()
	}
}

// teardownWait bounds how long a view may take to answer
// ui/resource-teardown.
const teardownWait = time.Second

func (s *AppsService[E]) teardown(v *appView, reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), teardownWait)
	defer cancel()
	v.bridge.Teardown(ctx, reason)
	s.mu.Lock()
	viewer := s.viewer
	s.mu.Unlock()
	if viewer != nil {
		viewer.Forget(v.bridge)
	}
}

// OpenApp launches the view's URL (tui.AppHost): VOUCH_BROWSER, when set, is the command
// that opens a URL (its words, then the URL). vouch never starts a browser
// on its own otherwise — over SSH that would be the wrong machine.
func (s *AppsService[E]) OpenApp(_ context.Context, viewID string) (bool, error) {
	s.mu.Lock()
	var url string
	for _, v := range s.views {
		if v.id == viewID {
			url = v.url
		}
	}
	s.mu.Unlock()
	if url == "" {
		return false, errors.New("that app view is closed; call its tool again to get a new one")
	}
	return s.launch(url)
}

// OpenURL launches url with VOUCH_BROWSER, as OpenApp does (the URL a
// server asks the person to visit, SPEC B12); false when no browser is
// configured. vouch fetches nothing from it.
func (s *AppsService[E]) OpenURL(_ context.Context, url string) (bool, error) {
	return s.launch(url)
}

// launch starts the configured browser at url; false when none is.
func (s *AppsService[E]) launch(url string) (bool, error) {
	words := strings.Fields(s.getenv("VOUCH_BROWSER"))
	if len(words) == 0 {
		return false, nil
	}
	cmd := exec.Command(words[0], append(words[1:], url)...)
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("start the browser (VOUCH_BROWSER=%s): %w; fix the setting or open the URL yourself", words[0], err)
	}
	go func() { _ = cmd.Wait() }() // reap it; its exit status says nothing about the page
	return true, nil
}

// CallTool implements apps.Host: a view's call, already checked against
// SPEC J2, passes the same gate as a run's (policy, approval pane, audit)
// with a correlation ID of its own, then goes to the originating server.
func (s *AppsService[E]) CallTool(ctx context.Context, v apps.ViewInfo, ti mcpclient.ToolInfo, args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	call := agent.ToolCall{CorrelationID: uuid.NewString(), Identity: ti.Identity, Arguments: string(args)}
	def := tool.Def{Identity: ti.Identity, Description: ti.Description}
	g := agent.Gate{Decide: s.policy.DecideNow(), Audit: s.policy.Audit, Now: s.now,
		Ask: func(req agent.ApprovalRequested) (agent.Decision, bool) {
			reply := make(chan agent.Decision, 1)
			req.Reply = reply
			if !s.publish(ctx, AppApproval{Server: v.ServerName, Request: req}) {
				return agent.Decision{}, false
			}
			select {
			case d := <-reply:
				return d, true
			case <-ctx.Done():
				return agent.Decision{}, false
			}
		}}
	res, decided, ok := g.Check(call, def, args)
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: nobody answered the approval", apps.ErrDenied)
	case decided:
		return nil, fmt.Errorf("%w: %s", apps.ErrDenied, res.Text)
	}
	_, raw, err := s.mgr.CallRaw(ctx, v.ServerID, ti.Name, args, mcpclient.CallOptions{
		CorrelationID: call.CorrelationID, Effect: s.policy.Effect(ti.Identity, ti.Digest), Reviewed: ti.Digest})
	return raw, err
}

// OpenLink implements apps.Host: the person agrees in the terminal, then
// the configured browser opens the link (the TUI copies it otherwise).
func (s *AppsService[E]) OpenLink(ctx context.Context, v apps.ViewInfo, url string) error {
	if !s.consent(ctx, AppConsent{Tool: v.Tool.Name, Server: v.ServerName, Link: url}) {
		return fmt.Errorf("%w: the person did not open the link", apps.ErrDenied)
	}
	_, err := s.launch(url)
	return err
}

// Message implements apps.Host: on the person's consent the text goes
// into the TUI's input, to edit or send.
func (s *AppsService[E]) Message(ctx context.Context, v apps.ViewInfo, text string) error {
	if !s.consent(ctx, AppConsent{Tool: v.Tool.Name, Server: v.ServerName, Message: text}) {
		return fmt.Errorf("%w: the person did not add the message", apps.ErrDenied)
	}
	return nil
}

// consent asks the person and waits for the answer.
func (s *AppsService[E]) consent(ctx context.Context, ev AppConsent) bool {
	reply := make(chan bool, 1)
	ev.Reply = reply
	if !s.publish(ctx, ev) {
		return false
	}
	select {
	case yes := <-reply:
		return yes
	case <-ctx.Done():
		return false
	}
}

// Close tears every view down (each view may answer within a second),
// stops the viewer and waits for the service's goroutines; it reports
// the panics they recovered (SPEC H7).
func (s *AppsService[E]) Close() error {
	s.mu.Lock()
	s.closed = true
	views, viewer := s.views, s.viewer
	s.views = nil
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, v := range views {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.guardedTeardown(v, "vouch is closing")
		}()
	}
	wg.Wait()
	s.stop()
	s.wg.Wait()
	var err error
	if viewer != nil {
		err = viewer.Close()
	}
	return errors.Join(err, s.takeInternal())
}

// takeInternal returns, once, the panics the host's goroutines recovered
// as one error (nil: none).
func (s *AppsService[E]) takeInternal() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.internal) == 0 {
		return nil
	}
	last := s.internal[len(s.internal)-1]
	err := fmt.Errorf("%w in the MCP Apps host (%d, the last in %s); the session went on — please report it", panics.ErrInternal, len(s.internal), last.What)
	s.internal = nil
	return err
}
