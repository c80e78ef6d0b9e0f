package skills

import "regexp"

// check is one scanner rule: literal triggers found in one pass over the
// ASCII-lowered text, then (when re is set) a regular expression anchored
// at the trigger and run on at most scanWindow bytes of the line. Every
// repetition in the expressions is bounded, so a failed attempt costs a
// few dozen steps and the scan stays linear.
type check struct {
	rule, detail string
	// code names the check in finding IDs; sev is its severity (empty: the
	// rule's default, see defaultSeverity).
	code, sev string
	lits      []string // lower-case triggers
	re        *regexp.Regexp
	group     int            // submatch that is the finding's text (secrets)
	before    *regexp.Regexp // must match the 32 bytes before the trigger
	needURL   bool           // "://" within the 64 bytes before the trigger
	boundary  bool           // the byte before the trigger is not a letter or digit
	entropy   float64        // free-form secrets: minimum bits per byte, and no placeholder words
	fixed     bool           // a fixed-format credential: stripped whatever words it holds
	needDigit bool           // the match holds a digit (keeps hyphenated words out)
	pem       bool           // a PEM block: stripped through its END line
	argsNear  bool           // "command": needs "args": within three lines
	lineStart bool           // only spaces or markdown marks before the trigger on its line
	// value, when set, judges the matched text (a secret's value) after re
	// and the other tests: false passes it over (scan_credentials.go).
	value func(v []byte) bool
	// match, when set, judges the candidate after re (scan_intent.go): it
	// returns the severity and detail, or false.
	match func(s *scanner, p int, c *check) (sev, detail string, ok bool)
}

