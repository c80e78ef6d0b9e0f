package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/internal/termout"
	"vouch/safetext"
)

// state is the database, keyring and MCP service a command works on.
type state struct{ *app.State }

// withState opens the state directory of g for a command-line operation,
// runs fn on it and closes it.
func withState(ctx context.Context, g *globals, e env, fn func(*state) error) error {
	if e.host != nil { // in the session: its database, keyring and servers (SPEC K5)
		return fn(&state{app.StateOf(e.host)})
	}
	dir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	st, err := app.OpenState(ctx, dir, e.getenv)
	if err != nil {
		return err
	}
	return errors.Join(fn(&state{st}), st.Close())
}

func runServer(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch server needs a subcommand: add, test, activate, deactivate, timeout, remove or list")
	}
	sub, rest := args[0], args[1:]
	if !slices.Contains([]string{"add", "test", "activate", "deactivate", "timeout", "remove", "list"}, sub) {
		return unknownSub("server", sub, "add", "test", "activate", "deactivate", "timeout", "remove", "list")
	}
	fs := subFlags("server "+sub, g)
	asJSON := fs.Bool("json", false, "print JSON")
	var rawURL, header *string
	var secretStdin *bool
	if sub == "add" {
		rawURL = fs.String("url", "", "Streamable HTTP endpoint (https, or http on loopback)")
		header = fs.String("header", "", "name of the one secret header, e.g. Authorization")
		secretStdin = fs.Bool("secret-stdin", false, "read the header's value from standard input")
	}
	var callTimeout *time.Duration
	if sub == "timeout" {
		callTimeout = fs.Duration("call", 0, "how long each tool call may run, e.g. 5m (0: the default)")
	}
	name, rest := leadingArg(rest)
	if err := fs.Parse(rest); err != nil {
		return flagError(fs, err)
	}
	if name == "" {
		name, _ = leadingArg(fs.Args())
	} else if fs.NArg() > 0 {
		return app.Errorf(app.Usage, "vouch server %s: unexpected argument %q", sub, fs.Arg(0))
	}
	if sub != "list" && name == "" {
		return app.Errorf(app.Usage, "vouch server %s needs the server's name", sub)
	}
	switch sub {
	case "add":
		return serverAdd(ctx, g, e, name, *rawURL, *header, *secretStdin, *asJSON)
	case "test":
		return withState(ctx, g, e, func(s *state) error { return serverTest(ctx, s, e, name, *asJSON) })
	case "activate", "deactivate":
		return withState(ctx, g, e, func(s *state) error {
			rec, err := s.MCP().ByName(name)
			if err != nil {
				return err
			}
			if err := s.MCP().SetActive(ctx, rec.ID, sub == "activate"); err != nil {
				return err
			}
			if *asJSON {
				return printServers(e, s, []string{rec.ID}, true)
			}
			return activeSentence(e, s, rec.ID, sub == "activate")
		})
	case "timeout":
		// SPEC B11: the per-server call timeout the timeout sentence names.
		return withState(ctx, g, e, func(s *state) error {
			rec, err := s.MCP().ByName(name)
			if err != nil {
				return err
			}
			if err := s.MCP().SetCallTimeout(rec.ID, *callTimeout); err != nil {
				return err
			}
			if *asJSON {
				return printServers(e, s, []string{rec.ID}, true)
			}
			// A sentence, not the table: this process has not refreshed
			// the server, which would show as stale (issue 24 item 8).
			return clitext.Write(e.stdout, "the timeout", cliview.ServerTimeout(rec.Name, *callTimeout))
		})
	case "remove":
		return withState(ctx, g, e, func(s *state) error {
			rec, err := s.MCP().ByName(name)
			if err != nil {
				return err
			}
			if err := s.MCP().Remove(ctx, rec.ID); err != nil {
				return err
			}
			if *asJSON {
				return clitext.WriteJSON(e.stdout, map[string]string{"removed": rec.ID})
			}
			_, err = fmt.Fprintf(e.stdout, "removed %s\n", safetext.Line(rec.Name, 0))
			return err
		})
	case "list":
		return withState(ctx, g, e, func(s *state) error {
			// Report live status: refresh active servers within one bound
			// for them all (issue 24 item 2); a server that did not answer
			// shows as it is cached, and a line on stderr says so.
			if err := termout.ReportAbsent(e.stderr, s.MCP().WarmBriefly(ctx)); err != nil {
				return err
			}
			return printServers(e, s, nil, *asJSON)
		})
	}
	return app.Errorf(app.Usage, "unknown subcommand 'vouch server %s'; use add, test, activate, deactivate, remove or list", sub)
}

