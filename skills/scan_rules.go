package skills

import "regexp"

// check is one scanner rule: literal triggers found in one pass over the
// ASCII-lowered text, then (when re is set) a regular expression anchored
// at the trigger and run on at most scanWindow bytes of the line. Every
// repetition in the expressions is bounded, so a failed attempt costs a
// few dozen steps and the scan stays linear.
type check struct {
	rule, detail string
	lits         []string // lower-case triggers
	re           *regexp.Regexp
	group        int            // submatch that is the finding's text (secrets)
	before       *regexp.Regexp // must match the 32 bytes before the trigger
	needURL      bool           // "://" within the 64 bytes before the trigger
	boundary     bool           // the byte before the trigger is not a letter or digit
	entropy      float64        // free-form secrets: minimum bits per byte, and no placeholder words
	fixed        bool           // a fixed-format credential: stripped whatever words it holds
	needDigit    bool           // the match holds a digit (keeps hyphenated words out)
	pem          bool           // a PEM block: stripped through its END line
	argsNear     bool           // "command": needs "args": within three lines
}

// checks returns the scanner's rules; the MCP and secret rules strip, the
// others are shown (SPEC G6). Called once, by scanRules.
func checks() []check {
	return []check{
		// Secrets. Fixed-format credentials are stripped whatever words they
		// contain (SPEC G8): "EXAMPLE" or "dummy" inside one is still a key
		// shape, and an attacker's key needs only the word. Only the
		// free-form assignment below keeps the placeholder exemption.
		{rule: RuleSecret, detail: "OpenAI or Anthropic API key", lits: []string{"sk-"}, boundary: true, fixed: true, needDigit: true,
			re: regexp.MustCompile(`^sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`)},
		{rule: RuleSecret, detail: "Stripe secret key", lits: []string{"sk_live_", "rk_live_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^[rs]k_live_[0-9A-Za-z]{20,}`)},
		{rule: RuleSecret, detail: "GitHub token", lits: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^gh[pousr]_[A-Za-z0-9]{30,}`)},
		{rule: RuleSecret, detail: "GitHub fine-grained token", lits: []string{"github_pat_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^github_pat_[A-Za-z0-9_]{22,}`)},
		{rule: RuleSecret, detail: "AWS access key ID", lits: []string{"akia", "asia"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
		{rule: RuleSecret, detail: "Slack token", lits: []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^x(?:ox[abposre]|app)-[A-Za-z0-9\-]{10,}`)},
		{rule: RuleSecret, detail: "Google API key", lits: []string{"aiza"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^AIza[0-9A-Za-z_\-]{35}`)},
		{rule: RuleSecret, detail: "JSON Web Token", lits: []string{"eyj"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)},
		{rule: RuleSecret, detail: "private key (PEM block)", lits: []string{"-----begin "}, pem: true,
			re: regexp.MustCompile(`^(?i)-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----`)},
		{rule: RuleSecret, detail: "credential assigned in the text", lits: []string{"api_key", "api-key", "apikey", "secret", "token", "passw", "credential", "auth"}, entropy: 4.0, group: 1,
			re: regexp.MustCompile(`^(?i)(?:api[_-]?key|secret|token|passw(?:or)?d|credential|auth)[A-Za-z0-9_\-]{0,40}["']?\s{0,4}(?:=|:|=>)\s{0,4}["']?([A-Za-z0-9+/_\-.=]{24,})`)},

		// MCP server activation.
		{rule: RuleMCPActivation, detail: "MCP server configuration; a skill cannot install or start an MCP server",
			lits: []string{"mcpservers", "mcp_servers", "mcp-servers", "context_servers"},
			re:   regexp.MustCompile(`^(?i)(?:mcpServers|mcp_servers|mcp-servers|context_servers)["']?\s{0,4}[:=\].]`)},
		{rule: RuleMCPActivation, detail: "command that installs an MCP server; a skill cannot install or start one",
			lits: []string{"claude mcp", "codex mcp", "gemini mcp", "cursor mcp", "goose mcp", "vouch mcp"},
			re:   regexp.MustCompile(`^(?i)[a-z]{5,6}\s+mcp\s+(?:add|install|add-json)\b`)},
		{rule: RuleMCPActivation, detail: "MCP server configuration (command and args); a skill cannot install or start an MCP server",
			lits: []string{`"command"`}, argsNear: true, re: regexp.MustCompile(`^"command"\s{0,4}:\s{0,4}"`)},

		// Injection phrasing.
		{rule: RuleInjection, detail: "instruction-override phrasing", lits: []string{"ignore", "disregard", "forget", "override", "bypass"}, boundary: true,
			re: regexp.MustCompile(`^(?i)(?:ignore|disregard|forget|override|bypass)\s{1,4}(?:(?:all|any|the|your|every|of)\s{1,4}){0,3}(?:previous|prior|above|earlier|preceding|original|system|safety)\s{1,4}(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)`)},
		{rule: RuleInjection, detail: "identity-override phrasing (\"you are now …\")", lits: []string{"you are now"}, boundary: true,
			re: regexp.MustCompile(`^(?i)you are now\s{1,4}(?:(?:a|an|in)\s{1,4})?(?:dan\b|no\s+longer|free\b|unrestricted|jailbroken|developer\s+mode|unfiltered|root\b|admin\b)`)},
		{rule: RuleInjection, detail: "system-prompt override phrasing", lits: []string{"system prompt"},
			before: regexp.MustCompile(`(?i)(?:new|updated|override|replace(?:\s+the)?|reveal(?:\s+the)?|print(?:\s+the)?|real|ignore(?:\s+the)?|disregard(?:\s+the)?|your)\s{1,4}$`)},
		{rule: RuleInjection, detail: "chat-template role marker", lits: []string{"<|im_start|>system", "<|system|>", "<system>", "[system]", "[/system]", "[inst]", "<<sys>>"}},
		{rule: RuleInjection, detail: "asks to hide actions from the person", lits: []string{"do not tell", "don't tell", "never tell", "do not inform", "without telling", "without informing", "without asking"},
			re: regexp.MustCompile(`^(?i)(?:do not|don't|never|without)\s{1,4}(?:tell|telling|inform|informing|asking)\s{1,4}the\s{1,4}user`)},
		{rule: RuleInjection, detail: "jailbreak phrasing", lits: []string{"jailbreak", "developer mode enabled"}},

		// Exfiltration.
		{rule: RuleExfiltration, detail: "URL of a request-capture, tunnel or paste service", needURL: true,
			lits: []string{"webhook.site", "ngrok.io", "ngrok.app", "ngrok-free.app", "ngrok.dev", "pastebin.com", "paste.ee", "hastebin", "requestbin", "pipedream.net", "hookbin", "burpcollaborator", "oast.fun", "oast.live", "oast.site", "oast.pro", "interact.sh", "transfer.sh", "discord.com/api/webhooks", "discordapp.com/api/webhooks", "hooks.slack.com", "canarytokens", "beeceptor", "postb.in"}},
		{rule: RuleExfiltration, detail: "URL whose query carries environment variables or secrets", lits: []string{"http://", "https://"},
			re: regexp.MustCompile(`^(?i)https?://[^\s"'<>?]{1,256}\?[^\s"'<>]{0,256}?(?:\$\{?[A-Za-z_]|\$\(|%[A-Z_]{2,}%|process\.env|os\.environ|getenv|(?:api_?key|token|secret|passw(?:or)?d|credential|session|cookie)=)`)},
		{rule: RuleExfiltration, detail: "command that sends local data or files to a remote host", lits: []string{"curl ", "wget "}, boundary: true,
			re: regexp.MustCompile(`^(?i)(?:curl|wget)\s[^\n|]{0,256}?(?:\s-d\s{0,2}["']?@|--data(?:-binary|-raw|-urlencode)?[\s=]{1,2}["']?@|\s-F\s{0,2}["']?[^\s=]{1,64}=@|--upload-file|\s-T\s|--post-(?:data|file)|\$\((?:cat|env|printenv))`)},
		{rule: RuleExfiltration, detail: "local data piped to a network command", lits: []string{"| curl", "|curl", "| wget", "|wget", "| nc ", "| ncat", "/dev/tcp/"}},
	}
}

var argsRE = regexp.MustCompile(`"args"\s*:\s*\[`)
