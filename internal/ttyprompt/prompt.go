package ttyprompt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"vouch/agent"
	"vouch/internal/app"
	"vouch/safetext"
)

// Prompt is `vouch run --approve-tty`: it asks on the terminal whether a
// tool call may run, showing what vouch knows about the call — the server's
// label and host, the tool's identity, the policy's reason, every argument —
// never the server's own description, with all server and model text
// neutralised (SPEC D3, D4).
//
// An answer is a deliberate act (SPEC D7): before each question the
// terminal's pending input is discarded (tcflush), so nothing typed while
// the answer streamed, or before the question was on screen, can answer it.
// The answer is one line read from the terminal's file itself, with no
// buffer that outlives the question; what was typed after that line (a
// second answer typed at once) is discarded too, so it cannot answer the
// next question unseen. Only a word then Enter decides: y, yes or allow
// allows once; n, no or deny denies, and what follows the word goes to the
// model as the note. "more" shows long values whole. Anything else (an
// empty line included) asks again, at most ttyAttempts times, then denies.
// End of input (ctrl+d, or a hung-up terminal) denies. A terminal that
// cannot be read, written or flushed is an error: the run stops, nothing
// executed.
type Prompt struct {
	// tty is /dev/tty opened for reading and writing (a pty's slave side
	// in tests).
	tty *os.File
	// describe tells where a tool comes from, as it does for the TUI's
	// approval pane; nil or an error shows what is known without it.
	describe func(identity string) (app.ToolDescription, error)
}

// ttyAttempts is how many unclear answers one question takes before it
// denies.
const ttyAttempts = 3

// ttyAnswerMax bounds one answer line; the rest of a longer one is read and
// dropped, and the answer counts as unclear.
const ttyAnswerMax = 1024

// Folding of long arguments and previews, in runes per line and lines.
const (
	ttyFoldWidth = 200
	ttyKeepWidth = 160
	ttyFoldLines = 40
	ttyKeepLines = 30
)

// New asks on tty.
func New(tty *os.File, describe func(identity string) (app.ToolDescription, error)) *Prompt {
	return &Prompt{tty: tty, describe: describe}
}

// Ask shows req and waits for one deliberate answer. An error means the
// terminal could not be used (or ctx ended): nothing was decided.
func (p *Prompt) Ask(ctx context.Context, req agent.ApprovalRequested) (agent.Decision, error) {
	details, folded := p.details(req, false)
	// The rule, said where it applies (SPEC D7): the terminal's pending
	// input is flushed before each question and a line is read.
	details += "  Only a line typed after the question answers it: whatever was typed before is discarded.\n"
	if err := p.say(details); err != nil {
		return agent.Decision{}, err
	}
	question := "Allow once? Type y (allow) or n (deny, optionally with a note for the model), then Enter: "
	if folded {
		question = "Allow once? Type y (allow), n (deny, optionally with a note), or more (show long values whole), then Enter: "
	}
	for unclear := 0; ; {
		dropped, err := discardTypeAhead(p.tty)
		if err != nil {
			return agent.Decision{}, err
		}
		if dropped > 0 {
			if err := p.say("  (what was typed before this question was discarded)\n"); err != nil {
				return agent.Decision{}, err
			}
		}
		if err := p.say(question); err != nil {
			return agent.Decision{}, err
		}
		line, err := p.readLine(ctx)
		if errors.Is(err, io.EOF) {
			return agent.Decision{Note: "denied on the terminal (end of input)"}, p.say("\n  denied: the terminal's input ended\n")
		}
		if err != nil {
			return agent.Decision{}, err
		}
		// A second answer typed at once is for no question yet.
		dropped, err = discardTypeAhead(p.tty)
		if err != nil {
			return agent.Decision{}, err
		}
		also := ""
		if dropped > 0 {
			also = " (what was typed after your answer was discarded)"
		}
		word, rest := "", ""
		if fields := strings.Fields(line); len(fields) > 0 {
			word = fields[0]
			rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), word))
		}
		switch strings.ToLower(word) {
		case "y", "yes", "allow":
			if rest == "" {
				return agent.Decision{Allow: true}, p.say("  allowed once" + also + "\n")
			}
		case "n", "no", "deny":
			// The person's words only: with none, the model reads that the
			// call was denied and no note (issue 24 item 8).
			return agent.Decision{Note: safetext.Line(rest, 0)}, p.say("  denied" + also + "\n")
		case "more", "m":
			full, _ := p.details(req, true)
			if err := p.say(full); err != nil {
				return agent.Decision{}, err
			}
			continue
		}
		if unclear++; unclear >= ttyAttempts {
			return agent.Decision{Note: "denied on the terminal: no clear answer"}, p.say(fmt.Sprintf("  denied: no clear answer after %d tries\n", ttyAttempts))
		}
		if err := p.say("  not an answer" + also + "; only y or n then Enter decides\n"); err != nil {
			return agent.Decision{}, err
		}
	}
}

