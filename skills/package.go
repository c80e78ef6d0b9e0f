package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
)

// finish turns what the collector gathered into a Package: it finds the
// package root and SKILL.md, scans and strips kept text, parses the
// frontmatter and sidecar, and computes digests (SPEC G4).
func (c *collector) finish() (*Package, error) {
	root, err := c.root()
	if err != nil {
		return nil, err
	}
	c.wait()
	kept := map[string][]byte{}
	folded := map[string]string{}
	excluded := map[string]string{}
	p := &Package{}
	for _, h := range c.files {
		name := strings.TrimPrefix(h.name, root) // outside the root only junk can be
		if strings.EqualFold(name, "skill.md") {
			name = "SKILL.md"
		}
		if h.why != "" {
			excluded[name] = h.why
			p.Excluded = append(p.Excluded, Excluded{Path: name, Reason: h.why})
			continue
		}
		// Kept text was scanned (and stripped) while the entries after it
		// were read.
		kept[name] = h.scanned.data
		for _, f := range h.scanned.findings {
			f.File = name
			p.Findings = append(p.Findings, f)
		}
		folded[c.names.key(name)] = name
	}
	if why, ok := excluded["SKILL.md"]; ok {
		return nil, rejectf("SKILL.md cannot be imported (%s); it must be UTF-8 text, so fix it and import again", why)
	}
	skill, ok := kept["SKILL.md"]
	if !ok {
		return nil, rejectf("the package has no SKILL.md at its root (or in its one top-level folder); a skill package is a folder with SKILL.md in it, so point vouch at that folder")
	}
	if int64(len(skill)) > c.lim.SkillMDBytes {
		return nil, rejectf("SKILL.md is %s, more than the %s allowed; move detail into reference files and import again", mib(int64(len(skill))), mib(c.lim.SkillMDBytes))
	}

	fm, err := parseSkillMD(kept["SKILL.md"])
	if err != nil {
		return nil, err
	}
	identify(fm.Findings, kept["SKILL.md"])
	p.Findings = append(p.Findings, fm.Findings...)
	sort.SliceStable(p.Findings, func(i, j int) bool {
		a, b := p.Findings[i], p.Findings[j]
		if a.File != b.File {
			return fileOrder(a.File) < fileOrder(b.File)
		}
		return a.Line < b.Line
	})
	p.Name, p.Description, p.Version = fm.Name, fm.Description, fm.Version
	p.License, p.Compatibility, p.Metadata = fm.License, fm.Compatibility, fm.Metadata
	p.AllowedTools, p.Warnings = fm.AllowedTools, fm.Warnings
	p.Instructions = fm.Body
	if dir := path.Base(strings.TrimSuffix(root, "/")); root != "" && dir != fm.Name {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the package folder %q differs from the skill name %q; the name is used", clip(dir, 64), fm.Name))
	}

	isKept := func(name string) bool {
		_, ok := kept[name]
		return ok && name != "SKILL.md"
	}
	if data, ok := kept[SidecarName]; ok {
		sc, ds, err := parseSidecar(data, isKept, c.lim)
		if err != nil {
			return nil, err
		}
		p.Resources = uniqueSorted(sc.Resources)
		p.RequestedTools = uniqueSorted(sc.RequestedTools)
		p.Definitions = ds
	} else {
		lookup := func(t string) string {
			if isKept(t) && t != SidecarName {
				return t
			}
			if n, ok := folded[c.names.key(t)]; ok && isKept(n) && n != SidecarName {
				return n
			}
			return ""
		}
		var warn []string
		p.Resources, warn = linkedResources(p.Instructions, lookup, excluded)
		p.Warnings = append(p.Warnings, warn...)
		var tools []string
		for _, t := range p.AllowedTools {
			if id, ok := BuiltinFor(t); ok {
				tools = append(tools, id)
				continue
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf("allowed-tools entry %q names no vouch built-in tool; it is not requested (vouch never runs commands from a package)", clip(t, 80)))
		}
		p.RequestedTools = uniqueSorted(tools)
	}

	// Files: SKILL.md first, then by path; digests of the kept (stripped) text.
	names := make([]string, 0, len(kept))
	for name := range kept {
		if name != "SKILL.md" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	names = append([]string{"SKILL.md"}, names...)
	pkg := sha256.New()
	for _, name := range names {
		data := kept[name]
		sum := sha256.Sum256(data)
		f := File{Path: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Data: data}
		p.Files = append(p.Files, f)
	}
	sorted := append([]File(nil), p.Files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, f := range sorted {
		fmt.Fprintf(pkg, "%s\x00%s\n", f.Path, f.SHA256)
	}
	p.SHA256 = hex.EncodeToString(pkg.Sum(nil))
	for i := range p.Definitions {
		p.Definitions[i].Origin = "skill:" + p.Name + "@" + p.SHA256
	}
	sort.Slice(p.Excluded, func(i, j int) bool { return p.Excluded[i].Path < p.Excluded[j].Path })
	if p.Resources == nil {
		p.Resources = []string{}
	}
	if p.Excluded == nil {
		p.Excluded = []Excluded{}
	}
	return p, nil
}

// fileOrder sorts SKILL.md's findings first.
func fileOrder(name string) string {
	if name == "SKILL.md" {
		return ""
	}
	return name
}

func uniqueSorted(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	out := append([]string(nil), xs...)
	sort.Strings(out)
	w := 1
	for _, x := range out[1:] {
		if x != out[w-1] {
			out[w] = x
			w++
		}
	}
	return out[:w]
}

// root finds the folder holding SKILL.md: the package root, or its one
// top-level folder (how archives of a skill folder are usually made).
// macOS and version-control leftovers are ignored in the decision.
func (c *collector) root() (string, error) {
	tops := map[string]bool{}
	atRoot := false
	for _, h := range c.files {
		if h.why == whyMacMeta || h.why == whyVCS {
			continue
		}
		first, _, nested := strings.Cut(h.name, "/")
		if !nested {
			tops[""] = true
			if strings.EqualFold(h.name, "skill.md") {
				atRoot = true
			}
			continue
		}
		tops[first] = true
	}
	if atRoot {
		return "", nil
	}
	if len(tops) == 1 {
		for top := range tops {
			if top == "" {
				break
			}
			for _, h := range c.files {
				if strings.EqualFold(h.name, top+"/skill.md") {
					return top + "/", nil
				}
			}
		}
	}
	skills := 0
	for _, h := range c.files {
		if strings.EqualFold(path.Base(h.name), "skill.md") {
			skills++
		}
	}
	if skills > 1 {
		return "", rejectf("the archive holds %d SKILL.md files but none at its root; import one skill's folder at a time", skills)
	}
	return "", rejectf("the package has no SKILL.md at its root (or in its one top-level folder); a skill package is a folder with SKILL.md in it, so point vouch at that folder")
}
