package apps

import (
	"strings"
	"testing"

	"vouch/mcpclient"
)

func TestCheckSource(t *testing.T) {
	tests := []struct {
		src  string
		want string // "" accepts; else a part of the reason
	}{
		{"https://api.example.com", ""},
		{"https://*.example.com", ""},
		{"wss://realtime.example.com", ""},
		{"https://cdn.example.com:8443/lib/", ""},
		{"https://cdn.example.com:*", ""},
		{"http://localhost:3000", ""},
		{"http://127.0.0.1:8080", ""},
		{"ws://[::1]:9000", ""},
		{"http://example.com", "only for loopback"},
		{"ws://example.com", "only for loopback"},
		{"ftp://example.com", "only https://"},
		{"javascript://example.com", "only https://"},
		{"data://x", "only https://"},
		{"example.com", "no https:// scheme"},
		{"*", "no https:// scheme"},
		{"'self'", "contains"},
		{"https://a.example.com; script-src *", `';'`},
		{"https://a.example.com;script-src", `';'`},
		{"https://a.example.com,https://b", `','`},
		{`https://a.example.com"`, `'"'`},
		{"https://a.example.com\tx", "whitespace"},
		{"https://a.example.com\nx", "whitespace"},
		{"https://exämple.com", "non-ASCII"},
		{"https://*", "not a full domain"},
		{"https://a.*.example.com", "wildcard"},
		{"https://example.com:0", "port"},
		{"https://example.com:70000", "port"},
		{"https://example.com:", "port is empty"},
		{"https://example.com/x?y", "query"},
		{"https://-bad.example.com", "malformed label"},
		{"https://[::2]:80", "not a domain"},
		{"https://[::1", "not closed"},
		{"", "empty"},
		{"https://" + strings.Repeat("a", 300) + ".com", "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			err := CheckSource(tt.src)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("accepted, want refused for %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

// FuzzCheckSource: whatever a server declares, an accepted source cannot
// end a source or a directive, or be a keyword or a plain-http origin
// elsewhere than loopback.
func FuzzCheckSource(f *testing.F) {
	for _, s := range []string{"https://a.example.com", "https://*.x.org:443/p", "http://localhost:1", "wss://[::1]", "https://a; b", "'unsafe-eval'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckSource(s) != nil {
			return
		}
		if strings.ContainsAny(s, " \t\r\n\f\v;,'\"") {
			t.Fatalf("accepted %q", s)
		}
		lower := strings.ToLower(s)
		if !strings.HasPrefix(lower, "https://") && !strings.HasPrefix(lower, "wss://") {
			host := strings.SplitN(strings.SplitN(lower, "://", 2)[1], "/", 2)[0]
			if !strings.HasPrefix(host, "localhost") && !strings.HasPrefix(host, "127.0.0.1") && !strings.HasPrefix(host, "[::1]") {
				t.Fatalf("accepted a non-TLS source off loopback: %q", s)
			}
		}
		csp := CSP{ConnectDomains: []string{s}}
		h := csp.Header("http://127.0.0.1:1")
		if n := strings.Count(h, ";"); n != 11 {
			t.Fatalf("the header has %d directives separators, want 11: %s", n, h)
		}
	})
}

func TestValidateCSP(t *testing.T) {
	got, err := ValidateCSP(mcpclient.UICSP{
		ConnectDomains:  []string{"https://api.example.com"},
		ResourceDomains: []string{"https://cdn.example.com", "https://*.fonts.example.com"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ResourceDomains) != 2 || got.ConnectDomains[0] != "https://api.example.com" {
		t.Fatalf("got %+v", got)
	}
	_, err = ValidateCSP(mcpclient.UICSP{FrameDomains: []string{"https://ok.example.com", "https://x.example.com; frame-ancestors *"}})
	if err == nil || !strings.Contains(err.Error(), "frameDomains") || !strings.Contains(err.Error(), `"https://x.example.com; frame-ancestors *"`) {
		t.Fatalf("err = %v, want the bad frameDomains entry named", err)
	}
	_, err = ValidateCSP(mcpclient.UICSP{ConnectDomains: []string{"https://a.example.com\x1b[2J"}})
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) {
		t.Fatalf("err = %q, want a refusal without the escape", err)
	}
	many := make([]string, maxDomains+1)
	for i := range many {
		many[i] = "https://a.example.com"
	}
	if _, err := ValidateCSP(mcpclient.UICSP{ResourceDomains: many}); err == nil {
		t.Fatal("accepted too many domains")
	}
}

func TestCSPHeader(t *testing.T) {
	const host = "http://127.0.0.1:4000"
	tests := []struct {
		name string
		csp  CSP
		want []string
	}{
		{"restrictive default", CSP{}, []string{
			"default-src 'none'",
			"script-src 'self' 'unsafe-inline'",
			"style-src 'self' 'unsafe-inline'",
			"img-src 'self' data:",
			"media-src 'self' data:",
			"connect-src 'none'",
			"frame-src 'none'",
			"object-src 'none'",
			"base-uri 'self'",
			"frame-ancestors " + host,
		}},
		{"declared domains", CSP{
			ConnectDomains:  []string{"https://api.example.com", "wss://rt.example.com"},
			ResourceDomains: []string{"https://cdn.example.com"},
			FrameDomains:    []string{"https://player.example.com"},
			BaseURIDomains:  []string{"https://base.example.com"},
		}, []string{
			"script-src 'self' 'unsafe-inline' https://cdn.example.com",
			"img-src 'self' data: https://cdn.example.com",
			"font-src 'self' https://cdn.example.com",
			"connect-src https://api.example.com wss://rt.example.com",
			"frame-src https://player.example.com",
			"base-uri https://base.example.com",
			"object-src 'none'",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.csp.Header(host)
			directives := strings.Split(h, "; ")
			for _, w := range tt.want {
				found := false
				for _, d := range directives {
					found = found || d == w
				}
				if !found {
					t.Errorf("header lacks %q:\n%s", w, h)
				}
			}
		})
	}
}