// say writes text to the terminal.
func (p *Prompt) say(text string) error {
	if _, err := io.WriteString(p.tty, text); err != nil {
		return fmt.Errorf("write the question to the terminal: %w", err)
	}
	return nil
}

// readLine reads one line from the terminal itself, a read at a time, and
// keeps nothing past its end: in the terminal's usual line mode a read
// returns at most one line, and whatever followed it in raw mode is
// dropped. ctx ending interrupts the read.
func (p *Prompt) readLine(ctx context.Context) (string, error) {
	if err := p.tty.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, os.ErrNoDeadline) {
		return "", fmt.Errorf("read your answer from the terminal: %w", err)
	}
	stop := context.AfterFunc(ctx, func() {
		// A terminal without deadlines cannot be interrupted: the read
		// then ends with the next line typed, and ctx's error is returned.
		if err := p.tty.SetReadDeadline(time.Now()); err != nil {
			return
		}
	})
	defer stop()
	var line []byte
	buf := make([]byte, 256)
	for {
		n, err := p.tty.Read(buf)
		for _, c := range buf[:n] {
			switch {
			case c == '\n' || c == '\r':
				if len(line) > ttyAnswerMax {
					return "", nil // too long to be an answer: unclear
				}
				return string(line), nil
			case c == 0x04 && len(line) == 0: // ctrl+d in raw mode
				return "", io.EOF
			case len(line) <= ttyAnswerMax:
				line = append(line, c)
			}
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("stopped waiting for your answer: %w", ctx.Err())
		}
		if errors.Is(err, io.EOF) {
			return "", io.EOF
		}
		if err != nil {
			return "", fmt.Errorf("read your answer from the terminal: %w", err)
		}
	}
}

// details is what the terminal shows about the call, as the approval pane
// does (SPEC D3): long lines and values are folded unless unfold is set;
// folded reports whether anything was.
func (p *Prompt) details(req agent.ApprovalRequested, unfold bool) (string, bool) {
	var b strings.Builder
	folded := false
	desc, derr := app.ToolDescription{}, error(nil)
	if !unfold {
		desc, derr = p.describeTool(toolIdentity(req))
	}
	block := func(title, text string) {
		b.WriteString("  " + title + "\n")
		lines, f := foldLines(text, unfold)
		folded = folded || f
		for _, l := range lines {
			b.WriteString("    " + l + "\n")
		}
	}
	if !unfold {
		identity := toolIdentity(req)
		called := req.Call.WireName
		if called == "" {
			called = "(no name)"
		}
		field := func(label, value string) {
			fmt.Fprintf(&b, "  %-10s %s\n", label, safetext.Line(value, 0))
		}
		b.WriteString("\nTool call waiting for your approval\n")
		field("tool", identity)
		field("server", serverLine(identity, desc, derr))
		field("called as", called+" · call ID "+req.Call.CorrelationID)
		if c, t := req.Call.Identity, req.Tool.Identity; c != "" && t != "" && c != t {
			field("warning", "the call maps to "+c+", but the tool that would run is "+t)
		}
		reason := strings.TrimSpace(req.Reason)
		if reason == "" {
			reason = "every new external tool asks until you classify it"
		}
		field("policy", "ask — "+reason)
		effect := strings.TrimSpace(req.Effect)
		if effect == "" {
			effect = "mutating (not reviewed; unknown counts as mutating)"
		}
		field("effect", effect)
	} else {
		b.WriteString("\nThe same call, nothing folded\n")
	}
	if req.Preview != "" {
		block("preview", safetext.Neutralize(req.Preview))
	}
	block("arguments (JSON; keys in the model's order)", prettyArgs(req.Call.Arguments))
	if !unfold && derr == nil {
		b.WriteString(claimLines(desc))
	}
	return b.String(), folded
}

