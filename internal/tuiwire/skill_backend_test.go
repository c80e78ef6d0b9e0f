package tuiwire

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/internal/app"
	"vouch/internal/app/localskills"
	"vouch/skills/skilltest"
	"vouch/store/storetest"
	tuiskills "vouch/tui/settings/skills"
)

// TestSkillBackend: the TUI's SkillCatalog previews without writing,
// installs only the digest that was previewed, reports rejections as the
// importer's sentence, lists and removes (SPEC G3, G4).
func TestSkillBackend(t *testing.T) {
	ctx := context.Background()
	db := storetest.MustOpen(t)
	b := NewBackend(app.ChatConfig{DB: db}, nil)
	pkg := skilltest.GoodSkill(t, "tui-skill", nil)

	empty, err := db.CatalogDump()
	if err != nil {
		t.Fatal(err)
	}
	pv, err := b.PreviewSkill(ctx, pkg, tuiskills.InstallOptions{})
	if err != nil || pv.Name != "tui-skill" || pv.InstallVersion != 1 {
		t.Fatalf("preview: %+v, %v", pv, err)
	}
	if after, _ := db.CatalogDump(); !bytes.Equal(empty, after) {
		t.Fatal("a preview wrote to the catalog")
	}
	if _, err := b.InstallSkill(ctx, pkg, tuiskills.InstallOptions{ExpectSHA256: strings.Repeat("0", 64)}); err == nil ||
		!strings.HasPrefix(err.Error(), "the package changed since its preview") {
		t.Fatalf("install of another digest: %v", err)
	}
	if after, _ := db.CatalogDump(); !bytes.Equal(empty, after) {
		t.Fatal("a refused install wrote to the catalog")
	}
	sum, err := b.InstallSkill(ctx, pkg, tuiskills.InstallOptions{ExpectSHA256: pv.SHA256})
	if err != nil || sum.Name != "tui-skill" || sum.Version != 1 || sum.SHA256 != pv.SHA256 {
		t.Fatalf("install: %+v, %v", sum, err)
	}
	if list, err := b.ListSkills(ctx); err != nil || len(list) != 1 || list[0].Files != len(pv.Files) {
		t.Fatalf("list: %+v, %v", list, err)
	}
	// The same package again is a same-name conflict, said in one sentence.
	again, err := b.PreviewSkill(ctx, pkg, tuiskills.InstallOptions{})
	if c, blocked := again.Blocked(); err != nil || !blocked || !strings.Contains(c.What, "same content") {
		t.Fatalf("second preview: %+v, %v", again.Conflicts, err)
	}
	if _, err := b.InstallSkill(ctx, pkg, tuiskills.InstallOptions{ExpectSHA256: pv.SHA256}); err == nil || !strings.Contains(err.Error(), "--new-revision") {
		t.Fatalf("same-name install: %v", err)
	}

	bad := skilltest.WriteZip(t, []skilltest.ZipEntry{{Name: "SKILL.md", Body: skilltest.SkillMD("evil")}, {Name: "../../etc/evil.md", Body: "x"}})
	if _, err := b.PreviewSkill(ctx, bad, tuiskills.InstallOptions{}); err == nil || strings.Contains(err.Error(), localskills.ErrRejected.Error()) {
		t.Fatalf("rejected preview: %v; want the importer's sentence alone", err)
	}

	if err := b.RemoveSkill(ctx, "tui-skill"); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveSkill(ctx, "tui-skill"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("second remove: %v", err)
	}
	if after, _ := db.CatalogDump(); !bytes.Equal(empty, after) {
		t.Fatal("removing the only skill left something in the catalog")
	}

	nodb := NewBackend(app.ChatConfig{}, nil)
	if _, err := nodb.ListSkills(ctx); err != localskills.ErrNoCatalog {
		t.Fatalf("without a database: %v", err)
	}
}

// TestExpandHome: a "~/" path typed into the TUI means the home folder.
func TestExpandHome(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory:", err)
	}
	for in, want := range map[string]string{"~/x/pdf.zip": filepath.Join(home, "x", "pdf.zip"), "/abs/p": "/abs/p", "rel/~/p": "rel/~/p"} {
		if got, err := localskills.ExpandHome(in); err != nil || got != want {
			t.Errorf("expandHome(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
