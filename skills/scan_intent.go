package skills

import (
	"bytes"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// The checks for what attackers write into skills (SPEC G8, I5): hidden
// instructions, exfiltration, installers and prompt overrides. The
// trigger engine in scan.go finds the candidates; the functions here
// judge them and tell quoted text (a security skill showing an attack in a
// code block) from instructions.

const (
	// maxCommentBytes bounds the text of one HTML comment that is judged.
	maxCommentBytes = 64 << 10
	// commandLines bounds the continuation lines ("\" or "`" at the end)
	// a command check reads.
	commandLines = 4
)

// htmlComments finds the HTML comments outside fenced code blocks and
// reports each as a hidden instruction: high when its text reads like
// instructions or names secrets, the network or the assistant, else low.
// The comments are kept so checks on their lines are never read as
// quoted.
func (s *scanner) htmlComments() {
	line, at := 1, 0
	for off := 0; off < len(s.data); {
		i := bytes.Index(s.data[off:], []byte("<!--"))
		if i < 0 {
			return
		}
		i += off
		e := bytes.Index(s.data[i+4:], []byte("-->"))
		end := len(s.data)
		if e >= 0 {
			end = i + 4 + e + 3
		}
		off = end
		if s.inFence(i) {
			continue
		}
		s.comments = append(s.comments, span{i, end, ""})
		line += bytes.Count(s.data[at:i], []byte("\n"))
		at = i
		body := s.data[i+4 : min(end, i+4+maxCommentBytes)]
		ls := bytes.LastIndexByte(s.data[:i], '\n') + 1
		le := bytes.IndexByte(s.data[i:], '\n')
		if le < 0 {
			le = len(s.data)
		} else {
			le += i
		}
		sev, detail := SeverityLow, "HTML comment: text a reader of the rendered skill does not see"
		switch {
		case !rendered(s.path):
			detail = "comment in a file that is read as text, not rendered: whoever reads it sees it, so nothing is hidden"
		case intentRE().commentInstructionRE.Match(body):
			sev, detail = SeverityHigh, "HTML comment with instructions a reader of the rendered skill does not see (it addresses the assistant, names secrets, files or the network, or asks to keep something quiet)"
		}
		s.perRule[RuleHiddenInstruction]++
		if s.perRule[RuleHiddenInstruction] > maxFindingsPerRule {
			continue
		}
		s.findings = append(s.findings, Finding{ID: findingID("html-comment", line, s.data[ls:le]), File: s.path, Line: line,
			Rule: RuleHiddenInstruction, Severity: sev, Detail: detail, Action: ActionShown})
	}
}

// rendered reports a file whose reader sees it rendered — markdown, where
// an HTML comment or invisible HTML is hidden from the person and shown
// to the model. Any other kept file (a schema, an HTML template, a
// configuration) is read as text by the model and shown as text in the
// preview: a comment or a hidden element there hides nothing, and only
// the words in it are judged (issue 25 item 6).
func rendered(name string) bool {
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") { // "SKILL.md (frontmatter)"
		name = name[:i]
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn":
		return true
	}
	return false
}

func (s *scanner) inFence(p int) bool { return spanAt(s.fences, p) >= 0 }

func (s *scanner) inComment(p int) bool { return spanAt(s.comments, p) >= 0 }

// spanAt returns the index of the span holding p in sorted, disjoint
// spans, or -1 (a binary search: a file of many fences stays linear).
func spanAt(spans []span, p int) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].end > p })
	if i < len(spans) && spans[i].start <= p {
		return i
	}
	return -1
}