// toolIdentity is the tool that would run.
func toolIdentity(req agent.ApprovalRequested) string {
	if req.Tool.Identity != "" {
		return req.Tool.Identity
	}
	return req.Call.Identity
}

// describeTool asks where the tool comes from, once per question.
func (p *Prompt) describeTool(identity string) (app.ToolDescription, error) {
	if p.describe == nil {
		return app.ToolDescription{}, nil
	}
	return p.describe(identity)
}

// serverLine says where the tool comes from, in the approval pane's words.
func serverLine(identity string, d app.ToolDescription, err error) string {
	if strings.HasPrefix(identity, "builtin:") {
		return "built into vouch; runs on this machine"
	}
	id := ""
	if parts := strings.SplitN(identity, ":", 3); len(parts) == 3 && parts[0] == "mcp" {
		id = parts[1]
	}
	switch {
	case err != nil:
		return "unknown (" + id + "): " + err.Error()
	case d.ServerName != "" || d.ServerHost != "":
		parts := make([]string, 0, 2)
		for _, s := range []string{d.ServerName, d.ServerHost} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " · ")
	case id != "":
		return "id " + id + " (no label known)"
	}
	return "unknown"
}

// claimLines lists what the server says about the tool as its claims, never a
// reason to allow (SPEC D2).
func claimLines(d app.ToolDescription) string {
	var claims []string
	if d.Title != "" {
		claims = append(claims, "title: "+d.Title)
	}
	claims = append(claims, d.Claims...)
	if len(claims) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("  server claims (unverified; never a reason to allow):\n")
	for _, c := range claims {
		b.WriteString("    " + safetext.Line(c, 0) + "\n")
	}
	return b.String()
}

// foldLines splits neutralised text into lines; unless unfold is set, a
// line longer than ttyFoldWidth runes keeps its head and says how much is
// hidden, and more than ttyFoldLines lines keep the first ones. Nothing is
// cut without a marker saying so.
func foldLines(text string, unfold bool) ([]string, bool) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if unfold {
		return lines, false
	}
	folded := false
	if len(lines) > ttyFoldLines {
		hidden := len(lines) - ttyKeepLines
		lines = append(lines[:ttyKeepLines:ttyKeepLines], fmt.Sprintf("… %d more lines (type more to see them)", hidden))
		folded = true
	}
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > ttyFoldWidth {
			lines[i] = fmt.Sprintf("%s … (%d more characters; type more to see them)", string([]rune(l)[:ttyKeepWidth]), n-ttyKeepWidth)
			folded = true
		}
	}
	return lines, folded
}

// prettyArgs indents JSON arguments; JSON escapes keep control characters
// visible. Anything that is not JSON is shown neutralised as it is.
func prettyArgs(raw string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(raw), "", "  "); err != nil {
		return safetext.Neutralize(raw)
	}
	return safetext.Neutralize(buf.String())
}
