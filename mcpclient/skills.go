package mcpclient

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file speaks the Skills extension (SEP-2640): skills/list, skills/get
// and resources/read, sent as raw JSON-RPC on the server's connection. Every
// answer is untrusted input (SPEC I1): entries are validated one by one, an
// invalid entry is reported on its own, and nothing here decides trust —
// skills_approval.go does, from what the person approved.

// SkillsExtension is the extension identifier servers declare under
// capabilities.extensions.
const SkillsExtension = "io.modelcontextprotocol/skills"

// Limits the extension fixes per skill: every conforming host accepts up to
// these, and vouch refuses more, before reading any file.
const (
	// MaxSkillFiles bounds the entries of one skill's resources, SKILL.md
	// included.
	MaxSkillFiles = 512
	// MaxSkillBytes bounds the sum of the sizes of one skill's resources.
	MaxSkillBytes = 16 << 20
)

// Bounds on what a listing may make vouch hold.
const (
	maxSkillPages       = 100
	maxSkillEntries     = 10000
	maxSkillURILen      = 2048
	maxFrontmatterBytes = 64 << 10
)

// Errors of the skills extension. Each is wrapped in an *Error whose
// sentence says what happened and what to do.
var (
	// ErrSkillsUnsupported means the server does not declare the skills
	// extension, so vouch sends it no skills/ request.
	ErrSkillsUnsupported = errors.New("the MCP server does not serve skills")
	// ErrSkillInvalid means a skill entry broke the extension's rules (or
	// its limits) and is not used.
	ErrSkillInvalid = errors.New("invalid skill entry")
	// ErrSkillVerification means a file read did not match the entry the
	// approval is bound to: a digest or size mismatch, an unlisted file, or
	// SKILL.md frontmatter that differs from the entry (SPEC I2, I4). The
	// content is not used.
	ErrSkillVerification = errors.New("skill content failed verification")
	// ErrSkillNotApproved means the skill has no approval covering its
	// current resource set (never approved, or revoked by a change).
	ErrSkillNotApproved = errors.New("the skill is not approved")
	// ErrSkillDynamic means the skill's resources are "dynamic" and the
	// server is not allowed to serve dynamic skills.
	ErrSkillDynamic = errors.New("dynamic skills are not allowed for this server")
	// ErrSkillFindings means the scanner found something in a file the
	// person has not yet reviewed (SPEC I5); the content is held back.
	ErrSkillFindings = errors.New("the skill has scanner findings to review")
	// ErrCrossOrigin means a skill of one server asked to read from another
	// server without the person's approval naming both.
	ErrCrossOrigin = errors.New("cross-server read refused")
)

