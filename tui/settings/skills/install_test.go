package skills

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"vouch/tui/kit"
	"vouch/tui/kit/kittest"
)

func openInstall(sc Catalog, w, h int) kit.Modal {
	return newInstall(kittest.Common(w, h), DefaultInstallKeyMap(), sc).SetSize(w, h)
}

// previewOf types path into a new install preview, presses enter and
// answers the preview.
func previewOf(t *testing.T, sc *fakeCatalog, path string, w, h int) kit.Modal {
	t.Helper()
	m := typed(t, openInstall(sc, w, h), path)
	m, _, cmd := m.Update(keyEnter)
	return step(t, m, kittest.Run(t, cmd))
}

// TestInstallSendsExactlyWhatWasPreviewed: enter previews exactly the
// typed path, installing nothing; i installs that path bound to the
// digest previewed and hands the result to the page below; a package
// with high-severity findings installs only through y, with exactly those
// IDs accepted; a name taken by an installed skill offers v, a new
// version, instead of i; no install key acts while the path is typed or
// the preview is read; failures are one sentence (SPEC G4, G5, G8).
func TestInstallSendsExactlyWhatWasPreviewed(t *testing.T) {
	opts := func(o InstallOptions) string { return fmt.Sprintf("%+v", o) }
	for _, tc := range []struct {
		name string
		prep func(*fakeCatalog)
		keys string
		want string // the install call; "" for none
	}{
		{"i installs what was previewed", nil, "i", "install /tmp/pdf.zip " + opts(InstallOptions{ExpectSHA256: sha})},
		{"findings need y", func(sc *fakeCatalog) { sc.preview.MustAccept = []string{"G8-exec-1", "G8-net-2"} }, "iy",
			"install /tmp/pdf.zip " + opts(InstallOptions{ExpectSHA256: sha, AcceptFindings: []string{"G8-exec-1", "G8-net-2"}})},
		{"findings and i alone install nothing", func(sc *fakeCatalog) { sc.preview.MustAccept = []string{"G8-exec-1"} }, "i", ""},
		{"y alone installs nothing", nil, "y", ""},
		{"a taken name offers a new version", func(sc *fakeCatalog) {
			sc.preview.Conflicts = []Conflict{{What: "a skill named pdf is installed", Blocking: true}}
		}, "iv", "install /tmp/pdf.zip " + opts(InstallOptions{NewRevision: true, ExpectSHA256: sha})},
		{"another blocking conflict installs nothing", func(sc *fakeCatalog) {
			sc.preview.Conflicts = []Conflict{{What: "a definition named pdf was built by you", Blocking: true}}
		}, "iv", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := catalog()
			if tc.prep != nil {
				tc.prep(sc)
			}
			m := previewOf(t, sc, "/tmp/pdf.zip", 80, 18)
			if want := "preview /tmp/pdf.zip " + opts(InstallOptions{}); !slices.Equal(sc.got(), []string{want}) {
				t.Fatalf("the catalog got %v, want %s", sc.got(), want)
			}
			var cmd tea.Cmd
			for _, r := range tc.keys {
				var c tea.Cmd
				m, _, c = m.Update(letter(r))
				if c != nil {
					cmd = c
				}
			}
			if tc.want == "" {
				if cmd != nil {
					t.Fatalf("%q installed: %v", tc.keys, kittest.Run(t, cmd))
				}
				return
			}
			if !strings.Contains(m.View(), "Installing…") {
				t.Errorf("no installing line:\n%s", m.View())
			}
			done := kittest.Run(t, cmd)
			if got := sc.got()[1:]; !slices.Equal(got, []string{tc.want}) {
				t.Fatalf("the catalog got %v, want %s", got, tc.want)
			}
			_, action, deliver := m.Update(done)
			if action != (kit.CloseModal{}) || deliver == nil {
				t.Fatalf("after the install: action %#v", action)
			}
			if _, ok := kittest.Run(t, deliver).(InstalledMsg); !ok {
				t.Error("the install was not handed to the page below")
			}
		})
	}
	t.Run("no install key acts before the preview", func(t *testing.T) {
		sc := catalog()
		m := openInstall(sc, 80, 18)
		m = typed(t, m, "/tmp/iv.zip")
		if len(sc.got()) != 0 {
			t.Fatalf("typing called %v", sc.got())
		}
		m, _, cmd := m.Update(keyEnter)
		for _, r := range "ivy" {
			if _, _, c := m.Update(letter(r)); c != nil {
				t.Errorf("%c acted while the preview was read", r)
			}
		}
		if !strings.Contains(m.View(), "Reading the package…") {
			t.Errorf("no reading line:\n%s", m.View())
		}
		kittest.Run(t, cmd)
		if want := "preview /tmp/iv.zip " + opts(InstallOptions{}); !slices.Equal(sc.got(), []string{want}) {
			t.Errorf("the letters typed went elsewhere: %v", sc.got())
		}
	})
	t.Run("esc in the findings goes back, then cancels", func(t *testing.T) {
		sc := catalog()
		sc.preview.MustAccept = []string{"G8-exec-1"}
		m := step(t, previewOf(t, sc, "/tmp/pdf.zip", 80, 18), letter('i'))
		if v := m.View(); !strings.Contains(v, "1 high-severity finding: G8-exec-1.") {
			t.Errorf("the second confirmation:\n%s", v)
		}
		m, action, _ := m.Update(keyEsc)
		if action != nil {
			t.Fatalf("esc in the findings closed: %#v", action)
		}
		if _, action, _ := m.Update(keyEsc); action != (kit.CloseModal{}) || len(sc.got()) != 1 {
			t.Errorf("esc: action %#v, calls %v", action, sc.got())
		}
	})
	t.Run("failures are one sentence", func(t *testing.T) {
		sc := catalog()
		m, _, _ := openInstall(sc, 80, 18).Update(keyEnter)
		if v := m.View(); !strings.Contains(v, "✗ Type the path of a skill package") || len(sc.got()) != 0 {
			t.Errorf("an empty path:\n%s", v)
		}
		sc.errs["preview"] = errors.New("the archive holds a path outside itself")
		m = previewOf(t, sc, "/tmp/evil.zip", 80, 18)
		if v := m.View(); !strings.Contains(v, "✗ The archive holds a path outside itself.") {
			t.Errorf("a failed preview:\n%s", v)
		}
		if k := m.(Install).keys; k.Install.Enabled() || k.NewRevision.Enabled() || !k.Preview.Enabled() {
			t.Error("after a failed preview an install key is on, or the path cannot be previewed again")
		}
		sc = catalog()
		sc.errs["install"] = errors.New("the package changed since the preview")
		m = previewOf(t, sc, "/tmp/pdf.zip", 80, 18)
		m, _, cmd := m.Update(letter('i'))
		m, action, _ := m.Update(kittest.Run(t, cmd))
		if v := m.View(); action != nil || !strings.Contains(v, "✗ Nothing was installed: the package changed since the preview.") {
			t.Errorf("a failed install: action %#v\n%s", action, v)
		}
	})
}

