// Package skills owns Agent Skills packages up to the install preview:
// import from a local zip, tar.gz, folder or lone SKILL.md (Import),
// hostile-archive validation under Limits, SKILL.md frontmatter and the
// vouch.skill.json sidecar, the content scanner (Scan: findings with a
// severity and a stable ID; CheckAccepted, Blocking and ParseFindingIDs
// decide whether a package with high-severity findings may be installed,
// SPEC G8), the mapping of allowed-tools to built-in identities (BuiltinFor), and the Package that
// the preview shows and the store's catalog keeps. docs/skill-format.md
// is the user-facing description of every rule.
//
// # Nothing runs
//
// No file from a package is ever executed, interpreted or loaded as code:
// scripts, binaries, exec-bit files, nested archives and links are listed
// as excluded; only UTF-8 text is kept, in memory. Import writes nothing.
//
// # Caveats
//
// Every limit is checked before the bytes it guards are accepted, so a
// refused bomb costs little time and memory; but a kept package is held in
// memory (at most Limits.KeptBytes). Import and Scan are safe for
// concurrent use; a Package is plain data.
//
// # Size
//
// The package is over the project's ~3,000-line guideline (about 4,800
// lines): import (archive walking, limits) and the scanner (scan*.go,
// mcpconfig.go, shape.go) are the two halves, and the scanner is now the
// larger — the line rules, and the sentence pass (scan_sentence*.go) that
// folds text and judges prose a sentence at a time. The scanner stays here
// because import strips what it finds before bytes are kept; moving it to
// a package of its own is the next step if it grows again.
package skills
