package agent

import (
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/tool"
)

// listingSkills are three skills with long descriptions and files.
func listingSkills() []tool.FrozenSkill {
	desc := "Formats every report in the house style. Covers headings, tables, dates, numbers and the tone of summaries for readers outside the team."
	return []tool.FrozenSkill{
		{Name: "house-style", Origin: "local", Description: desc, Resources: []tool.FrozenFile{{Path: "references/headings.md"}, {Path: "./references/tables.md"}}},
		{Name: "release-notes", Origin: "local", Description: "Writes release notes.\nOne line per change;\x1b[31m no marketing."},
		{Name: "incident", Origin: "server:ops", Description: strings.Repeat("Runs the incident review checklist step by step ", 4)},
	}
}

// TestSkillListingDegrades covers SPEC H4: the listing takes
// SkillListingShare of the window and degrades deterministically — full
// metadata, trimmed descriptions, names only, then cut — with package text
// folded onto one line.
func TestSkillListingDegrades(t *testing.T) {
	header := skillListingHeader + "\n"
	cases := []struct {
		window int
		level  ListingLevel
		want   string
	}{
		{4096, ListingFull, header +
			"skill house-style (from local): Formats every report in the house style. Covers headings, tables, dates, numbers and the tone of summaries for readers outside the team. [files: references/headings.md, references/tables.md]\n" +
			"skill release-notes (from local): Writes release notes. One line per change; [31m no marketing.\n" +
			"skill incident (from server:ops): " + strings.TrimSpace(strings.Repeat("Runs the incident review checklist step by step ", 4))},
		{1536, ListingTrimmed, header +
			"skill house-style (from local): Formats every report in the house style.\n" +
			"skill release-notes (from local): Writes release notes.\n" +
			"skill incident (from server:ops): Runs the incident review checklist step by step Runs the incident review checkli…"},
		{1152, ListingNames, header +
			"skill house-style (from local)\n" +
			"skill release-notes (from local)\n" +
			"skill incident (from server:ops)"},
	}
	for _, c := range cases {
		t.Run(c.level.String(), func(t *testing.T) {
			budget := int(SkillListingShare * float64(c.window))
			got, level := SkillListing(listingSkills(), budget, EstimateTokens)
			if level != c.level || got != c.want {
				t.Errorf("window %d: level %v, listing\n%s\nwant %v\n%s", c.window, level, got, c.level, c.want)
			}
			if n := EstimateTokens(got); n > budget {
				t.Errorf("listing takes %d tokens, over its budget of %d", n, budget)
			}
			again, _ := SkillListing(listingSkills(), budget, EstimateTokens)
			if again != got {
				t.Error("the same input gave a different listing")
			}
		})
	}
	t.Run("cut", func(t *testing.T) {
		got, level := SkillListing(listingSkills(), 95, EstimateTokens)
		if level != ListingCut || !strings.HasSuffix(got, "more enabled skills not listed for lack of room)") || EstimateTokens(got) > 95 {
			t.Errorf("level %v, %d tokens:\n%s", level, EstimateTokens(got), got)
		}
	})
	t.Run("none", func(t *testing.T) {
		if got, level := SkillListing(nil, 1000, nil); got != "" || level != ListingNone {
			t.Errorf("no skills gave %v %q", level, got)
		}
	})
}

// TestSkillListingInRun: RunWorkflow measures the listing against the
// run's window and reports the level it used.
func TestSkillListingInRun(t *testing.T) {
	for _, c := range []struct {
		window int
		level  ListingLevel
	}{{4096, ListingFull}, {1536, ListingTrimmed}, {1152, ListingNames}} {
		blobs := newMemBlobs()
		var skills []tool.FrozenSkill
		for _, s := range listingSkills() {
			s.Instructions = blobs.put("SKILL.md", "x")
			for i, r := range s.Resources {
				s.Resources[i] = blobs.put(r.Path, "y")
			}
			skills = append(skills, s)
		}
		srv, evs, done := runWorkflowScript(t, agenttest.Script{Turns: []agenttest.Turn{agenttest.Reply("ok")}}, RunSpec{ContextWindow: c.window},
			WorkflowSpec{Definition: roleDef("Be brief."), Skills: skills, Blobs: blobs})
		if done.Reason != StopDone {
			t.Fatalf("window %d: done = %v %v", c.window, done.Reason, done.Err)
		}
		ws := eventsOf[WorkflowStarted](evs)[0]
		if ws.ListingLevel != c.level || !strings.HasSuffix(systemOf(srv.Requests()[0]), ws.SkillListing) {
			t.Errorf("window %d: level %v, want %v; or the prompt does not end with the listing", c.window, ws.ListingLevel, c.level)
		}
	}
}

// TestSkillListingCapsLongDescriptions (SPEC G4; issue 28 item 21): a
// description longer than the Agent Skills specification's 1,024
// characters, which installs with a finding, reaches the model's listing
// cut to 1,024 characters.
func TestSkillListingCapsLongDescriptions(t *testing.T) {
	long := strings.Repeat("d", 3000)
	text, level := SkillListing([]tool.FrozenSkill{{Name: "claude-api", Origin: "local", Description: long}}, 1<<20, nil)
	if level != ListingFull {
		t.Fatalf("level %v, want full", level)
	}
	if strings.Contains(text, strings.Repeat("d", maxListedDescription)) || !strings.Contains(text, strings.Repeat("d", maxListedDescription-1)+"…") {
		t.Errorf("the listing carries %d characters of the description, want %d", strings.Count(text, "d"), maxListedDescription-1)
	}
}
