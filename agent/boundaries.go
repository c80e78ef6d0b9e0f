package agent

import (
	"strings"
	"unicode"
	"vouch/tool"
)

// BoundaryRefusal is the tool result of a call to a tool the run does not
// offer whose name asks to widen the run's own boundaries: its policy,
// schedules, persistent memory, MCP connections, skills or packages, or
// workspace permissions (SPEC D6). Those change only when the person
// changes them in vouch, never from inside a run.
const BoundaryRefusal = "This run cannot change its own policy, schedules, memory, MCP connections or workspace permissions; ask the person to do it in vouch."

// InstallRefusal is the tool result of a call to a tool the run does not
// offer whose name asks to install something — a skill, package, plugin,
// extension or anything from a marketplace (SPEC G7). vouch has no such
// tool for a model; only the person imports skills, from a local file.
const InstallRefusal = "vouch installs nothing for a model: no tool installs or enables skills, packages, plugins or servers. " +
	"Tell the person what you wanted; they can import a skill from a local file with `vouch skill install FILE` or in Settings › Skills."

// notOffered is the result of a call whose wire name the run never offered
// (SPEC C2): the refusal's text when the name asks to install
// something or widen the run's boundaries, else the unknown-tool error.
// None is a guess; none runs anything.
func (r *run) notOffered(name string) tool.Result {
	if text, ok := refusal(name); ok {
		return tool.Result{Text: text, IsError: true}
	}
	return tool.Result{Text: r.unknownTool(name), IsError: true}
}

// refusal returns InstallRefusal for an install-like name (SPEC G7),
// BoundaryRefusal for another boundary-widening one (SPEC D6), and false
// for any other name.
func refusal(name string) (string, bool) {
	switch {
	case installsSomething(name):
		return InstallRefusal, true
	case widensBoundaries(name):
		return BoundaryRefusal, true
	}
	return "", false
}

// installsSomething reports whether a tool name asks to install, fetch or
// enable an add-on (SPEC G7): a word that only ever means that
// (install…, uninstall, marketplace, plugin…, addon…), or a verb that adds
// or fetches meeting a word for what is installed (add_skill,
// download_package, enableExtension, skills.import).
func installsSomething(name string) bool {
	words := nameWords(name)
	if len(words) > 1 && tool.IsWirePrefixWord(words[0]) {
		words = words[1:]
	}
	verb, object := false, false
	for _, w := range words {
		if strings.Contains(w, "install") || strings.HasPrefix(w, "marketplace") || strings.HasPrefix(w, "plugin") || strings.HasPrefix(w, "addon") {
			return true
		}
		switch w {
		case "add", "enable", "load", "import", "register", "download", "fetch", "get", "pull", "update", "upgrade", "activate", "setup", "deploy":
			verb = true
		case "skill", "skills", "package", "packages", "pkg", "extension", "extensions", "module", "modules", "bundle", "bundles":
			object = true
		}
	}
	return verb && object
}

// widensBoundaries reports whether a tool name asks for one of the
// operations a run may never perform on itself (SPEC D6). The name is
// split into lower-case words ("addMCPServer", "add-mcp-server" and
// "functions.add_mcp_server" all give add, mcp, server; the "mcp" prefix
// of MCP wire names is dropped) and matches when a word only ever widens
// boundaries (schedule…, grant…, install…, approve…, remember, connect…,
// cron, mount, sudo, elevate…, unblock, allowlist, whitelist) or when a
// change verb meets a word for what a run must not change (set_policy,
// memory_write, add_mcp_server, enable_skill, expand_workspace).
//
// It decides only which refusal the model reads, so it errs towards the
// boundary refusal: a name of another server's tool, say "create_schedule"
// of a calendar, reads it too, and is not run either way.
func widensBoundaries(name string) bool {
	words := nameWords(name)
	if len(words) > 1 && tool.IsWirePrefixWord(words[0]) {
		words = words[1:]
	}
	verb, object := false, false
	for _, w := range words {
		if widening(w) {
			return true
		}
		verb = verb || changeVerb(w)
		object = object || boundaryObject(w)
	}
	return verb && object
}

// nameWords splits a tool name into lower-case words at every character
// that is not a letter or digit and at camel-case humps.
func nameWords(name string) []string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			b.WriteByte(' ')
			continue
		}
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte(' ')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.Fields(b.String())
}

// widening reports a word that names a boundary-widening operation by
// itself.
func widening(w string) bool {
	for _, p := range []string{"schedul", "grant", "install", "approv", "autoapprov", "remember", "memoriz", "memoris", "connect", "reconnect", "elevat"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	switch w {
	case "cron", "crontab", "mount", "sudo", "unblock", "allowlist", "whitelist":
		return true
	}
	return false
}

// changeVerb reports a word that changes something.
func changeVerb(w string) bool {
	switch w {
	case "set", "change", "update", "edit", "modify", "add", "remove", "delete", "create", "new", "put", "write", "save",
		"store", "append", "register", "enable", "disable", "allow", "reset", "clear", "open", "attach", "expand", "widen",
		"extend", "override", "bypass", "upsert", "load", "import", "trust", "persist":
		return true
	}
	return false
}

// boundaryObject reports a word for something a run must not change.
func boundaryObject(w string) bool {
	switch w {
	case "policy", "policies", "permission", "permissions", "rule", "rules", "memory", "memories", "mcp", "server",
		"servers", "connection", "connections", "skill", "skills", "package", "packages", "plugin", "plugins",
		"extension", "extensions", "workspace", "workspaces", "sandbox", "scope", "scopes", "boundary", "boundaries":
		return true
	}
	return false
}
