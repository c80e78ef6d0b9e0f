package skills

import "vouch/workflow"

// This file is the contract between the importer (import*.go, scan*.go,
// frontmatter*.go, sidecar*.go) and its users (the store's skill catalog,
// `vouch skill`, the TUI's install preview). Field meanings are fixed here;
// the importer fills them.

// Package is an imported, validated skill package: what the install
// preview shows (SPEC G4) and what the catalog stores. Nothing in it is
// executable (SPEC G2); every kept file is UTF-8 text.
type Package struct {
	// Source is the path the package was read from.
	Source string `json:"source"`
	// SHA256 is the package digest: hex sha256 over the sorted kept files'
	// paths and digests (stable for the same content, whatever the archive
	// format or file order).
	SHA256 string `json:"sha256"`

	// Frontmatter of SKILL.md (Agent Skills specification).
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	Version       string            `json:"version,omitempty"` // metadata.version, when given
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	AllowedTools  []string          `json:"allowed_tools,omitempty"`

	// Instructions is the SKILL.md body after the frontmatter.
	Instructions string `json:"instructions"`

	// Files are the kept files, SKILL.md first (stored under the path
	// "SKILL.md" whatever its case in the package), then by path.
	Files []File `json:"files"`
	// Resources are the paths of the declared text resources (the sidecar's
	// list, else the text files the SKILL.md body links to); only these are
	// ever readable by a model (SPEC H5). Each is also in Files.
	Resources []string `json:"resources"`
	// Excluded lists every file left out, with why (executable, binary,
	// nested archive, symlink, scanner, ...).
	Excluded []Excluded `json:"excluded"`

	// Definitions are the Role / Flow Agent / Subagents definitions the
	// sidecar carries, validated (workflow.Parse rules); the catalog imports
	// them only on install, following SPEC G5.
	Definitions []workflow.Definition `json:"definitions,omitempty"`
	// RequestedTools are built-in tool identities the package asks for — a
	// request that grants nothing.
	RequestedTools []string `json:"requested_tools,omitempty"`
	// Warnings are non-fatal notes (e.g. an allowed-tools name that maps to
	// no built-in).
	Warnings []string `json:"warnings,omitempty"`
	// Signer is the allowed signer who signed the package's manifest
	// ("principal, KEYTYPE SHA256:…"), set by the application when it
	// verified one (SPEC N5); the importer never sets it.
	Signer string `json:"signer,omitempty"`
	// Findings are the scanner's results (SPEC G6, issue 6 "Scanner").
	Findings []Finding `json:"findings,omitempty"`
}

// File is one kept file of a package.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Data is the file's content (UTF-8 text). Not in the JSON preview.
	Data []byte `json:"-"`
}

// Excluded is a file left out of a package and why.
type Excluded struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Finding is one scanner result with its place.
type Finding struct {
	// ID names the finding stably: the check's code and a digest of its
	// line number and the line's text, e.g. "exfil-upload-3f9a12bc". The
	// same package always yields the same IDs, whatever its archive
	// format; the person accepts high-severity findings by ID (SPEC G8).
	ID   string `json:"id"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Rule names the check: "secret", "mcp-activation", "injection"
	// (prompt overrides), "hidden-instruction", "exfiltration",
	// "installer", "encoded-blob", "hidden-unicode", or
	// "execution-request" (a SKILL.md frontmatter key asking for commands,
	// hooks or an MCP server). See the Rule* constants.
	Rule string `json:"rule"`
	// Severity is "high", "medium" or "low" (Severity* constants). A
	// package with a high-severity finding is installed, and a server
	// skill read, only when the person accepts that finding by ID.
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
	// Action is what the importer did: "shown", "stripped" (the text was
	// replaced before anything was kept), or "rejected".
	Action string `json:"action"`
}

// Finding rules (Finding.Rule).
const (
	RuleSecret        = "secret"
	RuleMCPActivation = "mcp-activation"
	RuleInjection     = "injection"
	RuleExfiltration  = "exfiltration"
	RuleEncodedBlob   = "encoded-blob"
	RuleHiddenUnicode = "hidden-unicode"
	RuleExecRequest   = "execution-request"
	// RuleHiddenInstruction: instructions a reader of the rendered text
	// does not see (HTML comments, hidden HTML), or text telling the
	// assistant to keep something from the person.
	RuleHiddenInstruction = "hidden-instruction"
	// RuleInstaller: instructions to download and run code or to run an
	// install script (pipe to a shell, "run scripts/install.sh").
	RuleInstaller = "installer"
	// RuleSpecLimit: the package exceeds a limit of the Agent Skills
	// specification that vouch tolerates (a description over 1,024
	// characters), shown as a low finding.
	RuleSpecLimit = "spec-limit"
)

// Finding severities (Finding.Severity).
const (
	// SeverityHigh blocks an install (or a server skill's first read)
	// until the person accepts the finding by ID.
	SeverityHigh = "high"
	// SeverityMedium is shown; stripped secrets and activation payloads,
	// quoted attack phrasing and encoded blobs are medium.
	SeverityMedium = "medium"
	// SeverityLow is shown as a note.
	SeverityLow = "low"
)

// Finding actions (Finding.Action).
const (
	ActionShown    = "shown"
	ActionStripped = "stripped"
	ActionRejected = "rejected"
)

// Rejection is the error of an import that was refused: Reason is one
// sentence saying what is wrong and what to do (CLI exit code 3). Nothing
// was written anywhere.
type Rejection struct {
	Reason string
}

func (r *Rejection) Error() string { return r.Reason }
