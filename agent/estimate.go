package agent

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The conservative estimate (SPEC A3, F4) follows the pieces a byte-level
// BPE pre-tokenizer (GPT-2, Llama 3, Qwen 2) cuts text into, and charges
// each piece an upper bound of what the tokenizer turns it into:
//
//   - a run of ASCII letters (a word, with the one space or sign before
//     it) costs one token per estimateLettersPerToken letters, rounded up;
//   - a letter outside ASCII costs by its UTF-8 length: two bytes (Latin
//     accents, Greek, Cyrillic) estimateTwoByteTokens, three bytes (CJK,
//     kana, hangul) estimateCJKTokens, four bytes three; an accented
//     letter also splits the ASCII word around it;
//   - every digit is a token (Qwen and Llama 3 split numbers into digits
//     or groups of three; one per digit is the upper bound);
//   - a run of ASCII punctuation costs estimatePunctPerToken signs per
//     token (JSON's own {}[]":, estimateJSONPerToken), rounded up; a
//     backslash one; any other sign (an emoji, a CJK comma) one token
//     per UTF-8 byte after the first;
//   - whitespace: one token per newline, per tab and per space beyond the
//     one a word or sign carries (a digit carries none).
//
// The rules were calibrated against Ollama 0.17.4's usage.prompt_tokens on
// the GPT-2-vocabulary test models of ../shared/models (docs/BENCHMARKS.md
// has the table; agent/estimate_test.go the measured samples). A larger
// vocabulary (Qwen's 151k, Llama 3's 128k) mostly makes real counts
// smaller; the first turn's usage then calibrates (calibrate.go).
const (
	estimateLettersPerToken = 8
	estimateCJKTokens       = 2.3
	estimateTwoByteTokens   = 1.5
	estimatePunctPerToken   = 2
	estimateJSONPerToken    = 4
	estimateSpacesPerToken  = 1
)

// The low estimate is a bound no tokenizer vouch knows of goes under: used
// only to tell a prompt the server cut from one it counted lower than
// vouch (see Client.observePrompt).
const (
	lowLettersPerToken = 12
	lowCJKTokens       = 0.4
	lowDigitsPerToken  = 3
	lowSignsPerToken   = 6
)

// EstimateTokens is the documented conservative token estimate of a text:
// per-rune rules (above) that do not count under on English, code, JSON,
// CJK, digits or emoji for the byte-level BPE vocabularies local models
// use. It adds no per-message overhead.
func EstimateTokens(text string) int {
	hi, _ := estimateRange(text)
	return hi
}

// estimateArguments is the estimate of a tool call's name and arguments:
// short keys and values, where the per-rune rules count under by a few
// tokens (rare short words split), so an eighth and two tokens are added.
func estimateArguments(text string) (hi, lo int) {
	hi, lo = estimateRange(text)
	return hi + hi/8 + 2, lo
}

// estimateRange returns the conservative estimate and the lower bound.
func estimateRange(text string) (hi, lo int) {
	var h, l float64
	letters, signs, spaces := 0, 0, 0 // the current ASCII run
	jsonSigns := 0                    // of signs, those of JSON's structure
	prevLower := false                // the last rune was a lowercase ASCII letter
	flushLetters := func() {
		if letters > 0 {
			h += math.Ceil(float64(letters) / estimateLettersPerToken)
			l += float64(letters) / lowLettersPerToken
			letters = 0
		}
	}
	flushSigns := func() {
		if signs > 0 {
			h += math.Ceil(float64(jsonSigns)/estimateJSONPerToken + float64(signs-jsonSigns)/estimatePunctPerToken)
			l += float64(signs) / lowSignsPerToken
			signs, jsonSigns = 0, 0
		}
	}
	flushSpaces := func(merged bool) {
		if merged && spaces > 0 {
			spaces-- // the space a word or sign carries
		}
		if spaces > 0 {
			h += math.Ceil(float64(spaces) / estimateSpacesPerToken)
			l += float64(spaces) / (4 * estimateSpacesPerToken)
			spaces = 0
		}
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if r < 'a' || r > 'z' {
			prevLower = false
		}
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			flushSigns()
			flushSpaces(true)
			if r <= 'Z' && prevLower {
				flushLetters() // camelCase: a new piece for the tokenizer's vocabulary
			}
			letters++
			prevLower = r >= 'a'
			continue
		case r == '\t':
			flushLetters()
			flushSigns()
			flushSpaces(false)
			h++ // a tab is a piece of its own
			l += 1.0 / lowSignsPerToken
		case r == ' ':
			flushLetters()
			flushSigns()
			spaces++
		case r == '\n' || r == '\r':
			flushLetters()
			flushSigns()
			flushSpaces(false)
			h++
			l += 1.0 / lowSignsPerToken
		case r >= '0' && r <= '9' || unicode.IsDigit(r):
			flushLetters()
			flushSigns()
			flushSpaces(false) // a digit carries no space
			h += float64(max(1, size-1))
			l += 1.0 / lowDigitsPerToken
		case r < utf8.RuneSelf:
			if r < ' ' || r == 0x7f { // a control character: one byte, one token
				flushLetters()
				flushSigns()
				flushSpaces(false)
				h++
				continue
			}
			flushLetters()
			flushSpaces(true)
			signs++
			if strings.ContainsRune(`{}[]":,`, r) {
				jsonSigns++
			}
		case r == '\\':
			flushLetters()
			flushSigns()
			flushSpaces(true)
			h++ // an escape: its own token
			l += 1.0 / lowSignsPerToken
		case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
			flushLetters() // an accent splits a Latin word for the tokenizer
			flushSigns()
			flushSpaces(true)
			switch size {
			case 2:
				h += estimateTwoByteTokens
				l += lowCJKTokens
			case 3:
				h += estimateCJKTokens
				l += lowCJKTokens
			default:
				h += 3
				l += lowCJKTokens
			}
		case unicode.IsSpace(r):
			flushLetters()
			flushSigns()
			spaces++
		default: // a sign outside ASCII: an emoji, a dash, a bullet
			flushLetters()
			flushSigns()
			flushSpaces(true)
			h += float64(max(1, size-1))
			l += 1.0 / lowSignsPerToken
		}
	}
	flushLetters()
	flushSigns()
	flushSpaces(false)
	return int(math.Ceil(h)), int(l)
}
