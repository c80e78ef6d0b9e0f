package app

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"vouch/agent"
	"vouch/safetext"
)

// refused reports whether a probe failed because nothing listens there:
// the usual ports of model servers the person does not run.
func refused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// summarize sets the report's verdict (issue 18 item 19): ready when a
// model server answered with at least one model; otherwise what to do.
func (r *DoctorReport) summarize() {
	for _, s := range r.ModelServers {
		if s.Error == "" && len(s.Models) > 0 {
			r.Ready = true
			r.Summary = fmt.Sprintf("ready: %s at %s with %s", s.Kind, s.URL, plural(len(s.Models), "model"))
			if r.Keyring.Status != "ok" {
				r.Summary += "; the keyring is " + r.Keyring.Status + ", so servers with a secret stay locked"
			}
			return
		}
	}
	for _, s := range r.ModelServers {
		if s.Error == "" {
			r.Summary = fmt.Sprintf("not ready: the model server at %s lists no models — load one there, or pass --model-url for another", s.URL)
			return
		}
	}
	if len(r.ModelServers) == 1 { // the URL given: its error says what to do, once (issue 28 item 12)
		r.Summary = "not ready: " + strings.TrimSuffix(safetext.Line(r.ModelServers[0].Error, 0), ".")
		return
	}
	r.Summary = "not ready: no model server answered — start llama-server, LM Studio, Ollama or vLLM, or pass --model-url"
}

// usualPorts names the default endpoints' servers by port, for the one
// line that says nothing listens on any of them.
func usualPorts() map[string]string {
	names := []string{"llama.cpp", "LM Studio", "Ollama", "vLLM"}
	out := map[string]string{}
	for i, ep := range agent.DefaultEndpoints() {
		if i < len(names) {
			out[ep] = names[i]
		}
	}
	return out
}

// UnusedDefaults splits the model servers of the report: the default
// endpoints that refused the connection (nothing listens there), as one
// line — "nothing listens on the usual ports: 8080 (llama.cpp), …" — and
// every other server. The line is "" when none refused.
func (r DoctorReport) UnusedDefaults() (string, []DoctorServer) {
	usual := usualPorts()
	var ports []string
	var rest []DoctorServer
	for _, s := range r.ModelServers {
		name, ok := usual[s.URL]
		if !ok || !s.Refused {
			rest = append(rest, s)
			continue
		}
		port := s.URL
		if i := strings.LastIndexByte(port, ':'); i >= 0 {
			port = strings.TrimSuffix(port[i+1:], "/v1")
		}
		ports = append(ports, port+" ("+name+")")
	}
	if len(ports) == 0 {
		return "", rest
	}
	return "nothing listens on the usual ports: " + strings.Join(ports, ", "), rest
}

// plural counts n things: "1 model", "0 models".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
