package cliview

import (
	"strings"
	"testing"

	"vouch/agent"
	"vouch/internal/app"
)

// (moved from cmd/vouch/doctor_verdict_test.go with printDoctor; its
// assertions are unchanged)
// TestDoctorUsualPortsOneLine (issue 18 item 19): the default endpoints
// that refused the connection read as one line, not one "refused the
// connection…" each; a default that failed otherwise keeps its own line.
func TestDoctorUsualPortsOneLine(t *testing.T) {
	refused := "the model server at %s refused the connection; start llama-server (or your model server) or pass --model-url"
	rep := app.DoctorReport{ModelServers: []app.DoctorServer{
		{URL: "http://127.0.0.1:8080/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:8080/v1", 1), Refused: true},
		{URL: "http://127.0.0.1:1234/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:1234/v1", 1), Refused: true},
		{URL: "http://127.0.0.1:11434/v1", Error: "the model server at http://127.0.0.1:11434/v1 did not answer in time; check that it is running and not overloaded"},
		{URL: "http://127.0.0.1:8000/v1", Error: strings.Replace(refused, "%s", "http://127.0.0.1:8000/v1", 1), Refused: true},
	}}
	out := Doctor(rep)
	if !strings.Contains(out, "  nothing listens on the usual ports: 8080 (llama.cpp), 1234 (LM Studio), 8000 (vLLM)\n") {
		t.Errorf("no one line for the unused defaults:\n%s", out)
	}
	if n := strings.Count(out, "refused the connection"); n != 0 {
		t.Errorf("%d lines still say 'refused the connection':\n%s", n, out)
	}
	if !strings.Contains(out, "11434/v1") || !strings.Contains(out, "did not answer in time") {
		t.Errorf("the default that timed out lost its own line:\n%s", out)
	}
}

// TestDoctorSectionsNeutralised: every section reads, a model's window
// names its source (and that Ollama's is a guess), and what a model server
// or MCP server says about itself reaches the text neutralised (SPEC D3).
func TestDoctorSectionsNeutralised(t *testing.T) {
	rep := app.DoctorReport{
		ModelServers: []app.DoctorServer{{URL: "http://127.0.0.1:11434/v1", Kind: "Ollama", Models: []app.DoctorModel{
			{ID: "qwen" + hostile, ContextWindow: 32768, WindowSource: agent.WindowFromOllamaShow}, {ID: "tiny"}}}},
		Keyring:    app.DoctorKeyring{Backend: "file", Status: "ok"},
		Database:   app.DoctorDatabase{Path: "/s/vouch.db", SchemaVersion: 7},
		MCPServers: []app.ServerRow{{Name: "files" + hostile, Status: "ready", Tools: 1, URL: "http://127.0.0.1:9/mcp", Error: "e" + hostile}},
		Lock:       &app.DoctorLock{File: "/etc/vouch.lock", Summary: "agrees" + hostile},
	}
	got := Doctor(rep)
	for _, want := range []string{
		"Model servers\n  http://127.0.0.1:11434/v1  Ollama, 2 models\n",
		"32768 tokens (" + agent.WindowFromOllamaShow + "; a guess until the model loads",
		"tiny",
		"window unknown\n",
		"Keyring\n  backend",
		"state      not created yet (schema 7)\n",
		"in use by  nobody\n",
		"ready, 1 tool",
		"Lock\n  managed lock",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("Doctor lacks %q:\n%s", want, got)
		}
	}
	assertNeutral(t, got)
	if got := Doctor(app.DoctorReport{}); !strings.Contains(got, "MCP servers\n  none configured\n") || strings.Contains(got, "Lock") {
		t.Fatalf("an empty report:\n%s", got)
	}
}

func TestDatabaseCheck(t *testing.T) {
	sound := DatabaseCheck(app.CheckReport{Path: "/s/vouch.db", Buckets: 3, Keys: 10, Blobs: 2})
	if sound != "Database check\n  path    /s/vouch.db\n  read    3 buckets, 10 keys, 2 stored files re-hashed\n  result  sound: no damage found\n" {
		t.Fatalf("sound check = %q", sound)
	}
	bad := DatabaseCheck(app.CheckReport{Path: "/s/vouch.db", Problems: []string{"page 4" + hostile}})
	if !strings.Contains(bad, "  result   1 problem\n  problem  page 4") {
		t.Fatalf("damaged check = %q", bad)
	}
	assertNeutral(t, bad)
}
