package skills

import (
	"errors"
	"strings"
	"testing"
)

// TestFrontmatterEscapedHiddenCharacters: a bidi override or a tag
// character written as a YAML escape has none of the bytes the line
// scanner looks for; the parsed value is checked, and the package is
// refused with one sentence (SPEC G3, G8; issue 14).
func TestFrontmatterEscapedHiddenCharacters(t *testing.T) {
	for name, desc := range map[string]string{
		"bidi override":  `"Tidies notes \u202Eexe.txt"`,
		"tag characters": `"Tidies notes\U000E0041\U000E0042"`,
		"zero width":     `"Tidies\u200Bnotes"`,
		"C1 control":     `"Tidies notes \u009B2J"`,
	} {
		t.Run(name, func(t *testing.T) {
			doc := "---\nname: tidy-notes\ndescription: " + desc + "\n---\nBody.\n"
			_, err := parseSkillMD([]byte(doc))
			var rej *Rejection
			if !errors.As(err, &rej) {
				t.Fatalf("parseSkillMD = %v, want a rejection", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "description") || !strings.Contains(msg, "remove it and import again") {
				t.Errorf("rejection %q does not name the field and the fix", msg)
			}
		})
	}
	ok := "---\nname: tidy-notes\ndescription: \"Tidies notes —\\tplain text\"\n---\nBody.\n"
	if _, err := parseSkillMD([]byte(ok)); err != nil {
		t.Fatalf("an ordinary escaped description was refused: %v", err)
	}
}
