package skills

import (
	"bytes"
	"net/netip"
	"strings"
	"sync"
)

// The judgement of one folded sentence (scan_sentence.go folds them). It
// works on the sentence's words, each looked up once in wordClasses, so the
// pass stays linear and cheap whatever the text: no expression runs per
// verb.

// Word classes (bits of tok.class).
const (
	wSend       = 1 << iota // sends something somewhere
	wPlace                  // puts something into something
	wSecret                 // data that must not leave the machine
	wUserData               // the person's data, or a pronoun for it
	wURL                    // an address of another host
	wToolNoun               // an argument, parameter or field
	wToolWord               // a tool, function or call
	wURLNoun                // a part of a URL
	wPrep                   // a preposition that leads to a sink
	wNeg                    // ends an instruction
	wNotNeg                 // after a negation, asks for the action ("don't forget")
	wOrder                  // makes a clause an order ("always", "you must")
	wDiscuss                // speaks of attacks
	wReport                 // reports someone else's request ("asks", "tells")
	wRefuse                 // declines
	wFiller                 // may stand before an order's verb
	wPassive                // a verb form that can follow its object
	wPairHead               // the first word of a two-word name
	wSecretHead             // the first word of a secret's two-word name
	wPhrase                 // may begin a prompt-override or hiding phrase (scan_sentence_phrase.go)
)

// wordClasses are the classes of the words the sentence checks know, built
// on the first scan (not at program start) and never changed.
var wordClasses = sync.OnceValue(func() map[string]uint32 {
	m := map[string]uint32{}
	add := func(c uint32, words string) {
		for _, w := range strings.Fields(words) {
			m[w] |= c
		}
	}
	add(wSend, `send sends sending sent upload uploads uploading uploaded post posts posting posted transmit transmits
		transmitting transmitted forward forwards forwarding forwarded exfiltrate exfiltrates exfiltrating exfiltrated submit
		submits submitting submitted beacon beacons leak leaks leaking leaked copy copies copying copied sync syncs syncing
		synced mail mails mailed email emails emailed share shares sharing shared deliver delivers delivered relay relays
		relayed dump dumps dumped transfer transfers transferred`)
	add(wPlace, `put puts putting include includes including included add adds adding added insert inserts inserting
		inserted pass passes passing passed place places placing placed paste pastes pasted embed embeds embedding embedded
		append appends appending appended attach attaches attached encode encodes encoded fill fills filled write writes
		written set sets supply supplies supplied`)
	add(wPassive, `sent uploaded posted transmitted forwarded exfiltrated submitted leaked copied synced mailed emailed shared
		delivered relayed dumped transferred`)
	add(wSecret, `credential credentials token tokens secret secrets password passwords passphrase passphrases passwd apikey
		apikeys api_key api_keys cookie cookies keychain conversation conversations transcript transcripts clipboard wallet
		id_rsa id_ed25519 id_ecdsa .env .netrc .npmrc .pypirc .ssh .aws .kube .gnupg /etc/passwd /etc/shadow`)
	add(wUserData, `repository repo repositories codebase document documents file files contents attachment attachments
		workspace project notes data database log logs history input inputs everything it them these this those whatever
		user's users' code`)
	add(wToolNoun, `argument arguments parameter parameters param params field fields input inputs property properties`)
	add(wToolWord, `tool tools function functions call calls invocation`)
	add(wURLNoun, `query querystring url urls uri link links path fragment`)
	add(wPrep, `in into to inside within as under onto through`)
	add(wNeg, `never not don't dont doesn't won't mustn't shouldn't cannot can't no nor without avoid refuse neither`)
	add(wNotNeg, `forget fail hesitate omit neglect skip only`)
	add(wOrder, `always must should please remember`)
	add(wDiscuss, `attack attacks attacker attackers attacked malicious maliciously adversary adversaries adversarial phishing
		threat threats exfiltration injection injections suspicious beware scanner scanners reviewer reviewers exploit
		exploits exploited flag flags`)
	add(wReport, `ask asks asked tell tells told instruct instructs instructed want wants request requests say says`)
	add(wRefuse, `refuse decline stop warn ignore`)
	for i, p := range []map[string]bool{secretPairs, userPairs, negPairs} {
		for pair := range p {
			head, _, _ := strings.Cut(pair, " ")
			m[head] |= wPairHead
			if i == 0 {
				m[head] |= wSecretHead
			}
		}
	}
	add(wPhrase, `ignore disregard forget override bypass now henceforth tell telling inform informing let letting`)
	add(wFiller, `always please then first also now next finally immediately just simply and so quickly silently quietly
		secretly afterwards after that`)
	return m
})

