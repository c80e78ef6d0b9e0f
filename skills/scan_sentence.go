package skills

import (
	"bytes"
	"math/bits"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// The sentence scanner (SPEC G8; issue 25 item 1): exfiltration written as
// prose is judged a sentence at a time, not a line at a time, so a line
// break before the URL, a typo in the verb or a Cyrillic letter in a word
// does not hide it. The text is folded first — case, Unicode
// compatibility forms and diacritics (golang.org/x/text), look-alike
// letters of other scripts (the Unicode confusables skeleton,
// github.com/mtibben/confusables), digits standing for letters ("c0ntents"),
// invisible characters and markdown emphasis — and each word one typo away
// from a word the checks know is read as that word. Then a sentence that
// tells the assistant to send data to a remote address, or to put secrets
// into a tool argument or a URL, is high; the same sentence written as a
// description of an attack ("a malicious skill might …", or under a heading
// about attacks) is medium; a negated one ("never upload …") is nothing.

const (
	// maxSentence bounds the folded bytes of one sentence; a longer run of
	// text is judged in pieces of this size.
	maxSentence = 1024
)

// folded is a sentence after folding, and its words as endWord read them,
// in order, each with where it came from in the file.
type folded struct {
	text  []byte
	words []wordRec
}

// wordRec is a word endWord read: where it starts in the folded text, its
// length, the file offset of its first byte, and its class.
type wordRec struct {
	at, n, src int
	class      uint32
}

func (f *folded) reset() { f.text, f.words = f.text[:0], f.words[:0] }

// space adds one space unless the text is empty or ends with one.
func (f *folded) space() {
	if n := len(f.text); n > 0 && f.text[n-1] != ' ' {
		f.text = append(f.text, ' ')
	}
}

// srcOf returns the file offset of the word of f starting at folded offset
// at, or of the nearest one before it.
func (f *folded) srcOf(at int) int {
	i := sort.Search(len(f.words), func(i int) bool { return f.words[i].at > at })
	if i == 0 {
		if len(f.words) > 0 {
			return f.words[0].src
		}
		return 0
	}
	return f.words[i-1].src
}

// sentenceScan is the state of one file's sentence pass.
type sentenceScan struct {
	s       *scanner
	lines   []int // offset of each line's first byte
	cur     folded
	heading []byte // the folded text of the last heading
	inFence bool
	runes   map[rune]string // the folding of each non-ASCII rune met
	toks    []tok           // the words of the sentence judged, reused
	ws      int             // where the word being folded starts in cur, or -1
	bits    uint32          // the classes of the sentence's words so far
	shaped  bool            // the sentence holds a '/', '_', '$' or ':'
	// check, when set (by tests), sees every sentence before it is judged.
	check func(folded)
	wsrc  int // the file offset of the word being folded
}

// sentences runs the prose checks over every sentence of the file.
func (s *scanner) sentences() { newSentenceScan(s).run() }

func newSentenceScan(s *scanner) *sentenceScan {
	return &sentenceScan{s: s, runes: map[rune]string{}, ws: -1}
}

func (ss *sentenceScan) run() {
	s := ss.s
	for off := 0; off <= len(s.data); {
		ss.lines = append(ss.lines, off)
		end := s.lineEnd(off)
		ss.line(off, end)
		if end == len(s.data) {
			break
		}
		off = end + 1
	}
	ss.flush()
}

// line adds one line of the file to the current sentence, first ending
// the sentence where markdown ends a paragraph or an item: a blank line, a
// heading, a list item, a table row, a fence, a rule. Inside a fence every
// line is a sentence of its own.
func (ss *sentenceScan) line(start, end int) {
	l := bytes.TrimRight(ss.s.data[start:end], "\r")
	t := bytes.TrimLeft(l, " \t>")
	fence := bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
	switch {
	case fence:
		ss.flush()
		ss.inFence = !ss.inFence
		return
	case ss.inFence:
		ss.flush()
		ss.fold(start, start+len(l))
		ss.flush()
		return
	case len(t) == 0, bytes.HasPrefix(t, []byte("---")), bytes.HasPrefix(t, []byte("|")):
		ss.flush()
		if len(t) > 0 {
			ss.fold(start, start+len(l))
			ss.flush()
		}
		return
	case t[0] == '#':
		ss.flush()
		ss.fold(start, start+len(l))
		ss.endWord()
		ss.heading = append(ss.heading[:0], ss.cur.text...)
		ss.cur.reset()
		ss.bits, ss.shaped = 0, false
		return
	case listItem(t):
		ss.flush()
	}
	ss.fold(start, start+len(l))
	ss.emit(' ', end)
}

// listItem reports a markdown list item's first line.
func listItem(t []byte) bool {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && i < 4 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// fold appends data[start:end] to the current sentence, folded, and judges
// each sentence that ends inside it.
func (ss *sentenceScan) fold(start, end int) {
	data := ss.s.data
	for i := start; i < end; {
		c := data[i]
		if c >= 'a' && c <= 'z' { // the common case: a run of letters, copied whole
			if ss.ws < 0 {
				ss.ws, ss.wsrc = len(ss.cur.text), i
			}
			j := i + 1
			for j < end && j-i < maxSentence-len(ss.cur.text) && data[j] >= 'a' && data[j] <= 'z' {
				j++
			}
			ss.cur.text = append(ss.cur.text, data[i:j]...)
			i = j
			if len(ss.cur.text) >= maxSentence {
				ss.flush()
			}
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == '*' || c == '`':
			case c == '\t' || c == '\r':
				ss.emit(' ', i)
			case c >= 'A' && c <= 'Z':
				ss.emit(c+'a'-'A', i)
			default:
				ss.emit(c, i)
			}
			i++
			if (c == '.' || c == '!' || c == '?') && (i >= end || data[i] == ' ' || data[i] == '\t') && !abbreviation(ss.cur.text) {
				ss.flush()
			} else if len(ss.cur.text) >= maxSentence {
				ss.flush()
			}
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		for _, fc := range []byte(ss.foldRune(r)) {
			ss.emit(fc, i)
		}
		i += size
	}
}

// emit appends one folded byte at file offset at to the sentence; a word
// that ends is read (endWord).
func (ss *sentenceScan) emit(c byte, at int) {
	switch {
	case isLetter(c):
		if ss.ws < 0 {
			ss.ws, ss.wsrc = len(ss.cur.text), at
		}
		ss.cur.text = append(ss.cur.text, c)
		return
	case ss.ws >= 0 && leet[c] != 0: // a letter if a letter follows
		ss.cur.text = append(ss.cur.text, c)
		return
	}
	ss.endWord()
	switch c {
	case ' ':
		ss.cur.space()
		return
	case '/', '_', '$', ':':
		ss.shaped = true
	}
	ss.cur.text = append(ss.cur.text, c)
}

// endWord reads the word that ends the sentence so far: its digits between
// letters become the letters they stand for, a typo of a lexicon word
// becomes the word, and its class joins the sentence's.
func (ss *sentenceScan) endWord() {
	ws := ss.ws
	if ws < 0 {
		return
	}
	ss.ws = -1
	t := ss.cur.text
	last := len(t) - 1
	for !isLetter(t[last]) {
		last--
	}
	w := t[ws : last+1]
	for k, c := range w {
		if !isLetter(c) {
			w[k] = leet[c]
		}
	}
	cls := classOf(w)
	cw := w
	if cls == 0 { // a known word is no typo
		cw = canonicalWord(w)
		if len(cw) == len(w) {
			copy(w, cw)
		} else {
			tail := append([]byte(nil), t[last+1:]...)
			ss.cur.text = append(append(ss.cur.text[:ws], cw...), tail...)
		}
		cls = classOf(cw)
	}
	ss.bits |= cls
	ss.cur.words = append(ss.cur.words, wordRec{at: ws, n: len(cw), src: ss.wsrc, class: cls})
}

// abbreviation reports a sentence so far that ends in "e.g." or "i.e.",
// where no sentence ends.
func abbreviation(t []byte) bool {
	return bytes.HasSuffix(t, []byte("e.g.")) || bytes.HasSuffix(t, []byte("i.e.")) || bytes.HasSuffix(t, []byte("etc."))
}

// foldRune folds one non-ASCII rune: nothing for invisible and format
// characters, a space for spaces, else its confusables skeleton after
// compatibility decomposition, without combining marks, in lower case.
func (ss *sentenceScan) foldRune(r rune) string {
	if out, ok := ss.runes[r]; ok {
		return out
	}
	var out []rune
	switch {
	case r == utf8.RuneError, unicode.Is(unicode.Cf, r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Cc, r):
	case unicode.IsSpace(r):
		out = []rune{' '}
	default:
		for _, d := range confusables.Skeleton(norm.NFKD.String(string(r))) {
			if !unicode.Is(unicode.Mn, d) {
				out = append(out, unicode.ToLower(d))
			}
		}
	}
	if len(ss.runes) < 4096 {
		ss.runes[r] = string(out)
	}
	return string(out)
}

// flush judges the current sentence and starts the next. Only a sentence
// with a sending or placing verb and an address, a path or a secret is
// split into words and judged.
func (ss *sentenceScan) flush() {
	ss.endWord()
	if ss.check != nil && len(ss.cur.text) > 0 {
		ss.check(ss.cur)
	}
	if ss.bits&(wSend|wPlace) != 0 && (ss.shaped || ss.bits&(wSecret|wSecretHead) != 0) {
		ss.judge(ss.cur)
	}
	if ss.bits&wPhrase != 0 {
		ss.phrases(ss.cur)
	}
	ss.cur.reset()
	ss.bits, ss.shaped = 0, false
}

// leet are the digits written for letters inside words ("c0ntents").
var leet = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't'}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// lexicon are the words the sentence checks read whose typos are read as
// them (four letters or more), by first letter.
var lexicon = func() (m [26][]string) {
	for _, w := range strings.Fields(`send upload uploads transmit forward exfiltrate submit deliver always contents content
		credentials credential password passwords private secret secrets token tokens environment variable variables
		conversation history transcript include append insert embed attach argument parameter query repository document
		documents files workspace cookie cookies session`) {
		m[w[0]-'a'] = append(m[w[0]-'a'], w)
	}
	return
}()

// lexiconNear has, for each first letter, a bit for each length within
// one of a lexicon word's: a word of another length is none of them.
var lexiconNear = func() (m [26]uint32) {
	for i, ws := range lexicon {
		for _, w := range ws {
			m[i] |= 7 << (len(w) - 1)
		}
	}
	return
}()

// canonicalWord returns the lexicon word w is, or is one typo away from
// (the first letter right): two letters swapped (four letters or more),
// one letter missing or doubled (five or more), one letter changed (seven
// or more), or a final z for s ("alwayz"). w may be changed in place.
func canonicalWord(w []byte) []byte {
	if len(w) < 4 || len(w) > 16 || lexiconNear[w[0]-'a']&(1<<len(w)) == 0 {
		return w
	}
	cands := lexicon[w[0]-'a']
	var mask uint32
	for _, c := range w {
		mask |= 1 << (c - 'a')
	}
	for _, c := range cands {
		if string(w) == c {
			return w
		}
	}
	if w[len(w)-1] == 'z' {
		w[len(w)-1] = 's'
		for _, c := range cands {
			if string(w) == c {
				return w
			}
		}
		w[len(w)-1] = 'z'
	}
	for i, c := range cands {
		// One typo changes the set of letters by two at most.
		if bits.OnesCount32(mask^lexiconMasks[w[0]-'a'][i]) <= 2 && oneTypo(w, c) {
			return []byte(c)
		}
	}
	return w
}

// lexiconMasks are the sets of letters of lexicon's words, in its order.
var lexiconMasks = func() (m [26][]uint32) {
	for i, ws := range lexicon {
		for _, w := range ws {
			var mask uint32
			for _, c := range []byte(w) {
				mask |= 1 << (c - 'a')
			}
			m[i] = append(m[i], mask)
		}
	}
	return
}()

// oneTypo reports whether w is c with one typo of the kinds canonicalWord
// reads.
func oneTypo(w []byte, c string) bool {
	switch {
	case len(w) == len(c):
		first, second, n := -1, -1, 0
		for i := range w {
			if w[i] != c[i] {
				n++
				if n == 1 {
					first = i
				} else if n == 2 {
					second = i
				} else {
					return false
				}
			}
		}
		switch n {
		case 1:
			return len(c) >= 7
		case 2:
			return second == first+1 && w[first] == c[second] && w[second] == c[first]
		}
		return false
	case len(c) < 5:
		return false
	case len(w) == len(c)-1: // one letter missing
		return dropOne(c, string(w))
	case len(w) == len(c)+1: // one letter more
		return dropOne(string(w), c)
	}
	return false
}

// dropOne reports whether short is long with one byte removed.
func dropOne(long, short string) bool {
	i := 0
	for i < len(short) && long[i] == short[i] {
		i++
	}
	return long[i+1:] == short[i:]
}

// lineOfOffset returns the 1-based line of file offset p.
func (ss *sentenceScan) lineOfOffset(p int) int {
	return sort.Search(len(ss.lines), func(i int) bool { return ss.lines[i] > p })
}
