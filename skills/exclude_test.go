package skills

import (
	"reflect"
	"strings"
	"testing"
)

// A realistic package, laid out like a public document-skill package:
// scripts with exec bits, fonts, a PDF, an office template, schemas,
// reference docs, a license, macOS leftovers, a nested archive and a
// symlink. Instructions and text are kept; everything executable or
// binary is excluded with why (SPEC G1, G2).
func TestRealisticPackage(t *testing.T) {
	const skill = `---
name: pdf-tools
description: Use this skill whenever the user wants to read, merge, split or fill PDF files. It covers text and table extraction, watermarks and forms.
license: Proprietary. LICENSE.txt has complete terms
metadata:
  version: "1.2.0"
  author: Example
allowed-tools: Read Grep Glob Bash(python3:*)
---

# PDF Processing Guide

For advanced features see REFERENCE.md. If you need to fill out a PDF form,
read [FORMS.md](forms.md) and follow its instructions.

Run ` + "`python scripts/fill_form.py`" + ` to fill a form (see [the script](scripts/fill_form.py)).
Schemas live in ooxml/schemas/wml.xsd.
`
	elf := "\x7fELF\x02\x01\x01\x00" + strings.Repeat("\x00", 56)
	pdf := "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
	ttf := "\x00\x01\x00\x00\x00\x10\x01\x00\x00\x04\x00\x00OS/2"
	ms := []member{
		{name: "pdf-tools/", dir: true},
		{name: "pdf-tools/SKILL.md", body: skill},
		{name: "pdf-tools/LICENSE.txt", body: "Copyright Example. All rights reserved.\n"},
		{name: "pdf-tools/reference.md", body: "# Reference\n\npypdfium2 usage.\n"},
		{name: "pdf-tools/forms.md", body: "# Forms\n\nCheck fields first.\n"},
		{name: "pdf-tools/unlinked.md", body: "# Not linked\n"},
		{name: "pdf-tools/scripts/fill_form.py", body: "import sys\n", mode: 0o755},
		{name: "pdf-tools/scripts/check.sh", body: "echo hi\n", mode: 0o755},
		{name: "pdf-tools/scripts/helper", body: "#!/usr/bin/env python3\nprint(1)\n"},
		{name: "pdf-tools/scripts/runme.txt", body: "plain text but executable\n", mode: 0o755},
		{name: "pdf-tools/bin/tool.md", body: elf},
		{name: "pdf-tools/fonts/NotoSans-Regular.ttf", body: ttf},
		{name: "pdf-tools/assets/sample.pdf", body: pdf},
		{name: "pdf-tools/assets/logo.png", body: "\x89PNG\r\n\x1a\n\x00\x00"},
		{name: "pdf-tools/assets/blank.bin.md", body: "\x00\x01\x02binary"},
		{name: "pdf-tools/assets/latin1.md", body: "caf\xe9\n"},
		{name: "pdf-tools/templates/letter.docx", body: "PK\x03\x04docx"},
		{name: "pdf-tools/templates/bundle.zip", body: string(zipBytes(t, skillMD(minimalSkill)))},
		{name: "pdf-tools/templates/disguised.md", body: string(zipBytes(t, skillMD(minimalSkill)))},
		{name: "pdf-tools/ooxml/schemas/wml.xsd", body: "<?xml version=\"1.0\"?>\n<xsd:schema/>\n"},
		{name: "pdf-tools/Makefile", body: "all:\n\techo\n"},
		{name: "pdf-tools/.DS_Store", body: "\x00\x00\x00\x01Bud1"},
		{name: "pdf-tools/.git/config", body: "[core]\n"},
		{name: "__MACOSX/pdf-tools/._SKILL.md", body: "\x00\x05\x16\x07"},
	}
	wantKept := []string{"SKILL.md", "LICENSE.txt", "forms.md", "ooxml/schemas/wml.xsd", "reference.md", "unlinked.md"}
	wantExcluded := map[string]string{
		"scripts/fill_form.py":          whyScript,
		"scripts/check.sh":              whyScript,
		"scripts/helper":                whyShebang,
		"bin/tool.md":                   whyMachine,
		"fonts/NotoSans-Regular.ttf":    whyFont,
		"assets/sample.pdf":             whyDocument,
		"assets/logo.png":               whyImage,
		"assets/blank.bin.md":           whyBinary,
		"assets/latin1.md":              whyBinary,
		"templates/letter.docx":         whyDocument,
		"templates/bundle.zip":          whyArchive,
		"templates/disguised.md":        whyArchive,
		"Makefile":                      whyBuild,
		".DS_Store":                     whyMacMeta,
		".git/config":                   whyVCS,
		"__MACOSX/pdf-tools/._SKILL.md": whyMacMeta,
	}
	check := func(t *testing.T, p *Package, execBits bool) {
		var kept []string
		for _, f := range p.Files {
			kept = append(kept, f.Path)
		}
		want := wantKept
		if !execBits {
			want = append(append([]string(nil), wantKept[:5]...), "scripts/runme.txt", "unlinked.md")
		}
		if !reflect.DeepEqual(kept, want) {
			t.Errorf("kept %v, want %v", kept, want)
		}
		for name, why := range wantExcluded {
			if got := excludedReason(p, name); got != why {
				t.Errorf("%s: excluded as %q, want %q", name, got, why)
			}
		}
		if execBits {
			if got := excludedReason(p, "scripts/runme.txt"); got != whyExecBit {
				t.Errorf("runme.txt: got %q, want the exec-bit reason", got)
			}
		}
		if !reflect.DeepEqual(p.Resources, []string{"forms.md", "ooxml/schemas/wml.xsd", "reference.md"}) {
			t.Errorf("resources %v, want the linked and mentioned text files", p.Resources)
		}
		if !reflect.DeepEqual(p.RequestedTools, []string{"builtin:fs_list", "builtin:fs_read", "builtin:fs_search"}) {
			t.Errorf("requested tools %v", p.RequestedTools)
		}
		if p.Version != "1.2.0" || p.Metadata["author"] != "Example" || !strings.HasPrefix(p.License, "Proprietary") {
			t.Errorf("version %q metadata %v license %q", p.Version, p.Metadata, p.License)
		}
		warnings := strings.Join(p.Warnings, "\n")
		for _, w := range []string{`"Bash(python3:*)" names no vouch built-in`, "scripts/fill_form.py, which was left out"} {
			if !strings.Contains(warnings, w) {
				t.Errorf("warnings %q lack %q", warnings, w)
			}
		}
		if len(p.SHA256) != 64 || len(p.Files[0].SHA256) != 64 {
			t.Errorf("digests %q %q", p.SHA256, p.Files[0].SHA256)
		}
	}
	t.Run("zip", func(t *testing.T) { check(t, mustImport(t, writeTemp(t, "pdf.zip", zipBytes(t, ms...))), true) })
	t.Run("tar.gz", func(t *testing.T) { check(t, mustImport(t, writeTemp(t, "pdf.tgz", tarGzBytes(t, ms...))), true) })
	// Zips made on Windows carry no exec bits: the text file is then kept,
	// the scripts are still excluded by extension and content.
	t.Run("zip without exec bits", func(t *testing.T) {
		plain := append([]member(nil), ms...)
		for i := range plain {
			plain[i].mode = 0
		}
		check(t, mustImport(t, writeTemp(t, "pdf.zip", zipBytes(t, plain...))), false)
	})
}

