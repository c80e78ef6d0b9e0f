package skills

import (
	"fmt"
	"slices"
	"strings"
)

// SignatureFile is the signature a skill may carry inside itself; it is
// not part of the manifest it signs (SPEC N5).
const SignatureFile = "SKILL.sig"

// ManifestFile is one file of a skill's manifest: its path in the skill
// and its hex sha256.
type ManifestFile struct{ Path, SHA256 string }

// Manifest is a skill's canonical manifest, the message a publisher signs
// (SPEC N5), whether the skill is a local package or served by an MCP
// server: "name NAME", "version V" ("-" for none), then "SHA256  PATH" for
// every file but SignatureFile, sorted by path, each line ending in a
// newline.
func Manifest(name, version string, files []ManifestFile) []byte {
	if version == "" {
		version = "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name %s\nversion %s\n", name, version)
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range files {
		if f.Path != SignatureFile {
			fmt.Fprintf(&b, "%s  %s\n", f.SHA256, f.Path)
		}
	}
	return []byte(b.String())
}
