package skills

import (
	"strings"
	"testing"
)

// TestFixedFormatKeysAreStripped is SPEC G6, G8 (issue 14 item 2): a
// fixed-format credential is stripped whatever words it contains; the
// placeholder exemption applies only to free-form "password = …" values.
func TestFixedFormatKeysAreStripped(t *testing.T) {
	// Built at run time so no credential-shaped literal sits in the source.
	keys := map[string]string{
		"AWS documentation key":   "AKIA" + "IOSFODNN7EXAMPLE",
		"AWS key with FAKE":       "AKIA" + "FAKE7Q2ZEXAMPLE1",
		"AWS session key":         "ASIA" + "XXEXAMPLE7Q2Z4DU",
		"GitHub with example":     "ghp_" + "example0123456789abcdefEXAMPLExyz0123",
		"GitHub fine-grained":     "github_pat_" + "11EXAMPLE0dummy_placeholder9Zq8Kd93LmQz",
		"Slack with dummy":        "xoxb-" + "1234567890-dummy-placeholder00",
		"Stripe with your":        "sk_live_" + "your0key0here0example0123",
		"Stripe restricted":       "rk_live_" + "EXAMPLE0000xxxx1111yyyy22",
		"OpenAI project example":  "sk-proj-" + "EXAMPLE-your-key-1234567890abcd",
		"Anthropic example":       "sk-ant-" + "api03-EXAMPLE-dummy-key-0123456789",
		"JWT":                     "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2lnbmF0dXJlLWV4YW1wbGU",
		"Google key with example": "AIza" + "SyEXAMPLE-example_dummy0123456789ab",
	}
	for name, key := range keys {
		t.Run(name, func(t *testing.T) {
			text := "---\nname: demo\ndescription: d\n---\nUse " + key + " for the API.\n"
			fs, spans := scan("SKILL.md", []byte(text))
			out := string(redact([]byte(text), spans))
			if strings.Contains(out, key) {
				t.Errorf("key kept: %q", out)
			}
			if len(fs) == 0 || fs[0].Rule != RuleSecret || fs[0].Action != ActionStripped || fs[0].Line != 5 {
				t.Errorf("findings %+v, want a stripped secret on line 5", fs)
			}
		})
	}
}

// Free-form values keep their placeholder exemption.
func TestFreeFormPlaceholdersStay(t *testing.T) {
	for _, text := range []string{
		`password = "your-password-goes-here-please"`,
		`api_key: "example-api-key-for-the-docs-0000"`,
		`token = "${GITHUB_TOKEN_FROM_THE_ENVIRONMENT}"`,
	} {
		if fs := Scan("SKILL.md", []byte(text+"\n")); len(fs) != 0 {
			t.Errorf("%s: findings %+v", text, fs)
		}
	}
}

// A file that is a private key is excluded, not kept with its block
// stripped (issue 14 item 2).
func TestPrivateKeyFileExcluded(t *testing.T) {
	pem := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n"
	p := mustImport(t, folder(t, skillMD(minimalSkill),
		member{name: "references/guide.md", body: "# Guide\n"},
		member{name: "keys/deploy.pem", body: "\n" + pem},
		member{name: "keys/id_ed25519", body: "# a comment first\n" + pem},
		member{name: "notes/howto.md", body: "# Keys\nA key looks like this:\n" + pem + "end\n"},
	))
	for _, name := range []string{"keys/deploy.pem", "keys/id_ed25519"} {
		if keptFile(p, name) != nil {
			t.Errorf("%s kept", name)
		}
		if r := excludedReason(p, name); !strings.Contains(r, "private key") {
			t.Errorf("%s excluded for %q, want a private key", name, r)
		}
	}
	// A document that quotes a key keeps its text, with the block stripped.
	f := keptFile(p, "notes/howto.md")
	if f == nil || strings.Contains(string(f.Data), "b3BlbnNz") || !strings.HasSuffix(string(f.Data), "end\n") {
		t.Errorf("notes/howto.md: %+v", f)
	}
}
