package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/internal/termout"

	"golang.org/x/term"
)

// version is vouch's version, reported to MCP servers and by 'vouch version'.
const version = app.Version

func runVersion(_ context.Context, g *globals, args []string, e env) error {
	if err := parseSub(subFlags("version", g), args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "vouch %s\n", version)
	return err
}

// Exit codes of SPEC M.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitRejected    = 3
	exitApproval    = 4
	exitUnavailable = 5
)

// env is the process environment a command runs in, passed explicitly so
// tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// isTerminal reports whether stdin and stdout are a terminal.
	isTerminal bool
	// stderrTerminal reports whether stderr is a terminal (progress of
	// tool calls is shown there only then, SPEC B11).
	stderrTerminal bool
	// cwd is the command's working directory: relative paths are its.
	cwd string
	// files are the process's own standard files, set for the real
	// process only: a command may then run through the session
	// (session_exec.go).
	files *stdFiles
	// tty is the client's terminal when the command runs in the session
	// (--approve-tty asks on it); nil: open /dev/tty.
	tty *os.File
	// host is the session's application when the command runs in the
	// session (SPEC K5); nil in-process.
	host *app.App
}

// stdFiles are a process's standard input, output and error.
type stdFiles struct{ stdin, stdout, stderr *os.File }

func osEnv() env {
	cwd, _ := os.Getwd() // "": relative paths resolve against the process's directory, as always
	return env{
		cwd:        cwd,
		files:      &stdFiles{os.Stdin, os.Stdout, os.Stderr},
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		getenv:     os.Getenv,
		isTerminal: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),

		stderrTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// globals are the flags every subcommand accepts (SPEC M).
type globals struct {
	stateDir string
	modelURL string
	model    string
}

func (g *globals) register(fs *flag.FlagSet, e env) {
	fs.StringVar(&g.stateDir, "state-dir", e.getenv("VOUCH_STATE_DIR"), "state directory (env VOUCH_STATE_DIR; default the XDG state dir)")
	g.modelURL = e.getenv("VOUCH_MODEL_URL") // normalised after parsing (app.NormalizeModelURL)
	fs.Var(modelURLFlag{&g.modelURL}, "model-url", "base URL of an OpenAI-compatible model server (env VOUCH_MODEL_URL)")
	fs.StringVar(&g.model, "model", e.getenv("VOUCH_MODEL"), "model name (env VOUCH_MODEL)")
}

// exitCode maps the kind of the application's error err to an exit code
// of SPEC M.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	switch app.KindOf(err) {
	case app.Usage:
		return exitUsage
	case app.Rejected:
		return exitRejected
	case app.ApprovalNeeded:
		return exitApproval
	case app.Unavailable:
		return exitUnavailable
	}
	return exitFailure
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, g *globals, args []string, e env) error
}

func commands() []command {
	return []command{
		{"demo", "the terminal interface on a built-in scripted model, in a throwaway state dir", runDemo},
		{"doctor", "model servers, keyring backend, database path and lock holder [--json]; --check: read the whole database and re-hash every stored file, exit 1 when damaged", runDoctor},
		{"server", "add NAME --url URL [--header H --secret-stdin] | test | activate | deactivate | remove NAME | list", runServer},
		{"run", "[--profile P | --continue ID] [--approve-tty] [--json] TASK: one headless run (profile \"default\" when none is named); exit 4 with the correlation ID when a call needs approval; --detach [--profile P] TASK: start it in the session, print its ID", runRun},
		{"tools", "every tool: identity, wire name, server, classification, status [--json]; plan [--profile P] [--context N] [--json]: what a run would send", runTools},
		{"profile", "list | show P | create P --definition D [--model M] [--context N] [--tool ID ...] [--skill S ...] [--every DUR|--cron EXPR --task T] | edit P ... | remove P", runProfileCmd},
		{"definition", "add FILE.json | list | show D | remove D: Role, Flow and Subagents definitions", runDefinitionCmd},
		{"conversations", "stored conversations: ID, title, date, model, messages [--limit N] [--json]", runConversationsCmd},
		{"runs", "run history, newest first [--limit N] [--before ID] [--json]; show ID [--json]: the frozen spec, calls, approvals, outcome; show ID --follow: stream it until it ends", runRunsCmd},
		{"workflows", "on | off | status [--json]: the Agent Workflows switch and the schedules", runWorkflowsCmd},
		{"skill", "preview FILE [--json] | install FILE [--rename NEW | --new-revision] [--json] | list [--json] | remove NAME | server list|preview|approve|pin|keep|rollback|dynamic SERVER ...", runSkill},
		{"policy", "list [--json] | set IDENTITY ask|allow|block [--effect E] [--under ARG=PATH] [--one-of ARG=V1,V2] [--note T] | remove IDENTITY", runPolicyCmd},
		{"attach", "the terminal interface of the running session; never starts one", runAttach},
		{"sessions", "the session of the state dir: pid, since, clients, runs [--json]", runSessions},
		{"lock", "export [--out FILE] | check [FILE] [--json] | apply FILE [--yes] [--skills DIR] | sign FILE --key KEY: the fleet lockfile", runLock},
		{"settings", "[--json] | get KEY | set KEY VALUE | reset KEY (notify, long-turn…)", runSettingsCmd},
		{"version", "print the version", runVersion},
		{"help", "[COMMAND | TOPIC]: this help, a command's usage, or a reference page (the topics below)", nil},
	}
}

