package main

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"vouch/internal/app"
)

// TestRunJSONWithTheServerDown (SPEC M, H7; issue 28 item 16): `vouch run
// --json` with the model server down prints outcome "failed", the run's
// ID and the sentence, and run history keeps the run.
func TestRunJSONWithTheServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	code, out, errOut := runCLI(t, nil, "--state-dir", state, "--model-url", url, "--model", "m", "run", "--json", "hello")
	if code == exitOK {
		t.Fatalf("exit 0 with the server down; stderr %q", errOut)
	}
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%q", err, out)
	}
	if res.Outcome != "failed" || res.RunID == "" || !strings.Contains(res.Error, ln.Addr().String()) {
		t.Errorf("--json says %+v; want outcome failed, a run ID and the server's failure", res)
	}
	runs, _ := cli(t, state, "", exitOK, "runs", "--json")
	if !strings.Contains(runs, res.RunID) || !strings.Contains(runs, `"failed"`) {
		t.Errorf("run history does not keep the failed run %s:\n%s", res.RunID, runs)
	}
}