// quoted returns why a high-severity candidate at p is quoted text rather
// than an instruction (the finding is then medium), or "". Nothing inside
// an HTML comment is quoted. Prompt-override and hiding phrasing in a
// code block or inline code is quoted, and so is HTML styled invisible
// there: a code block shows its HTML as text, so nothing is hidden from
// the reader (Playwright's own skills carry `<form hidden>` in examples); an exfiltration or installer
// command is quoted only in a code block (or inline code) whose nearby
// prose says it shows an attack ("malicious", "red flag", "do not run"…).
func (s *scanner) quoted(rule, code string, p int) string {
	if code == "html-comment" || rule == RuleHiddenUnicode || s.inComment(p) {
		return ""
	}
	if code == "hidden-html" && !rendered(s.path) {
		return "; in a file read as text, not rendered, so nothing is hidden"
	}
	fence := s.fenceOf(p)
	inline := inInlineCode(s.data[s.start:s.end], p-s.start)
	if fence < 0 && !inline {
		return ""
	}
	switch rule {
	case RuleInjection, RuleHiddenInstruction:
		return "; quoted in code, so shown rather than blocking"
	case RuleExfiltration, RuleInstaller:
		ctx := s.data[s.start:s.end]
		if fence >= 0 {
			ctx = s.before(s.fences[fence].start, 4)
		}
		if intentRE().quoteWordsRE.Match(ctx) {
			return "; quoted as an example of an attack, so shown rather than blocking"
		}
	}
	return ""
}

func (s *scanner) fenceOf(p int) int { return spanAt(s.fences, p) }

// before returns up to n non-blank lines ending with the one before p
// (for a fence: its opening line and the prose above it).
func (s *scanner) before(p, n int) []byte {
	a := p
	for k := 0; k < n && a > 0; {
		j := bytes.LastIndexByte(s.data[:a-1], '\n') + 1
		if len(bytes.TrimSpace(s.data[j:a])) > 0 {
			k++
		}
		a = j
	}
	return s.data[a:p]
}

// inInlineCode reports whether i falls inside a `code span` of line.
func inInlineCode(line []byte, i int) bool {
	if i < 0 || i > len(line) {
		return false
	}
	return bytes.Count(line[:i], []byte("`"))%2 == 1 && bytes.IndexByte(line[i:], '`') >= 0
}

// command returns the text of the command starting at p: the rest of its
// line and up to commandLines continuation lines, at most scanWindow bytes.
func (s *scanner) command(p int) []byte {
	end := s.end
	for k := 0; k < commandLines && end < len(s.data); k++ {
		t := bytes.TrimRight(s.data[max(p, end-2):end], " \t\r")
		if !bytes.HasSuffix(t, []byte("\\")) && !bytes.HasSuffix(t, []byte("`")) && !bytes.HasSuffix(t, []byte("^")) {
			break
		}
		next := bytes.IndexByte(s.data[end+1:], '\n')
		if next < 0 {
			end = len(s.data)
			break
		}
		end = end + 1 + next
	}
	return s.data[p:min(end, p+scanWindow)]
}

// matchSend judges a network command (curl, wget, Invoke-WebRequest,
// requests.post, fetch, …): high when it sends sensitive data or files
// chosen by a variable or glob, medium when it uploads one named file,
// nothing when it only sends a literal body (an API call documented for
// the person). Header values are left out of the judgement.
func matchSend(s *scanner, p int, c *check) (string, string, bool) {
	cmd := intentRE().headerArgRE.ReplaceAll(s.command(p), nil)
	switch {
	case !intentRE().postRE.Match(cmd) && !intentRE().uploadRE.Match(cmd) && !bytes.Contains(bytes.ToLower(cmd), []byte("?")):
		return "", "", false
	case intentRE().sensitiveRE.Match(cmd) && (intentRE().postRE.Match(cmd) || intentRE().uploadRE.Match(cmd) || queryCarries(cmd)):
		return SeverityHigh, "command that sends secrets, key files, environment variables or the conversation to a remote host", true
	case intentRE().broadUploadRE.Match(cmd):
		return SeverityHigh, "command that uploads files chosen by a variable, glob or home path to a remote host", true
	case intentRE().uploadRE.Match(cmd):
		return SeverityMedium, "command that uploads a local file to a remote host; check which file and where", true
	}
	return "", "", false
}

// queryCarries reports a URL whose query holds a variable.
func queryCarries(cmd []byte) bool {
	q := bytes.IndexByte(cmd, '?')
	return q >= 0 && bytes.ContainsAny(cmd[q:], "$%{")
}

