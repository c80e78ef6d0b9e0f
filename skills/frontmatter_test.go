package skills

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestFrontmatterRejections(t *testing.T) {
	aliasBomb := "---\nname: demo\ndescription: d\nmetadata:\n  a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\nbody\n"
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"no frontmatter", "# Just a title\n", []string{"does not start with a frontmatter block"}},
		{"never closed", "---\nname: demo\n", []string{"never closed"}},
		{"not YAML", "---\nname: demo\ndescription: [unclosed\n---\n", []string{"not valid YAML"}},
		{"not a mapping", "---\n- a\n- b\n---\n", []string{"not a YAML mapping"}},
		{"tabs and garbage", "---\n\tname: : :\n---\n", []string{"YAML"}},
		{"alias bomb", aliasBomb, []string{"anchors or aliases"}},
		{"anchor alone", "---\nname: &n demo\ndescription: d\n---\n", []string{"anchors or aliases"}},
		{"merge key", "---\nname: demo\ndescription: d\nmetadata:\n  <<: {a: b}\n---\n", []string{"anchors or aliases"}},
		{"too deep", "---\nname: demo\ndescription: d\nmetadata: " + strings.Repeat("[", 20) + strings.Repeat("]", 20) + "\n---\n", []string{"nests deeper"}},
		{"huge frontmatter", "---\nname: demo\ndescription: d\nx: |\n" + strings.Repeat("  line of text\n", 20000) + "---\n", []string{"longer than 256 KiB"}},
		{"description of 100,000 characters", "---\nname: demo\ndescription: " + strings.Repeat("é", 100000) + "\n---\n", []string{"100000 characters", "1024"}},
		{"no name", "---\ndescription: d\n---\n", []string{"no name"}},
		{"bad name", "---\nname: My_Skill\ndescription: d\n---\n", []string{"lower-case letters"}},
		{"name with double hyphen", "---\nname: my--skill\ndescription: d\n---\n", []string{"single hyphens"}},
		{"name too long", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", []string{"1 to 64"}},
		{"no description", "---\nname: demo\n---\n", []string{"no description"}},
		{"duplicate key", "---\nname: demo\nname: other\ndescription: d\n---\n", []string{"twice"}},
		{"name is a list", "---\nname: [a]\ndescription: d\n---\n", []string{"must be text"}},
		{"compatibility too long", "---\nname: demo\ndescription: d\ncompatibility: " + strings.Repeat("c", 501) + "\n---\n", []string{"500"}},
		{"metadata not a map", "---\nname: demo\ndescription: d\nmetadata: [a]\n---\n", []string{"metadata must be a mapping"}},
		{"allowed-tools a map", "---\nname: demo\ndescription: d\nallowed-tools: {a: b}\n---\n", []string{"allowed-tools"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseSkillMD([]byte(tc.doc))
			wantRejection(t, err, tc.want...)
		})
	}
}

func TestFrontmatterFields(t *testing.T) {
	doc := "\ufeff---\r\nname: pdf\r\ndescription: >\n  Folded text\n  over lines.\nlicense: MIT\ncompatibility: Needs python3\nversion: 0.9\nmetadata:\n  version: \"2.0\"\n  author: A\n  nested: {x: y}\nallowed-tools: \"Read, Bash(git add:*) Grep\"\nmodel: opus\nhooks:\n  PreToolUse: run.sh\nmcpServers: {x: {command: npx}}\n---\n# Body\n"
	fm, err := parseSkillMD([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if fm.Name != "pdf" || fm.Description != "Folded text over lines.\n" || fm.License != "MIT" || fm.Compatibility != "Needs python3" {
		t.Errorf("got %+v", fm)
	}
	if fm.Version != "2.0" {
		t.Errorf("version %q: metadata.version wins", fm.Version)
	}
	if !reflect.DeepEqual(fm.AllowedTools, []string{"Read", "Bash(git add:*)", "Grep"}) {
		t.Errorf("allowed-tools %q", fm.AllowedTools)
	}
	if fm.Body != "# Body\n" || fm.BodyLine != 19 {
		t.Errorf("body %q at line %d", fm.Body, fm.BodyLine)
	}
	if len(fm.Findings) != 2 || fm.Findings[0].Rule != RuleExecRequest || fm.Findings[0].Action != ActionStripped || fm.Findings[0].Line != 15 || fm.Findings[1].Line != 17 {
		t.Errorf("findings %+v, want hooks and mcpServers stripped", fm.Findings)
	}
	w := strings.Join(fm.Warnings, "\n")
	if !strings.Contains(w, `"model" (line 14)`) || !strings.Contains(w, "line 12") {
		t.Errorf("warnings %q", w)
	}
	list, err := parseSkillMD([]byte("---\nname: a\ndescription: d\nallowed-tools:\n  - Read\n  - Write\n---\n"))
	if err != nil || !reflect.DeepEqual(list.AllowedTools, []string{"Read", "Write"}) {
		t.Errorf("list form: %v %v", list, err)
	}
}

// FuzzFrontmatter: the parser never panics, refuses only with a
// *Rejection, and what it accepts meets the specification's rules.
func FuzzFrontmatter(f *testing.F) {
	f.Add([]byte(minimalSkill))
	f.Add([]byte("---\nname: a\ndescription: d\nmetadata: {a: &x b, c: *x}\n---\n"))
	f.Add([]byte("---\nname: a\ndescription: >\n  x\nallowed-tools: [Read, \"Bash(x:*)\"]\n---\nbody"))
	f.Add([]byte("---\n" + strings.Repeat("[", 50) + "\n---\n"))
	f.Add([]byte("---\r\nname: a\r\ndescription: d\r\n...\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := parseSkillMD(data)
		if err != nil {
			var rej *Rejection
			if !errors.As(err, &rej) {
				t.Fatalf("error %v is not a *Rejection", err)
			}
			return
		}
		if !skillNameRE.MatchString(fm.Name) || len(fm.Name) > MaxNameLen || strings.TrimSpace(fm.Description) == "" {
			t.Fatalf("accepted name %q description %q", fm.Name, fm.Description)
		}
	})
}
