package cliview

import (
	"fmt"
	"strings"
	"time"

	"vouch/internal/app/localskills"
	"vouch/internal/clitext"
	"vouch/mcpclient"
	"vouch/safetext"
)

// SkillInstalled is what `vouch skill install` says: the version and its
// digest, what each definition it carries did, and that it approves
// nothing (SPEC G).
func SkillInstalled(v localskills.Summary, preview localskills.Preview) string {
	var b strings.Builder
	fmt.Fprintf(&b, "installed %s version %d (sha256 %s)\n", safetext.Line(v.Name, 80), v.Version, v.SHA256)
	for _, d := range preview.Definitions {
		fmt.Fprintf(&b, "definition %s: %s\n", safetext.Line(d.Name, 64), safetext.Line(d.Action, 120))
	}
	b.WriteString("It is enabled nowhere and approves nothing; enable it on a profile to use it.\n")
	return b.String()
}

// SkillList is `vouch skill list`: installed skills, then approved server
// skills (origin "server:<label>").
func SkillList(out []localskills.Summary) string {
	if len(out) == 0 {
		return "no skills installed; preview one with 'vouch skill preview FILE', then 'vouch skill install FILE'\n"
	}
	var b strings.Builder
	b.WriteString("NAME\tVERSION\tINSTALLED\tFINDINGS\tORIGIN\n")
	for _, s := range out {
		fmt.Fprintf(&b, "%s\t%d\t%s\t%d\t%s\n", safetext.Line(s.Name, 40), s.Version,
			s.Installed.Local().Format(time.DateTime), s.Findings, safetext.Line(s.Origin, 60))
	}
	return clitext.Align(b.String())
}

// ServerSkillList is `vouch skill server list SERVER`: the server's skills
// with their state, the listing's summary, the entries not used and why,
// and the sentence of each skill that needs the person (SPEC I).
func ServerSkillList(server string, list []mcpclient.ServerSkill, listing mcpclient.SkillListing) string {
	var b strings.Builder
	b.WriteString("NAME\tORIGIN\tSTATE\tFILES\tURI\n")
	for _, k := range list {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%s\n", safetext.Line(server+"/"+k.Entry.Name, 60), safetext.Line(k.Origin(), 60),
			k.State, len(k.Entry.Files), safetext.Line(k.Entry.URI, 120))
	}
	lines := []string{safetext.Line(listing.Summary(), 300)}
	for _, inv := range listing.Invalid {
		lines = append(lines, "not used: "+safetext.Line(inv.URI, 120)+": "+safetext.Line(inv.Reason, 300))
	}
	for _, k := range list {
		if k.State != mcpclient.SkillApproved && k.State != mcpclient.SkillUnapproved {
			lines = append(lines, safetext.Line(k.Sentence, 400))
		}
	}
	return clitext.Align(b.String()) + Lines(lines...)
}

// SkillPinned is what `vouch skill server pin` says.
func SkillPinned(rep mcpclient.PinReport) string {
	msg := fmt.Sprintf("pinned %d files", rep.Pinned)
	if len(rep.Findings) > 0 {
		msg += fmt.Sprintf("; %d scanner findings hold content back until you preview and approve again", len(rep.Findings))
	}
	return msg + "\n"
}