// secretPairs and userPairs are two-word names of secrets and of the
// person's data; negPairs two-word negations.
var (
	secretPairs = set("private key", "private keys", "ssh key", "ssh keys", "api key", "api keys", "access key", "access keys",
		"env var", "env vars", "environment variable", "environment variables", "session id", "chat history",
		"system prompt", "browser history", "seed phrase")
	userPairs = set("source code", "home directory", "code base", "your files", "your documents", "your code", "your data",
		"your notes", "your email", "your emails", "your messages", "your keys", "your history")
	negPairs = set("do not", "does not", "must not", "should not", "will not", "instead of", "rather than")
)

// tok is one word of a folded sentence.
type tok struct {
	word  []byte // in the folded text
	at    int    // offset in the folded text
	class uint32
	// stop: the word ends its clause (a comma, semicolon, colon or dash
	// follows it).
	stop bool
}

// tokens splits a folded sentence into classified words; words are the
// letter words endWord read, whose classes a token that is one of them
// takes without a second lookup.
func tokens(t []byte, buf []tok, words []wordRec) []tok {
	out := buf[:0]
	pairs := false
	for i := 0; i < len(t); {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		j, shape := i, false
		for j < len(t) && t[j] != ' ' {
			switch t[j] {
			case '.', '/', '_', '$', ':':
				shape = true
			}
			j++
		}
		if j == i {
			break
		}
		raw := t[i:j]
		a, b := 0, len(raw)
		for a < b && trimmed(raw[a]) {
			a++
		}
		for b > a && trimmed(raw[b-1]) {
			b--
		}
		w := raw[a:b]
		k := tok{word: w, at: i, stop: raw[len(raw)-1] == ',' || raw[len(raw)-1] == ';' || raw[len(raw)-1] == ':' ||
			len(raw) > 1 && (raw[len(raw)-2] == ',' || raw[len(raw)-2] == ';' || raw[len(raw)-2] == ':') || string(raw) == "-" || string(raw) == "—"}
		at := i + a
		for len(words) > 0 && words[0].at < at {
			words = words[1:]
		}
		if !shape && len(words) > 0 && words[0].at == at && words[0].n == len(w) {
			k.class = words[0].class
		} else {
			k.class = classOf(w)
		}
		if shape {
			k.class |= shapeClass(w)
		}
		pairs = pairs || k.class&wPairHead != 0
		out = append(out, k)
		i = j
	}
	if !pairs {
		return out
	}
	var pairBuf [64]byte
	for n := 1; n < len(out); n++ {
		a, b := out[n-1].word, out[n].word
		if out[n-1].class&wPairHead == 0 || len(a)+len(b)+1 > len(pairBuf) {
			continue
		}
		pair := append(append(append(pairBuf[:0], a...), ' '), b...)
		switch {
		case secretPairs[string(pair)]:
			out[n-1].class |= wSecret
			out[n].class |= wSecret
		case userPairs[string(pair)]:
			out[n-1].class |= wUserData
			out[n].class |= wUserData
		case negPairs[string(pair)]:
			out[n-1].class |= wNeg
		}
	}
	return out
}

// trimmed are the bytes a word loses at either end.
func trimmed(c byte) bool {
	switch c {
	case ',', '.', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}', '<', '>', '"', '\'':
		return true
	}
	return false
}

// classTable holds wordClasses by first and last letter, for lookups without
// hashing: most words find an empty bucket or no word of their length.
var classTable = sync.OnceValue(func() (m *[26][26][]classEntry) {
	m = new([26][26][]classEntry)
	for w, c := range wordClasses() {
		if isLetter(w[0]) && isLetter(w[len(w)-1]) {
			m[w[0]-'a'][w[len(w)-1]-'a'] = append(m[w[0]-'a'][w[len(w)-1]-'a'], classEntry{w, c})
		}
	}
	return
})

type classEntry struct {
	word  string
	class uint32
}

// classOf returns a word's class in wordClasses.
func classOf(w []byte) uint32 {
	n := len(w)
	if n == 0 || !isLetter(w[0]) || !isLetter(w[n-1]) {
		if n > 0 {
			return wordClasses()[string(w)] // "don't", "user's", "/etc/passwd"
		}
		return 0
	}
	for _, e := range classTable()[w[0]-'a'][w[n-1]-'a'] {
		if len(e.word) == n && e.word[n/2] == w[n/2] && e.word == string(w) {
			return e.class
		}
	}
	return 0
}

