package skills

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"unicode/utf8"
)

// Markers that replace stripped text in a kept file. They hold no ": " so
// that a stripped YAML value stays valid YAML.
const (
	secretMark = "(secret removed by vouch)"
	mcpMark    = "(MCP server configuration removed by vouch)"
)

// maxFindingsPerRule bounds the findings one file reports for one rule.
const maxFindingsPerRule = 50

// Scan runs the content scanner over one text file and returns its
// findings with 1-based line numbers, in line order (SPEC G6; also used for
// skills that MCP servers serve, SPEC I5). Action says what Import does
// with a kept file: secrets and MCP server activation payloads are
// "stripped" (replaced by a marker, line count unchanged), the rest are
// "shown" in the preview. Details never repeat a secret.
//
// Scan is linear in len(data): each line is tested against cheap literal
// triggers first, and the regular expressions run only on lines that
// carry one.
func Scan(path string, data []byte) []Finding {
	f, _ := scan(path, data)
	return f
}

// span is a byte range of a file to replace with a marker.
type span struct {
	start, end int
	mark       string
}

type scanner struct {
	path     string
	data     []byte
	lower    []byte // ASCII-lowered copy, same offsets
	findings []Finding
	spans    []span
	counts   map[string]int
	fences   []span // fenced code blocks: start of the first inner line, end of the last
}

func scan(path string, data []byte) ([]Finding, []span) {
	s := &scanner{path: path, data: data, lower: asciiLower(data), counts: map[string]int{}}
	s.fences = fencedBlocks(data)
	line, off := 0, 0
	for off <= len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line++
		s.line(line, off, end)
		if end == len(data) {
			break
		}
		off = end + 1
	}
	sort.SliceStable(s.findings, func(i, j int) bool { return s.findings[i].Line < s.findings[j].Line })
	return s.findings, mergeSpans(s.spans)
}

func (s *scanner) add(line int, rule, action, detail string) {
	s.counts[rule]++
	if s.counts[rule] > maxFindingsPerRule {
		return
	}
	s.findings = append(s.findings, Finding{File: s.path, Line: line, Rule: rule, Detail: detail, Action: action})
}

func (s *scanner) line(n, start, end int) {
	raw, low := s.data[start:end], s.lower[start:end]
	s.secrets(n, start, raw, low)
	s.activation(n, start, end, low)
	s.injection(n, low)
	s.exfiltration(n, raw, low)
	s.blob(n, raw)
	s.hidden(n, raw)
}

// --- secrets -------------------------------------------------------------

type secretRule struct {
	name    string
	trigger []string // lower-case literals, any of which must appear
	re      *regexp.Regexp
	group   int // the submatch holding the secret
	entropy float64
}