// TestInstallNeutralisesPackageText: every string of the preview comes
// from an untrusted package — names, description, instructions, paths,
// findings, conflicts — and reaches the view without control sequences,
// as does a failure (SPEC D3, G4).
func TestInstallNeutralisesPackageText(t *testing.T) {
	sc := catalog()
	sc.preview = Preview{Source: kittest.Hostile, Name: kittest.Hostile, InstallName: kittest.Hostile, SHA256: kittest.Hostile, Description: kittest.Hostile, License: kittest.Hostile,
		Compatibility: kittest.Hostile, Instructions: kittest.Hostile + "\n" + kittest.Hostile, Files: []PreviewFile{{Path: kittest.Hostile, SHA256: kittest.Hostile}},
		Resources: []string{kittest.Hostile}, Excluded: []PreviewExcluded{{Path: kittest.Hostile, Reason: kittest.Hostile}},
		Definitions:    []PreviewDefinition{{Name: kittest.Hostile, Kind: kittest.Hostile, SaveAs: kittest.Hostile, Action: kittest.Hostile}},
		RequestedTools: []string{kittest.Hostile}, Findings: []PreviewFinding{{ID: kittest.Hostile, File: kittest.Hostile, Rule: kittest.Hostile, Severity: "high", Detail: kittest.Hostile, Action: kittest.Hostile}},
		Warnings: []string{kittest.Hostile}, Conflicts: []Conflict{{What: kittest.Hostile, Resolution: kittest.Hostile}}, MustAccept: []string{kittest.Hostile}}
	m := previewOf(t, sc, "/tmp/evil.zip", 80, 18)
	kittest.Clean(t, m.View())
	kittest.Clean(t, step(t, m, letter('i')).View())
	sc.errs["preview"] = errors.New(kittest.Hostile)
	kittest.Clean(t, previewOf(t, sc, "x", 80, 18).View())
}

// TestInstallFits: a long preview, its second confirmation and a long
// failure fit the area above the input at 80x24 and 60x16, and what i
// does stays on screen.
func TestInstallFits(t *testing.T) {
	sc := catalog()
	sc.preview.Instructions = strings.Repeat("a line of instructions\n", 40)
	for i := range 30 {
		sc.preview.Files = append(sc.preview.Files, PreviewFile{Path: fmt.Sprintf("scripts/%s%d.sh", strings.Repeat("long_", 10), i), SHA256: sha, Size: 1 << 20})
	}
	for _, sz := range kittest.Sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) {
			m := previewOf(t, sc, "/tmp/"+strings.Repeat("very-long-dir/", 10)+"pdf.zip", sz.W, sz.H)
			v := m.View()
			kittest.Fits(t, v, sz.W, sz.H)
			if !strings.Contains(v, "i installs it") {
				t.Errorf("what i does is not on screen:\n%s", v)
			}
			sc2 := catalog()
			sc2.errs["install"] = errors.New(strings.Repeat("the disk is full ", 12))
			m = previewOf(t, sc2, "/tmp/pdf.zip", sz.W, sz.H)
			m, _, cmd := m.Update(letter('i'))
			kittest.Fits(t, step(t, m, kittest.Run(t, cmd)).View(), sz.W, sz.H)
		})
	}
}
