package skills

import (
	"bytes"
	"math"
	"sort"
	"sync"
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

// rules are the scanner's checks and their trigger index, built on the
// first scan — not at program start, where every vouch command would pay
// for compiling them (~3 ms and ~1 MB) — and never changed after.
type rules struct {
	checks []check
	// slot maps the first two (lower-cased) bytes of every trigger to its
	// bucket in buckets (0: none); bits is the same set as an 8 KiB bitmap
	// that stays in the CPU cache.
	slot    *[1 << 16]uint8
	buckets [][]trigger
	bits    *[1 << 10]uint64
}

var scanRules = sync.OnceValue(func() *rules {
	r := &rules{checks: checks(), slot: new([1 << 16]uint8), bits: new([1 << 10]uint64), buckets: [][]trigger{nil}}
	for i, c := range r.checks {
		for _, l := range c.lits {
			k := uint16(l[0])<<8 | uint16(l[1])
			if r.slot[k] == 0 {
				r.slot[k] = uint8(len(r.buckets))
				r.buckets = append(r.buckets, nil)
			}
			r.bits[k>>6] |= 1 << (k & 63)
			r.buckets[r.slot[k]] = append(r.buckets[r.slot[k]], trigger{l, i})
		}
	}
	return r
})

// Byte classes for the one pass: ASCII lower-casing, and the alphabets of
// hex and base64 runs.
const (
	classHex = 1 << iota
	classB64
)

var lowerTab, classTab = func() (lower, class [256]byte) {
	for i := range 256 {
		c := byte(i)
		lower[i] = c
		if c >= 'A' && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
		l := lower[i]
		if c >= '0' && c <= '9' || l >= 'a' && l <= 'f' {
			class[i] |= classHex
		}
		if class[i] != 0 || l >= 'g' && l <= 'z' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=' {
			class[i] |= classB64
		}
	}
	return
}()

// hasPrefixFold reports whether b starts with lit (lower-case ASCII),
// ignoring ASCII case.
func hasPrefixFold(b []byte, lit string) bool {
	if len(b) < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if lowerTab[b[i]] != lit[i] {
			return false
		}
	}
	return true
}

type scanner struct {
	rules      *rules
	path       string
	data       []byte
	findings   []Finding
	spans      []span
	perRule    map[string]int
	fences     []span
	comments   []span // HTML comments outside fences
	line       int
	start, end int // the current line
	tries      []int
	skip       []int
	shown      uint8 // rules with a finding on this line (ruleBit)
	// lineIdx holds, per ruleBit, 1 + the index in findings of this
	// line's finding for the rule, so a stronger one replaces it.
	lineIdx [8]int
}

func scan(path string, data []byte) ([]Finding, []span) {
	r := scanRules()
	s := &scanner{rules: r, path: path, data: data, perRule: map[string]int{},
		tries: make([]int, len(r.checks)), skip: make([]int, len(r.checks))}
	s.fences = fencedBlocks(data)
	s.htmlComments()
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
	s.sentences()
	sort.SliceStable(s.findings, func(i, j int) bool { return s.findings[i].Line < s.findings[j].Line })
	return s.findings, mergeSpans(s.spans)
}

// add records a finding on the current line; p is where its text starts
// (for the quoting rules of quoted). An empty sev is the rule's default.
func (s *scanner) add(rule, code, sev, action, detail string, p int) {
	s.perRule[rule]++
	if s.perRule[rule] > maxFindingsPerRule {
		return
	}
	if sev == "" {
		sev = defaultSeverity(rule)
	}
	if sev == SeverityHigh {
		if why := s.quoted(rule, code, p); why != "" {
			sev, detail = SeverityMedium, detail+why
		}
	}
	s.findings = append(s.findings, Finding{ID: findingID(code, s.line, s.data[s.start:s.end]), File: s.path, Line: s.line,
		Rule: rule, Severity: sev, Detail: detail, Action: action})
}

