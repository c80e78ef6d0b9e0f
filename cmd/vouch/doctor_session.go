package main

import (
	"io"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/host"
	"vouch/safetext"
)

// doctorJSON is `vouch doctor --json`: the report and the session.
type doctorJSON struct {
	app.DoctorReport
	// Session is the session process of the state dir (nil: none runs).
	Session *host.SessionStatus `json:"session"`
}

func printDoctorSession(w io.Writer, s *host.SessionStatus) error {
	tw := clitext.NewTable(w)
	p := tw.Printf
	p("Session\n")
	switch {
	case s == nil:
		p("  none running\t(vouch starts one)\n")
	case s.Error != "":
		p("  error\t%s\n", safetext.Line(s.Error, 200))
	default:
		p("  pid\t%d since %s\n  clients\t%d (%d viewing)\n  runs\t%d in flight, %d approval(s) waiting\n  workspace\t%s\n",
			s.Pid, s.Since, s.Clients, s.Viewers, s.Running, s.Waiting, safetext.Line(s.Workspace, 0))
	}
	return tw.Flush("report")
}
