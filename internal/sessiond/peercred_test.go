package sessiond

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// foreignDialEnv makes the test binary a client that dials the socket it
// names and prints the first frame's payload: the other uid's process of
// TestForeignUIDConnection.
const foreignDialEnv = "SESSIOND_TEST_FOREIGN_DIAL"

func TestMain(m *testing.M) {
	if path := os.Getenv(foreignDialEnv); path != "" {
		os.Exit(foreignDial(path))
	}
	if dir := os.Getenv(foreignListenEnv); dir != "" {
		os.Exit(foreignListen(dir))
	}
	os.Exit(m.Run())
}

// foreignDial connects without Dial's checks: this process is the
// foreign one, and the directory is not its own.
func foreignDial(dir string) int {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: SocketPath(dir), Net: "unix"})
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	defer func() { _ = c.Close() }()
	_ = WriteJSON(c, KindHello, Hello{Role: RoleTerminal, Cols: 80, Rows: 24})
	k, p, err := ReadFrame(c)
	if err != nil {
		fmt.Println("read:", err)
		return 1
	}
	fmt.Printf("kind %d: %s\n", k, p)
	return 0
}

// TestForeignUIDConnection (SPEC K4): a process of another uid that
// reaches the socket — here its modes are opened on purpose, as a
// mistake would — is refused by its kernel credentials with one
// sentence, and gets no frame of the interface. Needs root to run a
// child as nobody.
func TestForeignUIDConnection(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a process as another uid needs root; TestForeignPeerRefused covers the decision")
	}
	ts := startServer(t, nil)
	// The test binary, where nobody may run it.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binDir := shortDir(t)
	bin := filepath.Join(binDir, "client")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{binDir, ts.dir} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(SocketPath(ts.dir), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{foreignDialEnv + "=" + ts.dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the foreign client: %v\n%s", err, out)
	}
	want := fmt.Sprintf("kind %d: ", KindBye)
	if !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), "belongs to another user") || !strings.Contains(string(out), `"refused":true`) {
		t.Fatalf("the foreign client got %q, want the refusal", out)
	}
	if info := ts.Info(); info.Program || info.Clients != 0 {
		t.Fatalf("a foreign client was admitted: %+v", info)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