// SkillFile is one file of a skill as its entry lists it.
type SkillFile struct {
	URI string `json:"uri"`
	// SHA256 is the listed digest: 64 lowercase hex digits (the "sha256:"
	// prefix removed).
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// SkillEntry is one validated skill entry of skills/list or skills/get.
// Everything in it came from the server; Name and Description are
// neutralized for display, Frontmatter is the verbatim JSON object.
type SkillEntry struct {
	// URI is the skill's SKILL.md URI; with the server's ID it is the
	// skill's identity (SPEC I4).
	URI string `json:"uri"`
	// Name is frontmatter.name (it equals the URI's last skill-path
	// segment), Description frontmatter.description; both neutralized.
	Name        string `json:"name"`
	Description string `json:"description"`
	// Frontmatter is the entry's frontmatter object, compacted.
	Frontmatter json.RawMessage `json:"frontmatter"`
	// Files is the complete resource set, sorted by URI; nil when Dynamic.
	Files []SkillFile `json:"files,omitempty"`
	// Dynamic reports resources: "dynamic" — content with no digests.
	Dynamic bool `json:"dynamic,omitempty"`
}

// Root is the skill's directory URI: URI without "/SKILL.md".
func (e SkillEntry) Root() string { return strings.TrimSuffix(e.URI, "/SKILL.md") }

// Prefix is the skill path's organizational prefix (the segments before the
// name), "" when there is none: "acme/billing" for
// skill://acme/billing/refunds/SKILL.md.
func (e SkillEntry) Prefix() string {
	path := skillPath(e.URI)
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return ""
}

// File returns the listed file at uri.
func (e SkillEntry) File(uri string) (SkillFile, bool) {
	for _, f := range e.Files {
		if f.URI == uri {
			return f, true
		}
	}
	return SkillFile{}, false
}

// TotalSize is the sum of the listed sizes.
func (e SkillEntry) TotalSize() int64 {
	var n int64
	for _, f := range e.Files {
		n += f.Size
	}
	return n
}

// InvalidSkill is a listing entry that was not used, with why.
type InvalidSkill struct {
	// URI is the entry's uri, neutralized and capped ("" when missing).
	URI    string `json:"uri"`
	Reason string `json:"reason"`
}

// SkillListing is what skills/list returned for one server. A listing may
// be empty or partial: that never means the server has no skills (a server
// may serve skills it does not list, reachable with skills/get).
type SkillListing struct {
	ServerID    string         `json:"server_id"`
	ServerLabel string         `json:"server_label"`
	Skills      []SkillEntry   `json:"skills"`
	Invalid     []InvalidSkill `json:"invalid,omitempty"`
	// Complete reports that every page arrived; when false, Problem says
	// why the rest is missing.
	Complete bool   `json:"complete"`
	Problem  string `json:"problem,omitempty"`
}

// Summary is one sentence about the listing for people: it never says
// "no skills" of an empty or partial listing.
func (l SkillListing) Summary() string {
	n := len(l.Skills)
	switch {
	case !l.Complete && n == 0:
		return fmt.Sprintf("The skill listing of %q failed before any skill arrived: %s", l.ServerLabel, l.Problem)
	case !l.Complete:
		return fmt.Sprintf("Only part of the skill listing of %q arrived (%d skills): %s", l.ServerLabel, n, l.Problem)
	case n == 0:
		return fmt.Sprintf("%q lists no skills; it may still serve skills it does not list.", l.ServerLabel)
	}
	if n == 1 {
		return fmt.Sprintf("%q lists 1 skill.", l.ServerLabel)
	}
	return fmt.Sprintf("%q lists %d skills.", l.ServerLabel, n)
}

// skillsDeclared reports whether the connection's server declared the
// extension.
func (c *conn) skillsDeclared() bool {
	_, ok := c.caps.Extensions[SkillsExtension]
	return ok
}

// skillConn connects to an active server that declares the extension. It
// never lists or reads anything.
func (m *Manager) skillConn(ctx context.Context, serverID string) (*server, *conn, error) {
	return m.activeConn(ctx, serverID, true)
}

// activeConn connects to an active server, which must declare the skills
// extension when skillsOnly is set.
func (m *Manager) activeConn(ctx context.Context, serverID string, skillsOnly bool) (*server, *conn, error) {
	s, err := m.activeServer(serverID)
	if err != nil {
		return nil, nil, err
	}
	c, err := m.connect(ctx, s, NonInteractive, m.opts.Timeout)
	if err != nil {
		return nil, nil, err
	}
	if skillsOnly && !c.skillsDeclared() {
		return nil, nil, &Error{Kind: ErrSkillsUnsupported,
			Sentence: fmt.Sprintf("The MCP server %q does not declare the skills extension, so it serves no skills to vouch.", s.cfg.Name)}
	}
	return s, c, nil
}

// skillRequest sends one request of the extension and classifies failures.
func (m *Manager) skillRequest(ctx context.Context, s *server, c *conn, method string, params map[string]any) (json.RawMessage, error) {
	raw, p, err := c.request(ctx, method, params)
	if err == nil {
		return raw, nil
	}
	if c.sessionLost(err, p) {
		m.mu.Lock()
		m.dropConnLocked(s, c)
		m.mu.Unlock()
		return nil, &Error{Kind: ErrSessionLost, Err: err, Sentence: "The server's session expired; try again to reconnect."}
	}
	var rpc *rpcError
	if errors.As(err, &rpc) {
		return nil, &Error{Kind: ErrProtocol, Err: err,
			Sentence: fmt.Sprintf("The server refused %s (JSON-RPC error %d); check the skill URI or report it to the server's maintainer.", method, rpc.Code)}
	}
	return nil, c.classify(err, p)
}

// ListSkills pages through skills/list of one active server (SPEC I1). It
// is called on demand only: connecting, listing tools and approving never
// call it, and it reads no file. The listing is returned even when err is
// not nil, holding what arrived before the failure (Complete false).
func (m *Manager) ListSkills(ctx context.Context, serverID string) (SkillListing, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	out := SkillListing{ServerID: serverID}
	if st, ok := m.Server(serverID); ok {
		out.ServerLabel = st.Config.Name
	}
	fail := func(err error) (SkillListing, error) {
		out.Complete = false
		out.Problem = err.Error()
		return out, err
	}
	s, c, err := m.skillConn(ctx, serverID)
	if err != nil {
		return fail(err)
	}
	seen := map[string]bool{}
	cursors := map[string]bool{}
	cursor := ""
	for range maxSkillPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := m.skillRequest(ctx, s, c, "skills/list", params)
		if err != nil {
			return fail(err)
		}
		var page struct {
			Skills     []json.RawMessage `json:"skills"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return fail(&Error{Kind: ErrProtocol, Err: err, Sentence: "The server's skill listing is malformed; report it to the server's maintainer."})
		}
		for _, item := range page.Skills {
			if len(out.Skills)+len(out.Invalid) >= maxSkillEntries {
				return fail(&Error{Kind: ErrProtocol, Sentence: fmt.Sprintf("The server lists more than %d skills; vouch stops there.", maxSkillEntries)})
			}
			e, err := parseSkillEntry(item)
			switch {
			case err != nil:
				out.Invalid = append(out.Invalid, InvalidSkill{URI: entryURIForDisplay(item), Reason: err.Error()})
			case seen[e.URI]:
				out.Invalid = append(out.Invalid, InvalidSkill{URI: cleanText(e.URI, 200), Reason: "The server lists this skill URI twice; neither copy is used."})
				out.Skills = removeSkill(out.Skills, e.URI)
			default:
				seen[e.URI] = true
				out.Skills = append(out.Skills, e)
			}
		}
		if page.NextCursor == "" {
			out.Complete = true
			return out, nil
		}
		if cursors[page.NextCursor] {
			return fail(&Error{Kind: ErrProtocol, Sentence: "The server's skill listing pagination repeats itself; report it to the server's maintainer."})
		}
		cursors[page.NextCursor] = true
		cursor = page.NextCursor
	}
	return fail(&Error{Kind: ErrProtocol, Sentence: fmt.Sprintf("The server's skill listing spans more than %d pages; vouch stops there.", maxSkillPages)})
}

func removeSkill(list []SkillEntry, uri string) []SkillEntry {
	out := list[:0]
	for _, e := range list {
		if e.URI != uri {
			out = append(out, e)
		}
	}
	return out
}

// GetSkill asks skills/get for the entry of one skill by its SKILL.md URI
// (a skill absent from a partial listing is still reachable this way).
func (m *Manager) GetSkill(ctx context.Context, serverID, uri string) (SkillEntry, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	s, c, err := m.skillConn(ctx, serverID)
	if err != nil {
		return SkillEntry{}, err
	}
	raw, err := m.skillRequest(ctx, s, c, "skills/get", map[string]any{"uri": uri})
	if err != nil {
		return SkillEntry{}, err
	}
	var res struct {
		Skill json.RawMessage `json:"skill"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Skill) == 0 {
		return SkillEntry{}, &Error{Kind: ErrProtocol, Err: err, Sentence: "The server's skills/get answer is malformed; report it to the server's maintainer."}
	}
	e, err := parseSkillEntry(res.Skill)
	if err != nil {
		return SkillEntry{}, err
	}
	if e.URI != uri {
		return SkillEntry{}, &Error{Kind: ErrSkillInvalid, Sentence: "The server answered skills/get with a different skill than the one asked for; it is not used."}
	}
	return e, nil
}

// readSkillFile reads one file of a skill with resources/read and returns
// its raw bytes (text as UTF-8, blob decoded). It verifies nothing: callers
// check the bytes against the entry before using them.
func (m *Manager) readSkillFile(ctx context.Context, serverID, uri string) ([]byte, error) {
	return m.readURI(ctx, serverID, uri, true)
}

// readResource reads any resource of an active server (an approved
// cross-origin read; see SkillRun.ReadForSkill).
func (m *Manager) readResource(ctx context.Context, serverID, uri string) ([]byte, error) {
	return m.readURI(ctx, serverID, uri, false)
}

func (m *Manager) readURI(ctx context.Context, serverID, uri string, skillsOnly bool) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	s, c, err := m.activeConn(ctx, serverID, skillsOnly)
	if err != nil {
		return nil, err
	}
	raw, err := m.skillRequest(ctx, s, c, "resources/read", map[string]any{"uri": uri})
	if err != nil {
		return nil, err
	}
	return resourceBytes(raw, uri)
}

