package ollama

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"vouch/internal/e2epeer"
)

// ollamaInstall says how to get the peer.
const ollamaInstall = `CGO_CPPFLAGS=-I$PWD/.ci/ollama-include go install -ldflags "-X github.com/ollama/ollama/version.Version=0.17.4" github.com/ollama/ollama@v0.17.4 (needs nlohmann-json3-dev and libstb-dev; .ci/run does it)`

// startTimeout bounds the server's start and each model creation.
const startTimeout = 60 * time.Second

// qwenTemplate is Qwen2.5-Instruct's chat template in Ollama's Go-template
// syntax; 0.17.4 needs `json` to print a tool's function and a call's
// arguments (a plain {{ .Function }} prints a Go struct).
const qwenTemplate = `{{- if .Messages }}
{{- if or .System .Tools }}<|im_start|>system
{{- if .System }}
{{ .System }}
{{- else }}
You are Qwen, created by Alibaba Cloud. You are a helpful assistant.
{{- end }}
{{- if .Tools }}

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{{- range .Tools }}
{"type": "function", "function": {{ json .Function }}}
{{- end }}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
{{- end }}<|im_end|>
{{ end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1 -}}
{{- if eq .Role "user" }}<|im_start|>user
{{ .Content }}<|im_end|>
{{ else if eq .Role "assistant" }}<|im_start|>assistant
{{ if .Content }}{{ .Content }}
{{- else if .ToolCalls }}<tool_call>
{{ range .ToolCalls }}{"name": "{{ .Function.Name }}", "arguments": {{ json .Function.Arguments }}}
{{ end }}</tool_call>
{{- end }}{{ if not $last }}<|im_end|>
{{ end }}
{{- else if eq .Role "tool" }}<|im_start|>user
<tool_response>
{{ .Content }}
</tool_response><|im_end|>
{{ end }}
{{- if and (ne .Role "assistant") $last }}<|im_start|>assistant
{{ end }}
{{- end }}
{{- else }}
{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end }}{{ if .Prompt }}<|im_start|>user
{{ .Prompt }}<|im_end|>
{{ end }}<|im_start|>assistant
{{ end }}{{ .Response }}{{ if .Response }}<|im_end|>{{ end }}`

// model is one model the tests create.
type model struct {
	name, file string
	numCtx     int
}

// testModels are the models the tests create; /v1/models lists each as
// name + ":latest".
func testModels() []model {
	return []model{
		{"tiny-tools", "tiny-toolcall.gguf", 1024},
		{"tiny-chat", "tiny-qwen-tools.gguf", 1024},
		{"tiny-long", "tiny-long.gguf", 1024},
		// num_ctx above the trained 4096: /api/show says 8192, Ollama runs 4096.
		{"tiny-big", "tiny-long.gguf", 8192},
		// A 512-token window: vouch still chats (SPEC F5).
		{"tiny-512", "tiny-qwen-tools.gguf", 512},
		// The tool-calling model on a window its write tools fit.
		{"tiny-tools-4k", "tiny-toolcall.gguf", 4096},
		// Replies that end by themselves, on a window 20 turns fill.
		{"tiny-chat-4k", "tiny-qwen-tools.gguf", 4096},
	}
}

// Server is one running `ollama serve` with the test models created.
type Server struct {
	root string // http://127.0.0.1:PORT
	log  *lockedBuffer
}

// Base is the OpenAI-compatible base URL.
func (s *Server) Base() string { return s.root + "/v1" }

// lockedBuffer collects the server's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// repoRoot is the directory holding go.mod, found upwards from the test's
// working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// Start starts `ollama serve` on a free loopback port with a private HOME
// and model directory, creates the test models (ModelNames), and stops the
// server when the test ends. A missing binary or model file skips the test
// (fails under VOUCH_E2E=1). cmd/vouch's end-to-end test uses it too.
func Start(t *testing.T) *Server {
	t.Helper()
	return start(t, testModels())
}

// ColdModel is the model StartCold creates: tiny-chat's file with no
// num_ctx, as library models come.
const ColdModel = "tiny-cold:latest"