var secretRules = []secretRule{
	{"OpenAI or Anthropic API key", []string{"sk-"}, regexp.MustCompile(`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), 0, 3.2},
	{"Stripe secret key", []string{"_live_"}, regexp.MustCompile(`\b[rs]k_live_[0-9A-Za-z]{20,}`), 0, 3.2},
	{"GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,}`), 0, 3.2},
	{"GitHub fine-grained token", []string{"github_pat_"}, regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}`), 0, 3.2},
	{"AWS access key ID", []string{"akia", "asia"}, regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0, 2.8},
	{"Slack token", []string{"xox"}, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`), 0, 3.0},
	{"Google API key", []string{"aiza"}, regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`), 0, 3.2},
	{"credential assigned in the text", []string{"key", "secret", "token", "passw", "credential", "auth"},
		regexp.MustCompile(`(?i)(?:api[_-]?key|secret|token|passw(?:or)?d|credential|auth)[A-Za-z0-9_\-]*["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9+/_\-.=]{24,})`), 1, 4.0},
}

func (s *scanner) secrets(n, start int, raw, low []byte) {
	if bytes.Contains(low, []byte("-----begin ")) && bytes.Contains(low, []byte("private key-----")) {
		end := bytes.Index(s.lower[start:], []byte("private key-----"))
		stop := len(s.data)
		if e := bytes.Index(s.lower[start+end+16:], []byte("-----end ")); e >= 0 {
			stop = start + end + 16 + e
			if nl := bytes.IndexByte(s.data[stop:], '\n'); nl >= 0 {
				stop += nl
			} else {
				stop = len(s.data)
			}
		}
		s.spans = append(s.spans, span{start, stop, secretMark})
		s.add(n, RuleSecret, ActionStripped, "private key (PEM block)")
	}
	for _, r := range secretRules {
		if !containsAny(low, r.trigger) {
			continue
		}
		for _, m := range r.re.FindAllSubmatchIndex(raw, -1) {
			a, b := m[2*r.group], m[2*r.group+1]
			if a < 0 || entropy(raw[a:b]) < r.entropy || placeholder(low[a:b]) {
				continue
			}
			s.spans = append(s.spans, span{start + a, start + b, secretMark})
			s.add(n, RuleSecret, ActionStripped, r.name)
		}
	}
}

// placeholder spots documentation values like "your-api-key-here".
func placeholder(low []byte) bool {
	for _, w := range []string{"your", "example", "xxxx", "placeholder", "dummy", "<", "${", "{{"} {
		if bytes.Contains(low, []byte(w)) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of b in bits per byte.
func entropy(b []byte) float64 {
	var freq [256]int
	for _, c := range b {
		freq[c]++
	}
	h := 0.0
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / float64(len(b))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// --- MCP server activation ----------------------------------------------

var (
	mcpTriggers = []string{"mcpservers", "mcp_servers", "mcp-servers", "mcp add", "mcp install", "\"command\"", "context_servers"}
	mcpRE       = regexp.MustCompile(`(?i)"?(?:mcpServers|mcp_servers|mcp-servers|context_servers)"?\s*[:=\]]|\[mcp_servers[.\]]|\b(?:claude|codex|gemini|cursor|goose|vouch)\s+mcp\s+(?:add|install|add-json)\b`)
	commandRE   = regexp.MustCompile(`"command"\s*:\s*"`)
	argsRE      = regexp.MustCompile(`"args"\s*:\s*\[`)
)

// activation finds MCP server configurations and install commands. The
// enclosing fenced code block (or else the line) is stripped.
func (s *scanner) activation(n, start, end int, low []byte) {
	if !containsAny(low, mcpTriggers) {
		return
	}
	raw := s.data[start:end]
	hit := mcpRE.Match(raw)
	if !hit && commandRE.Match(raw) {
		// A server config: "command" with "args" within three lines.
		a, b := lineWindow(s.data, start, end, 3)
		hit = argsRE.Match(s.data[a:b])
	}
	if !hit {
		return
	}
	a, b := start, end
	for _, f := range s.fences {
		if f.start <= start && end <= f.end {
			a, b = f.start, f.end
			break
		}
	}
	s.spans = append(s.spans, span{a, b, mcpMark})
	s.add(n, RuleMCPActivation, ActionStripped, "MCP server configuration or install command; a skill cannot install or start an MCP server")
}

// lineWindow widens [start,end) by k lines either side.
func lineWindow(data []byte, start, end, k int) (int, int) {
	a, b := start, end
	for i := 0; i < k && a > 0; i++ {
		if j := bytes.LastIndexByte(data[:a-1], '\n'); j >= 0 {
			a = j + 1
		} else {
			a = 0
		}
	}
	for i := 0; i < k && b < len(data); i++ {
		if j := bytes.IndexByte(data[b+1:], '\n'); j >= 0 {
			b = b + 1 + j
		} else {
			b = len(data)
		}
	}
	return a, b
}

// fencedBlocks finds ``` and ~~~ fenced code blocks: each span covers the
// inner lines.
func fencedBlocks(data []byte) []span {
	var out []span
	open, inner := "", 0
	off := 0
	for off < len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		t := bytes.TrimLeft(data[off:end], " ")
		switch {
		case open == "" && (bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))):
			open, inner = string(t[:3]), min(end+1, len(data))
		case open != "" && bytes.HasPrefix(t, []byte(open)):
			out = append(out, span{inner, max(inner, off-1), ""})
			open = ""
		}
		off = end + 1
	}
	if open != "" {
		out = append(out, span{inner, len(data), ""})
	}
	return out
}

// --- injection -----------------------------------------------------------

var (
	injectionTriggers = []string{"ignore", "disregard", "forget", "you are now", "system prompt", "system>", "system]", "im_start", "override", "do not tell", "don't tell", "without telling", "without informing", "new instructions", "jailbreak", "developer mode"}
	injectionRE       = regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+)*(?:previous|prior|above|earlier|preceding|original|system|safety)\s+(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)` +
		`|\byou\s+are\s+now\s+(?:a\s+|an\s+|in\s+)?(?:dan\b|no\s+longer|free|unrestricted|jailbroken|developer\s+mode|unfiltered|root|admin)` +
		`|\b(?:new|updated|override|replace(?:\s+the)?|reveal(?:\s+the)?|print(?:\s+the)?|real)\s+system\s+prompt` +
		`|<\|?im_start\|?>\s*system|<\|?system\|?>|\[/?system\]` +
		`|\b(?:do\s+not|don't|never)\s+(?:tell|inform|alert|mention\s+(?:this|it)\s+to)\s+the\s+user|\bwithout\s+(?:telling|informing|asking)\s+the\s+user` +
		`|\bjailbreak|\bdeveloper\s+mode\s+enabled`)
)

func (s *scanner) injection(n int, low []byte) {
	if !containsAny(low, injectionTriggers) {
		return
	}
	if m := injectionRE.Find(low); m != nil {
		s.add(n, RuleInjection, ActionShown, fmt.Sprintf("instruction-override phrasing: %q", clip(string(m), 80)))
	}
}

// --- exfiltration --------------------------------------------------------

