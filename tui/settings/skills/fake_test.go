package skills

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func TestMain(m *testing.M) { kittest.Main(m) }

// call is one call the catalog received.
type call struct {
	op, arg string
	opts    InstallOptions
}

// fakeCatalog holds installed skills and one preview; it records every
// call and fails as told.
type fakeCatalog struct {
	mu      sync.Mutex
	skills  []Summary
	preview Preview
	calls   []call
	errs    map[string]error // by op: list, preview, install, remove
}

func (f *fakeCatalog) record(c call) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
	return f.errs[c.op]
}

func (f *fakeCatalog) ListSkills(context.Context) ([]Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.skills), f.errs["list"]
}

func (f *fakeCatalog) PreviewSkill(_ context.Context, path string, opts InstallOptions) (Preview, error) {
	return f.preview, f.record(call{op: "preview", arg: path, opts: opts})
}

func (f *fakeCatalog) InstallSkill(_ context.Context, path string, opts InstallOptions) (Summary, error) {
	if err := f.record(call{op: "install", arg: path, opts: opts}); err != nil {
		return Summary{}, err
	}
	return Summary{Name: f.preview.InstallName, Version: f.preview.InstallVersion}, nil
}

func (f *fakeCatalog) RemoveSkill(_ context.Context, name string) error {
	return f.record(call{op: "remove", arg: name})
}

func (f *fakeCatalog) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.calls))
	for i, c := range f.calls {
		out[i] = fmt.Sprintf("%s %s %+v", c.op, c.arg, c.opts)
	}
	return out
}

const sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func catalog() *fakeCatalog {
	return &fakeCatalog{
		skills: []Summary{
			{Name: "notes", Version: 2, Origin: "~/skills/notes.zip", Installed: kittest.T0.Add(-time.Hour), SHA256: sha, Description: "Take notes.", Files: 3},
			{Name: "pdf", Version: 1, Origin: "~/Downloads/pdf.zip", Installed: kittest.T0.Add(-48 * time.Hour), SHA256: sha, Files: 7, Findings: 2},
		},
		preview: Preview{Source: "/tmp/pdf.zip", Name: "pdf", InstallName: "pdf", InstallVersion: 1, SHA256: sha, Description: "Read PDFs.",
			Instructions: "Use pdftotext.", Files: []PreviewFile{{Path: "SKILL.md", SHA256: sha, Size: 1200}}, RequestedTools: []string{"fs_read"}},
		errs: map[string]error{},
	}
}

func step(t *testing.T, m kit.Modal, msgs ...tea.Msg) kit.Modal {
	t.Helper()
	for _, msg := range msgs {
		m, _, _ = m.Update(msg)
	}
	return m
}

func typed(t *testing.T, m kit.Modal, s string) kit.Modal {
	t.Helper()
	for _, k := range kittest.Runes(s) {
		m = step(t, m, k)
	}
	return m
}

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyEsc   = tea.KeyMsg{Type: tea.KeyEsc}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyRight = tea.KeyMsg{Type: tea.KeyRight}
)

func letter(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }
