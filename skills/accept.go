package skills

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// This file is the rule of SPEC G8: a package (or a server skill) with a
// high-severity finding is installed (or read) only when the person
// accepts each such finding by its ID. The CLI takes the IDs as
// `vouch skill install FILE --accept-findings ID,…` (ParseFindingIDs); the
// preview pane asks a second, explicit confirmation; CheckAccepted is the
// decision both make; the store keeps the accepted IDs with the install.

// findingID is a finding's stable ID: its check's code and the first 8
// hex digits of sha256 over the line number and the line's text. The same
// text on the same line of two files has the same ID; accepting it
// accepts both.
func findingID(code string, line int, text []byte) string {
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(line)))
	h.Write([]byte{0})
	h.Write(bytes.TrimRight(text, "\r"))
	return code + "-" + hex.EncodeToString(h.Sum(nil)[:4])
}

// lineOf returns line n (1-based) of data, or nil.
func lineOf(data []byte, n int) []byte {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return nil
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		return data[:j]
	}
	return data
}

// ruleCode is the ID code of findings made outside a check (frontmatter
// keys, hidden characters, encoded blobs).
func ruleCode(rule string) string {
	switch rule {
	case RuleExecRequest:
		return "exec-key"
	case RuleHiddenUnicode:
		return "hidden-char"
	case RuleEncodedBlob:
		return "blob"
	case RuleSpecLimit:
		return "spec-limit"
	}
	return rule
}

// defaultSeverity is a rule's severity where the check sets none.
func defaultSeverity(rule string) string {
	switch rule {
	case RuleInjection, RuleHiddenInstruction, RuleExfiltration, RuleInstaller:
		return SeverityHigh
	}
	return SeverityMedium
}

// identify gives every finding of one file without an ID or severity its
// rule's code and default, reading lines from data (the file's text as
// scanned).
func identify(fs []Finding, data []byte) {
	for i := range fs {
		if fs[i].Severity == "" {
			fs[i].Severity = defaultSeverity(fs[i].Rule)
		}
		if fs[i].ID == "" {
			fs[i].ID = findingID(ruleCode(fs[i].Rule), fs[i].Line, lineOf(data, fs[i].Line))
		}
	}
}

// Blocking returns the high-severity findings whose IDs are not in
// accepted: what stands between a package and its install (SPEC G8).
func Blocking(findings []Finding, accepted []string) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Severity == SeverityHigh && !slices.Contains(accepted, f.ID) {
			out = append(out, f)
		}
	}
	return out
}

// CheckAccepted is the install decision for findings (SPEC G8): nil when
// every high-severity finding's ID is in accepted, else a *Rejection
// naming the IDs still to accept. An accepted ID that names no finding is
// refused too, so a typo never reads as consent.
func CheckAccepted(findings []Finding, accepted []string) error {
	for _, id := range accepted {
		if !slices.ContainsFunc(findings, func(f Finding) bool { return f.ID == id }) {
			return rejectf("--accept-findings names %q, which is not a finding of this package; copy the IDs from the preview and install again", clip(id, 40))
		}
	}
	block := Blocking(findings, accepted)
	if len(block) == 0 {
		return nil
	}
	ids := make([]string, 0, len(block))
	for _, f := range block {
		if !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	first := block[0]
	return rejectf("the package has %d high-severity scanner finding(s) (first: %s line %d, %s: %s); it is not installed unless you read them in the preview and accept each by ID: --accept-findings %s",
		len(ids), clip(first.File, 80), first.Line, first.Rule, clip(first.Detail, 120), strings.Join(ids, ","))
}

// findingIDRE is the shape of a finding ID.
var findingIDRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}-[0-9a-f]{8}$`)

// maxAcceptIDs bounds the IDs one --accept-findings takes.
const maxAcceptIDs = 200

// ParseFindingIDs reads the value of --accept-findings: IDs separated by
// commas (spaces around them ignored), each shaped like a finding ID. An
// empty value is no IDs. The error says which entry is wrong.
func ParseFindingIDs(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxAcceptIDs {
		return nil, fmt.Errorf("--accept-findings lists %d IDs, more than %d; accept fewer at a time", len(parts), maxAcceptIDs)
	}
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !findingIDRE.MatchString(p) {
			return nil, fmt.Errorf("--accept-findings: %q is not a finding ID (like exfil-upload-3f9a12bc); copy the IDs from the preview", clip(p, 40))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
