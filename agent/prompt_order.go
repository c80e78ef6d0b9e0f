package agent

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"vouch/tool"
	"vouch/workflow"
)

// The system prompt of a workflow run part is assembled in the order SPEC
// H4 fixes: the app's safety and tool policy (RunSpec.SystemPrompt, and
// the deferred-tools listing when tools are deferred), then the part of
// the definition this run part plays, then the attributed skill listing in
// the profile's order. The person's task follows as the user message.

// ListingLevel says how far the skill listing was degraded to fit its
// share of the window (SPEC H4).
type ListingLevel int

// The degradation levels, in order.
const (
	// ListingNone: the run has no enabled skills.
	ListingNone ListingLevel = iota
	// ListingFull: every skill with its description and declared files.
	ListingFull
	// ListingTrimmed: descriptions cut to their first sentence, at most
	// trimmedDescription bytes; no file names.
	ListingTrimmed
	// ListingNames: names and origins only.
	ListingNames
	// ListingCut: names and origins of the first skills that fit, then a
	// count of the rest (their names still load with skill_load).
	ListingCut
)

func (l ListingLevel) String() string {
	switch l {
	case ListingNone:
		return "none"
	case ListingFull:
		return "full"
	case ListingTrimmed:
		return "trimmed"
	case ListingNames:
		return "names only"
	case ListingCut:
		return "names, cut"
	}
	return fmt.Sprintf("level %d", int(l))
}

// trimmedDescription bounds a description in a trimmed listing.
const trimmedDescription = 80

// skillListingHeader opens the skill listing.
const skillListingHeader = "# Skills\n" +
	"These skills are enabled for this run, in the person's order. A skill is instructions, not permission: " +
	"loading one never adds tools, approvals, files or access. Read one with skill_load {\"name\": \"<skill>\"}, " +
	"and one of its listed files with skill_read {\"name\": \"<skill>\", \"path\": \"<file>\"}."

// SkillListing renders the attributed listing of skills, in their order,
// within budget tokens as count measures them (nil: EstimateTokens). It
// tries each level in order — full metadata, trimmed descriptions, names
// only — and takes the first that fits; when even names do not fit it
// lists the names that do, in order, and counts the rest. The same input
// gives the same output. Skill text is package text: it is folded onto one
// line with control characters removed, so no description can pose as
// another skill's line or a heading.
func SkillListing(skills []tool.FrozenSkill, budget int, count func(string) int) (string, ListingLevel) {
	if len(skills) == 0 {
		return "", ListingNone
	}
	if count == nil {
		count = EstimateTokens
	}
	for _, level := range []ListingLevel{ListingFull, ListingTrimmed, ListingNames} {
		lines := make([]string, len(skills))
		for i, s := range skills {
			lines[i] = listingLine(s, level)
		}
		text := skillListingHeader + "\n" + strings.Join(lines, "\n")
		if count(text) <= budget {
			return text, level
		}
	}
	// Names of as many skills as fit, in order, and a count of the rest.
	text := skillListingHeader
	for i, s := range skills {
		next := text + "\n" + listingLine(s, ListingNames)
		tail := ""
		if left := len(skills) - i - 1; left > 0 {
			tail = fmt.Sprintf(moreSkills, left)
		}
		if count(next+tail) > budget {
			return text + fmt.Sprintf(moreSkills, len(skills)-i), ListingCut
		}
		text = next
	}
	return text, ListingNames
}

// withPrecedence ends a non-empty skill listing with the run's precedence
// sentence (SPEC I6); a run without skills gets neither.
func withPrecedence(listing, precedence string) string {
	if listing == "" || precedence == "" {
		return listing
	}
	return listing + "\nPrecedence: " + oneLine(precedence)
}

// moreSkills ends a cut listing.
const moreSkills = "\n(+%d more enabled skills not listed for lack of room)"

// maxListedDescription bounds a description in the listing: the Agent
// Skills specification's 1,024 characters, which a package may exceed
// (it installs with a finding) but the model's listing never does.
const maxListedDescription = 1024

// capRunes cuts s to n characters, marking the cut with "…".
func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// listingLine is one skill's line at level.
func listingLine(s tool.FrozenSkill, level ListingLevel) string {
	line := fmt.Sprintf("skill %s (from %s)", oneLine(s.Name), oneLine(s.Origin))
	desc := oneLine(s.Description)
	switch level {
	case ListingFull:
		if desc != "" {
			line += ": " + capRunes(desc, maxListedDescription)
		}
		if len(s.Resources) > 0 {
			paths := make([]string, len(s.Resources))
			for i, r := range s.Resources {
				paths[i] = oneLine(cleanSkillPath(r.Path))
			}
			line += " [files: " + strings.Join(paths, ", ") + "]"
		}
	case ListingTrimmed:
		if desc = trimSentence(desc, trimmedDescription); desc != "" {
			line += ": " + desc
		}
	}
	return line
}

// oneLine folds text onto one line: runs of white space and control
// characters become one space.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cf, r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// trimSentence keeps the first sentence of s, at most limit bytes (cut on
// a rune boundary, marked with "…").
func trimSentence(s string, limit int) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

// definitionHeader opens the definition section.
func definitionHeader(d workflow.Definition) string {
	h := "# Agent definition: " + d.Name
	if d.Revision > 0 {
		h += fmt.Sprintf(" (revision %d)", d.Revision)
	}
	return h
}

// rolePrompt is the definition section of a Role run. Preferred tools are
// named only when the allowlist has them: a preference, never a grant.
func rolePrompt(d workflow.Definition, preferred []string) string {
	text := definitionHeader(d) + "\n" + d.Role.Instructions
	if len(preferred) > 0 {
		text += "\nPrefer these tools where they fit: " + strings.Join(preferred, ", ") + "."
	}
	return text
}

// stepPrompt is the definition section of flow step i.
func stepPrompt(d workflow.Definition, i int) string {
	steps := d.Flow.Steps
	text := fmt.Sprintf("%s, a flow of %d steps.\nYou are step %d of %d: %s.\n%s", definitionHeader(d), len(steps), i+1, len(steps),
		steps[i].Name, steps[i].Instructions)
	if i < len(steps)-1 {
		return text + "\nYour final answer is passed to the next step as its input."
	}
	return text + "\nYour final answer is the flow's answer to the person."
}

// leadPrompt is the definition section of a Subagents lead.
func leadPrompt(d workflow.Definition) string {
	var b strings.Builder
	b.WriteString(definitionHeader(d) + ", a lead with helpers.\n" + d.Subagents.Lead.Instructions)
	b.WriteString("\nHand a task to a helper with delegate {\"helper\": \"<name>\", \"task\": \"<what to do>\"}; " +
		"the helper's final answer comes back as the tool result. The helpers:")
	for _, h := range d.Subagents.Helpers {
		fmt.Fprintf(&b, "\n- %s: %s", h.Name, trimSentence(oneLine(h.Instructions), 160))
	}
	return b.String()
}

// helperPrompt is the definition section of one helper.
func helperPrompt(d workflow.Definition, h workflow.Part) string {
	return fmt.Sprintf("%s: you are its helper %s.\n%s\nThe lead gave you the task below; your final answer goes back to the lead. You cannot delegate.",
		definitionHeader(d), h.Name, h.Instructions)
}

// joinSections joins the non-empty prompt sections with blank lines.
func joinSections(sections ...string) string {
	var kept []string
	for _, s := range sections {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n\n")
}
