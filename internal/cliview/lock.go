package cliview

import (
	"vouch/internal/app"
	"vouch/safetext"
)

// LockCheck is `vouch lock check`: who signed the lockfile, then each way
// this machine differs from it (the lock package words and neutralises
// those lines), or that it agrees (SPEC N2, N4).
func LockCheck(rep app.LockCheck) string {
	var lines []string
	if rep.Signer != nil {
		lines = append(lines, "signed by "+rep.Signer.String())
	}
	for _, d := range rep.Drifts {
		lines = append(lines, d.Text)
	}
	if len(rep.Drifts) == 0 {
		lines = append(lines, "this machine agrees with "+safetext.Line(rep.File, 0))
	}
	return Lines(lines...)
}
