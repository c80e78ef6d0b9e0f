package tool

// FrozenSkill is one enabled skill as a run froze it (SPEC H4): its name,
// its origin ("local" for installed packages, "server:<label>" for a skill
// an MCP server serves), its description, the package digest, the SKILL.md
// instructions by content address, and the declared text resources by
// content address. Files the manifest does not declare are not in it, so a
// run cannot see them (H5). Providers make it; the run reads it.
type FrozenSkill struct {
	Name, Origin, Description, SHA256 string
	Instructions                      FrozenFile
	Resources                         []FrozenFile
}

// FrozenFile is one file of a frozen skill: its path inside the package
// ("SKILL.md", "references/style.md"), the sha256 of its content (hex,
// lower case) and its size in bytes.
type FrozenFile struct {
	Path, SHA256 string
	Size         int64
}

// SkillBlobs reads content-addressed skill files. The run re-hashes what it
// reads and refuses a mismatch (of digest or size): such content is never
// shown to the model. Implementations must be safe for concurrent use.
type SkillBlobs interface {
	SkillBlob(sha256 string) ([]byte, error)
}
