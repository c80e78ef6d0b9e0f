package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"vouch/tui/settings/servers"
	"vouch/tui/settings/tools"
)

// successReport is a test that connected, with rejected tools.
func successReport() servers.TestView {
	return servers.TestView{
		ProtocolVersion: "2026-07-28", Stateless: true,
		ServerName: "files-server", ServerVersion: "1.4.0",
		Capabilities: []string{"tools", "resources", "prompts"},
		Tools:        []string{"read_file", "write_file", "list_dir", "move_file", "stat", "search", "diff", "patch"},
		Rejected: []string{
			"bad name!: the name has characters outside A-Z, a-z, 0-9, _ and -",
			"huge: the input schema has more than 1,000 properties",
			"\x1b[31mred\x1b[0m: the name has characters outside A-Z, a-z, 0-9, _ and -",
		},
		Summary: "8 tools available, 3 rejected",
		Elapsed: 1240 * time.Millisecond,
	}
}

// TestGoldenServers pins Settings › Tools & Workflows frames at 80x24
// (SPEC B, D2, D3, L1, L2). Regenerate with
// go test ./tui/ -run TestGoldenServers -update.
func TestGoldenServers(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*fakeServers)
		drive func(*testing.T, Model, *fakeServers) Model
	}{
		{
			// Every status, a hostile name and URL, errors as one line.
			name: "server_list",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			name:  "server_list_empty",
			setup: func(fs *fakeServers) { fs.servers = nil },
		},
		{
			name:  "unavailable",
			setup: nil, // replaced by a nil Servers below
		},
		{
			name: "editor_new",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyRune('n'))
				m = typeText(m, "notes")
				m, _ = update(m, keyTab)
				m = typeText(m, "https://notes.example.com/mcp")
				m, _ = update(m, keyTab)
				m = typeText(m, "Authorization")
				m, _ = update(m, keyTab)
				m = typeText(m, "Bearer hunter2")
				return m
			},
		},
		{
			name: "editor_stored_secret",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyEnter)
				m, _ = update(m, keyShiftTab) // to the secret field
				return m
			},
		},
		{
			name: "editor_save_error",
			setup: func(fs *fakeServers) {
				fs.saveErr = errors.New("the endpoint must use HTTPS unless it is on loopback (got http://notes.example.com/mcp)")
			},
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyRune('n'))
				m = typeText(m, "notes")
				m, _ = update(m, keyTab)
				m = typeText(m, "http://notes.example.com/mcp")
				return press[servers.SavedMsg](t, m, keyEnter)
			},
		},
		{
			name:  "test_report_success",
			setup: func(fs *fakeServers) { fs.report = successReport() },
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				for range 5 { // scratch: inactive
					m, _ = update(m, keyDown)
				}
				return press[servers.TestedMsg](t, m, keyRune('t'))
			},
		},
		{
			name: "test_report_failure",
			setup: func(fs *fakeServers) {
				fs.testErr = errors.New("tls: failed to verify certificate: x509: certificate signed by unknown authority")
			},
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				return press[servers.TestedMsg](t, m, keyRune('t'))
			},
		},
		{
			name: "test_report_running",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyRune('t'))
				return m
			},
		},
		{
			name: "remove_confirm",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m, _ = update(m, keyRune('x'))
				return m
			},
		},
		{
			// Grouped by server; the focused tool shows the server's claims.
			name: "tools",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m = press[tools.ListedMsg](t, m, keyTab)
				m, _ = update(m, keyDown)
				return m
			},
		},
		{
			name: "tools_filter",
			drive: func(t *testing.T, m Model, fs *fakeServers) Model {
				m = press[tools.ListedMsg](t, m, keyTab)
				m, _ = update(m, keyRune('/'))
				m = typeText(m, "read")
				return m
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := &fakeServers{servers: sampleServers(), tools: sampleTools()}
			if tt.setup != nil {
				tt.setup(fs)
			}
			if tt.name == "unavailable" {
				fs = nil
			}
			m := openSettings(t, fs)
			if tt.drive != nil {
				m = tt.drive(t, m, fs)
			}
			view := m.View()
			if strings.ContainsAny(view, "\x1b\u009b\u202e\a") {
				t.Errorf("frame contains a control or bidi character: %q", view)
			}
			if strings.Contains(view, "hunter2") {
				t.Errorf("frame shows the secret:\n%s", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}
