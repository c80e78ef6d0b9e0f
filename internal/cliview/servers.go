package cliview

import (
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/mcpclient"
	"vouch/safetext"
)

// ServerTest is `vouch server test NAME`: what the server said about
// itself, its tools and the tools vouch refused, and the next command when
// the server is not active yet (SPEC B1, M).
func ServerTest(rep mcpclient.TestReport, name string, active bool) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	era := "legacy (initialize and session)"
	if rep.Stateless {
		era = "stateless"
	}
	p("server\t%s %s\n", safetext.Line(rep.ServerName, 0), safetext.Line(rep.ServerVersion, 0))
	p("protocol\t%s, %s\n", safetext.Line(rep.ProtocolVersion, 0), era)
	p("capabilities\t%s\n", strings.Join(rep.Capabilities, ", "))
	p("result\t%s (%s)\n", rep.Summary, rep.Elapsed.Round(time.Millisecond))
	for _, t := range rep.Tools {
		p("  tool\t%s\n", safetext.Line(t.Name, 0))
	}
	for _, r := range rep.Rejected {
		p("  rejected\t%s\n", safetext.Line(fmt.Sprintf("%s: %s", r.Name, r.Reason), 0))
	}
	if !active {
		p("next\tvouch server activate %s\n", app.ShellWord(name))
	}
	return clitext.Align(b.String())
}

// ServerActive is the sentence of `vouch server activate` or `deactivate`
// about server r (issue 24 item 8).
func ServerActive(r app.ServerRow, active bool) string {
	name := safetext.Line(r.Name, 60)
	switch {
	case !active:
		return fmt.Sprintf("deactivated %s: its tools are no longer offered\n", name)
	case r.Tools == 1:
		return fmt.Sprintf("activated %s: %s, 1 tool offered\n", name, r.Status)
	default:
		return fmt.Sprintf("activated %s: %s, %d tools offered\n", name, r.Status, r.Tools)
	}
}

// ServerTimeout is the sentence of `vouch server timeout NAME --call D`; a
// zero limit is the default.
func ServerTimeout(name string, limit time.Duration) string {
	words := "the default time"
	if limit > 0 {
		words = app.ShortDuration(limit)
	}
	return fmt.Sprintf("%s: each tool call may now take up to %s\n", safetext.Line(name, 60), words)
}

// ServerList is `vouch server list`: one server a row, a failing server's
// error under it.
func ServerList(rows []app.ServerRow) string {
	if len(rows) == 0 {
		return "no MCP servers; add one with: vouch server add NAME --url URL\n"
	}
	var b strings.Builder
	b.WriteString("NAME\tSTATUS\tTOOLS\tURL\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", safetext.Line(r.Name, 40), r.Status, r.Tools, safetext.Line(r.URL, 60))
		if r.Error != "" {
			fmt.Fprintf(&b, "\t%s\n", safetext.Line(r.Error, 100))
		}
	}
	return clitext.Align(b.String())
}

// ToolList is `vouch tools`: every tool as a person reads it ("server ›
// tool"), with the identity 'vouch policy set' takes (issue 18 item 9;
// SPEC C1, C2).
func ToolList(rows []app.ToolRow, labels app.ToolLabels) string {
	var b strings.Builder
	b.WriteString("TOOL\tIDENTITY\tWIRE NAME\tCLASSIFICATION\tSTATUS\n")
	for _, r := range rows {
		status := r.Status
		if !r.Executable {
			status += " (not offered)"
		}
		if r.Warning != "" {
			status += "; warning: name " + r.Warning
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", safetext.Line(labels.Tool(r.Identity), 60), safetext.Line(r.Identity, 70), r.WireName,
			r.Classification, status)
	}
	return clitext.Align(b.String())
}
