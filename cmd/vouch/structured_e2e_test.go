package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/e2epeer"
)

// TestE2EFilesystemFileOnce (SPEC E3; issue 24 item 5): through `vouch
// run`, against the real server-filesystem behind mcp-proxy, a 12 KB file
// read with read_text_file reaches the model once and whole: the
// structured copy {"content": text} is dropped, not sent beside the text
// and cut at the 16 KB result budget.
func TestE2EFilesystemFileOnce(t *testing.T) {
	proxy, proxyErr := e2epeer.File("mcp-proxy", mcpProxyBin, "npm ci --prefix e2e")
	fsServer, fsErr := e2epeer.File("the reference filesystem server", filesystemBin, "npm ci --prefix e2e")
	node, nodeErr := e2epeer.Command("node", "apt-get install nodejs")
	e2epeer.Require(t, proxyErr, fsErr, nodeErr)

	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var content strings.Builder
	for i := 0; content.Len() < 12000; i++ {
		fmt.Fprintf(&content, "line %05d of a file that fits in one result\n", i)
	}
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte(content.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	port := e2epeer.FreePort(t)
	startNpmPeer(t, "mcp-proxy", fmt.Sprintf("127.0.0.1:%d", port), exec.Command(node, proxy, "--host", "127.0.0.1",
		"--port", fmt.Sprint(port), "--server", "stream", "--", node, fsServer, dir))

	model := agenttest.New(callScript("mcp_read_text_file", fmt.Sprintf(`{"path":%q}`, file)), agenttest.WithModels("m"),
		agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(65536))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "server", "add", "files", "--url", fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
	cli(t, state, "", exitOK, "server", "activate", "files")
	cli(t, state, "", exitOK, "policy", "set", "mcp:"+serverIDOf(t, state)+":read_text_file", "allow", "--effect", "read-only")
	cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "read notes.txt")

	var result string
	for _, r := range model.Requests() {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				result = m.Content
			}
		}
	}
	last := fmt.Sprintf("line %05d", strings.Count(content.String(), "\n")-1)
	if strings.Count(result, "line 00000 ") != 1 || !strings.Contains(result, last) || strings.Contains(result, "structured content") {
		t.Errorf("the model read %d bytes, the first line %d times, the last line %v, a structured copy %v; want the %d-byte file once, whole",
			len(result), strings.Count(result, "line 00000 "), strings.Contains(result, last), strings.Contains(result, "structured content"), content.Len())
	}
}
