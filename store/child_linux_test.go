//go:build linux

package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Child roles, run by the test binary re-executed with envChild set. They
// talk to the parent over stdout, one line per event, and never sleep.
const (
	roleCrashWriter = "crash-writer" // appends and streams until killed
	roleOpen        = "open"         // opens a database another process holds
	roleReadOnly    = "read-only"    // opens on a read-only mount (own mount namespace)
)

// Environment passed to children.
const (
	envDB    = "VOUCH_STORE_TEST_DB"
	envConv  = "VOUCH_STORE_TEST_CONV"
	envCycle = "VOUCH_STORE_TEST_CYCLE"
	envMount = "VOUCH_STORE_TEST_MOUNT"
)

func childMain(role string) int {
	var err error
	switch role {
	case roleCrashWriter:
		err = childCrashWriter()
	case roleOpen:
		err = childOpen()
	case roleReadOnly:
		err = childReadOnly()
	default:
		err = fmt.Errorf("unknown child role %q", role)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// crashPayload is message i of a cycle; sizes cycle from a few bytes to
// past a page and into overflow pages.
func crashPayload(cycle, i int) string {
	sizes := [...]int{16, 700, 5000, 70000}
	return fmt.Sprintf("cycle %d message %d|", cycle, i) +
		strings.Repeat(string(rune('a'+i%26)), sizes[i%len(sizes)])
}

// crashStream is the full text a streamed message i of a cycle receives,
// as the chunks the child writes.
func crashStream(cycle, i int) []string {
	chunks := make([]string, 40)
	for j := range chunks {
		chunks[j] = fmt.Sprintf("[%d.%d.%d]%s", cycle, i, j, strings.Repeat("z", 100+j*13))
	}
	return chunks
}

// childCrashWriter appends messages forever, reporting each commit only
// after it returned:
//
//	ready             the database is open
//	m SEQ I           message SEQ holds crashPayload(cycle, I)
//	f SEQ I N         streamed message SEQ (crashStream I) has ≥ N bytes committed
//	c SEQ I           streamed message SEQ is complete
func childCrashWriter() error {
	var cycle int
	if _, err := fmt.Sscan(os.Getenv(envCycle), &cycle); err != nil {
		return fmt.Errorf("cycle: %w", err)
	}
	conv := os.Getenv(envConv)
	db, err := Open(os.Getenv(envDB), Options{})
	if err != nil {
		return err
	}
	fmt.Println("ready")
	for i := 0; ; i++ {
		if i%5 == 3 {
			if err := childStream(db, conv, cycle, i); err != nil {
				return err
			}
			continue
		}
		seq, err := db.AppendMessage(Message{ConversationID: conv, Role: "assistant", Content: crashPayload(cycle, i)})
		if err != nil {
			return err
		}
		fmt.Printf("m %d %d\n", seq, i)
		if i%7 == 0 {
			if err := db.SetSetting(fmt.Sprintf("cycle-%d", cycle), fmt.Sprint(i)); err != nil {
				return err
			}
		}
	}
}

func childStream(db *DB, conv string, cycle, i int) error {
	w, err := db.NewMessageWriter(conv, "assistant", WriterOptions{Size: 1024})
	if err != nil {
		return err
	}
	n := 0
	for j, chunk := range crashStream(cycle, i) {
		w.Write(chunk)
		n += len(chunk)
		if j%10 == 9 {
			if err := w.Flush(); err != nil {
				return err
			}
			fmt.Printf("f %d %d %d\n", w.Seq(), i, n)
		}
	}
	if err := w.Finish(StatusComplete, nil); err != nil {
		return err
	}
	fmt.Printf("c %d %d\n", w.Seq(), i)
	return nil
}

// openResult is what roleOpen and roleReadOnly report, as JSON.
type openResult struct {
	Name      string `json:"name"`
	Locked    bool   `json:"locked"`
	ReadOnly  bool   `json:"read_only"`
	ElapsedMS int64  `json:"elapsed_ms"`
	Err       string `json:"err"`
}

func tryOpen(name, path string) openResult {
	start := time.Now()
	db, err := Open(path, Options{})
	r := openResult{Name: name, ElapsedMS: time.Since(start).Milliseconds()}
	if err == nil {
		r.Err = "<nil>"
		if cerr := db.Close(); cerr != nil {
			r.Err = "close: " + cerr.Error()
		}
		return r
	}
	r.Locked, r.ReadOnly, r.Err = errors.Is(err, ErrLocked), errors.Is(err, ErrReadOnly), err.Error()
	return r
}

func childOpen() error {
	return json.NewEncoder(os.Stdout).Encode([]openResult{tryOpen("second instance", os.Getenv(envDB))})
}

// childReadOnly runs in its own mount namespace (the parent sets
// CLONE_NEWNS), so its tmpfs vanishes with it. It creates a database,
// remounts the file system read-only and opens again.
func childReadOnly() error {
	mnt := os.Getenv(envMount)
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=16m"); err != nil {
		return fmt.Errorf("mount tmpfs: %w", err)
	}
	existing := filepath.Join(mnt, "state", FileName)
	db, err := Open(existing, Options{})
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		return fmt.Errorf("remount read-only: %w", err)
	}
	return json.NewEncoder(os.Stdout).Encode([]openResult{
		tryOpen("existing file on read-only mount", existing),
		tryOpen("new state dir on read-only mount", filepath.Join(mnt, "new", FileName)),
		tryOpen("new file in existing dir on read-only mount", filepath.Join(mnt, "state", "other.db")),
	})
}
