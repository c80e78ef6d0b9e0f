package apps_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"vouch/internal/cdp"
	"vouch/internal/e2epeer"
	"vouch/mcpclient"
	"vouch/mcpclient/apps"
)

// e2eDir holds the npm peers (npm ci --prefix e2e).
const e2eDir = "../../e2e"

// basicServer is the MCP Apps example server from npm.
const basicServer = "node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js"

// needPeers skips (or, under VOUCH_E2E=1, fails) when chromium, node or
// the example server is missing, and returns the chromium binary.
func needPeers(t *testing.T) string {
	t.Helper()
	chromium, chromiumErr := e2epeer.Command("chromium", "apt-get install chromium")
	_, nodeErr := e2epeer.Command("node", "apt-get install nodejs")
	_, serverErr := e2epeer.File("the example server", filepath.Join(e2eDir, basicServer), "npm ci --prefix e2e")
	e2epeer.Require(t, chromiumErr, nodeErr, serverErr)
	return chromium
}

// startBasicServer runs the example server on a free loopback port and
// returns its endpoint.
func startBasicServer(t *testing.T) string {
	t.Helper()
	port := e2epeer.FreePort(t)
	cmd := exec.Command("node", basicServer)
	cmd.Dir = e2eDir
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	out := &strings.Builder{}
	var mu sync.Mutex
	cmd.Stdout = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	cmd.Stderr = cmd.Stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the example server: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			t.Fatalf("the example server did not listen within 30s: %v\n%s", err, out.String())
		}
		time.Sleep(20 * time.Millisecond) // polling a port that is not open yet; nothing to wait on
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// approverHost plays the person at the terminal: every tools/call waits
// on the test's decision before it reaches the server.
type approverHost struct {
	mgr      *mcpclient.Manager
	asked    chan string
	decision chan bool
}