// StartCold starts `ollama serve` as Start does, with
// OLLAMA_CONTEXT_LENGTH=contextLength, and creates only ColdModel, which
// carries no num_ctx: until it is loaded, /api/show lets a client guess
// its trained 4,096 tokens while Ollama runs it at contextLength (issue 24
// item 3). Nothing loads it.
func StartCold(t *testing.T, contextLength int) *Server {
	t.Helper()
	return start(t, []model{{name: strings.TrimSuffix(ColdModel, ":latest"), file: "tiny-qwen-tools.gguf"}},
		fmt.Sprintf("OLLAMA_CONTEXT_LENGTH=%d", contextLength))
}

func start(t *testing.T, models []model, extraEnv ...string) *Server {
	t.Helper()
	bin, binErr := e2epeer.Command("ollama", ollamaInstall)
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	modelsDir := filepath.Join(filepath.Dir(root), "shared", "models")
	var fileErrs []error
	for _, m := range models {
		_, ferr := e2epeer.File("the tiny test model "+m.file, filepath.Join(modelsDir, m.file),
			"the models live in ../shared/models next to the repository; see its README")
		fileErrs = append(fileErrs, ferr)
	}
	e2epeer.Require(t, append(fileErrs, binErr)...)

	home := t.TempDir()
	port := e2epeer.FreePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	env := append(os.Environ(),
		"OLLAMA_HOST="+addr,
		"OLLAMA_MODELS="+filepath.Join(home, "models"),
		"HOME="+home,
		"OLLAMA_NUM_PARALLEL=1",
		"OLLAMA_MAX_LOADED_MODELS=4",
		"OLLAMA_KEEP_ALIVE=10m",
		"OLLAMA_NOHISTORY=1",
		"OLLAMA_DEBUG=1", // the runner logs its cache use per request (cache_test.go)
	)
	env = append(env, extraEnv...)
	s := &Server{root: "http://" + addr, log: &lockedBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Env = env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = s.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s serve: %v", bin, err)
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.log, line)
			if strings.Contains(line, "Listening on") {
				once.Do(func() { close(ready) })
			}
		}
		_, _ = io.Copy(io.Discard, stderr) // drain after an over-long line
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait() // interrupted on purpose
		if t.Failed() {
			t.Logf("ollama log:\n%s", tail(s.log.String(), 60))
		}
	})
	select {
	case <-ready:
	case <-time.After(startTimeout):
		t.Fatalf("ollama serve did not start listening within %s; log:\n%s", startTimeout, tail(s.log.String(), 40))
	}
	for _, m := range models {
		s.create(t, env, bin, home, filepath.Join(modelsDir, m.file), m)
	}
	return s
}

// create makes one model offline from a Modelfile.
func (s *Server) create(t *testing.T, env []string, bin, dir, gguf string, m model) {
	t.Helper()
	// One thread: the models are tiny, and on a busy 2-core machine more
	// threads spin against each other (about 10x slower). A fixed seed: the
	// same prompt samples the same reply, so a run is repeatable.
	numCtx := ""
	if m.numCtx > 0 { // 0: none, as library models come
		numCtx = fmt.Sprintf("PARAMETER num_ctx %d\n", m.numCtx)
	}
	mf := fmt.Sprintf("FROM %s\nTEMPLATE \"\"\"%s\"\"\"\n%sPARAMETER num_thread 1\nPARAMETER seed 42\n"+
		"PARAMETER stop \"<|im_end|>\"\n", gguf, qwenTemplate, numCtx)
	path := filepath.Join(dir, m.name+".Modelfile")
	if err := os.WriteFile(path, []byte(mf), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "create", m.name, "-f", path)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ollama create %s: %v\n%s", m.name, err, tail(string(out), 20))
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ModelNames are the ids /v1/models lists for the test models: tiny-tools
// (calls a tool on nearly every turn), tiny-chat (replies end by
// themselves), tiny-long (never stops), at num_ctx 1024, tiny-big
// (num_ctx 8192 on a 4096 model) and tiny-512 (tiny-chat's model at
// num_ctx 512), tiny-tools-4k and tiny-chat-4k (tiny-tools and
// tiny-chat at num_ctx 4096), each with ":latest".
func ModelNames() []string {
	var out []string
	for _, m := range testModels() {
		out = append(out, m.name+":latest")
	}
	return out
}