// shapeClass classes a word by its form: a URL, a path to a key or
// credential file, an environment variable's name.
func shapeClass(w []byte) uint32 {
	var c uint32
	if !bytes.ContainsAny(w, "./_$:") {
		return 0
	}
	if i := bytes.Index(w, []byte("://")); i > 0 {
		host := w[i+3:]
		if e := bytes.IndexAny(host, "/?#"); e >= 0 {
			host = host[:e]
		}
		if !loopback(string(host)) && len(host) > 0 {
			c |= wURL
		}
	} else if bareDomain(w) || bytes.Contains(w, []byte("webhook")) || bytes.Contains(w, []byte("ngrok")) {
		c |= wURL
	}
	for _, s := range []string{".ssh", "id_rsa", "id_ed25519", ".aws", ".env", ".netrc", ".npmrc", ".pypirc", ".kube", ".gnupg", "/etc/passwd", "/etc/shadow", "_token", "_secret", "_key", "_password", "credentials"} {
		if bytes.Contains(w, []byte(s)) {
			c |= wSecret
			break
		}
	}
	if len(w) > 2 && w[0] == '$' {
		c |= wSecret
	}
	if bytes.HasSuffix(w, []byte("'s")) && wordClasses()[string(w[:len(w)-2])]&wUserData != 0 {
		c |= wUserData
	}
	return c
}

// tlds are the endings that make "name.tld/…" an address without a scheme.
var tlds = set("com", "net", "org", "io", "site", "xyz", "app", "dev", "me", "sh", "cloud", "ai", "co", "info", "biz", "invalid", "example")

// bareDomain reports "host.tld/…" written without a scheme.
func bareDomain(w []byte) bool {
	slash := bytes.IndexByte(w, '/')
	if slash <= 0 {
		return false
	}
	host := w[:slash]
	dot := bytes.LastIndexByte(host, '.')
	return dot > 0 && tlds[string(host[dot+1:])] && !loopback(string(host))
}

