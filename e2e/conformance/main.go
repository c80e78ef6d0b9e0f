// Command conformance is the client the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in e2e/package.json) drives:
// it is vouch's MCP client as vouch wires it (internal/app's session on a
// throwaway state directory). The suite runs it as `conformance <server-url>` with
// MCP_CONFORMANCE_SCENARIO set; it connects, lists the tools and calls each
// one once, with arguments made from the tool's required properties — and
// when a tool asks the person (elicitation, SPEC B12), answers as a person
// who reads the form and keeps its defaults would — then exits 0 — or 1 with vouch's sentence on stderr when the server could not
// be used. Nothing outlives it: the state directory is removed, no keyring
// is opened, no secret is sent.
//
// It is not part of vouch's binary; conformance_test.go runs the suite
// against it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"vouch/internal/app"
	"vouch/mcpclient"
	"vouch/store"
	"vouch/tool"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "conformance client:", err)
		os.Exit(1)
	}
}

// run connects to the server at args[0] through vouch's own session
// (internal/app: a throwaway state directory, no keyring) the way `vouch
// server add` and `server activate` do, and calls each of its tools once.
// When the server cannot be used, run checks what the refusal left behind
// and appends one line to $VOUCH_CONFORMANCE_LOG when it is set: the
// scenario's name and "state clean" (the server stays inactive and no
// catalog is kept) or what was left (SPEC B4).
func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: conformance <server-url>")
	}
	tmp, err := os.MkdirTemp("", "vouch-conformance-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	a, err := app.Open(ctx, tmp, tmp, nil)
	if err != nil {
		return err
	}
	defer func() { _ = a.Close() }()
	rec, err := a.MCP().Save(ctx, "", "conformance", args[0], "", nil)
	if err != nil {
		return err
	}
	if err := a.MCP().SetActive(ctx, rec.ID, true); err != nil {
		return errors.Join(err, logRefusal(a.DB(), rec.ID))
	}
	m := a.MCP().Manager()
	st, _ := m.Server(rec.ID)
	fmt.Fprintf(out, "connected: protocol %s, %d tools\n", st.ProtocolVersion, len(st.Catalog.Tools))
	ctx = tool.WithAsker(ctx, keepDefaults{out})
	for _, t := range st.Catalog.Tools {
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		res, err := m.Call(ctx, rec.ID, t.Name, argumentsFor(t.InputSchema), mcpclient.CallOptions{Effect: mcpclient.EffectMutating})
		cancel()
		if err != nil {
			return fmt.Errorf("call %s: %w", t.Name, err)
		}
		fmt.Fprintf(out, "%s (error %v): %s\n", t.Name, res.IsError, res.Text)
	}
	return nil
}

// keepDefaults is a person who reads every question the server asks and
// sends the form with its defaults, as the TUI's form sends it when ctrl+s
// is pressed without a change (SEP-1034); a URL step it cancels, never
// opening the URL.
type keepDefaults struct{ out io.Writer }

func (p keepDefaults) Ask(_ context.Context, q tool.Question) (tool.Answer, error) {
	if q.IsURL() {
		fmt.Fprintf(p.out, "asked to visit a URL: cancelled\n")
		return tool.Answer{Action: tool.Cancel}, nil
	}
	fmt.Fprintf(p.out, "asked %d fields: sent the defaults\n", len(q.Fields))
	return tool.Answer{Action: tool.Accept, Content: q.DefaultContent()}, nil
}

func (p keepDefaults) Declined(_ tool.Question, why string) {
	fmt.Fprintf(p.out, "declined: %s\n", why)
}

// logRefusal records what a refused activation left in the database.
func logRefusal(db *store.DB, id string) error {
	path := os.Getenv("VOUCH_CONFORMANCE_LOG")
	if path == "" {
		return nil
	}
	verdict := "state clean"
	servers, err := db.MCPServers()
	if err != nil {
		return err
	}
	for _, s := range servers {
		if s.ID == id && s.Active {
			verdict = "PARTIAL STATE: the server stayed active"
		}
	}
	if _, ok, err := db.Catalog(id); err != nil {
		return err
	} else if ok {
		verdict = "PARTIAL STATE: a catalog was kept"
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, werr := fmt.Fprintf(f, "%s: %s\n", os.Getenv("MCP_CONFORMANCE_SCENARIO"), verdict)
	return errors.Join(werr, f.Close())
}

// argumentsFor fills a tool's required properties with a value of their
// type: 1 for numbers, "x" for strings, true for booleans.
func argumentsFor(schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	args := map[string]any{}
	if json.Unmarshal(schema, &s) == nil {
		for _, name := range s.Required {
			switch s.Properties[name].Type {
			case "number", "integer":
				args[name] = 1
			case "boolean":
				args[name] = true
			default:
				args[name] = "x"
			}
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return json.RawMessage("{}")
	}
	return raw
}