// resourceBytes picks the content of uri out of a resources/read result.
func resourceBytes(raw json.RawMessage, uri string) ([]byte, error) {
	var res struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob *string `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &Error{Kind: ErrProtocol, Err: err, Sentence: "The server's resources/read answer is malformed; report it to the server's maintainer."}
	}
	for _, c := range res.Contents {
		if c.URI != uri {
			continue
		}
		switch {
		case c.Text != nil && c.Blob == nil:
			return []byte(*c.Text), nil
		case c.Blob != nil && c.Text == nil:
			b, err := base64.StdEncoding.DecodeString(*c.Blob)
			if err != nil {
				return nil, &Error{Kind: ErrProtocol, Err: err, Sentence: "The server sent a file that is not valid base64; report it to the server's maintainer."}
			}
			return b, nil
		}
		return nil, &Error{Kind: ErrProtocol, Sentence: "The server sent a file with both or neither of text and blob; report it to the server's maintainer."}
	}
	return nil, &Error{Kind: ErrProtocol, Sentence: "The server's resources/read answer does not contain the file asked for; report it to the server's maintainer."}
}

// entryURIForDisplay digs the uri out of an invalid entry for the report.
func entryURIForDisplay(raw json.RawMessage) string {
	var e struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	return cleanText(e.URI, 200)
}

func invalid(format string, args ...any) error {
	return &Error{Kind: ErrSkillInvalid, Sentence: fmt.Sprintf(format, args...)}
}

// parseSkillEntry validates one Skill entry. The checks follow the
// extension: a SKILL.md URI whose last skill-path segment is
// frontmatter.name, frontmatter with string name and description, and
// resources that are "dynamic" or a complete, duplicate-free list of files
// inside the skill's directory with well-formed digests, within the
// per-skill limits.
func parseSkillEntry(raw json.RawMessage) (SkillEntry, error) {
	var e struct {
		URI         *string         `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || e.URI == nil {
		return SkillEntry{}, invalid("The entry is not an object with a uri; it is not used.")
	}
	uri := *e.URI
	if err := checkSkillURI(uri); err != nil {
		return SkillEntry{}, err
	}
	out := SkillEntry{URI: uri}
	fm := bytes.TrimSpace(e.Frontmatter)
	if len(fm) == 0 || fm[0] != '{' {
		return SkillEntry{}, invalid("The entry's frontmatter is not an object; it is not used.")
	}
	if len(fm) > maxFrontmatterBytes {
		return SkillEntry{}, invalid("The entry's frontmatter is larger than %d KiB; it is not used.", maxFrontmatterBytes>>10)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, fm); err != nil {
		return SkillEntry{}, invalid("The entry's frontmatter is not valid JSON; it is not used.")
	}
	out.Frontmatter = compact.Bytes()
	var names struct {
		Name        *string `json:"name"`
		Description *string `json:"description"`
	}
	if err := json.Unmarshal(out.Frontmatter, &names); err != nil || names.Name == nil || names.Description == nil {
		return SkillEntry{}, invalid("The entry's frontmatter lacks a string name or description; it is not used.")
	}
	path := skillPath(uri)
	last := path[strings.LastIndexByte(path, '/')+1:]
	if *names.Name != last || !validSkillName(last) {
		return SkillEntry{}, invalid("The skill's name %q does not match its URI's last segment %q (or breaks the naming rules); it is not used.",
			cleanText(*names.Name, 80), cleanText(last, 80))
	}
	out.Name = last
	out.Description = cleanText(*names.Description, 1024)
	res := bytes.TrimSpace(e.Resources)
	if bytes.Equal(res, []byte(`"dynamic"`)) {
		out.Dynamic = true
		return out, nil
	}
	if len(res) == 0 || res[0] != '[' {
		return SkillEntry{}, invalid("The entry's resources are neither a list nor \"dynamic\"; it is not used.")
	}
	var files []json.RawMessage
	if err := json.Unmarshal(res, &files); err != nil {
		return SkillEntry{}, invalid("The entry's resources are not a valid list; it is not used.")
	}
	if len(files) > MaxSkillFiles {
		return SkillEntry{}, invalid("The skill lists %d files, more than the %d a skill may have; it is not used.", len(files), MaxSkillFiles)
	}
	root := out.Root() + "/"
	seen := map[string]bool{}
	var total int64
	for _, f := range files {
		sf, err := parseSkillFile(f, root)
		if err != nil {
			return SkillEntry{}, err
		}
		if seen[sf.URI] {
			return SkillEntry{}, invalid("The skill lists the file %q twice; it is not used.", cleanText(sf.URI, 200))
		}
		seen[sf.URI] = true
		total += sf.Size
		if total > MaxSkillBytes {
			return SkillEntry{}, invalid("The skill's files add up to more than %d MiB, the most a skill may have; it is not used.", MaxSkillBytes>>20)
		}
		out.Files = append(out.Files, sf)
	}
	if !seen[uri] {
		return SkillEntry{}, invalid("The skill's resources do not list its SKILL.md; it is not used.")
	}
	sortFiles(out.Files)
	return out, nil
}

