package termtest

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStartSeesSizeAndOutput(t *testing.T) {
	term, err := Start(exec.Command("sh", "-c", "stty size; echo ready; read x; echo got:$x"), 91, 27)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = term.Close() }()
	if err := term.WaitFor("ready", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := term.Output(); !strings.Contains(got, "27 91") {
		t.Fatalf("stty size: got %q, want it to contain %q", got, "27 91")
	}
	if _, err := term.Write([]byte("abc\r")); err != nil {
		t.Fatal(err)
	}
	if err := term.WaitFor("got:abc", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := term.Wait(); err != nil {
		t.Fatalf("wait: %v", err)
	}
}

func TestWaitForTimesOut(t *testing.T) {
	term, err := Start(exec.Command("sh", "-c", "read x"), 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = term.Close() }()
	if err := term.WaitFor("never", 50*time.Millisecond); err == nil {
		t.Fatal("WaitFor: got nil error, want a timeout")
	}
}