// helpCommands are the commands as the help shows them (cliview.Help).
func helpCommands() []cliview.Command {
	var cs []cliview.Command
	for _, c := range commands() {
		cs = append(cs, cliview.Command{Name: c.name, Summary: c.summary})
	}
	return cs
}

// help prints 'vouch help [COMMAND | TOPIC]': the usage, a command's usage
// or a reference page (issue 28 item 23).
func help(w io.Writer, args []string) error {
	text, err := cliview.Help(args, helpCommands())
	if err != nil {
		return err
	}
	return clitext.Write(w, "the help", text)
}

// run parses args and runs the chosen command, returning the exit code.
func run(ctx context.Context, args []string, e env) int {
	var g globals
	fs := flag.NewFlagSet("vouch", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.register(fs, e)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return report(help(e.stdout, nil), e)
		}
		return report(flagError(fs, err), e)
	}
	if u, err := app.NormalizeModelURL(g.modelURL); err != nil { // VOUCH_MODEL_URL
		return report(app.Errorf(app.Usage, "VOUCH_MODEL_URL: %v", err), e)
	} else {
		g.modelURL = u
	}
	rest := fs.Args()
	if code, ok := runInSession(ctx, &g, args, rest, e); ok { // session_exec.go
		return code
	}
	var err error
	if len(rest) == 0 {
		err = runTUI(ctx, &g, nil, e)
	} else {
		err = dispatch(ctx, &g, rest[0], rest[1:], e)
	}
	return report(err, e)
}

func dispatch(ctx context.Context, g *globals, name string, args []string, e env) error {
	if name == "help" || name == "-h" || name == "--help" {
		return help(e.stdout, args)
	}
	if name == sessionCmd { // hidden: the session process (session_serve.go, internal/host)
		return runSessionCmd(ctx, g, args, e)
	}
	for _, c := range commands() {
		if c.name == name && c.run != nil {
			if asksHelp(args) {
				return help(e.stdout, []string{c.name})
			}
			// A command that finds the database held by an idle session
			// asks it to exit and runs once more (retryLocked, session_cmd.go).
			return retryLocked(g, func() error { return c.run(ctx, g, args, e) })
		}
	}
	return unknownCommand(name) // with a suggestion (cli_text.go)
}

// asksHelp reports whether a command's arguments ask for its help: -h,
// -help or --help before any "--", or "help" as its first word (a task
// given to 'vouch run' is one argument, so its words never match).
func asksHelp(args []string) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// report prints err as one sentence on stderr and maps it to an exit code.
// It is the last resort: a failure to write to stderr has nowhere left to
// be reported, so its write error is ignored; the exit code still tells.
func report(err error, e env) int {
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	msg := strings.TrimSpace(err.Error())
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	_, _ = fmt.Fprintf(e.stderr, "%s\n", termout.WithPrefix(msg)) // nowhere to report a failure; see above
	return code
}

// subFlags returns a flag set for a subcommand that also accepts the global
// flags after the subcommand's name.
func subFlags(name string, g *globals) *flag.FlagSet {
	fs := flag.NewFlagSet("vouch "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// Re-register the globals with the values parsed so far as defaults.
	fs.StringVar(&g.stateDir, "state-dir", g.stateDir, "state directory")
	fs.Var(modelURLFlag{&g.modelURL}, "model-url", "model server base URL")
	fs.StringVar(&g.model, "model", g.model, "model name")
	return fs
}

func parseSub(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return flagError(fs, err)
	}
	if fs.NArg() > 0 {
		return app.Errorf(app.Usage, "'%s' takes no argument %q; run '%s --help' for its usage", fs.Name(), fs.Arg(0), fs.Name())
	}
	return nil
}

// modelURLFlag is --model-url: what is set is normalised (app.NormalizeModelURL).
type modelURLFlag struct{ p *string }

func (f modelURLFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f modelURLFlag) Set(s string) error {
	u, err := app.NormalizeModelURL(s)
	if err != nil {
		return err
	}
	*f.p = u
	return nil
}