// leadingArg splits off a first argument that is not a flag.
func leadingArg(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

func serverAdd(ctx context.Context, g *globals, e env, name, rawURL, header string, secretStdin, asJSON bool) error {
	if rawURL == "" {
		return app.Errorf(app.Usage, "vouch server add needs --url")
	}
	var secret *string
	if secretStdin {
		if header == "" {
			return app.Errorf(app.Usage, "--secret-stdin needs --header to name the header it travels in")
		}
		b, err := io.ReadAll(io.LimitReader(e.stdin, 64<<10))
		if err != nil {
			return fmt.Errorf("read the secret from standard input: %w", err)
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			return app.Errorf(app.Usage, "standard input held no secret; pipe it in, e.g. 'printf %%s \"$TOKEN\" | vouch server add …'")
		}
		secret = &v
	}
	return withState(ctx, g, e, func(s *state) error {
		rec, err := s.MCP().Save(ctx, "", name, rawURL, header, secret)
		if err != nil {
			return err
		}
		if asJSON {
			return printServers(e, s, []string{rec.ID}, true)
		}
		_, err = fmt.Fprintf(e.stdout, "added %s (%s); next: vouch server test %s\n",
			safetext.Line(rec.Name, 0), safetext.Line(rec.URL, 0), app.ShellWord(rec.Name))
		return err
	})
}

func serverTest(ctx context.Context, s *state, e env, name string, asJSON bool) error {
	rec, err := s.MCP().ByName(name)
	if err != nil {
		return err
	}
	rep, err := s.MCP().Test(ctx, rec.ID)
	if err != nil {
		return err
	}
	if asJSON {
		return clitext.WriteJSON(e.stdout, rep)
	}
	return clitext.Write(e.stdout, "report", cliview.ServerTest(rep, rec.Name, rec.Active))
}

// activeSentence says what `vouch server activate` or `deactivate` did to
// server id, in a sentence (issue 24 item 8).
func activeSentence(e env, s *state, id string, active bool) error {
	rows := s.MCP().ServerRows([]string{id})
	if len(rows) != 1 {
		return fmt.Errorf("server %s vanished while it was being changed", id)
	}
	return clitext.Write(e.stdout, "the server", cliview.ServerActive(rows[0], active))
}

// printServers lists servers (only ids when given).
func printServers(e env, s *state, ids []string, asJSON bool) error {
	rows := s.MCP().ServerRows(ids)
	if asJSON {
		if rows == nil {
			rows = []app.ServerRow{}
		}
		return clitext.WriteJSON(e.stdout, rows)
	}
	return clitext.Write(e.stdout, "list", cliview.ServerList(rows))
}

// runTools is `vouch tools`: every tool with identity, wire name, server,
// classification and status (SPEC M, C1, C2).
func runTools(ctx context.Context, g *globals, args []string, e env) error {
	if len(args) > 0 && args[0] == "plan" {
		return runToolsPlan(ctx, g, args[1:], e)
	}
	fs := subFlags("tools", g)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	return withState(ctx, g, e, func(s *state) error {
		ws, err := agent.OpenWorkspace(".")
		if err != nil {
			return fmt.Errorf("open the workspace: %w", err)
		}
		defer func() { _ = ws.Close() }()
		if err := termout.ReportAbsent(e.stderr, s.MCP().WarmBriefly(ctx)); err != nil {
			return err
		}
		rows := s.MCP().Tools(append(ws.Tools(), ws.WriteTools()...))
		if *asJSON {
			return clitext.WriteJSON(e.stdout, rows)
		}
		// A person reads "server › tool"; the identity column is what
		// 'vouch policy set' takes (issue 18 item 9).
		return clitext.Write(e.stdout, "list", cliview.ToolList(rows, s.MCP().ToolLabels()))
	})
}
