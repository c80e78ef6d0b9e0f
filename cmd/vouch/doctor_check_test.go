package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/skills/skilltest"
	"vouch/store"
)

// TestDoctorCheck (SPEC K1, K3, M; issue 14 item 6): `vouch doctor
// --check` on a real database the CLI wrote reports it sound (exit 0); on
// a copy whose stored skill file had one byte flipped — which bbolt, with
// no page checksums, never notices — it names the damaged file and exits
// 1, in text and in --json; a copy with its meta pages zeroed is one
// problem, never a stack trace.
func TestDoctorCheck(t *testing.T) {
	state := t.TempDir()
	guide := "# Forms\n\nField by field, " + strings.Repeat("carefully and slowly, ", 20) + "\n"
	if code, _, errOut := runCLI(t, nil, "--state-dir", state, "skill", "install", skilltest.GoodSkill(t, "forms", map[string]string{"references/forms.md": guide})); code != exitOK {
		t.Fatalf("install: exit %d, %q", code, errOut)
	}
	code, out, errOut := runCLI(t, nil, "--state-dir", state, "doctor", "--check")
	if code != exitOK || !strings.Contains(out, "sound: no damage found") || !strings.Contains(out, filepath.Join(state, store.FileName)) {
		t.Fatalf("sound database: exit %d\n%s%s", code, out, errOut)
	}

	data, err := os.ReadFile(filepath.Join(state, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	copyWith := func(t *testing.T, edit func([]byte)) string {
		t.Helper()
		d := bytes.Clone(data)
		edit(d)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, store.FileName), d, 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Run("flipped byte in a stored file", func(t *testing.T) {
		bad := copyWith(t, func(d []byte) {
			i := bytes.Index(d, []byte("carefully and slowly"))
			if i < 0 {
				t.Fatal("the stored file is not in the database")
			}
			d[i] ^= 0x20 // "c" -> "C": same size, no page structure touched
		})
		code, out, errOut := runCLI(t, nil, "--state-dir", bad, "doctor", "--check")
		if code != exitFailure || !strings.Contains(out, "1 problem\n") || !strings.Contains(out, "skill_blobs/") ||
			!strings.Contains(errOut, "restore a copy") || strings.Contains(out+errOut, "goroutine") {
			t.Fatalf("damaged copy: exit %d, want %d\nstdout:\n%s\nstderr: %s", code, exitFailure, out, errOut)
		}
		code, out, _ = runCLI(t, nil, "--state-dir", bad, "doctor", "--check", "--json")
		var rep struct {
			Path     string   `json:"path"`
			Blobs    int      `json:"blobs"`
			Problems []string `json:"problems"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitFailure || len(rep.Problems) != 1 || rep.Blobs < 2 {
			t.Fatalf("--json: exit %d, %v, %+v\n%s", code, err, rep, out)
		}
	})
	t.Run("zeroed meta pages", func(t *testing.T) {
		bad := copyWith(t, func(d []byte) { clear(d[:2*4096]) })
		code, out, errOut := runCLI(t, nil, "--state-dir", bad, "doctor", "--check")
		if code != exitFailure || !strings.Contains(out, "cannot be opened") || strings.Contains(out+errOut, "goroutine") {
			t.Fatalf("zeroed meta: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("no database", func(t *testing.T) {
		code, _, errOut := runCLI(t, nil, "--state-dir", t.TempDir(), "doctor", "--check")
		if code != exitFailure || !strings.Contains(errOut, "nothing to check") {
			t.Fatalf("no database: exit %d, %q", code, errOut)
		}
	})
}
