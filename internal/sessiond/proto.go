package sessiond

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Kind is the type of a frame.
type Kind byte

// The frames of the protocol. A frame is one Kind byte, a big-endian
// uint32 payload length and the payload; JSON payloads are noted.
const (
	// KindHello opens a connection (client → session; JSON Hello).
	KindHello Kind = 1
	// KindInput carries keyboard bytes of the holder (client → session).
	KindInput Kind = 2
	// KindResize carries the holder's new terminal size (JSON Size).
	KindResize Kind = 3
	// KindOutput carries bytes the program drew (session → client).
	KindOutput Kind = 4
	// KindBye ends a connection, with its reason (JSON Bye).
	KindBye Kind = 5
	// KindRequest asks the session for something (JSON Request).
	KindRequest Kind = 6
	// KindReply answers a request; a stream of them ends with Done (JSON
	// Reply).
	KindReply Kind = 7
	// KindStatus tells a terminal client its role and what waits (JSON
	// Status; session → client).
	KindStatus Kind = 8
	// KindTakeOver asks for the keyboard (viewer → session; no payload).
	KindTakeOver Kind = 9
)

// MaxPayload bounds a frame's payload; a larger length is refused before
// anything is allocated.
const MaxPayload = 1 << 20

// ErrFrame means the peer sent bytes that are not a frame of this
// protocol (an unknown kind or a length over MaxPayload).
var ErrFrame = errors.New("not a vouch session frame; is another program listening on the session socket?")

// WriteFrame writes one frame.
func WriteFrame(w io.Writer, k Kind, payload []byte) error {
	buf, err := encode(k, payload)
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// encode returns the bytes of one frame.
func encode(k Kind, payload []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("write frame of %d bytes (over %d): %w", len(payload), MaxPayload, ErrFrame)
	}
	buf := make([]byte, 5+len(payload))
	buf[0] = byte(k)
	binary.BigEndian.PutUint32(buf[1:5], uint32(len(payload)))
	copy(buf[5:], payload)
	return buf, nil
}

// WriteJSON writes one frame with v as its JSON payload.
func WriteJSON(w io.Writer, k Kind, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return WriteFrame(w, k, b)
}

func marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	return b, nil
}

// ReadFrame reads one frame. It returns io.EOF only at a frame boundary;
// a frame cut short is io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader) (Kind, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	k := Kind(head[0])
	if !known(k) {
		return 0, nil, fmt.Errorf("frame kind %d: %w", head[0], ErrFrame)
	}
	n := binary.BigEndian.Uint32(head[1:5])
	if n > MaxPayload {
		return 0, nil, fmt.Errorf("frame of %d bytes (over %d): %w", n, MaxPayload, ErrFrame)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return k, payload, nil
}

// known reports whether k is a frame of this protocol.
func known(k Kind) bool {
	return (k >= KindHello && k <= KindTakeOver) || (k >= KindFiles && k <= KindCancel)
}

// decode unmarshals a JSON payload of kind k.
func decode(k Kind, payload []byte, v any) error {
	if err := json.Unmarshal(payload, v); err != nil {
		return fmt.Errorf("frame kind %d: %w (%v)", k, ErrFrame, err)
	}
	return nil
}

// Roles of a connection, as the client asks for it in Hello.
const (
	// RoleTerminal is a terminal client: it holds the keyboard or views.
	RoleTerminal = "terminal"
	// RoleControl is a command (sessions, doctor, run --detach): requests
	// and replies only.
	RoleControl = "control"
)

// Hello is a client's first frame.
type Hello struct {
	Role string `json:"role"`
	// Env is the subset of the client's environment the interface reads
	// (see EnvKeys).
	Env  map[string]string `json:"env,omitempty"`
	Cols int               `json:"cols,omitempty"`
	Rows int               `json:"rows,omitempty"`
	// Dark is the background the client's terminal reported.
	Dark bool   `json:"dark,omitempty"`
	Cwd  string `json:"cwd,omitempty"`
	Pid  int    `json:"pid,omitempty"`
	// Flags are the model flags the client was given ("model-url=…"),
	// compared with the session's own.
	Flags map[string]string `json:"flags,omitempty"`
}

// Size is a terminal size in cells.
type Size struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// Bye ends a connection.
type Bye struct {
	// Reason is one sentence for the person.
	Reason string `json:"reason"`
	// Detached is true when the person detached on purpose (exit 0).
	Detached bool `json:"detached,omitempty"`
	// Refused is true when the session refused the connection.
	Refused bool `json:"refused,omitempty"`
	// Summary is what the interface leaves in the scrollback when the
	// person quits (the holder prints it once its terminal is restored).
	Summary string `json:"summary,omitempty"`
}

// Status tells a terminal client its role and what the session shows.
type Status struct {
	// Viewer: the keyboard is in another window.
	Viewer bool `json:"viewer,omitempty"`
	// ApprovalWaiting: the interface shows an approval pane.
	ApprovalWaiting bool `json:"approval_waiting,omitempty"`
	// Cols and Rows are the size the interface is drawn at: the smallest
	// of the attached terminals' (0: not known).
	Cols int `json:"cols,omitempty"`
	Rows int `json:"rows,omitempty"`
}

// Request is a control request.
type Request struct {
	// Op is one of the Op constants.
	Op      string `json:"op"`
	Task    string `json:"task,omitempty"`
	Profile string `json:"profile,omitempty"`
	RunID   string `json:"run_id,omitempty"`
}

// Control operations.
const (
	// OpInfo answers with Info.
	OpInfo = "info"
	// OpExitIfIdle asks an idle session to exit; a busy one answers with
	// an error naming itself.
	OpExitIfIdle = "exit-if-idle"
	// OpRun starts a detached run; the reply carries its RunID.
	OpRun = "run"
	// OpFollow streams the events of RunID until it ends.
	OpFollow = "follow"
)

// Reply answers a request; a stream ends with Done.
type Reply struct {
	Error string `json:"error,omitempty"`
	Info  *Info  `json:"info,omitempty"`
	RunID string `json:"run_id,omitempty"`
	// Line is one line of a followed run's events.
	Line string `json:"line,omitempty"`
	// Outcome is a followed run's outcome (with Done).
	Outcome string `json:"outcome,omitempty"`
	Done    bool   `json:"done,omitempty"`
}

// Info describes a running session.
type Info struct {
	Pid       int    `json:"pid"`
	StateDir  string `json:"state_dir"`
	Since     string `json:"since"`
	Clients   int    `json:"clients"`
	Viewers   int    `json:"viewers"`
	Running   int    `json:"runs_in_flight"`
	Waiting   int    `json:"approvals_waiting"`
	Workspace string `json:"workspace"`
	Program   bool   `json:"interface_running"`
}

// EnvKeys returns the environment variables a terminal client sends in
// Hello: what the interface reads to choose colours, clipboard paths,
// text and the notification sequence of the terminal (internal/notify).
// LC_* variables are sent too.
func EnvKeys() []string {
	return []string{"TERM", "TERM_PROGRAM", "COLORTERM", "NO_COLOR", "CLICOLOR_FORCE", "TMUX", "LANG", "VOUCH_THEME", "COLORFGBG",
		"KITTY_WINDOW_ID", "GHOSTTY_RESOURCES_DIR", "VTE_VERSION", "WEZTERM_PANE", "WT_SESSION"}
}
