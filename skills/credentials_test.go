package skills

import (
	"strings"
	"testing"
)

// TestCredentialsInResourcesAreStripped is SPEC G6 (issue 25 item 2): a
// credential a model could read in a kept file — URL user information, a
// bearer, basic or token Authorization value in a header or a command,
// curl's -u, a password written out in a sentence — is stripped before
// anything is kept, each with a finding that does not repeat it; the same
// shapes with variables, placeholders or no secret stay as written.
func TestCredentialsInResourcesAreStripped(t *testing.T) {
	// Built at run time so no credential-shaped literal sits in the source.
	pw := "Xk29" + "mQ7vLp2w"
	tok := "9f8e7d6c" + "5b4a39281706f5e4d3c2b1a0"
	basic := "ZGVwbG95Olhr" + "MjltUTd2THAydw==" // deploy:Xk29mQ7vLp2w
	cases := map[string]struct{ text, secret string }{
		"URL userinfo in JSON":       {`"url": "https://deploy:` + pw + `@team.example.invalid/mcp"`, pw},
		"database URL":               {"DATABASE_URL=postgres://app:" + pw + "@db.example.invalid:5432/prod", pw},
		"bearer header in JSON":      {`"Authorization": "Bearer ` + tok + `"`, tok},
		"bearer in curl":             {`curl -H "Authorization: Bearer ` + tok + `" https://api.example.invalid/v1`, tok},
		"bearer without a space":     {`-H 'authorization:bearer ` + tok + `'`, tok},
		"token scheme":               {`Authorization: token ` + tok, tok},
		"bare authorization value":   {`"authorization": "` + tok + `"`, tok},
		"basic header":               {`Authorization: Basic ` + basic, basic},
		"curl -u":                    {`curl -u deploy:` + pw + ` https://api.example.invalid/`, pw},
		"curl --user=":               {`curl --user=deploy:` + pw + ` https://api.example.invalid/`, pw},
		"password phrase":            {"Login with password " + pw + " as deploy.", pw},
		"password is":                {"The admin password is " + pw + ", change it later.", pw},
		"passphrase in backticks":    {"Unlock it with the passphrase `" + pw + "`.", pw},
		"short password assigned":    {`password: "` + pw + `"`, pw},
		"pwd parameter in a command": {`mysql -u root --password=` + pw + ` shop`, pw},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			text := "# Deploy\n\n" + tc.text + "\n"
			p := mustImport(t, folder(t, skillMD(minimalSkill+"\nSee [the notes](references/deploy.md).\n"),
				member{name: "references/deploy.md", body: text}))
			f := keptFile(p, "references/deploy.md")
			if f == nil {
				t.Fatal("references/deploy.md not kept")
			}
			if strings.Contains(string(f.Data), tc.secret) {
				t.Errorf("the credential is kept, readable by the model: %q", f.Data)
			}
			var got []Finding
			for _, x := range p.Findings {
				if x.File == "references/deploy.md" && x.Rule == RuleSecret {
					got = append(got, x)
				}
			}
			if len(got) != 1 || got[0].Action != ActionStripped || got[0].Line != 3 || strings.Contains(got[0].Detail, tc.secret) {
				t.Errorf("findings %s, want one stripped secret on line 3", describe(p.Findings))
			}
		})
	}
	for _, text := range []string{
		`curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com/v1`,
		`"Authorization": "Bearer ${GITHUB_TOKEN}"`,
		`Authorization: Bearer <your-token>`,
		`Authorization: Bearer YOUR_TOKEN_HERE_0000`,
		"Basic authentication sends the user name and password on every request.",
		`Authorization: Basic $(printf '%s' "$USER:$PASS" | base64)`,
		"Reset the password from the settings page; the password manager keeps it.",
		"The password must be at least 12 characters long.",
		`password: "${DB_PASSWORD}"`,
		"Clone with git@github.com:acme/app.git or https://github.com/acme/app.git.",
		"Install @acme/cli from https://registry.example.com/@acme/cli and log in as https://user@example.com/.",
		`curl -u "$USER:$PASS" https://api.example.com/`,
		"curl -u user:password https://api.example.com/",
		"Connect to postgres://app:${DB_PASSWORD}@db.example.com/prod.",
	} {
		if fs := Scan("references/x.md", []byte(text+"\n")); len(fs) != 0 {
			t.Errorf("%s: findings %s", text, describe(fs))
		}
	}
}
