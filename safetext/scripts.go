package safetext

import (
	"strings"
	"unicode"
)

// scriptTables are the scripts MixedScripts tells apart, in the order it
// names them.
var scriptTables = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Cherokee", unicode.Cherokee}, {"Arabic", unicode.Arabic},
	{"Hebrew", unicode.Hebrew}, {"Han", unicode.Han}, {"Hiragana", unicode.Hiragana},
	{"Katakana", unicode.Katakana}, {"Hangul", unicode.Hangul},
}

// MixedScripts returns a warning when the letters of name come from more
// than one script — a Latin tool name with Cyrillic or Greek look-alikes,
// "lооkup" with two Cyrillic o's, reads like the real one (issue 14 item
// 7) — naming the scripts ("mixes Latin and Cyrillic letters"); "" when
// they do not. Digits and punctuation belong to no script. Japanese mixes
// of Han, Hiragana and Katakana are ordinary and not flagged.
func MixedScripts(name string) string {
	var seen []string
	for _, r := range name {
		if r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			continue
		}
		for _, st := range scriptTables {
			if unicode.Is(st.table, r) {
				if !containsString(seen, st.name) {
					seen = append(seen, st.name)
				}
				break
			}
		}
	}
	n := len(seen)
	japanese := 0
	for _, s := range seen {
		if s == "Han" || s == "Hiragana" || s == "Katakana" {
			japanese++
		}
	}
	if japanese > 1 {
		n -= japanese - 1
	}
	if n < 2 {
		return ""
	}
	return "mixes " + strings.Join(seen, " and ") + " letters: it may imitate another tool's name"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