// Legitimate names in one script, lower-case skill.md, a 100+ KB SKILL.md
// and a lone SKILL.md file all import (SPEC G1).
func TestLegitimatePackagesImport(t *testing.T) {
	t.Run("single-script non-ASCII names", func(t *testing.T) {
		names := []string{"références/naïve.md", "справка/справка-v2.md", "日本語/ノート.md", "ελληνικά.md", "emoji-🎉.md"}
		ms := []member{skillMD(minimalSkill)}
		for _, n := range names {
			ms = append(ms, member{name: n, body: "text\n"})
		}
		p := mustImport(t, writeTemp(t, "i18n.zip", zipBytes(t, ms...)))
		for _, n := range names {
			if keptFile(p, n) == nil {
				t.Errorf("%s was not kept", n)
			}
		}
	})
	t.Run("lower-case skill.md", func(t *testing.T) {
		p := mustImport(t, writeTemp(t, "lc.tgz", tarGzBytes(t, member{name: "demo/skill.md", body: minimalSkill}, member{name: "demo/references/guide.md", body: "g"})))
		if p.Files[0].Path != "SKILL.md" || p.Name != "demo" {
			t.Errorf("got %q named %q", p.Files[0].Path, p.Name)
		}
	})
	t.Run("100+ KB SKILL.md", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(minimalSkill)
		for i := 0; b.Len() < 150<<10; i++ {
			b.WriteString("## Section\n\nUse the reference guide when filling forms; check every field twice before saving.\n\n")
		}
		p := mustImport(t, writeTemp(t, "big.zip", zipBytes(t, skillMD(b.String()), guide)))
		if len(p.Instructions) < 100<<10 {
			t.Errorf("instructions are %d bytes", len(p.Instructions))
		}
	})
	t.Run("lone SKILL.md", func(t *testing.T) {
		p := mustImport(t, writeTemp(t, "skill.md", []byte(minimalSkill)))
		if len(p.Files) != 1 || p.Name != "demo" || len(p.Resources) != 0 {
			t.Errorf("got %+v", p)
		}
	})
	t.Run("folder with exec bit and long line", func(t *testing.T) {
		long := strings.Repeat("word ", 2<<20) // a 10 MB single line
		p := mustImport(t, folder(t, skillMD(minimalSkill), guide,
			member{name: "references/run.md", body: "# Run\n", mode: 0o755},
			member{name: "references/long.txt", body: long}))
		if got := excludedReason(p, "references/run.md"); got != whyExecBit {
			t.Errorf("exec bit: %q", got)
		}
		if got := excludedReason(p, "references/long.txt"); got != whyLongLine {
			t.Errorf("10 MB line: %q", got)
		}
	})
}

// SKILL.md itself must be readable text.
func TestSkillMDMustBeText(t *testing.T) {
	cases := map[string]struct {
		body string
		want string
	}{
		"10 MB single line": {strings.Repeat("a", 10<<20), "longer than the limit"},
		"binary":            {"\x00\x01\x02", "not UTF-8"},
		"shebang":           {"#!/bin/sh\n" + minimalSkill, "#!"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := importPath(t, folder(t, skillMD(tc.body)))
			wantRejection(t, err, "SKILL.md", tc.want)
		})
	}
}
