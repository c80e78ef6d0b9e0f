package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"vouch/agent"
	"vouch/internal/app/localskills"
	"vouch/workflow"
)

// demoFiles seed the demo's workspace so the scripted model's fs_list call
// shows something real.
func demoFiles() map[string]string {
	return map[string]string{
		"README.md":       "# demo workspace\n\nA throwaway folder for `vouch demo`.\n",
		"notes/todo.md":   "- try ctrl+o to pick a model\n- press ? for help\n",
		"src/hello.go":    "package main\n\nfunc main() { println(\"hello\") }\n",
		"data/sample.csv": "name,value\nalpha,1\nbeta,2\n",
	}
}

// WriteDemoWorkspace writes the demo's workspace files under dir.
func WriteDemoWorkspace(dir string) error {
	if err := writeFiles(dir, demoFiles()); err != nil {
		return fmt.Errorf("create the demo workspace: %w", err)
	}
	return nil
}

// demoSkill is a small skill package the demo imports through the same
// importer, scanner and catalog as `vouch skill install`, so Settings ›
// Skills and the profile editor have something real to show. Its script
// is excluded like any package's.
func demoSkill() map[string]string {
	return map[string]string{
		"SKILL.md": `---
name: release-notes
description: Writes short release notes from a list of changes. Use when asked for release notes.
license: MIT
allowed-tools: Read Bash(git log:*)
metadata:
  version: "1.0"
---
# Release notes

Follow [the style guide](references/style.md): one line per change, newest first.
`,
		"references/style.md": "# Style\n\nShort sentences. Name the change, not the commit.\n",
		"scripts/collect.sh":  "#!/bin/sh\ngit log --oneline\n",
	}
}

// WriteDemoSkill writes the demo's skill package into dir/release-notes
// and returns that folder.
func WriteDemoSkill(dir string) (string, error) {
	pkg := filepath.Join(dir, "release-notes")
	if err := writeFiles(pkg, demoSkill()); err != nil {
		return "", fmt.Errorf("write the demo skill: %w", err)
	}
	return pkg, nil
}

// SeedDemo installs the demo skill (written under dir) and adds a Role
// definition and a profile that uses it, in the demo's throwaway state.
func (a *App) SeedDemo(ctx context.Context, dir string) error {
	pkg, err := WriteDemoSkill(dir)
	if err != nil {
		return err
	}
	if _, _, err := localskills.Install(ctx, a.db, localskills.Import, pkg, localskills.InstallOptions{}); err != nil {
		return fmt.Errorf("install the demo skill: %w", err)
	}
	ps := newProfiles(a.db, nil)
	def := `{"name":"notes-writer","kind":"role","description":"Writes notes and release notes in the workspace.",` +
		`"role":{"instructions":"You write concise notes. Read the workspace before writing, and write only what the person asked for."}}`
	if _, err := ps.AddDefinition([]byte(def)); err != nil {
		return fmt.Errorf("add the demo definition: %w", err)
	}
	_, err = ps.Save(workflow.Profile{Name: "notes", Definition: "notes-writer",
		Tools:  []string{agent.IdentityFSList, agent.IdentityFSRead, agent.IdentityFSWrite},
		Skills: []string{"release-notes"}}, true)
	if err != nil {
		return fmt.Errorf("add the demo profile: %w", err)
	}
	return nil
}

// writeFiles writes files (slash-separated paths → content) under dir.
func writeFiles(dir string, files map[string]string) error {
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			return err
		}
	}
	return nil
}
