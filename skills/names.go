package skills

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// rejectf builds the one-sentence refusal of an import.
func rejectf(format string, args ...any) *Rejection {
	return &Rejection{Reason: fmt.Sprintf(format, args...)}
}

// cleanName validates one entry name of a package (SPEC G3) and returns it
// in canonical form: "/"-separated, relative, without a leading "./" or a
// trailing "/". Every problem is a *Rejection; raw names are quoted with %q
// so control and bidi characters reach no terminal.
func cleanName(raw string, lim Limits) (string, error) {
	if !utf8.ValidString(raw) {
		return "", rejectf("the package has a file name that is not valid UTF-8 (%q); rename it and import again", raw)
	}
	if len(raw) > lim.PathLen {
		return "", rejectf("the package has a path of %d bytes (%.40q…), more than the %d allowed; shorten it and import again", len(raw), raw, lim.PathLen)
	}
	for _, r := range raw {
		switch {
		case isBidi(r):
			return "", rejectf("the file name %q hides a bidirectional control character that can disguise it; rename it and import again", raw)
		case r == '\\':
			return "", rejectf("the file name %q contains a backslash; vouch accepts only \"/\"-separated paths, so re-pack it with a standard archiver", raw)
		case unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r):
			return "", rejectf("the file name %q contains an invisible or control character (U+%04X); rename it and import again", raw, r)
		}
	}
	name := raw
	if strings.HasPrefix(name, "/") || hasDrive(name) {
		return "", rejectf("the package has an absolute path %q; a skill package may only hold paths inside itself", raw)
	}
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	name = strings.TrimSuffix(name, "/")
	if name == "" || name == "." {
		return ".", nil
	}
	segs := strings.Split(name, "/")
	if len(segs) > lim.Depth {
		return "", rejectf("the path %q is %d folders deep, more than the %d allowed; flatten the package and import again", raw, len(segs)-1, lim.Depth-1)
	}
	for _, s := range segs {
		switch s {
		case "..":
			return "", rejectf("the path %q climbs out of the package with \"..\"; a skill package may only hold paths inside itself", raw)
		case "", ".":
			return "", rejectf("the path %q has an empty or \".\" part; re-pack the package with a standard archiver", raw)
		}
		if mixedScript(s) {
			return "", rejectf("the file name %q mixes look-alike letters from different scripts (e.g. Cyrillic and Latin) in one word; rename it and import again", raw)
		}
	}
	return name, nil
}

func hasDrive(s string) bool {
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

// isBidi reports the Unicode bidirectional formatting characters (the
// "Trojan Source" set and the marks).
func isBidi(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// confusable are the scripts whose letters pass for one another.
var confusable = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee, unicode.Coptic}

// mixedScript reports whether one word of s (a run of letters and marks)
// mixes letters of two confusable scripts, like a Cyrillic "а" in a Latin
// name. Words of one script each ("справка-v2.md") pass, as do scripts
// that do not pass for Latin ("日本語-notes.md").
func mixedScript(s string) bool {
	script := -1
	for _, r := range s {
		if !unicode.IsLetter(r) {
			if !unicode.IsMark(r) {
				script = -1
			}
			continue
		}
		cur := -2
		for i, t := range confusable {
			if unicode.Is(t, r) {
				cur = i
				break
			}
		}
		if cur == -2 {
			continue
		}
		if script >= 0 && script != cur {
			return true
		}
		script = cur
	}
	return false
}

// nameSet finds duplicate and colliding paths: two names that are equal
// after Unicode compatibility normalisation and case folding (what a
// case-insensitive file system or a reader's eye would merge), including a
// file whose name is also a folder of another path.
type nameSet struct {
	fold  cases.Caser
	files map[string]string // folded → original, files and links
	dirs  map[string]string // folded → original, implied or listed folders
}

func newNameSet() *nameSet {
	return &nameSet{fold: cases.Fold(), files: map[string]string{}, dirs: map[string]string{}}
}

func (n *nameSet) key(s string) string { return n.fold.String(norm.NFKC.String(s)) }

// addDir records a listed folder; listing one twice is harmless.
func (n *nameSet) addDir(name string) error {
	if name == "." {
		return nil
	}
	return n.addParents(name + "/x")
}

// addFile records a file or link, refusing any duplicate or collision.
func (n *nameSet) addFile(name string) error {
	k := n.key(name)
	if prev, ok := n.files[k]; ok {
		if prev == name {
			return rejectf("the package lists %q twice; re-pack it so every path appears once", name)
		}
		return rejectf("the paths %q and %q differ only in case or look-alike characters; rename one and import again", prev, name)
	}
	if prev, ok := n.dirs[k]; ok {
		return rejectf("%q is both a file and a folder (%q) in the package; rename one and import again", name, prev)
	}
	if err := n.addParents(name); err != nil {
		return err
	}
	n.files[k] = name
	return nil
}

func (n *nameSet) addParents(name string) error {
	for i := 0; i < len(name); i++ {
		if name[i] != '/' {
			continue
		}
		dir := name[:i]
		k := n.key(dir)
		if prev, ok := n.files[k]; ok {
			return rejectf("%q is both a file and a folder (%q) in the package; rename one and import again", prev, dir)
		}
		if prev, ok := n.dirs[k]; ok && prev != dir {
			return rejectf("the folders %q and %q differ only in case or look-alike characters; rename one and import again", prev, dir)
		}
		n.dirs[k] = dir
	}
	return nil
}
