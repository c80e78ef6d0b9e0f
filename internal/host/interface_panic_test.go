package host

import (
	"bytes"
	"context"
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/internal/app"
)

// panicModel panics in Update on its Init message, or, with inCmd, in the
// Cmd that Init returns.
type panicModel struct {
	inCmd bool
	name  string // non-empty: its length indexes an empty slice
}

type bang struct{}

func (m panicModel) Init() tea.Cmd {
	return func() tea.Msg {
		if m.inCmd {
			var none []tea.Msg
			return none[len(m.name)]
		}
		return bang{}
	}
}

func (m panicModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(bang); ok {
		var none []tea.Model
		return none[len(m.name)], nil
	}
	return m, nil
}

func (panicModel) View() string { return "" }

// TestProgramPanicIsNotANormalExit: Bubble Tea v1.3 recovers a panic in
// Update or in a Cmd goroutine, restores the terminal and returns an error
// that wraps both ErrProgramKilled and ErrProgramPanic; vouch used to take
// it for a normal exit (status 0, no word). It is now one sentence and
// exit 1, while a kill by the context stays a normal end.
func TestProgramPanicIsNotANormalExit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		inCmd bool
	}{{"update", false}, {"cmd", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := tea.NewProgram(panicModel{inCmd: tc.inCmd, name: tc.name}, tea.WithInput(nil), tea.WithOutput(&out), tea.WithoutSignalHandler())
			_, err := p.Run()
			if !errors.Is(err, tea.ErrProgramPanic) {
				t.Fatalf("Run = %v, want ErrProgramPanic", err)
			}
			var xe *app.Error
			got := programError(err)
			if !errors.As(got, &xe) || xe.Kind != app.Failure || !errors.Is(got, errInterfacePanic) {
				t.Fatalf("programError = %v, want a failure with the sentence", got)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	_, err := tea.NewProgram(panicModel{}, tea.WithInput(nil), tea.WithOutput(&out), tea.WithContext(ctx), tea.WithoutSignalHandler()).Run()
	if got := programError(err); got != nil {
		t.Fatalf("a program killed by its context: %v, want a normal end", got)
	}
}
