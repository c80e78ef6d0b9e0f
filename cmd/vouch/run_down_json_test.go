package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/internal/e2epeer"
)

// TestRunJSONWithTheServerDown (SPEC M, H7; issue 28 item 16): `vouch run
// --json` with the model server down prints outcome "failed", the run's
// ID and the sentence, and run history keeps the run.
func TestRunJSONWithTheServerDown(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", e2epeer.FreePort(t)) // nothing listens there
	url := "http://" + addr + "/v1"
	state := t.TempDir()
	code, out, errOut := runCLI(t, nil, "--state-dir", state, "--model-url", url, "--model", "m", "run", "--json", "hello")
	if code == exitOK {
		t.Fatalf("exit 0 with the server down; stderr %q", errOut)
	}
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%q", err, out)
	}
	if res.Outcome != "failed" || res.RunID == "" || !strings.Contains(res.Error, addr) {
		t.Errorf("--json says %+v; want outcome failed, a run ID and the server's failure", res)
	}
	runs, _ := cli(t, state, "", exitOK, "runs", "--json")
	if !strings.Contains(runs, res.RunID) || !strings.Contains(runs, `"failed"`) {
		t.Errorf("run history does not keep the failed run %s:\n%s", res.RunID, runs)
	}
}