// matchDownloadRun judges "&& bash …" after a download on the same line: a
// script fetched to a file and then run is an installer like one piped
// into a shell.
func matchDownloadRun(s *scanner, p int, c *check) (string, string, bool) {
	head := s.data[s.start:p]
	if !intentRE().downloadRE.Match(head) {
		return "", "", false
	}
	// What runs must be what was downloaded ("wget data.csv && python
	// analyze.py" runs a local script on data).
	run := ranProgram(s.data[p:s.end])
	if run == nil {
		return "", "", false
	}
	for _, m := range intentRE().savedRE.FindAllSubmatch(head, 8) {
		name := m[1]
		if len(name) == 0 {
			name = m[2]
		}
		if i := bytes.LastIndexAny(name, "/\\"); i >= 0 {
			name = name[i+1:]
		}
		if bytes.Equal(name, run) {
			return c.sev, c.detail, true
		}
	}
	return "", "", false
}

// shells are the words before the program a command runs.
var shells = set("&&", ";", ".", "bash", "sh", "zsh", "sudo", "source", "python", "python3", "node", "perl", "ruby", "iex", "pwsh", "powershell", "env")

// ranProgram returns the base name of the program the command after "&&"
// or ";" runs: its first word that is not a shell, an interpreter or an
// option ("&& sudo -E bash /tmp/i.sh" runs i.sh), or nil.
func ranProgram(cmd []byte) []byte {
	for _, w := range bytes.Fields(cmd) {
		w = bytes.Trim(w, "`'\"")
		if len(w) == 0 || w[0] == '-' || shells[string(w)] {
			continue
		}
		if i := bytes.LastIndexAny(w, "/\\"); i >= 0 {
			w = w[i+1:]
		}
		return w
	}
	return nil
}

// badgeHosts serve status badges, whose query strings are styling.
var badgeHosts = []string{"img.shields.io/", "badge.fury.io/", "badgen.net/", "codecov.io/", "github.com/"}

// matchImage flags an image whose URL has a query string or a template:
// loading it sends whatever the model fills in (a tracking pixel).
func matchImage(s *scanner, p int, c *check) (string, string, bool) {
	m := intentRE().imageRE.FindSubmatch(s.data[p:min(s.end, p+scanWindow)])
	if m == nil {
		return "", "", false
	}
	u := m[1]
	if !bytes.ContainsAny(u, "?{$<") && !bytes.Contains(u, []byte("%7B")) {
		return "", "", false
	}
	low := strings.ToLower(string(u))
	for _, h := range badgeHosts {
		if strings.Contains(low, "://"+h) {
			return SeverityLow, "image whose URL has a query string (a badge host)", true
		}
	}
	return c.sev, c.detail, true
}

// intentRegexps are the expressions of this file, compiled on the first
// scan (like the checks), never at program start, and never changed.
type intentRegexps struct {
	// commentInstructionRE is what makes a hidden comment an instruction.
	commentInstructionRE *regexp.Regexp
	// quoteWordsRE is prose that presents the code after it as an attack to
	// recognise, not a step to take.
	quoteWordsRE *regexp.Regexp
	// headerArgRE matches request headers, where a token is expected and
	// names no exfiltration (an Authorization header to the API it belongs to).
	headerArgRE *regexp.Regexp
	// sensitiveRE is data that must not leave the machine: key and credential
	// files, environment variables with secret names or all of them, command
	// substitutions that read files or the environment, encodings, and the
	// conversation itself.
	sensitiveRE *regexp.Regexp
	// uploadRE is a command form that sends a local file or stdin.
	uploadRE *regexp.Regexp
	// postRE is a command form that sends data (any body).
	postRE *regexp.Regexp
	// broadUploadRE is an upload of whatever a variable, glob or home path
	// names: files chosen by the instructions, not one the person picked.
	broadUploadRE *regexp.Regexp
	// downloadRE is a command that saves a download to a file; savedRE the
	// file it names (an output option's argument, or a URL's last segment).
	downloadRE, savedRE *regexp.Regexp
	// imageRE is a markdown or HTML image and its URL.
	imageRE *regexp.Regexp
}