func parseSkillFile(raw json.RawMessage, root string) (SkillFile, error) {
	var f struct {
		URI    *string `json:"uri"`
		Digest *string `json:"digest"`
		Size   *int64  `json:"size"`
	}
	if err := json.Unmarshal(raw, &f); err != nil || f.URI == nil || f.Digest == nil || f.Size == nil {
		return SkillFile{}, invalid("A file of the skill lacks a uri, digest or size; the skill is not used.")
	}
	uri := *f.URI
	if len(uri) > maxSkillURILen || !utf8.ValidString(uri) || neutralize(uri) != uri || !strings.HasPrefix(uri, root) || badPath(uri[len(root):]) {
		return SkillFile{}, invalid("The file %q is not inside the skill's directory; the skill is not used.", cleanText(uri, 200))
	}
	hex, ok := strings.CutPrefix(*f.Digest, "sha256:")
	if !ok || !isLowerHex64(hex) {
		return SkillFile{}, invalid("The file %q has a digest that is not sha256:<64 lowercase hex digits>; the skill is not used.", cleanText(uri, 200))
	}
	if *f.Size < 0 || *f.Size > MaxSkillBytes {
		return SkillFile{}, invalid("The file %q has a size outside 0 to %d MiB; the skill is not used.", cleanText(uri, 200), MaxSkillBytes>>20)
	}
	return SkillFile{URI: uri, SHA256: hex, Size: *f.Size}, nil
}

