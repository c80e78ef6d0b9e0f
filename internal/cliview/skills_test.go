package cliview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vouch/internal/app/localskills"
	"vouch/mcpclient"
)

func TestSkillInstalledListAndLines(t *testing.T) {
	var preview localskills.Preview
	if err := json.Unmarshal([]byte(`{"definitions":[{"name":"reviewer\u001b]0;t\u0007","action":"added"}]}`), &preview); err != nil {
		t.Fatal(err)
	}
	got := SkillInstalled(localskills.Summary{Name: "pdf" + hostile, Version: 2, SHA256: "ab12"}, preview)
	if !strings.Contains(got, " version 2 (sha256 ab12)\ndefinition reviewer") || !strings.Contains(got, ": added\n") ||
		!strings.HasSuffix(got, "It is enabled nowhere and approves nothing; enable it on a profile to use it.\n") {
		t.Fatalf("SkillInstalled =\n%s", got)
	}
	assertNeutral(t, got)
	if got := SkillList(nil); !strings.HasPrefix(got, "no skills installed; preview one with") {
		t.Fatalf("empty SkillList = %q", got)
	}
	list := SkillList([]localskills.Summary{{Name: "pdf", Version: 3, Installed: time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local), Findings: 1, Origin: "server:" + hostile}})
	if !strings.HasPrefix(list, "NAME  VERSION  INSTALLED            FINDINGS  ORIGIN\npdf   3        2026-03-01 09:00:00  1         server:") {
		t.Fatalf("SkillList =\n%s", list)
	}
	assertNeutral(t, list)
	if Lines("a", "b") != "a\nb\n" {
		t.Fatal("Lines must end each line")
	}
}

func TestServerSkillListAndPin(t *testing.T) {
	listing := mcpclient.SkillListing{ServerLabel: "Files", Complete: true,
		Skills:  []mcpclient.SkillEntry{{Name: "a"}, {Name: "b"}},
		Invalid: []mcpclient.InvalidSkill{{URI: "skill://x" + hostile, Reason: "no name"}}}
	list := []mcpclient.ServerSkill{
		{ServerLabel: "Files", Entry: mcpclient.SkillEntry{Name: "a", URI: "skill://a/SKILL.md"}, State: mcpclient.SkillApproved, Sentence: "fine"},
		{ServerLabel: "Files", Entry: mcpclient.SkillEntry{Name: "b" + hostile, URI: "skill://b/SKILL.md"}, State: mcpclient.SkillChanged, Sentence: "changed" + hostile},
	}
	got := ServerSkillList("files", list, listing)
	for _, want := range []string{
		"NAME              ORIGIN        STATE     FILES  URI\nfiles/a           server:Files  approved  0      skill://a/SKILL.md\n",
		"\n\"Files\" lists 2 skills.\nnot used: skill://x",
		": no name\nchanged",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("ServerSkillList lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "fine") {
		t.Fatalf("an approved skill's sentence is shown:\n%s", got)
	}
	assertNeutral(t, got)
	if got := SkillPinned(mcpclient.PinReport{Pinned: 3, Findings: make([]mcpclient.SkillFinding, 2)}); got != "pinned 3 files; 2 scanner findings hold content back until you preview and approve again\n" {
		t.Fatalf("SkillPinned = %q", got)
	}
}
