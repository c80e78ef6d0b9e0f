package main

import (
	"errors"

	"vouch/internal/sessiond"
	"vouch/safetext"
)

// The session's words are untrusted text wherever they are not the
// interface's own frame (SPEC K4; issue 23): whatever answers on the
// socket passed Dial's checks, but a reply, a bye or a followed run's
// line is printed through safetext like any other untrusted string.

// askSession is sessiond.Ask with every reply, refusal and bye
// neutralised before anything here reads or prints it.
func askSession(stateDir string, req sessiond.Request, fn func(sessiond.Reply) error) error {
	err := sessiond.Ask(stateDir, req, func(r sessiond.Reply) error { return fn(cleanReply(r)) })
	var re *sessiond.ReplyError
	if errors.As(err, &re) {
		re.Reply = cleanReply(re.Reply)
	}
	var be *sessiond.ByeError
	if errors.As(err, &be) {
		be.Bye = cleanBye(be.Bye)
	}
	return err
}

func cleanReply(r sessiond.Reply) sessiond.Reply {
	r.Error, r.RunID, r.Line, r.Outcome = safetext.Line(r.Error, 0), safetext.Line(r.RunID, 0), safetext.Line(r.Line, 0), safetext.Line(r.Outcome, 0)
	if r.Info != nil {
		info := *r.Info
		info.StateDir, info.Since, info.Workspace = safetext.Line(info.StateDir, 0), safetext.Line(info.Since, 0), safetext.Line(info.Workspace, 0)
		r.Info = &info
	}
	return r
}

// cleanBye neutralises a bye: its reason on one line, the quit summary's
// lines kept.
func cleanBye(b sessiond.Bye) sessiond.Bye {
	b.Reason, b.Summary = safetext.Line(b.Reason, 0), safetext.Neutralize(b.Summary)
	return b
}
