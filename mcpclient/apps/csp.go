package apps

import (
	"fmt"
	"strconv"
	"strings"

	"vouch/mcpclient"
)

// CSP is an app resource's declared domains, validated (SPEC J3). Each
// entry is a CSP host source with a scheme: https:// or wss://, or http://
// and ws:// for loopback hosts only; a leftmost "*." label and a port (or
// "*" port) are allowed; a path may follow. Nothing else: no keyword, no
// bare "*", no scheme-only source, and none of the characters that could
// end a source or a directive (whitespace, ";", ",", quotes).
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// Bounds on declared domains.
const (
	maxDomains     = 32
	maxDomainBytes = 255
)

// ValidateCSP checks every declared domain. The error names the first bad
// one, neutralized, in a sentence fit to show beside the tool result.
func ValidateCSP(in mcpclient.UICSP) (CSP, error) {
	out := CSP{}
	for _, l := range []struct {
		name string
		in   []string
		out  *[]string
	}{
		{"connectDomains", in.ConnectDomains, &out.ConnectDomains},
		{"resourceDomains", in.ResourceDomains, &out.ResourceDomains},
		{"frameDomains", in.FrameDomains, &out.FrameDomains},
		{"baseUriDomains", in.BaseURIDomains, &out.BaseURIDomains},
	} {
		if len(l.in) > maxDomains {
			return CSP{}, fmt.Errorf("the app declares %d %s; at most %d are accepted", len(l.in), l.name, maxDomains)
		}
		for _, d := range l.in {
			if err := CheckSource(d); err != nil {
				return CSP{}, fmt.Errorf("the app's %s entry %s is refused: %w", l.name, display(d), err)
			}
			*l.out = append(*l.out, d)
		}
	}
	return out, nil
}

// display bounds a server-sent string and quotes it in ASCII, escapes
// and all, for a sentence.
func display(s string) string {
	if len(s) > 80 {
		return strconv.QuoteToASCII(s[:80]) + "…"
	}
	return strconv.QuoteToASCII(s)
}

// CheckSource reports why s is not an acceptable CSP source, or nil.
func CheckSource(s string) error {
	if s == "" {
		return errString("it is empty")
	}
	if len(s) > maxDomainBytes {
		return fmt.Errorf("it is longer than %d bytes", maxDomainBytes)
	}
	for _, r := range s {
		switch {
		case r <= ' ' || r == 0x7f:
			return errString("it contains whitespace or a control character")
		case r > 0x7e:
			return errString("it contains a non-ASCII character (use the punycode form)")
		case strings.ContainsRune(";,'\"`\\<>{}|^", r):
			return fmt.Errorf("it contains %q", r)
		}
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return errString("it has no https:// scheme")
	}
	hostport, path, _ := strings.Cut(rest, "/")
	if strings.ContainsAny(path, "?#") {
		return errString("it has a query or fragment")
	}
	host, port := hostport, ""
	if strings.HasPrefix(hostport, "[") {
		end := strings.Index(hostport, "]")
		if end < 0 {
			return errString("its IPv6 address is not closed")
		}
		host, port = hostport[:end+1], strings.TrimPrefix(hostport[end+1:], ":")
		if rest := hostport[end+1:]; rest != "" && !strings.HasPrefix(rest, ":") {
			return errString("its host is malformed")
		}
	} else if h, p, found := strings.Cut(hostport, ":"); found {
		host, port = h, p
		if port == "" {
			return errString("its port is empty")
		}
	}
	if port != "" && port != "*" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return errString("its port is not a number from 1 to 65535")
		}
	}
	loopback := isLoopbackHost(host)
	switch strings.ToLower(scheme) {
	case "https", "wss":
	case "http", "ws":
		if !loopback {
			return fmt.Errorf("%s:// is accepted only for loopback hosts; use https://", strings.ToLower(scheme))
		}
	default:
		return errString("only https:// and wss:// sources (http:// and ws:// on loopback) are accepted")
	}
	if loopback {
		return nil
	}
	return checkHost(host)
}

// isLoopbackHost reports whether host is localhost, 127.0.0.1 or [::1].
func isLoopbackHost(host string) bool {
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "[::1]":
		return true
	}
	return false
}

// checkHost accepts a DNS name, optionally with a leftmost "*." wildcard.
func checkHost(host string) error {
	name := strings.TrimPrefix(host, "*.")
	if name == "" || strings.HasPrefix(name, "[") {
		return errString("its host is missing or not a domain name")
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 && name != "localhost" {
		return errString("its host is not a full domain name")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return errString("its host has an empty or malformed label")
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return errString("its host is not a domain name (a wildcard is allowed only as the leftmost label)")
			}
		}
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

// Header returns the Content-Security-Policy the sandbox proxy page, and so
// the view inside it, is served with (SPEC J4): the specification's
// restrictive defaults, widened only by the declared domains. Only
// frameAncestor (the host page's origin) may embed it.
func (c CSP) Header(frameAncestor string) string {
	join := func(fixed string, domains []string, empty string) string {
		parts := []string{}
		if fixed != "" {
			parts = append(parts, fixed)
		}
		parts = append(parts, domains...)
		if len(parts) == 0 {
			return empty
		}
		return strings.Join(parts, " ")
	}
	res := c.ResourceDomains
	directives := []string{
		"default-src 'none'",
		"script-src " + join("'self' 'unsafe-inline'", res, ""),
		"style-src " + join("'self' 'unsafe-inline'", res, ""),
		"img-src " + join("'self' data:", res, ""),
		"font-src " + join("'self'", res, ""),
		"media-src " + join("'self' data:", res, ""),
		"connect-src " + join("", c.ConnectDomains, "'none'"),
		"frame-src " + join("", c.FrameDomains, "'none'"),
		"object-src 'none'",
		"base-uri " + join("", c.BaseURIDomains, "'self'"),
		"form-action 'none'",
		"frame-ancestors " + frameAncestor,
	}
	return strings.Join(directives, "; ")
}