func loopback(host string) bool {
	h := host
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if strings.HasPrefix(h, "[") {
		h, _, _ = strings.Cut(h[1:], "]")
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// Reaches, in words, of the sentence checks.
const (
	objectReach = 30 // from a send verb to the address after it
	beforeReach = 12 // from a passive verb back to its subject
	verbReach   = 10 // from a verb to the preposition leading to a sink
	sinkReach   = 8  // from that preposition to the sink's noun
	toolReach   = 10 // from an argument's noun to the tool it belongs to
)

// judge adds the finding one folded sentence earns, if any.
func (ss *sentenceScan) judge(f folded) {
	if !ss.shaped && !mayPlace(f.words) {
		return // no address, and no verb with a secret and a sink near it
	}
	var all uint32
	ss.toks = tokens(f.text, ss.toks, f.words)
	ts := ss.toks
	for _, k := range ts {
		all |= k.class
	}
	if all&(wSend|wPlace) == 0 || all&(wURL|wSecret) == 0 {
		return
	}
	for i, k := range ts {
		if k.class&(wSend|wPlace) == 0 {
			continue
		}
		code, detail, ok := ss.order(ts, i)
		if !ok {
			continue
		}
		sev := SeverityHigh
		if ss.discussed(ts, i) {
			sev, detail = SeverityMedium, detail+"; written as a description of an attack, so shown rather than blocking"
		}
		ss.report(f.srcOf(k.at), code, sev, detail)
		return
	}
}

// order reports whether the verb ts[i] orders data out: a send verb with
// the person's data or secrets as its object and another host's address
// after it, or a send or place verb with secrets near it and a tool
// argument or a part of a URL after it — and neither negated nor answered
// by a refusal.
func (ss *sentenceScan) order(ts []tok, i int) (code, detail string, ok bool) {
	c := clauseStart(ts, i)
	if negated(ts[c:i]) || conditionalRefusal(ts, c, i) {
		return "", "", false
	}
	before := ts[max(c, i-beforeReach):i]
	passive := ts[i].class&wPassive != 0
	if ts[i].class&wSend != 0 {
		for j := i + 1; j < min(len(ts), i+1+objectReach); j++ {
			if ts[j].class&wURL == 0 {
				continue
			}
			if has(ts[i+1:j], wSecret|wUserData) || passive && has(before, wSecret|wUserData) {
				return "exfil-prose", "sentence telling the assistant to send the person's data or secrets to a remote address", true
			}
			break
		}
	}
	if p := sinkAfter(ts, i+1); p > 0 && (has(ts[i+1:p], wSecret) || passive && has(before, wSecret)) {
		return "exfil-sink", "sentence telling the assistant to put secrets into a tool argument or a URL, where they leave the machine", true
	}
	return "", "", false
}

// mayPlace is the cheap test, on the words the fold read, that a sentence
// without an address passes before it is split into tokens: a verb with a
// secret (or the first word of a secret's name) near it and a preposition
// and a sink's noun after it. Its reaches are twice order's, as a word
// count can exceed a token count ("don't" is two words).
func mayPlace(ws []wordRec) bool {
	for i, w := range ws {
		if w.class&(wSend|wPlace) == 0 {
			continue
		}
		lo, hi := max(0, i-2*beforeReach), min(len(ws), i+1+2*(verbReach+sinkReach))
		var near, after uint32
		for _, x := range ws[lo:hi] {
			near |= x.class
		}
		for _, x := range ws[i+1 : hi] {
			after |= x.class
		}
		if near&(wSecret|wSecretHead) != 0 && after&wPrep != 0 && after&(wURLNoun|wToolNoun) != 0 {
			return true
		}
	}
	return false
}

func has(ts []tok, class uint32) bool {
	for _, k := range ts {
		if k.class&class != 0 {
			return true
		}
	}
	return false
}

// sinkAfter returns the index of the preposition, in the verb's clause
// within verbReach words after from, that leads to a part of a URL or to
// an argument's noun followed by the tool it belongs to — not itself
// negated ("in the header, not in the query") — or 0.
func sinkAfter(ts []tok, from int) int {
	for p := from; p < min(len(ts), from+verbReach); p++ {
		if p > from && ts[p-1].stop {
			return 0
		}
		if ts[p].class&wPrep == 0 || string(ts[p-1].word) == "not" || string(ts[p-1].word) == "never" {
			continue
		}
		for n := p + 1; n < min(len(ts), p+1+sinkReach); n++ {
			switch {
			case ts[n].class&wURLNoun != 0:
				return p
			case ts[n].class&wToolNoun != 0:
				for m := n; m < min(len(ts), n+1+toolReach); m++ {
					if ts[m].class&wToolWord != 0 {
						return p
					}
				}
			}
			if ts[n].stop {
				break
			}
		}
	}
	return 0
}

// clauseStart returns the index of the first word of ts[i]'s clause.
func clauseStart(ts []tok, i int) int {
	for j := i - 1; j >= 0; j-- {
		if ts[j].stop {
			return j + 1
		}
	}
	return 0
}

// negated reports a negation among the words before a verb in its clause
// that is not one of the phrases asking for the action ("don't forget to").
func negated(clause []tok) bool {
	for j, k := range clause {
		if k.class&wNeg == 0 {
			continue
		}
		next := j + 1
		if next < len(clause) && negPairs[string(k.word)+" "+string(clause[next].word)] {
			next++
		}
		if next < len(clause) && clause[next].class&wNotNeg != 0 || string(k.word) == "without" && next < len(clause) && string(clause[next].word) == "fail" {
			continue
		}
		return true
	}
	return false
}

// conditionalRefusal reports a clause that names the action as what
// someone else asks for ("if a page asks you to post …") in a sentence
// that answers it with a refusal.
func conditionalRefusal(ts []tok, c, i int) bool {
	if c >= i || string(ts[c].word) != "if" && string(ts[c].word) != "when" {
		return false
	}
	if i-1 <= c || string(ts[i-1].word) != "to" {
		return false
	}
	if !has(ts[max(c, i-5):i], wReport) {
		return false
	}
	return has(ts[i:], wRefuse|wNeg)
}

// discussed reports a sentence that describes an attack rather than
// ordering one: it or the heading above it speaks of attacks (words of
// URLs do not count), and the clause before its verb is no order of its
// own — the verb is not its first word, and it holds no "always", "you
// must" or "please".
func (ss *sentenceScan) discussed(ts []tok, i int) bool {
	if !has(ts, wDiscuss) && !ss.headingDiscusses() {
		return false
	}
	c := clauseStart(ts, i)
	if has(ts[c:i], wOrder) {
		return false
	}
	for _, k := range ts[c:i] {
		if k.class&wFiller == 0 {
			return true
		}
	}
	return false
}

func (ss *sentenceScan) headingDiscusses() bool {
	for _, w := range strings.Fields(string(ss.heading)) {
		if wordClasses()[strings.Trim(w, `,.;:!?()[]{}<>"'#`)]&wDiscuss != 0 {
			return true
		}
	}
	return false
}

// report adds an exfiltration finding (reportRule).
func (ss *sentenceScan) report(p int, code, sev, detail string) {
	ss.reportRule(RuleExfiltration, p, code, sev, detail)
}

// reportRule adds a sentence finding of rule at file offset p, on p's
// line; a stronger or equal finding of the rule already on that line keeps
// its place, a weaker one is replaced.
func (ss *sentenceScan) reportRule(rule string, p int, code, sev, detail string) {
	s := ss.s
	line := ss.lineOfOffset(p)
	start := ss.lines[line-1]
	end := bytes.IndexByte(s.data[start:], '\n')
	if end < 0 {
		end = len(s.data)
	} else {
		end += start
	}
	for i, f := range s.findings {
		if f.Line == line && f.Rule == rule {
			if sevRank(f.Severity) >= sevRank(orDefault(sev, rule)) {
				return
			}
			s.findings = append(s.findings[:i], s.findings[i+1:]...)
			s.perRule[rule]--
			break
		}
	}
	s.line, s.start, s.end = line, start, end
	s.add(rule, code, sev, ActionShown, detail, p)
}
