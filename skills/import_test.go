package skills

import (
	"strings"
	"testing"
)

// Every format imports the same minimal package to the same digest (SPEC G1, G4).
func TestImportFormatsAgree(t *testing.T) {
	ms := []member{skillMD(minimalSkill), {name: "references/guide.md", body: "# Guide\n"}}
	wrapped := []member{{name: "demo/", dir: true}, {name: "demo/SKILL.md", body: minimalSkill}, {name: "demo/references/guide.md", body: "# Guide\n"}}
	paths := map[string]string{
		"zip":         writeTemp(t, "demo.zip", zipBytes(t, ms...)),
		"zip-wrapped": writeTemp(t, "demo.zip", zipBytes(t, wrapped...)),
		"tgz":         writeTemp(t, "demo.tgz", tarGzBytes(t, ms...)),
		"tgz-wrapped": writeTemp(t, "demo.tar.gz", tarGzBytes(t, wrapped...)),
		"folder":      folder(t, ms...),
	}
	var want string
	for _, k := range []string{"zip", "zip-wrapped", "tgz", "tgz-wrapped", "folder"} {
		t.Run(k, func(t *testing.T) {
			p := mustImport(t, paths[k])
			if p.Name != "demo" || p.Description != "A demo skill for tests." {
				t.Errorf("got name %q description %q", p.Name, p.Description)
			}
			if len(p.Files) != 2 || p.Files[0].Path != "SKILL.md" || p.Files[1].Path != "references/guide.md" {
				t.Fatalf("got files %+v", p.Files)
			}
			if strings.Join(p.Resources, ",") != "references/guide.md" {
				t.Errorf("got resources %v, want the linked guide", p.Resources)
			}
			if !strings.HasPrefix(p.Instructions, "# Demo") {
				t.Errorf("got instructions %q", p.Instructions)
			}
			if want == "" {
				want = p.SHA256
			} else if p.SHA256 != want {
				t.Errorf("got digest %s, want %s (same content in another format)", p.SHA256, want)
			}
		})
	}
}