var intentRE = sync.OnceValue(func() *intentRegexps {
	return &intentRegexps{
		commentInstructionRE: regexp.MustCompile(`(?i)\b(?:assistant|claude|chatgpt|llm|the model|the agent|ai agent|you must|you should|you will|you are|always|never|do not|don't|ignore|instead|read|send|upload|post|curl|wget|fetch|invoke-webrequest|execute|run|exfiltrat|secret|token|password|credential|api[ _-]?key|private key|\.ssh|\.aws|\.env|environment variable|https?://|mention|reveal|tell the user)\b`),
		quoteWordsRE:         regexp.MustCompile(`(?i)\b(?:attack|attacker|malicious|exploit|exfiltrat|injection|suspicious|red flags?|indicators? of|do not run|don't run|never run|never execute|do not execute|detect|look for|watch for|flag (?:it|this|these|them|any)|hostile|phishing|adversar)`),
		headerArgRE:          regexp.MustCompile(`(?i)(?:-H|--header)\s{1,3}(?:"[^"\n]{0,512}"|'[^'\n]{0,512}'|\S{1,512})|-Headers\s{1,3}@\{[^}\n]{0,512}\}|headers\s{0,2}[=:]\s{0,2}\{[^}\n]{0,512}\}`),
		sensitiveRE:          regexp.MustCompile(`(?i)~/\.ssh|\.ssh[\\/]|id_rsa|id_ed25519|id_ecdsa|~/\.aws|\.aws[\\/]|\.env\b|\.netrc|\.npmrc|\.pypirc|\.kube[\\/]config|\.gnupg|\.docker[\\/]config|/etc/passwd|/etc/shadow|credentials|keychain|\$\{?[A-Za-z_]{0,40}(?:KEY|TOKEN|SECRET|PASS|PASSWORD|CRED|AUTH)[A-Za-z_]{0,40}\}?|\$env:|\$\(\s{0,2}(?:env|printenv|set|cat|base64|tar|zip|history|find|ls)\b|\bprintenv\b|\benv\s{0,2}\||os\.environ|process\.env|getenv|get-childitem\s{1,3}env:|\bbase64\b|conversation|chat history|transcript|\$HOME\b|%USERPROFILE%|\*_TOKEN|\*_KEY`),
		uploadRE:             regexp.MustCompile(`(?i)(?:\s-d\s{0,2}["']?@|--data(?:-binary|-raw|-urlencode)?[\s=]{1,2}["']?@|\s-F\s{0,2}["']?[^\s=]{1,64}=@|--form\s{1,2}["']?[^\s=]{1,64}=@|--upload-file|\s-T\s|--post-(?:data|file)|-InFile\s|files\s{0,2}=|\.upload\(|open\([^)]{0,128}["']rb["'])`),
		postRE:               regexp.MustCompile(`(?i)-X\s{0,2}["']?(?:POST|PUT|PATCH)|--request\s{1,2}["']?(?:POST|PUT|PATCH)|\s-d\s|\s-d["']|--data|\s-F\s|--form|-Method\s{1,3}["']?(?:Post|Put|Patch)|-Body\s|method\s{0,2}:\s{0,2}["'](?:POST|PUT|PATCH)|body\s{0,2}[:=]|data\s{0,2}=|json\s{0,2}=|\.(?:post|put|patch)\(|--post-|--upload-file|\s-T\s|-InFile\s`),
		broadUploadRE:        regexp.MustCompile(`(?i)=@["']?(?:\$|~|/|\*|%)|-d\s{0,2}["']?@["']?(?:\$|~|/|\*)|--upload-file\s{1,2}["']?(?:\$|~|/|\*)|-T\s{1,2}["']?(?:\$|~|/|\*)|-InFile\s{1,3}["']?(?:\$|~|[A-Z]:\\)`),
		downloadRE:           regexp.MustCompile(`(?i)\bcurl\b[^\n]{0,300}?(?:\s-[a-zA-Z]{0,6}o\s|--output[\s=]|\s>\s?\S)|\bwget\s|\b(?:iwr|invoke-webrequest)\b[^\n]{0,300}?-outfile\s|\bfetch\s`),
		savedRE:              regexp.MustCompile(`(?i)(?:\s-[a-zA-Z]{0,6}o\s{1,3}|--output[\s=]{1,3}|\s-O\s{1,3}|>\s{0,3}|-outfile\s{1,3})["']?([^\s"';&|]{1,256})|https?://[^\s"']{1,512}/([^/\s"'?#;&|]{1,256})`),
		imageRE:              regexp.MustCompile(`(?i)^(?:!\[[^\]\n]{0,256}\]\(\s{0,4}<?|<img\s[^>\n]{0,512}?src\s{0,2}=\s{0,2}["']?)(https?://[^\s)>"']{1,1000})`),
	}
})
