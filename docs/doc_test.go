package docs

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"vouch/safetext"
)

// TestPages (issue 28 item 23): every topic's page is embedded, is the file
// on disk byte for byte, and is valid UTF-8 with no code point vouch's
// outputs neutralise (controls but newline and tab, bidi and invisible
// characters: safetext.Hidden), so printing it raw on a terminal cannot
// inject an escape sequence;
// its prose and its shell examples fit an 80-column terminal;
// topic names are unique, and every relative link of a page names a page
// of this folder that exists.
func TestPages(t *testing.T) {
	seen := map[string]bool{}
	link := regexp.MustCompile(`\]\(([^)#:]+\.md)(#[^)]*)?\)`)
	for _, topic := range Topics() {
		if seen[topic.Name] {
			t.Errorf("topic %s is listed twice", topic.Name)
		}
		seen[topic.Name] = true
		text, err := topic.Text()
		if err != nil {
			t.Fatal(err)
		}
		disk, err := os.ReadFile(topic.File)
		if err != nil || string(disk) != text {
			t.Errorf("topic %s: the embedded page is not %s on disk (%v)", topic.Name, topic.File, err)
		}
		if !utf8.ValidString(text) {
			t.Errorf("%s is not valid UTF-8", topic.File)
		}
		for i, r := range text {
			if safetext.Hidden(r) {
				t.Errorf("%s: %U at byte %d, which every output of vouch neutralises", topic.File, r, i)
			}
		}
		checkWidth(t, topic.File, text)
		if !strings.HasPrefix(text, "# ") || !strings.HasSuffix(text, "\n") {
			t.Errorf("%s does not start with its title or does not end with a newline", topic.File)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			checkLink(t, topic.File, m[1], m[2])
		}
	}
	if _, ok := Lookup("nosuch"); ok {
		t.Error("Lookup found a topic that does not exist")
	}
}

// TestReadmeLinksEveryTopic (issue 28 item 23): the README's reference
// table has a row for every topic — its name linking its page, and the
// summary `vouch help` lists — and every page the README links exists.
func TestReadmeLinksEveryTopic(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, topic := range Topics() {
		row := "| [`" + topic.Name + "`](docs/" + topic.File + ") | " + topic.Summary + " |\n"
		if !strings.Contains(readme, row) {
			t.Errorf("the README has no row %q", row)
		}
	}
	for _, m := range regexp.MustCompile(`\]\((docs/[^)#]+)(#[^)]*)?\)`).FindAllStringSubmatch(readme, -1) {
		checkLink(t, "the README", "../"+m[1], m[2])
	}
	if lines := strings.Count(readme, "\n"); lines > 150 {
		t.Errorf("the README is %d lines; it is the front door, the reference lives in docs/ (at most 150)", lines)
	}
}

// checkLink fails when the page file does not exist or has no heading
// whose anchor (as the forge spells it: lower case, spaces to hyphens,
// punctuation dropped) is anchor.
func checkLink(t *testing.T, from, file, anchor string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("%s links %s, which does not exist", from, file)
		return
	}
	if anchor == "" {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") && "#"+slug(title) == anchor {
			return
		}
	}
	t.Errorf("%s links %s%s: the page has no such heading", from, file, anchor)
}

// slug is a heading's anchor.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkWidth fails on a line of text wider than 80 columns that is prose
// or a shell example: `vouch help` prints the page as it is, so what a
// person reads or copies fits the terminal. Table rows and other code
// blocks (a lockfile, an allowed_signers line) keep their lines whole.
func checkWidth(t *testing.T, file, text string) {
	t.Helper()
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if fence == "" {
				fence = line
			} else {
				fence = ""
			}
			continue
		}
		wide := len([]rune(line)) > 80
		if wide && (fence == "" && !strings.HasPrefix(line, "|") || fence == "```sh") {
			t.Errorf("%s:%d is %d columns wide: %q", file, i+1, len([]rune(line)), line)
		}
	}
}