func (h *approverHost) CallTool(ctx context.Context, v apps.ViewInfo, tool mcpclient.ToolInfo, args json.RawMessage) (json.RawMessage, error) {
	h.asked <- tool.Name
	select {
	case ok := <-h.decision:
		if !ok {
			return nil, fmt.Errorf("%w: the person denied the call", apps.ErrDenied)
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	_, raw, err := h.mgr.CallRaw(ctx, v.ServerID, tool.Name, args, mcpclient.CallOptions{Effect: mcpclient.EffectReadOnly})
	return raw, err
}

func (h *approverHost) OpenLink(context.Context, apps.ViewInfo, string) error {
	return apps.ErrDenied
}

func (h *approverHost) Message(context.Context, apps.ViewInfo, string) error {
	return apps.ErrDenied
}

// TestE2EBasicAppInChromium opens the example server's get-time view in
// headless Chromium through the viewer (SPEC J4): the view loads in the
// sandbox proxy, receives the tool result, and its own get-time call waits
// for the approver, reaching the server only once approved.
func TestE2EBasicAppInChromium(t *testing.T) {
	chromium := needPeers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	endpoint := startBasicServer(t)
	mgr := mcpclient.NewManager(mcpclient.Options{})
	t.Cleanup(func() { _ = mgr.Close() })
	cfg := mcpclient.NewServerConfig("basic", endpoint, "")
	cfg.Active = true
	if err := mgr.Put(cfg); err != nil {
		t.Fatal(err)
	}
	if err := mgr.Refresh(ctx, cfg.ID, mcpclient.NonInteractive); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	tool, ok := mgr.AppTool(cfg.ID, "get-time")
	if !ok || tool.ResourceURI() != "ui://get-time/mcp-app.html" {
		t.Fatalf("get-time = %+v, %v; want a tool bound to ui://get-time/mcp-app.html", tool.UI, ok)
	}
	res, err := mgr.ReadUIResource(ctx, cfg.ID, tool.ResourceURI())
	if err != nil {
		t.Fatalf("read the view: %v", err)
	}
	csp, err := apps.ValidateCSP(res.CSP)
	if err != nil {
		t.Fatal(err)
	}
	host := &approverHost{mgr: mgr, asked: make(chan string, 1), decision: make(chan bool, 1)}
	b := apps.NewBridge(apps.BridgeOptions{
		View: apps.ViewInfo{ID: "1", ServerID: cfg.ID, ServerName: cfg.Name, Tool: tool.ToolInfo,
			ResourceURI: tool.ResourceURI(), CorrelationID: "call-1"},
		Resource: res, CSP: csp, Host: host, HostVersion: "test",
		Lookup: func(serverID, name string) (mcpclient.ToolInfo, bool) {
			e, ok := mgr.AppTool(serverID, name)
			return e.ToolInfo, ok
		},
	})
	b.SetToolInput(json.RawMessage(`{}`))
	_, raw, err := mgr.CallRaw(ctx, cfg.ID, "get-time", nil, mcpclient.CallOptions{Effect: mcpclient.EffectReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	var first struct {
		StructuredContent struct {
			Time string `json:"time"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &first); err != nil || first.StructuredContent.Time == "" {
		t.Fatalf("first result %s: %v", raw, err)
	}
	if err := b.SetToolResult(raw); err != nil {
		t.Fatal(err)
	}

	v, err := apps.NewViewer(apps.ViewerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Close() })
	url, err := v.Open(b)
	if err != nil {
		t.Fatal(err)
	}

	browser, err := cdp.Launch(ctx, chromium, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(browser.Close)
	if err := browser.Open(ctx, url); err != nil {
		t.Fatal(err)
	}
	timeText := `(function(){const e=document.getElementById("server-time");return e?e.textContent:null})()`
	got, view, err := waitValue(ctx, browser, timeText, func(s string) bool { return s == first.StructuredContent.Time })
	if err != nil {
		t.Fatalf("the view never showed the tool result %q (last %s): %v\n%s", first.StructuredContent.Time, got, err, browser.Stderr())
	}
	if b.State() != apps.StateReady {
		t.Fatalf("bridge state %v, want ready", b.State())
	}

	// The view calls get-time itself: the call waits for the approver.
	if _, err := browser.Eval(ctx, view, `document.getElementById("get-time-btn").click(), true`); err != nil {
		t.Fatal(err)
	}
	select {
	case name := <-host.asked:
		if name != "get-time" {
			t.Fatalf("asked about %q", name)
		}
	case <-ctx.Done():
		t.Fatal("the view's tools/call never reached the approver")
	}
	if s, err := browser.Eval(ctx, view, timeText); err != nil || string(s) != fmt.Sprintf("%q", first.StructuredContent.Time) {
		t.Fatalf("while waiting for approval the view shows %s (%v), want the first result still", s, err)
	}
	host.decision <- true
	if got, _, err := waitValue(ctx, browser, timeText, func(s string) bool { return s != first.StructuredContent.Time && strings.HasPrefix(s, "20") }); err != nil {
		t.Fatalf("after approval the view shows %s: %v", got, err)
	}

	// Teardown is asked of the view, which answers, before closing.
	tctx, tcancel := context.WithTimeout(ctx, 10*time.Second)
	defer tcancel()
	b.Teardown(tctx, "the test is over")
	if tctx.Err() != nil {
		t.Fatalf("the view did not answer ui/resource-teardown")
	}
	if b.State() != apps.StateClosed {
		t.Fatalf("state after teardown %v", b.State())
	}
}

// waitValue waits until expr, evaluated in some context, is a string that
// satisfies ok.
func waitValue(ctx context.Context, b *cdp.Browser, expr string, ok func(string) bool) (string, cdp.Context, error) {
	wrapped := `(function(){const v=` + expr + `;return v})()`
	var last string
	for {
		v, c, err := b.WaitFor(ctx, wrapped)
		if err != nil {
			return last, c, err
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			last = s
			if ok(s) {
				return s, c, nil
			}
		}
		select {
		case <-ctx.Done():
			return last, c, ctx.Err()
		case <-time.After(100 * time.Millisecond): // the page updates on its own clock
		}
	}
}