func (s *scanner) scanLine(start, end int) {
	s.start, s.end = start, end
	clear(s.tries)
	clear(s.skip)
	s.shown = 0
	s.lineIdx = [8]int{}
	line := s.data[start:end]
	if len(line) >= minHexRun {
		s.blobs(line)
	}
	if !isASCII(line) {
		s.hidden(line, start == 0)
	}
	if len(line) < 2 {
		return
	}
	// Triggers: a bitmap test per byte pair, the buckets only on a hit.
	prev := uint16(lowerTab[line[0]])
	for i := 1; i < len(line); i++ {
		cur := uint16(lowerTab[line[i]])
		k := prev<<8 | cur
		prev = cur
		if s.rules.bits[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for _, t := range s.rules.buckets[s.rules.slot[k]] {
			if hasPrefixFold(line[i-1:], t.lit) {
				s.try(t, start+i-1)
			}
		}
	}
}

// ruleBit gives each rule a bit of scanner.shown.
func ruleBit(rule string) uint8 {
	switch rule {
	case RuleSecret:
		return 1
	case RuleMCPActivation:
		return 2
	case RuleInjection:
		return 4
	case RuleExfiltration:
		return 8
	case RuleEncodedBlob:
		return 16
	case RuleHiddenInstruction:
		return 32
	case RuleInstaller:
		return 64
	}
	return 128
}

func bitIndex(b uint8) int {
	for i := range 8 {
		if b == 1<<i {
			return i
		}
	}
	return 7
}

// once adds a shown finding at most once per line and rule; a later one of
// higher severity replaces the first.
func (s *scanner) once(rule, code, sev, detail string, p int) {
	bit := ruleBit(rule)
	if s.shown&bit != 0 {
		i := s.lineIdx[bitIndex(bit)] - 1
		if i < 0 || i >= len(s.findings) || sevRank(s.findings[i].Severity) >= sevRank(orDefault(sev, rule)) {
			return
		}
		old := s.findings[i]
		s.findings = append(s.findings[:i], s.findings[i+1:]...)
		s.perRule[old.Rule]--
		for j := range s.lineIdx {
			if s.lineIdx[j] > i+1 {
				s.lineIdx[j]--
			}
		}
	}
	n := len(s.findings)
	s.add(rule, code, sev, ActionShown, detail, p)
	if len(s.findings) > n {
		s.shown |= bit
		s.lineIdx[bitIndex(bit)] = len(s.findings)
	}
}

func orDefault(sev, rule string) string {
	if sev == "" {
		return defaultSeverity(rule)
	}
	return sev
}

func sevRank(sev string) int {
	switch sev {
	case SeverityHigh:
		return 3
	case SeverityMedium:
		return 2
	}
	return 1
}

// try examines one trigger occurrence at p.
func (s *scanner) try(t trigger, p int) {
	c := &s.rules.checks[t.check]
	if p < s.skip[t.check] {
		return
	}
	s.tries[t.check]++
	if s.tries[t.check] > maxTriggersPerLine {
		if s.tries[t.check] == maxTriggersPerLine+1 && c.rule != RuleInjection && c.rule != RuleExfiltration {
			s.strip(c, s.start, s.end)
			s.add(c.rule, c.code, "", ActionStripped, "line with too many candidates to check one by one; removed", p)
		}
		return
	}
	if c.boundary && p > s.start && isWordByte(s.data[p-1]) {
		return
	}
	if c.needURL && !bytes.Contains(s.data[max(s.start, p-64):p], []byte("://")) {
		return
	}
	if c.before != nil && !c.before.Match(s.data[max(s.start, p-32):p]) {
		return
	}
	if c.lineStart && len(bytes.TrimLeft(s.data[s.start:p], " \t>*#[(-_`")) != 0 {
		return
	}
	sev, detail := c.sev, c.detail
	if c.match != nil {
		var ok bool
		if sev, detail, ok = c.match(s, p, c); !ok {
			return
		}
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
	if c.entropy > 0 && !c.fixed && (entropy(s.data[a:b]) < c.entropy || placeholder(asciiLower(s.data[a:b]))) {
		return
	}
	if c.needDigit && !bytes.ContainsAny(s.data[a:b], "0123456789") {
		return
	}
	if c.value != nil && !c.value(s.data[a:b]) {
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
			a, b = s.start, pemEnd(s.data, p)
		}
		if s.stripped(a, b) { // another check has it already
			return
		}
		s.strip(c, a, b)
		s.add(c.rule, c.code, "", ActionStripped, c.detail, p)
	case RuleMCPActivation:
		a, b = s.mcpExtent(c, p)
		for _, f := range s.fences {
			if f.start <= s.start && s.end <= f.end {
				a, b = f.start, f.end
				break
			}
		}
		s.strip(c, a, b)
		if s.shown&ruleBit(c.rule) == 0 {
			s.shown |= ruleBit(c.rule)
			s.add(c.rule, c.code, "", ActionStripped, c.detail, p)
		}
	default:
		s.once(c.rule, c.code, sev, detail, p)
	}
}

// stripped reports whether [a,b) lies inside a span already stripped.
func (s *scanner) stripped(a, b int) bool {
	for i := len(s.spans) - 1; i >= 0 && s.spans[i].end >= s.start; i-- {
		if s.spans[i].start <= a && b <= s.spans[i].end {
			return true
		}
	}
	return false
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
func pemEnd(data []byte, p int) int {
	e := bytes.Index(data[p:], []byte("-----END "))
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

// placeholder spots documentation values like "your-api-key-here"; it
// exempts only free-form assignments, never a fixed-format key.
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
		out[i] = lowerTab[c]
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
