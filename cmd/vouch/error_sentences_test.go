package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// midCapital finds a word that starts a sentence joined to another after
// ": " or "; " (or after "vouch: ") with a capital, as in "could not save
// the server: Remove the api_key…"; names (MCP, OAuth, a header's) are
// not such words.
var midCapital = regexp.MustCompile(`(?:^vouch|[:;]) ([A-Z][a-z]+)`)

// properWords may follow ": " with a capital: names, not sentences.
var properWords = []string{"Authorization", "Bearer", "Agent", "Streamable", "Ollama"}

// midCapitals returns the words of s that start a joined sentence with a
// capital.
func midCapitals(s string) []string {
	var out []string
	for _, m := range midCapital.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(properWords, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestErrorSentencesJoinInLowerCase (issue 28 item 15): the errors the
// command line prints for the common mistakes — a server URL that carries
// a key or is not https, names that do not exist, bad classes and
// identities, bad flag values, missing files — are one line each, and no
// sentence joined after another's ": " or "; " starts with a capital.
func TestErrorSentencesJoinInLowerCase(t *testing.T) {
	state := t.TempDir()
	missing := filepath.Join(state, "nosuch")
	for _, args := range [][]string{
		{"server", "add", "x", "--url", "https://example.com/mcp?api_key=abc"},
		{"server", "add", "x", "--url", "https://example.com/mcp#token=abc"},
		{"server", "add", "x", "--url", "https://example.com/v1;api_key=abc/mcp"},
		{"server", "add", "x", "--url", "https://user:pw@example.com/mcp"},
		{"server", "add", "x", "--url", "http://example.com/mcp"},
		{"server", "add", "x", "--url", "ftp://example.com/mcp"},
		{"server", "add", "x", "--url", "npx some-server"},
		{"server", "add", "x", "--url", "https://example.com/mcp", "--header", "bad header"},
		{"server", "test", "nosuch"},
		{"server", "timeout", "nosuch", "--call", "5x"},
		{"server", "ad", "x"},
		{"skill", "preview", missing + ".zip"},
		{"skill", "manifest", missing},
		{"skill", "remove", "nosuch"},
		{"policy", "set", "foo", "allow"},
		{"policy", "set", "builtin:fs_write", "allow"},
		{"policy", "set", "builtin:fs_read", "maybe"},
		{"runs", "show", "nosuch"},
		{"runs", "--limit", "x"},
		{"run", "--continue", "nosuch", "hi"},
		{"settings", "set", "nosuch", "x"},
		{"settings", "set", "notify-terminal", "x"},
		{"lock", "check", missing},
		{"definition", "add", missing + ".json"},
		{"profile", "show", "nosuch"},
		{"nosuchcmd"},
		{"--model-url", ":::", "doctor"},
	} {
		code, _, errOut := runCLI(t, cliEnv(), append([]string{"--state-dir", state}, args...)...)
		msg := strings.TrimSpace(errOut)
		if code == exitOK || msg == "" || strings.Contains(msg, "\n") {
			t.Errorf("vouch %s: exit %d, stderr %q; want one line and a failing exit", strings.Join(args, " "), code, errOut)
			continue
		}
		if words := midCapitals(msg); len(words) > 0 {
			t.Errorf("vouch %s: %q starts a joined sentence with a capital (%s)", strings.Join(args, " "), msg, strings.Join(words, ", "))
		}
	}
}
