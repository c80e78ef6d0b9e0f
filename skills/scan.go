package skills

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"unicode/utf8"
)

// Markers that replace stripped text in a kept file. They hold no ": " so
// that a stripped YAML value stays valid YAML.
const (
	secretMark = "(secret removed by vouch)"
	mcpMark    = "(MCP server configuration removed by vouch)"
)

const (
	// maxFindingsPerRule bounds the findings one file reports for one rule.
	maxFindingsPerRule = 50
	// maxTriggersPerLine bounds the trigger occurrences examined per line
	// and check; past it a stripping check strips the whole line.
	maxTriggersPerLine = 256
	// scanWindow bounds the bytes a check's expression sees.
	scanWindow   = 1024
	minBase64Run = 200
	minHexRun    = 128
)

// Scan runs the content scanner over one text file and returns its
// findings with 1-based line numbers, in line order (SPEC G6; also used for
// skills that MCP servers serve, SPEC I5). Action says what Import does
// with a kept file: secrets and MCP server activation payloads are
// "stripped" (replaced by a marker, line count unchanged), the rest are
// "shown" in the preview. Details never repeat a secret.
//
// Scan is linear in len(data): one pass finds every literal trigger
// through a two-byte index, and the rules' expressions run anchored at
// the triggers on bounded windows.
func Scan(path string, data []byte) []Finding {
	f, _ := scan(path, data)
	return f
}

// span is a byte range of a file to replace with a marker.
type span struct {
	start, end int
	mark       string
}

// trigger is one literal of one check.
type trigger struct {
	lit   string
	check int
}

// triggerSlot maps the first two bytes of every trigger to its bucket in
// triggerBuckets (0: none). Built once; never changed.
var triggerSlot, triggerBuckets = func() (*[1 << 16]uint8, [][]trigger) {
	var slot [1 << 16]uint8
	buckets := [][]trigger{nil}
	for i, c := range checks {
		for _, l := range c.lits {
			k := uint16(l[0])<<8 | uint16(l[1])
			if slot[k] == 0 {
				slot[k] = uint8(len(buckets))
				buckets = append(buckets, nil)
			}
			buckets[slot[k]] = append(buckets[slot[k]], trigger{l, i})
		}
	}
	return &slot, buckets
}()

type scanner struct {
	path       string
	data, low  []byte
	findings   []Finding
	spans      []span
	perRule    map[string]int
	fences     []span
	line       int
	start, end int // the current line
	tries      []int
	skip       []int
	shownRule  map[string]bool
}

func scan(path string, data []byte) ([]Finding, []span) {
	s := &scanner{path: path, data: data, low: asciiLower(data), perRule: map[string]int{},
		tries: make([]int, len(checks)), skip: make([]int, len(checks)), shownRule: map[string]bool{}}
	s.fences = fencedBlocks(data)
	for off := 0; off <= len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		s.line++
		s.scanLine(off, end)
		if end == len(data) {
			break
		}
		off = end + 1
	}
	sort.SliceStable(s.findings, func(i, j int) bool { return s.findings[i].Line < s.findings[j].Line })
	return s.findings, mergeSpans(s.spans)
}

func (s *scanner) add(rule, action, detail string) {
	s.perRule[rule]++
	if s.perRule[rule] > maxFindingsPerRule {
		return
	}
	s.findings = append(s.findings, Finding{File: s.path, Line: s.line, Rule: rule, Detail: detail, Action: action})
}

func (s *scanner) scanLine(start, end int) {
	s.start, s.end = start, end
	clear(s.tries)
	clear(s.skip)
	clear(s.shownRule)
	b64, hex, hidden := 0, 0, false
	for i := start; i < end; i++ {
		c := s.data[i]
		// Encoded blobs: long base64 or hex runs.
		isHex := c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
		if isHex {
			hex++
		} else {
			hex = 0
		}
		if isHex || c|0x20 >= 'g' && c|0x20 <= 'z' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=' {
			b64++
		} else {
			b64 = 0
		}
		if hex == minHexRun {
			s.once(RuleEncodedBlob, "long hexadecimal run (encoded data)")
		} else if b64 == minBase64Run && !uniform(s.data[i+1-b64:i+1]) {
			s.once(RuleEncodedBlob, "long base64 run (encoded data)")
		}
		// Hidden Unicode.
		if c >= 0x80 && !hidden {
			if r, _ := utf8.DecodeRune(s.data[i:end]); hiddenRune(r, i == 0) != "" {
				hidden = true
				s.once(RuleHiddenUnicode, fmt.Sprintf("hidden character U+%04X (%s)", r, hiddenRune(r, false)))
			}
		}
		// Triggers.
		if i+1 >= end {
			continue
		}
		k := triggerSlot[uint16(s.low[i])<<8|uint16(s.low[i+1])]
		if k == 0 {
			continue
		}
		for _, t := range triggerBuckets[k] {
			if bytes.HasPrefix(s.low[i:end], []byte(t.lit)) {
				s.try(t, i)
			}
		}
	}
}

