package skills

import "strings"

// Built-in tool identities a package may request (SPEC C1). A request
// grants nothing: the person decides in policy (SPEC G4).
const (
	builtinFSRead   = "builtin:fs_read"
	builtinFSWrite  = "builtin:fs_write"
	builtinFSEdit   = "builtin:fs_edit"
	builtinFSSearch = "builtin:fs_search"
	builtinFSList   = "builtin:fs_list"
)

// requestable are the identities a sidecar may list in requested_tools.
var requestable = set(builtinFSRead, builtinFSWrite, builtinFSEdit, builtinFSSearch, builtinFSList)

// toolNames maps allowed-tools names (Claude Code's and common agents'
// spellings, lower-cased, without separators) to built-in identities.
var toolNames = map[string]string{
	"read": builtinFSRead, "readfile": builtinFSRead, "view": builtinFSRead, "cat": builtinFSRead, "fsread": builtinFSRead,
	"write": builtinFSWrite, "writefile": builtinFSWrite, "create": builtinFSWrite, "fswrite": builtinFSWrite,
	"edit": builtinFSEdit, "multiedit": builtinFSEdit, "strreplace": builtinFSEdit, "replace": builtinFSEdit, "fsedit": builtinFSEdit,
	"grep": builtinFSSearch, "search": builtinFSSearch, "searchfiles": builtinFSSearch, "fssearch": builtinFSSearch,
	"glob": builtinFSList, "ls": builtinFSList, "list": builtinFSList, "listdir": builtinFSList, "listfiles": builtinFSList, "fslist": builtinFSList,
}

// BuiltinFor maps an allowed-tools entry ("Read", "Write", "Edit", "Grep",
// "Glob", "LS", "Bash(git:*)") to the built-in identity it names
// ("builtin:fs_read", …); ok is false when none maps, which the importer
// turns into a warning, never a grant. A scope in parentheses ("Read(./docs/**)")
// is dropped: the person's policy decides scope. Command tools (Bash,
// shell, exec, …) never map: nothing from a package runs a command.
func BuiltinFor(name string) (identity string, ok bool) {
	name = strings.TrimSpace(name)
	if strings.HasPrefix(name, "builtin:") {
		return name, requestable[name]
	}
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	key := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z':
			return r
		}
		return -1
	}, name)
	identity, ok = toolNames[key]
	return identity, ok
}