// checkSkillURI checks that uri names a SKILL.md under a scheme, with a
// clean skill path.
func checkSkillURI(uri string) error {
	if len(uri) == 0 || len(uri) > maxSkillURILen || !utf8.ValidString(uri) || neutralize(uri) != uri || strings.ContainsAny(uri, " \\?#") {
		return invalid("The skill URI %q is empty, too long or contains characters vouch does not accept; it is not used.", cleanText(uri, 200))
	}
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || scheme == "" || rest == "" {
		return invalid("The skill URI %q has no scheme; it is not used.", cleanText(uri, 200))
	}
	path, ok := strings.CutSuffix(rest, "/SKILL.md")
	if !ok || path == "" || badPath(path) {
		return invalid("The skill URI %q does not name a SKILL.md under a clean skill path; it is not used.", cleanText(uri, 200))
	}
	return nil
}

// skillPath is the <skill-path> of a checked SKILL.md URI.
func skillPath(uri string) string {
	_, rest, _ := strings.Cut(uri, "://")
	return strings.TrimSuffix(rest, "/SKILL.md")
}

// badPath reports an empty, ".", ".." or empty segment.
func badPath(p string) bool {
	if p == "" {
		return true
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// validSkillName applies the Agent Skills naming rules: 1–64 lowercase
// letters, digits and hyphens, not starting or ending with a hyphen and
// without two in a row.
func validSkillName(n string) bool {
	if n == "" || len(n) > 64 || n[0] == '-' || n[len(n)-1] == '-' || strings.Contains(n, "--") {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func isLowerHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
