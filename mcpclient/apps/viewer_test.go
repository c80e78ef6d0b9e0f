package apps

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fetch sends one request straight to the viewer, with the Host header
// and extra headers given.
func fetch(t *testing.T, method, url, host string, header map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func newTestViewer(t *testing.T) (*Viewer, *Bridge, string) {
	t.Helper()
	v, err := NewViewer(ViewerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := v.Close(); err != nil {
			t.Errorf("close viewer: %v", err)
		}
	})
	b := newTestBridge(&fakeHost{})
	url, err := v.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	return v, b, url
}

var sandboxURL = regexp.MustCompile(`src="(http://localhost:\d+/s/[A-Za-z0-9_-]+)"`)

// TestViewerRefusals: every request is checked for its Host (no DNS
// rebinding), its Origin and its token (SPEC J4).
func TestViewerRefusals(t *testing.T) {
	v, b, url := newTestViewer(t)
	hostOrigin, boxOrigin := v.Origins()
	hostAddr := strings.TrimPrefix(hostOrigin, "http://")
	boxAddr := strings.TrimPrefix(boxOrigin, "http://")
	_, boxPort := v.Ports()
	boxDirect := "http://127.0.0.1:" + itoa(boxPort)

	resp, page := fetch(t, "GET", url, "", nil, "")
	if resp.StatusCode != 200 {
		t.Fatalf("the host page: %d", resp.StatusCode)
	}
	m := sandboxURL.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no sandbox frame in the host page:\n%s", page)
	}
	box := m[1]
	boxPath := strings.TrimPrefix(box, boxOrigin)
	hostPath := strings.TrimPrefix(url, hostOrigin)
	if strings.Contains(box, strings.TrimPrefix(hostPath, "/v/")) {
		t.Fatal("the sandbox URL carries the host page's token")
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"frame-ancestors 'none'", "frame-src " + boxOrigin, "script-src 'nonce-", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("host page CSP lacks %q: %s", want, csp)
		}
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("host page Referrer-Policy %q", resp.Header.Get("Referrer-Policy"))
	}

	resp, _ = fetch(t, "GET", boxDirect+boxPath, boxAddr, nil, "")
	if resp.StatusCode != 200 {
		t.Fatalf("the sandbox page: %d", resp.StatusCode)
	}
	if got, want := resp.Header.Get("Content-Security-Policy"), b.opts.CSP.Header(hostOrigin); got != want {
		t.Errorf("sandbox CSP %q, want %q", got, want)
	}

	tests := []struct {
		name   string
		method string
		url    string
		host   string
		header map[string]string
		want   int
	}{
		{"host page without token", "GET", hostOrigin + "/v/", "", nil, 404},
		{"host page with a wrong token", "GET", hostOrigin + "/v/AAAA", "", nil, 404},
		{"host page at the root", "GET", hostOrigin + "/", "", nil, 404},
		{"host page under a rebinding name", "GET", url, "evil.example:" + strings.Split(hostAddr, ":")[1], nil, 421},
		{"host page as localhost", "GET", url, "localhost:" + strings.Split(hostAddr, ":")[1], nil, 421},
		{"host page framed cross-site", "GET", url, "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"host page with a foreign Origin", "GET", url, "", map[string]string{"Origin": "http://evil.example"}, 403},
		{"send without Origin", "POST", url + "/send", "", nil, 403},
		{"send with a foreign Origin", "POST", url + "/send", "", map[string]string{"Origin": "http://evil.example"}, 403},
		{"send from the sandbox origin", "POST", url + "/send", "", map[string]string{"Origin": boxOrigin}, 403},
		{"send with the sandbox token", "POST", hostOrigin + "/v/" + strings.TrimPrefix(boxPath, "/s/") + "/send", "", map[string]string{"Origin": hostOrigin}, 404},
		{"poll with a foreign Origin", "POST", url + "/poll", "", map[string]string{"Origin": "null"}, 403},
		{"send by GET", "GET", url + "/send", "", nil, 405},
		{"sandbox without token", "GET", boxDirect + "/s/", boxAddr, nil, 404},
		{"sandbox with the host token", "GET", boxDirect + "/s/" + strings.TrimPrefix(hostPath, "/v/"), boxAddr, nil, 404},
		{"sandbox by its IP", "GET", boxDirect + boxPath, "127.0.0.1:" + itoa(boxPort), nil, 421},
		{"sandbox under a rebinding name", "GET", boxDirect + boxPath, "evil.example:" + itoa(boxPort), nil, 421},
		{"sandbox with a foreign Origin", "GET", boxDirect + boxPath, boxAddr, map[string]string{"Origin": "http://evil.example"}, 403},
		{"sandbox as a top-level page", "GET", boxDirect + boxPath, boxAddr, map[string]string{"Sec-Fetch-Dest": "document"}, 403},
		{"sandbox by POST", "POST", boxDirect + boxPath, boxAddr, nil, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := fetch(t, tt.method, tt.url, tt.host, tt.header, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}`)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if strings.Contains(body, "<script") {
				t.Fatalf("a refused request got a page: %s", body)
			}
		})
	}
	if b.State() != StateProxy {
		t.Fatalf("a refused request reached the bridge: state %v", b.State())
	}
}

// TestViewerRelay: the host page's POSTs reach the bridge and its polls
// carry the bridge's messages; a closed view is gone.
func TestViewerRelay(t *testing.T) {
	v, b, url := newTestViewer(t)
	hostOrigin, _ := v.Origins()
	same := map[string]string{"Origin": hostOrigin}
	resp, _ := fetch(t, "POST", url+"/send", "", same, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`)
	if resp.StatusCode != 204 {
		t.Fatalf("send: %d", resp.StatusCode)
	}
	resp, body := fetch(t, "POST", url+"/poll", "", same, "")
	if resp.StatusCode != 200 {
		t.Fatalf("poll: %d", resp.StatusCode)
	}
	var msgs []map[string]any
	if err := json.Unmarshal([]byte(body), &msgs); err != nil || len(msgs) != 1 || msgs[0]["method"] != methodResourceReady {
		t.Fatalf("poll got %s (%v)", body, err)
	}
	resp, _ = fetch(t, "POST", url+"/send", "", same, strings.Repeat("x", maxMessageBytes+2))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("an oversized message: %d", resp.StatusCode)
	}
	b.Teardown(context.Background(), "closing")
	resp, _ = fetch(t, "POST", url+"/poll", "", same, "")
	if resp.StatusCode != http.StatusGone {
		t.Fatalf("poll of a closed view: %d", resp.StatusCode)
	}
	v.Forget(b)
	resp, _ = fetch(t, "GET", url, "", nil, "")
	if resp.StatusCode != 404 {
		t.Fatalf("a forgotten view: %d", resp.StatusCode)
	}
	if got := v.SSHForward(); !strings.HasPrefix(got, "-L ") || strings.Count(got, "-L") != 2 {
		t.Errorf("SSHForward %q", got)
	}
}

// TestHostPageEscapes: server-sent names cannot break out of the page.
func TestHostPageEscapes(t *testing.T) {
	v, err := NewViewer(ViewerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Close() })
	b := newTestBridge(&fakeHost{})
	b.opts.View.ServerName = `</script><script>alert(1)</script>`
	b.opts.View.Tool.Name = `"><img src=x onerror=alert(1)>`
	url, err := v.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	_, page := fetch(t, "GET", url, "", nil, "")
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") {
		t.Fatalf("server text reached the page unescaped:\n%s", page)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
