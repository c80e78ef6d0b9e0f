// Command conformance is the client the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned in e2e/package.json) drives:
// it is vouch's MCP client (package mcpclient) as vouch wires it, with an
// in-memory catalog. The suite runs it as `conformance <server-url>` with
// MCP_CONFORMANCE_SCENARIO set; it connects, lists the tools and calls each
// one once, with arguments made from the tool's required properties, then
// exits 0 — or 1 with vouch's sentence on stderr when the server could not
// be used. Nothing is kept: no store, no keyring, no secret.
//
// It is not part of vouch's binary; conformance_test.go runs the suite
// against it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"vouch/mcpclient"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "conformance client:", err)
		os.Exit(1)
	}
}

// run connects to the server at args[0] and calls each of its tools once.
func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: conformance <server-url>")
	}
	m := mcpclient.NewManager(mcpclient.Options{ClientVersion: "conformance", Timeout: 20 * time.Second, CallTimeout: 20 * time.Second})
	defer func() { _ = m.Close() }()
	cfg := mcpclient.NewServerConfig("conformance", args[0], "")
	cfg.Active = true
	if err := m.Put(cfg); err != nil {
		return err
	}
	if err := m.Refresh(ctx, cfg.ID, mcpclient.NonInteractive); err != nil {
		return err
	}
	st, _ := m.Server(cfg.ID)
	fmt.Fprintf(out, "connected: protocol %s, %d tools\n", st.ProtocolVersion, len(st.Catalog.Tools))
	for _, t := range st.Catalog.Tools {
		res, err := m.Call(ctx, cfg.ID, t.Name, argumentsFor(t.InputSchema), mcpclient.CallOptions{Effect: mcpclient.EffectMutating})
		if err != nil {
			return fmt.Errorf("call %s: %w", t.Name, err)
		}
		fmt.Fprintf(out, "%s (error %v): %s\n", t.Name, res.IsError, res.Text)
	}
	return nil
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
