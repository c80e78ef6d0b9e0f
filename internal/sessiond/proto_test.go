package sessiond

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestFrameRoundTrip: what WriteFrame writes, ReadFrame reads back; a cut
// frame is io.ErrUnexpectedEOF; unknown kinds and oversized lengths are
// ErrFrame before anything is allocated.
func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, KindOutput, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&buf, KindResize, Size{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	k, p, err := ReadFrame(&buf)
	if err != nil || k != KindOutput || string(p) != "hello" {
		t.Fatalf("first frame = %d %q %v", k, p, err)
	}
	k, p, err = ReadFrame(&buf)
	var sz Size
	if err != nil || k != KindResize || decode(k, p, &sz) != nil || sz != (Size{80, 24}) {
		t.Fatalf("second frame = %d %q %v", k, p, err)
	}
	if _, _, err := ReadFrame(&buf); !errors.Is(err, io.EOF) {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
	for name, raw := range map[string][]byte{
		"kind 0":    {0, 0, 0, 0, 0},
		"kind 200":  {200, 0, 0, 0, 0},
		"too long":  binary.BigEndian.AppendUint32([]byte{byte(KindOutput)}, MaxPayload+1),
		"huge":      {byte(KindOutput), 0xff, 0xff, 0xff, 0xff},
		"cut short": {byte(KindOutput), 0, 0, 0, 9, 'a'},
	} {
		_, _, err := ReadFrame(bytes.NewReader(raw))
		want := ErrFrame
		if name == "cut short" {
			want = io.ErrUnexpectedEOF
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	if err := WriteFrame(io.Discard, KindOutput, make([]byte, MaxPayload+1)); !errors.Is(err, ErrFrame) {
		t.Fatalf("writing an oversized frame: %v", err)
	}
}

// FuzzFrame: no input makes the decoder panic or return more than it was
// given; every frame it accepts encodes back to the same bytes.
func FuzzFrame(f *testing.F) {
	for _, seed := range [][]byte{
		{byte(KindInput), 0, 0, 0, 1, 'a'},
		{byte(KindHello), 0, 0, 0, 2, '{', '}'},
		{byte(KindTakeOver), 0, 0, 0, 0},
		{0xff, 0xff, 0xff, 0xff, 0xff},
		{},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r := bytes.NewReader(raw)
		for {
			start := len(raw) - r.Len()
			k, p, err := ReadFrame(r)
			if err != nil {
				return
			}
			if len(p) > len(raw) {
				t.Fatalf("a %d-byte payload out of %d bytes", len(p), len(raw))
			}
			enc, err := encode(k, p)
			if err != nil {
				t.Fatal(err)
			}
			if end := len(raw) - r.Len(); !bytes.Equal(enc, raw[start:end]) {
				t.Fatalf("re-encoded %x, read %x", enc, raw[start:end])
			}
			var h Hello
			_ = decode(k, p, &h) // never panics on garbage
		}
	})
}

// TestHubNeverBlocks: a client whose queue is full is dropped, and the
// writer (the renderer) goes on.
func TestHubNeverBlocks(t *testing.T) {
	var dropped []*client
	h := newHub(func(c *client) { dropped = append(dropped, c) })
	slow := newClient(nil) // nobody writes its queue out
	h.add(slow)
	for range queueLen + 10 {
		if n, err := h.Write([]byte("frame")); n != 5 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if len(dropped) != 1 || dropped[0] != slow {
		t.Fatalf("dropped %d clients, want the slow one", len(dropped))
	}
	select {
	case <-slow.end:
	default:
		t.Fatal("the dropped client's connection was not ended")
	}
}

// TestViewerLineFits: the viewer's line never wraps (a wrap on the last
// row scrolls the mirrored screen) and says where the approval waits.
func TestViewerLineFits(t *testing.T) {
	for _, cols := range []int{80, 60, 20} {
		v := &viewerLine{cols: cols, rows: 24}
		line := v.set(Status{Viewer: true, ApprovalWaiting: true})
		text := line[strings.Index(line, "\x1b[7m")+4 : strings.Index(line, "\x1b[0m")]
		if n := len([]rune(text)); n > cols {
			t.Errorf("at %d columns the line is %d runes: %q", cols, n, text)
		}
		if !strings.HasPrefix(text, " viewing") || (cols >= 80 && !strings.Contains(text, "approval waits in the other window (ctrl+t) · size: this window's")) {
			t.Errorf("at %d columns the line says %q", cols, text)
		}
		if !strings.HasPrefix(line, "\x1b7\x1b[?7l\x1b[24;1H") || !strings.HasSuffix(line, "\x1b[?7h\x1b8") {
			t.Errorf("the line is not drawn on the last row with the cursor saved and autowrap off: %q", line)
		}
	}
	if (&viewerLine{cols: 80, rows: 24}).set(Status{Cols: 80, Rows: 24}) != "" {
		t.Error("the holder draws a viewer line")
	}
}

// TestViewerLineSaysWhoseSize (SPEC K4; issue 23 item 2): a viewer's line
// says whether the frame is this window's size or a smaller window's; a
// holder taller than the frame says so below it, one that is not draws
// nothing over the interface.
func TestViewerLineSaysWhoseSize(t *testing.T) {
	for _, tc := range []struct {
		name       string
		cols, rows int
		st         Status
		want       string
	}{
		{"viewer, its size", 100, 30, Status{Viewer: true, Cols: 100, Rows: 30}, " viewing — the keyboard is in the other window (ctrl+t takes over) · size: this window's "},
		{"viewer, its size, 80 columns", 80, 24, Status{Viewer: true, Cols: 80, Rows: 24}, " viewing — the keyboard is in the other window (ctrl+t) · size: this window's "},
		{"viewer, larger", 120, 40, Status{Viewer: true, Cols: 80, Rows: 24}, " viewing — the keyboard is in the other window (ctrl+t takes over) · size: 80x24, a smaller window's "},
		{"holder, taller", 120, 40, Status{Cols: 80, Rows: 24}, " drawn at 80x24, a smaller window's size "},
		{"holder, wider only", 120, 24, Status{Cols: 80, Rows: 24}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := (&viewerLine{cols: tc.cols, rows: tc.rows}).set(tc.st)
			if tc.want == "" {
				if line != "" {
					t.Fatalf("drew %q over the interface", line)
				}
				return
			}
			if !strings.Contains(line, fmt.Sprintf("\x1b[%d;1H", tc.rows)) || !strings.Contains(line, "\x1b[7m"+tc.want+"\x1b[0m") {
				t.Fatalf("line = %q, want %q on row %d", line, tc.want, tc.rows)
			}
		})
	}
}
