package skills

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"vouch/safetext"
	"vouch/tui/kit"
)

// RequestNote marks a requested built-in tool in the preview: listing a
// tool is a request, not a grant (SPEC G4).
const RequestNote = "request — grants nothing"

// installNote closes every preview: what confirming does and does not do.
const installNote = "Installing stores the skill and enables and approves nothing: no tool, policy rule or profile changes; a skill is used only where a profile enables it."

// descriptionLines bounds the description shown; the rest is cut.
const descriptionLines = 3

// PreviewLines renders the preview as plain text lines of at most width cells,
// the same for `vouch skill preview` and the TUI's install preview. Every
// string from the package passes through safetext. The instructions are
// folded to their first instructionLines lines (0: all of them).
func PreviewLines(p Preview, width, instructionLines int) []string {
	width = max(width, 20)
	var out []string
	add := func(s string) { out = append(out, ansi.Truncate(s, width, "…")) }
	field := func(label, value string) {
		for i, l := range wrapped(value, width-14, 2) {
			if i > 0 {
				label = ""
			}
			add(fmt.Sprintf("%-14s%s", label, l))
		}
	}
	section := func(title string, items []string, none string) {
		if len(out) > 0 {
			add("")
		}
		add(title)
		if len(items) == 0 {
			add("  " + none)
		}
		for _, it := range items {
			for i, l := range wrapped(it, width-4, 0) {
				if i == 0 {
					add("  " + l)
				} else {
					add("    " + l)
				}
			}
		}
	}
	// What the scanner flagged comes first, so it is on the first screen
	// of the TUI's preview at any size (issue 18 item 8).
	var findings []string
	for _, f := range p.Findings {
		head := fmt.Sprintf("%s:%d %s (%s)", f.File, f.Line, f.Rule, f.Action)
		if f.Severity != "" {
			head += ", " + f.Severity
		}
		if f.ID != "" {
			head += ", ID " + f.ID
		}
		findings = append(findings, head+": "+f.Detail)
	}
	if len(findings) > 0 {
		section("Scanner findings", findings, "none")
		if len(p.MustAccept) > 0 {
			section("High-severity findings to accept by ID before it installs",
				[]string{strings.Join(p.MustAccept, ", ")}, "")
		}
		add("")
	}
	field("Source", p.Source)
	name := p.Name
	if p.InstallName != p.Name {
		name += " (installs as " + p.InstallName + ")"
	}
	field("Name", name)
	ver := fmt.Sprintf("installs as version %d", p.InstallVersion)
	if p.PackageVersion != "" {
		ver = p.PackageVersion + "; " + ver
	}
	field("Version", ver)
	field("Contents", fmt.Sprintf("%s kept, %d excluded, %s, %s, %s requested, %s",
		kit.Plural(len(p.Files), "file"), len(p.Excluded), kit.Plural(len(p.Findings), "finding"),
		kit.Plural(len(p.Definitions), "definition"), kit.Plural(len(p.RequestedTools), "tool"), kit.Plural(len(p.Conflicts), "conflict")))
	if width-14 >= len(p.SHA256) {
		field("SHA-256", p.SHA256)
	} else {
		add("SHA-256")
		add("  " + safetext.Line(p.SHA256, width-2))
	}
	if len(findings) == 0 {
		section("Scanner findings", nil, "none")
	}
	add("")
	for i, l := range wrapped(p.Description, width-14, descriptionLines) {
		label := ""
		if i == 0 {
			label = "Description"
		}
		add(fmt.Sprintf("%-14s%s", label, l))
	}
	field("License", p.License)
	field("Compatibility", p.Compatibility)

	lines := strings.Split(strings.TrimRight(safetext.Neutralize(p.Instructions), "\n"), "\n")
	shown := lines
	if instructionLines > 0 && len(lines) > instructionLines {
		shown = lines[:instructionLines]
	}
	add("")
	add(fmt.Sprintf("Instructions (%d of %s)", len(shown), kit.Plural(len(lines), "line")))
	// Each line wraps rather than being cut: a flagged line (an
	// instruction-override sentence) reads whole (issue 18 item 8).
	for _, l := range shown {
		for i, w := range strings.Split(ansi.Wrap(l, width-4, ""), "\n") {
			if i == 0 {
				add("  " + w)
			} else {
				add("    " + w)
			}
		}
	}
	if len(shown) < len(lines) {
		add("  … " + kit.Plural(len(lines)-len(shown), "more line"))
	}

	add("")
	add(fmt.Sprintf("Files kept (%d), each with its SHA-256", len(p.Files)))
	for _, f := range p.Files {
		add("  " + safetext.Line(fmt.Sprintf("%s (%s)", f.Path, kit.ByteSize(int(f.Size))), width-2))
		add("    " + safetext.Line(f.SHA256, width-4))
	}
	section("Resources a model may read", p.Resources, "none")
	var excluded []string
	for _, e := range p.Excluded {
		excluded = append(excluded, e.Path+" — "+e.Reason)
	}
	section("Excluded (kept out of the catalog)", excluded, "nothing")
	var defs []string
	for _, d := range p.Definitions {
		defs = append(defs, fmt.Sprintf("%s (%s): %s", d.Name, d.Kind, d.Action))
	}
	section("Agent definitions it would import", defs, "none")
	var tools []string
	for _, t := range p.RequestedTools {
		tools = append(tools, t+" — "+RequestNote)
	}
	section("Built-in tools it requests", tools, "none")
	if len(p.Warnings) > 0 {
		section("Warnings", p.Warnings, "")
	}
	var conflicts []string
	for _, c := range p.Conflicts {
		conflicts = append(conflicts, c.What+" — "+c.Resolution)
	}
	section("Conflicts", conflicts, "none")
	add("")
	out = append(out, wrapped(installNote, width, 0)...)
	return out
}

// wrapped neutralises s and word-wraps it to width, keeping at most n
// lines (0: all); a cut is marked with "…".
func wrapped(s string, width, n int) []string {
	s = strings.Join(strings.Fields(safetext.Neutralize(s)), " ")
	if s == "" {
		return nil
	}
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if n > 0 && len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1], width-1, "") + "…"
	}
	return lines
}

// countInstructionLines is how many lines the instructions have.
func countInstructionLines(p Preview) int {
	return len(strings.Split(strings.TrimRight(safetext.Neutralize(p.Instructions), "\n"), "\n"))
}
