package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"vouch/e2e/ollama"
	"vouch/internal/app"
)

// runJSON is `vouch run --json` as the tests read it.
type runJSON struct {
	Outcome       string `json:"outcome"`
	Answer        string `json:"answer"`
	Error         string `json:"error"`
	CorrelationID string `json:"correlation_id"`
	CutOff        *bool  `json:"cut_off"`
	Usage         *struct {
		PromptTokens     int     `json:"prompt_tokens"`
		CompletionTokens int     `json:"completion_tokens"`
		ContextWindow    int     `json:"context_window"`
		TokensPerSecond  float64 `json:"tokens_per_second"`
		Estimated        bool    `json:"estimated"`
	} `json:"usage"`
}

// vouchRunJSON runs `vouch --model-url URL --model M run --json TASK` in
// process and decodes its stdout.
func vouchRunJSON(t *testing.T, state, url, model, task string) (int, runJSON, string) {
	t.Helper()
	return vouchRunJSONIn(t, "", state, url, model, task)
}

// vouchRunJSONIn is vouchRunJSON with the working directory (the
// workspace of vouch's file tools) set to dir ("" leaves it).
func vouchRunJSONIn(t *testing.T, dir, state, url, model, task string) (int, runJSON, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errOut bytes.Buffer
	environ := cliEnv()
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return environ[k] }}
	code := run(t.Context(), []string{"--state-dir", state, "--model-url", url, "--model", model, "run", "--json", task}, e)
	var res runJSON
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("vouch run --json: exit %d, stdout is not JSON (%v): %q\nstderr: %s", code, err, out.String(), errOut.String())
	}
	return code, res, errOut.String()
}

// TestE2EOllamaRun drives `vouch run --model-url http://127.0.0.1:PORT/v1
// --model M --json TASK` through cmd/vouch's own wiring against a real
// Ollama 0.17.4 with the tiny models of ../shared/models (SPEC A3, A7, D1,
// F4, M; issue 17 item 7): a reply that ends by itself is not cut off and
// reports the server's usage and a believable rate; the never-ending model
// stops at the window's free space with cut_off true; a model that calls
// an MCP tool that needs approval ends the run with exit 4 and the call's
// correlation ID, the tool never run. Skipped with the reason when ollama
// or the models are absent; under VOUCH_E2E=1 that fails.
func TestE2EOllamaRun(t *testing.T) {
	s := ollama.Start(t)
	state := t.TempDir()

	t.Run("a whole reply with usage and a rate", func(t *testing.T) {
		code, res, errOut := vouchRunJSON(t, state, s.Base(), "tiny-chat:latest", "hello")
		if code != exitOK || res.CutOff == nil || *res.CutOff || res.Outcome == "" {
			t.Fatalf("exit %d, %+v\nstderr: %s", code, res, errOut)
		}
		u := res.Usage
		if u == nil || u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.ContextWindow != 1024 || u.Estimated {
			t.Fatalf("usage %+v: want the server's counts and the 1,024-token window", u)
		}
		// A rate is shown only when it can be measured, and then it is
		// the generation's (real: a few hundred tok/s on a CPU; issue 17
		// saw 30,733 to 2,949,037 shown).
		if u.TokensPerSecond < 0 || u.TokensPerSecond > 20000 {
			t.Errorf("rate %.0f tok/s is not a measurement", u.TokensPerSecond)
		}
	})

	t.Run("A7 a never-ending reply is cut off at the window's free space", func(t *testing.T) {
		code, res, errOut := vouchRunJSON(t, state, s.Base(), "tiny-long:latest", "tell me everything")
		if code != exitOK || res.CutOff == nil || !*res.CutOff {
			t.Fatalf("exit %d, %+v\nstderr: %s: want a run that ends, cut off", code, res, errOut)
		}
		if u := res.Usage; u == nil || u.PromptTokens+u.CompletionTokens > 1024 {
			t.Errorf("usage %+v: the reply must end inside the 1,024-token window", u)
		}
		if !strings.Contains(errOut, "cut off") {
			t.Errorf("stderr does not say the reply was cut off: %s", errOut)
		}
	})

	t.Run("F5 tools plan shows the plan a run makes on a 512-token window", func(t *testing.T) {
		state := t.TempDir()
		out, errOut := cli(t, state, "", exitOK, "--model-url", s.Base(), "--model", "tiny-512:latest", "tools", "plan", "--json")
		var p app.ToolPlan
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("tools plan --json: %v\n%s\nstderr: %s", err, out, errOut)
		}
		if p.Window != 512 || p.Error != "" || !strings.Contains(p.Note, "left out") || p.Counted != "estimate" {
			t.Errorf("plan %+v: want Ollama's 512-token window, vouch's own tools left out as a run leaves them, no error, the estimate (Ollama has no tokenizer)", p)
		}
		out, _ = cli(t, state, "", exitOK, "--model-url", s.Base(), "--model", "tiny-big:latest", "tools", "plan", "--json")
		if err := json.Unmarshal([]byte(out), &p); err != nil || p.Window != 4096 {
			t.Errorf("tiny-big: window %d (%v), want 4,096: num_ctx 8192 capped at the trained context", p.Window, err)
		}
	})

	t.Run("A6 vouch run --continue past the window extends the previous request", func(t *testing.T) { testContinueExtendsOnOllama(t, s) })
	t.Run("A6 K4 a session reading to the window's reach extends the previous session's request", func(t *testing.T) { testReachExtendsOnOllama(t, s) })

	t.Run("D1 a tool call that needs approval is exit 4", func(t *testing.T) {
		// The random model calls one of the offered tools on nearly every
		// turn (vouch's own, on a 4,096-token window); give it a few runs.
		work := t.TempDir()
		// The read tools ask too (a rule of the person's), so any call of
		// vouch's tools waits for a decision.
		for _, id := range []string{"builtin:fs_list", "builtin:fs_read", "builtin:fs_search"} {
			cli(t, state, "", exitOK, "policy", "set", id, "ask")
		}
		var seen []string
		for i := range 6 {
			code, res, errOut := vouchRunJSONIn(t, work, state, s.Base(), "tiny-tools-4k:latest", fmt.Sprintf("write a file, try %d", i))
			seen = append(seen, fmt.Sprintf("exit %d outcome %q error %q answer %.200q stderr %q", code, res.Outcome, res.Error, res.Answer, errOut))
			if code != exitApproval {
				continue
			}
			if res.CorrelationID == "" || !strings.Contains(errOut, res.CorrelationID) {
				t.Errorf("exit 4 without the call's correlation ID: %+v\nstderr: %s", res, errOut)
			}
			if entries, err := os.ReadDir(work); err != nil || len(entries) != 0 {
				t.Errorf("the workspace holds %d entries (%v) after a call that waited for approval: nothing may be executed", len(entries), err)
			}
			return
		}
		t.Errorf("no run stopped for approval in 6 tries: %s", strings.Join(seen, "; "))
	})
}