var (
	exfilTriggers = []string{"http", "curl", "wget", "nc ", "ncat", "/dev/tcp"}
	exfilHostRE   = regexp.MustCompile(`(?i)https?://[^\s"'<>)]*(?:webhook\.site|ngrok(?:-free)?\.(?:app|io|dev)|pastebin\.com|paste\.ee|hastebin|requestbin|pipedream\.net|hookbin|burpcollaborator|oast\.(?:fun|live|site|online|pro|me)|interact\.sh|transfer\.sh|discord(?:app)?\.com/api/webhooks|hooks\.slack\.com|canarytokens|beeceptor|postb\.in)`)
	exfilQueryRE  = regexp.MustCompile(`(?i)https?://[^\s"'<>]*[?&][^\s"'<>]*(?:\$\{?[A-Z_][A-Z0-9_]*|\$\(|%[A-Z_]+%|process\.env|os\.environ|getenv|(?:api_?key|token|secret|passw(?:or)?d|credential|session|cookie)=)`)
	exfilCmdRE    = regexp.MustCompile(`(?i)\b(?:curl|wget)\b[^\n|]*(?:\s-d\s*@|--data(?:-binary|-raw|-urlencode)?[\s=]+["']?@|\s-F\s*["']?[^\s=]+=@|--upload-file|\s-T\s|--post-(?:data|file))|\|\s*(?:curl|wget|nc|ncat)\b|\b(?:curl|wget)\b[^\n]*\$\((?:cat|env|printenv)|/dev/tcp/|\b(?:env|printenv|cat\s+~?/?\.(?:env|ssh|aws))\b[^\n]*\|\s*(?:curl|nc|base64)`)
)

func (s *scanner) exfiltration(n int, raw, low []byte) {
	if !containsAny(low, exfilTriggers) {
		return
	}
	switch {
	case exfilHostRE.Match(raw):
		s.add(n, RuleExfiltration, ActionShown, "URL of a request-capture, tunnel or paste service")
	case exfilQueryRE.Match(raw):
		s.add(n, RuleExfiltration, ActionShown, "URL whose query carries environment variables or secrets")
	case exfilCmdRE.Match(raw):
		s.add(n, RuleExfiltration, ActionShown, "command that sends local data or files to a remote host")
	}
}

// --- encoded blobs -------------------------------------------------------

const (
	minBase64Run = 200
	minHexRun    = 128
)

// blob finds long base64 or hex runs in one pass.
func (s *scanner) blob(n int, raw []byte) {
	b64, hex := 0, 0
	for i, c := range raw {
		isHex := c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		isB64 := isHex || c >= 'g' && c <= 'z' || c >= 'G' && c <= 'Z' || c == '+' || c == '/' || c == '-' || c == '_' || c == '='
		if isHex {
			hex++
		} else {
			hex = 0
		}
		if isB64 {
			b64++
		} else {
			b64 = 0
		}
		if hex == minHexRun {
			s.add(n, RuleEncodedBlob, ActionShown, "long hexadecimal run (encoded data)")
			return
		}
		if b64 == minBase64Run && !uniform(raw[i+1-b64:i+1]) {
			s.add(n, RuleEncodedBlob, ActionShown, "long base64 run (encoded data)")
			return
		}
	}
}

// uniform reports a run of one repeated byte ("=====" rules, "aaaa").
func uniform(b []byte) bool {
	for _, c := range b {
		if c != b[0] {
			return false
		}
	}
	return true
}

// --- hidden Unicode ------------------------------------------------------

func (s *scanner) hidden(n int, raw []byte) {
	if !hasNonASCII(raw) {
		return
	}
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRune(raw[i:])
		what := ""
		switch {
		case isBidi(r):
			what = "bidirectional control"
		case r == 0x200B || r == 0x200C || (r >= 0x2060 && r <= 0x2064):
			what = "zero-width character"
		case r == 0xFEFF && !(n == 1 && i == 0):
			what = "zero-width no-break space"
		case r >= 0xE0000 && r <= 0xE007F:
			what = "Unicode tag character (invisible text)"
		}
		if what != "" {
			s.add(n, RuleHiddenUnicode, ActionShown, fmt.Sprintf("hidden character U+%04X (%s)", r, what))
			return
		}
		i += size
	}
}

// --- helpers -------------------------------------------------------------

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func containsAny(b []byte, lits []string) bool {
	for _, l := range lits {
		if bytes.Contains(b, []byte(l)) {
			return true
		}
	}
	return false
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// mergeSpans sorts spans and merges overlaps; an MCP mark wins over a
// secret mark in the same range.
func mergeSpans(in []span) []span {
	if len(in) == 0 {
		return nil
	}
	sort.Slice(in, func(i, j int) bool { return in[i].start < in[j].start })
	out := []span{in[0]}
	for _, sp := range in[1:] {
		last := &out[len(out)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			if sp.mark == mcpMark {
				last.mark = mcpMark
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

// redact replaces each span with its marker, keeping the span's newlines
// so line numbers stay as the scanner reported them.
func redact(data []byte, spans []span) []byte {
	if len(spans) == 0 {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data))
	prev := 0
	for _, sp := range spans {
		b.Write(data[prev:sp.start])
		b.WriteString(sp.mark)
		for range bytes.Count(data[sp.start:sp.end], []byte("\n")) {
			b.WriteByte('\n')
		}
		prev = sp.end
	}
	b.Write(data[prev:])
	return b.Bytes()
}