// checks returns the scanner's rules; the MCP and secret rules strip, the
// others are shown (SPEC G6). Called once, by scanRules.
func checks() []check {
	return []check{
		// Secrets. Fixed-format credentials are stripped whatever words they
		// contain (SPEC G8): "EXAMPLE" or "dummy" inside one is still a key
		// shape, and an attacker's key needs only the word. Only the
		// free-form assignment below keeps the placeholder exemption.
		{rule: RuleSecret, code: "secret-openai", detail: "OpenAI or Anthropic API key", lits: []string{"sk-"}, boundary: true, fixed: true, needDigit: true,
			re: regexp.MustCompile(`^sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`)},
		{rule: RuleSecret, code: "secret-stripe", detail: "Stripe secret key", lits: []string{"sk_live_", "rk_live_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^[rs]k_live_[0-9A-Za-z]{20,}`)},
		{rule: RuleSecret, code: "secret-github", detail: "GitHub token", lits: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^gh[pousr]_[A-Za-z0-9]{30,}`)},
		{rule: RuleSecret, code: "secret-github", detail: "GitHub fine-grained token", lits: []string{"github_pat_"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^github_pat_[A-Za-z0-9_]{22,}`)},
		{rule: RuleSecret, code: "secret-aws", detail: "AWS access key ID", lits: []string{"akia", "asia"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
		{rule: RuleSecret, code: "secret-slack", detail: "Slack token", lits: []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^x(?:ox[abposre]|app)-[A-Za-z0-9\-]{10,}`)},
		{rule: RuleSecret, code: "secret-google", detail: "Google API key", lits: []string{"aiza"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^AIza[0-9A-Za-z_\-]{35}`)},
		{rule: RuleSecret, code: "secret-jwt", detail: "JSON Web Token", lits: []string{"eyj"}, boundary: true, fixed: true,
			re: regexp.MustCompile(`^eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)},
		{rule: RuleSecret, code: "secret-pem", detail: "private key (PEM block)", lits: []string{"-----begin "}, pem: true,
			re: regexp.MustCompile(`^(?i)-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----`)},
		{rule: RuleSecret, code: "secret-assigned", detail: "credential assigned in the text", lits: []string{"api_key", "api-key", "apikey", "secret", "token", "passw", "credential", "auth"}, entropy: 4.0, group: 1,
			re: regexp.MustCompile(`^(?i)(?:api[_-]?key|secret|token|passw(?:or)?d|credential|auth)[A-Za-z0-9_\-]{0,40}["']?\s{0,4}(?:=|:|=>)\s{0,4}["']?([A-Za-z0-9+/_\-.=]{24,})`)},

		// Credentials written into URLs, headers, commands and sentences
		// (issue 25 item 2): each value is judged by scan_credentials.go.
		{rule: RuleSecret, code: "secret-userinfo", detail: "user name and password in a URL", lits: []string{"://"}, group: 1, value: userinfoValue,
			re: regexp.MustCompile(`^://([^\s/@:"'<>]{1,128}:[^\s/@"'<>]{1,256})@[A-Za-z0-9\[]`)},
		{rule: RuleSecret, code: "secret-bearer", detail: "bearer token", lits: []string{"bearer"}, boundary: true, needDigit: true, group: 1, value: tokenValue,
			re: regexp.MustCompile(`^(?i)bearer\s{1,4}([A-Za-z0-9\-._~+/]{12,}=*)`)},
		{rule: RuleSecret, code: "secret-authorization", detail: "Authorization header value", lits: []string{"authorization"}, boundary: true, needDigit: true, group: 1, value: tokenValue,
			re: regexp.MustCompile(`^(?i)authorization["']?\s{0,4}[:=]\s{0,4}["']?(?:(?:token|apikey|api-key|sso-key|key)\s{1,4})?([A-Za-z0-9\-._~+/]{16,}=*)`)},
		{rule: RuleSecret, code: "secret-basic", detail: "basic-authentication credentials", lits: []string{"basic"}, boundary: true, group: 1, value: basicValue,
			re: regexp.MustCompile(`^(?i)basic\s{1,4}([A-Za-z0-9+/]{8,}={0,2})`)},
		{rule: RuleSecret, code: "secret-user-option", detail: "user name and password in a command's -u/--user option", lits: []string{" -u ", "--user"}, group: 1, value: userinfoValue,
			re: regexp.MustCompile(`^(?:\s-u\s{1,3}|--user[\s=]{1,3})["']?([^\s"':$]{1,128}:[^\s"'@]{1,256})`)},
		{rule: RuleSecret, code: "secret-password", detail: "password written out", lits: []string{"password", "passwd", "passphrase", "pwd"}, boundary: true, group: 1, value: passwordValue,
			re: regexp.MustCompile("^(?i)(?:password|passwd|passphrase|pwd)[\"']?(?:\\s{1,3}(?:is|was|of))?\\s{0,3}[:=]?\\s{0,3}[\"'\x60]?([^\\s\"'\x60,;]{6,128})")},

		// MCP server activation.
		{rule: RuleMCPActivation, code: "mcp-config", detail: "MCP server configuration; a skill cannot install or start an MCP server",
			lits: []string{"mcpservers", "mcp_servers", "mcp-servers", "context_servers"},
			re:   regexp.MustCompile(`^(?i)(?:mcpServers|mcp_servers|mcp-servers|context_servers)["']?\s{0,4}[:=\].]`)},
		{rule: RuleMCPActivation, code: "mcp-install", detail: "command that installs an MCP server; a skill cannot install or start one",
			lits: []string{"claude mcp", "codex mcp", "gemini mcp", "cursor mcp", "goose mcp", "vouch mcp"},
			re:   regexp.MustCompile(`^(?i)[a-z]{5,6}\s+mcp\s+(?:add|install|add-json)\b`)},
		{rule: RuleMCPActivation, code: "mcp-command", detail: "MCP server configuration (command and args); a skill cannot install or start an MCP server",
			lits: []string{`"command"`}, argsNear: true, re: regexp.MustCompile(`^"command"\s{0,4}:\s{0,4}"`)},

		// Prompt overrides (rule injection, high; medium when quoted in code).
		{rule: RuleInjection, code: "override-ignore", detail: "prompt override: tells the assistant to ignore its previous instructions", lits: []string{"ignore", "disregard", "forget", "override", "bypass"}, boundary: true,
			re: regexp.MustCompile(`^(?i)(?:ignore|disregard|forget|override|bypass)\s{1,4}(?:(?:all|any|the|your|every|of)\s{1,4}){0,3}(?:previous|prior|above|earlier|preceding|original|system|safety|other)\s{1,4}(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)`)},
		{rule: RuleInjection, code: "override-identity", detail: "prompt override: identity-override phrasing (\"you are now …\")", lits: []string{"you are now"}, boundary: true,
			re: regexp.MustCompile(`^(?i)you are now\s{1,4}(?:(?:a|an|in)\s{1,4})?(?:dan\b|no\s+longer|free\b|unrestricted|jailbroken|developer\s+mode|unfiltered|root\b|admin\b)`)},
		{rule: RuleInjection, code: "override-system", detail: "prompt override: system-prompt override phrasing", lits: []string{"system prompt"},
			before: regexp.MustCompile(`(?i)(?:new|updated|override|replace(?:\s+the)?|reveal(?:\s+the)?|print(?:\s+the)?|real|ignore(?:\s+the)?|disregard(?:\s+the)?|your)\s{1,4}$`)},
		{rule: RuleInjection, code: "fake-system", detail: "prompt override: a fake system or chat-template block", lits: []string{"<|im_start|>system", "<|system|>", "<system>", "[system]", "[/system]", "[inst]", "<<sys>>", "<|start_header_id|>system", "<system-reminder>", "<system_message>", "[system message]", "begin system prompt", "### system"}},
		{rule: RuleInjection, code: "fake-system", detail: "prompt override: a line posing as a system message", lits: []string{"system:", "system message:", "system override:", "system prompt:"}, lineStart: true,
			re: regexp.MustCompile(`^SYSTEM(?: MESSAGE| OVERRIDE| PROMPT)?\s{0,2}:`)},
		{rule: RuleInjection, code: "override-priority", detail: "prompt override: claims priority over the other instructions", lits: []string{"priority over", "precedence over", "supersede", "overrides all", "overrides any", "override all", "more important than", "highest priority", "highest-priority", "above all other"},
			re: regexp.MustCompile(`^(?i)(?:(?:priority|precedence)\s{1,4}over|supersedes?|overrides?|more\s{1,4}important\s{1,4}than|above)\s{1,4}(?:(?:all|any|every|other|your|the|of|previous|prior|earlier|original)\s{1,4}){0,3}(?:(?:system|user|developer|safety|previous|prior|original|other|earlier)(?:'s)?\s{1,4}){0,2}(?:instructions?|prompts?|rules|messages?|guidelines|guidance|directives?|policies|polic(?:y|ies)|safeguards|constraints|commands|requests|system\s{1,4}prompt)\b|^(?i)highest[- ]priority\s{1,4}(?:instructions?|rules?|directives?|system)`)},
		{rule: RuleInjection, code: "override-approval", detail: "prompt override: asks to approve permission prompts or tool calls automatically", lits: []string{"auto-approve", "auto approve", "autoapprove", "automatically approve", "automatically accept", "automatically allow", "always approve", "always allow", "always accept", "approve all", "approve every", "approve any", "accept all", "dangerously-skip-permissions", "skip-permissions", "skip permission", "yolo mode", "bypass"}, boundary: true,
			re: regexp.MustCompile(`^(?i)(?:dangerously-skip-permissions|skip-permissions|yolo mode|(?:auto-?\s?approve|automatically\s{1,4}(?:approve|accept|allow)|always\s{1,4}(?:approve|allow|accept)|skip\s{1,4}(?:the\s{1,4})?permission|bypass(?:es)?\s{1,4}(?:the\s{1,4}|all\s{1,4}|any\s{1,4})?(?:permission|approval|confirmation))[^\n]{0,40}?(?:permission|approval|prompts?|requests?|dialogs?|confirmations?|tool|calls?|actions?|commands?|changes|edits)|(?:approve|accept)\s{1,4}(?:all|every|any)\s{1,4}(?:the\s{1,4})?(?:permission|prompt|tool|dialog|confirmation|approval))`)},
		{rule: RuleInjection, code: "override-approval", detail: "prompt override: tells the assistant to act without the person's approval", lits: []string{"without asking", "without waiting", "without requesting", "without confirmation", "without approval"},
			re: regexp.MustCompile(`^(?i)without\s{1,4}(?:(?:asking|waiting|requesting)\s{1,4}(?:for\s{1,4})?(?:the\s{1,4}user'?s?\s{1,4})?(?:permission|approval|confirmation)|confirmation|approval)`)},
		{rule: RuleInjection, code: "jailbreak", detail: "prompt override: jailbreak phrasing", lits: []string{"jailbreak", "developer mode enabled"}},

		// Hidden instructions (high): hiding things from the person, and
		// HTML made invisible. HTML comments: htmlComments.
		{rule: RuleHiddenInstruction, code: "hide-from-user", detail: "asks the assistant to hide an action from the person", lits: []string{"do not tell", "don't tell", "never tell", "do not inform", "without telling", "without informing", "without asking"},
			re: regexp.MustCompile(`^(?i)(?:do not|don't|never|without)\s{1,4}(?:tell|telling|inform|informing|asking)\s{1,4}the\s{1,4}user`)},
		{rule: RuleHiddenInstruction, code: "hide-from-user", detail: "tells the assistant not to mention or reveal something to the person", lits: []string{"do not mention", "don't mention", "never mention", "without mentioning", "do not reveal", "don't reveal", "never reveal", "do not disclose", "don't disclose", "never disclose", "not mention", "keep this", "keep it"},
			re: regexp.MustCompile(`^(?i)(?:(?:do not|don't|never|without|not)\s{1,4}(?:mention|mentioning|reveal|revealing|disclose|disclosing)\s{1,4}(?:this|these|that|it\b|any of|anything|to\s{1,4}the\s{1,4}user|what\s{1,4}you|the\s{1,4}(?:step|instruction|command|request|upload|above|following|previous|extra|additional))|keep\s{1,4}(?:this|it)\s{1,4}(?:secret|hidden|quiet|private)\s{1,4}from\s{1,4}the\s{1,4}user)`)},
		{rule: RuleHiddenInstruction, code: "hidden-html", detail: "HTML styled to be invisible to a reader", lits: []string{"display:none", "display: none", "visibility:hidden", "visibility: hidden", "font-size:0", "font-size: 0", "opacity:0", "opacity: 0", " hidden>", " hidden "},
			before: regexp.MustCompile(`<[a-zA-Z][^>]{0,30}$|style\s{0,2}=\s{0,2}["'][^"']{0,30}$`)},
		{rule: RuleHiddenInstruction, code: "hide-silently", detail: "tells the assistant to do something silently", lits: []string{"silently", "quietly", "secretly"}, boundary: true,
			re: regexp.MustCompile(`^(?i)(?:silently|quietly|secretly)\s{1,4}(?:send|upload|post|run|execute|read|copy|include|add|append|exfiltrate|forward|collect|fetch|curl)\b`)},

		// Exfiltration (high).
		{rule: RuleExfiltration, code: "exfil-service", detail: "URL of a request-capture, tunnel, paste or webhook service", needURL: true,
			lits: []string{"webhook.site", "ngrok.io", "ngrok.app", "ngrok-free.app", "ngrok.dev", "pastebin.com", "paste.ee", "hastebin", "requestbin", "pipedream.net", "hookbin", "burpcollaborator", "oast.fun", "oast.live", "oast.site", "oast.pro", "interact.sh", "transfer.sh", "discord.com/api/webhooks", "discordapp.com/api/webhooks", "hooks.slack.com", "canarytokens", "beeceptor", "postb.in", "hooks.zapier.com", "/webhook", "trycloudflare.com", "serveo.net", "localtunnel.me", "loca.lt"}},
		{rule: RuleExfiltration, code: "exfil-query", detail: "URL whose query carries environment variables or secrets", lits: []string{"http://", "https://"},
			re: regexp.MustCompile(`^(?i)https?://[^\s"'<>?]{1,256}\?[^\s"'<>]{0,256}?(?:\$\{?[A-Za-z_]|\$\(|%[A-Z_]{2,}%|process\.env|os\.environ|getenv|(?:api_?key|token|secret|passw(?:or)?d|credential|session|cookie)=)`)},
		{rule: RuleExfiltration, code: "exfil-send", detail: "command that sends local data to a remote host", boundary: true, match: matchSend,
			lits: []string{"curl ", "wget ", "invoke-webrequest", "invoke-restmethod", "iwr ", "irm ", "requests.post", "requests.put", "httpx.post", "httpx.put", "fetch(", "axios.post", "axios.put", "http.post", "urllib.request", "urlopen(", "xmlhttprequest", "navigator.sendbeacon", "net.webclient", "uploadfile(", "uploadstring("}},
		{rule: RuleExfiltration, code: "exfil-pipe", detail: "local data piped to a network command", lits: []string{"| curl", "|curl", "| wget", "|wget", "| nc ", "| ncat", "/dev/tcp/", "| socat", "| invoke-webrequest", "| iwr", "| irm"}},
		{rule: RuleExfiltration, code: "exfil-image", detail: "image whose URL has a query string or a template: loading it sends data out (a tracking pixel)", sev: SeverityHigh, match: matchImage,
			lits: []string{"![", "<img "}},

		// Installers and execution (high; a package script is medium).
		{rule: RuleInstaller, code: "installer-pipe", detail: "instructions to pipe downloaded code into a shell or interpreter",
			lits: []string{"| sh", "|sh", "| bash", "|bash", "| zsh", "|zsh", "| sudo", "|sudo", "| python", "|python", "| iex", "|iex", "| invoke-expression", "|invoke-expression", "| perl", "| ruby", "| node"},
			re:   regexp.MustCompile(`^(?i)\|\s{0,2}(?:sudo\s{1,4}(?:-[A-Za-z]{1,8}\s{1,4}){0,3})?(?:(?:ba|z|k|da)?sh|python[0-9.]{0,4}|perl|ruby|node|iex|invoke-expression)(?:\s|$|["'\x60);])`)},
		{rule: RuleInstaller, code: "installer-pipe", detail: "instructions to run downloaded code (iex, Invoke-Expression, a shell reading a download)", boundary: true,
			lits: []string{"iex (", "iex(", "invoke-expression", "<(curl", "<(wget", `"$(curl`, `"$(wget`, "eval \"$(curl", "eval $(curl"}},
		{rule: RuleInstaller, code: "installer-pipe", detail: "instructions to download a script and run it (\"curl -o x && bash x\")", match: matchDownloadRun,
			lits: []string{"&& bash", "&& sh ", "&& zsh", "&& sudo", "&& source", "&& . ", "&& python", "&& ./", "&& iex", "; bash ", "; sh ", "; ./", "; source "}},
		{rule: RuleInstaller, code: "installer-script", detail: "instructions to run an install or setup script", boundary: true,
			lits:   []string{"install.sh", "setup.sh", "bootstrap.sh", "install.ps1", "setup.ps1", "install.py", "setup.py", "postinstall", "install.bat", "setup.bat", "install.cmd", "installer.sh"},
			before: regexp.MustCompile(`(?i)(?:\b(?:run|running|execute|exec|source|launch|invoke|bash|sh|zsh|python3?|pwsh|powershell|node|sudo|call|start)\b[^\n]{0,24}|(?:^|\s|\x60)\.{1,2}/[^\s]{0,24}|(?:^|\s|\x60)(?:scripts|bin|tools)/[^\s]{0,16}|\.\s{1,2})$`)},
		{rule: RuleInstaller, code: "installer-run-script", detail: "instructions to run a script from the package; vouch excluded it and never runs package files", sev: SeverityMedium, boundary: true,
			lits:   []string{"scripts/", "./scripts/", "bin/"},
			before: regexp.MustCompile(`(?i)\b(?:run|running|execute|exec|source|bash|sh|python3?|node|pwsh|powershell|uv run|deno run|ruby|perl)\b[^\n]{0,16}$`)},
		{rule: RuleInstaller, code: "installer-chmod", detail: "instructions to make a file executable and run it", sev: SeverityMedium, lits: []string{"chmod +x", "chmod 755", "chmod u+x"}},
	}
}

var argsRE = regexp.MustCompile(`"args"\s*:\s*\[`)