// once adds a shown finding at most once per line and rule.
func (s *scanner) once(rule, detail string) {
	if s.shownRule[rule] {
		return
	}
	s.shownRule[rule] = true
	s.add(rule, ActionShown, detail)
}

func hiddenRune(r rune, fileStart bool) string {
	switch {
	case isBidi(r):
		return "bidirectional control"
	case r == 0x200B || r == 0x200C || (r >= 0x2060 && r <= 0x2064):
		return "zero-width character"
	case r == 0xFEFF && !fileStart:
		return "zero-width no-break space"
	case r >= 0xE0000 && r <= 0xE007F:
		return "Unicode tag character (invisible text)"
	}
	return ""
}

// try examines one trigger occurrence at p.
func (s *scanner) try(t trigger, p int) {
	c := &checks[t.check]
	if p < s.skip[t.check] {
		return
	}
	s.tries[t.check]++
	if s.tries[t.check] > maxTriggersPerLine {
		if s.tries[t.check] == maxTriggersPerLine+1 && c.rule != RuleInjection && c.rule != RuleExfiltration {
			s.strip(c, s.start, s.end)
			s.add(c.rule, ActionStripped, "line with too many candidates to check one by one; removed")
		}
		return
	}
	if c.boundary && p > s.start && isWordByte(s.data[p-1]) {
		return
	}
	if c.needURL && !bytes.Contains(s.low[max(s.start, p-64):p], []byte("://")) {
		return
	}
	if c.before != nil && !c.before.Match(s.data[max(s.start, p-32):p]) {
		return
	}
	a, b := p, p+len(t.lit)
	if c.re != nil {
		m := c.re.FindSubmatchIndex(s.data[p:min(s.end, p+scanWindow)])
		if m == nil {
			return
		}
		a, b = p+m[2*c.group], p+m[2*c.group+1]
		s.skip[t.check] = p + m[1]
	}
	if c.entropy > 0 && (entropy(s.data[a:b]) < c.entropy || placeholder(s.low[a:b])) {
		return
	}
	if c.argsNear {
		wa, wb := lineWindow(s.data, s.start, s.end, 3)
		if !argsRE.Match(s.data[max(wa, p-scanWindow):min(wb, p+scanWindow)]) {
			return
		}
	}
	switch c.rule {
	case RuleSecret:
		if c.pem {
			a, b = s.start, pemEnd(s.data, s.low, p)
		}
		s.strip(c, a, b)
		s.add(c.rule, ActionStripped, c.detail)
	case RuleMCPActivation:
		a, b = s.start, s.end
		for _, f := range s.fences {
			if f.start <= s.start && s.end <= f.end {
				a, b = f.start, f.end
				break
			}
		}
		s.strip(c, a, b)
		if !s.shownRule[c.rule] {
			s.shownRule[c.rule] = true
			s.add(c.rule, ActionStripped, c.detail)
		}
	default:
		s.once(c.rule, c.detail)
	}
}

func (s *scanner) strip(c *check, a, b int) {
	mark := secretMark
	if c.rule == RuleMCPActivation {
		mark = mcpMark
	}
	s.spans = append(s.spans, span{a, b, mark})
}

// pemEnd returns the end of the line holding the "-----END " after p, or
// the end of the data.
func pemEnd(data, low []byte, p int) int {
	e := bytes.Index(low[p:], []byte("-----end "))
	if e < 0 {
		return len(data)
	}
	if nl := bytes.IndexByte(data[p+e:], '\n'); nl >= 0 {
		return p + e + nl
	}
	return len(data)
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
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
	for off := 0; off < len(data); {
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

// uniform reports a run of one repeated byte ("=====" rules, "aaaa").
func uniform(b []byte) bool {
	for _, c := range b {
		if c != b[0] {
			return false
		}
	}
	return true
}

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
