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

// TestOpenGivesTheProgramSide: the caller reads what is typed on the slave
// side, and WaitForFrom finds text only after its mark.
func TestOpenGivesTheProgramSide(t *testing.T) {
	term, tty, err := Open(80, 24)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := term.Close(); err != nil {
			t.Error(err)
		}
	}()
	if _, err := tty.WriteString("prompt> "); err != nil {
		t.Fatal(err)
	}
	if err := term.WaitFor("prompt> ", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	mark := term.Len()
	if _, err := term.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := tty.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); got != "hello\n" {
		t.Fatalf("the program side read %q, want %q", got, "hello\n")
	}
	if _, err := tty.WriteString("prompt> "); err != nil {
		t.Fatal(err)
	}
	if err := term.WaitForFrom(mark, "prompt> ", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := term.WaitForFrom(term.Len(), "prompt> ", 50*time.Millisecond); err == nil {
		t.Fatal("WaitForFrom found text from before its mark")
	}
	if err := term.Wait(); err == nil {
		t.Fatal("Wait on a terminal with no program: got nil error, want one")
	}
}
