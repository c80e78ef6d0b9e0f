package skills

import (
	"regexp"
	"sync"
)

// Prompt-override and hiding phrases judged on folded sentences (issue 25
// item 1, applied to the other prose rules): the line checks of
// scan_rules.go read the raw text, so "please ignore all⏎previous
// instructions", a Cyrillic letter in "ignоre" or "don't let the user
// know" would pass them. These expressions run only on sentences holding
// one of their first words (wPhrase), on folded text: lower case, single
// spaces, look-alikes read.

type phraseCheck struct {
	rule, code, detail string
	re                 *regexp.Regexp
}

var phraseChecks = sync.OnceValue(func() []phraseCheck {
	const nouns = `(?:instructions?|prompts?|messages?|rules|directions|guidelines|guidance|directives|policies|constraints|orders|commands|restrictions)`
	return []phraseCheck{
		{RuleInjection, "override-ignore", "prompt override: tells the assistant to ignore its previous instructions",
			regexp.MustCompile(`\b(?:ignore|disregard|forget|override|bypass)(?: (?:all|any|the|your|every|of|each)){0,3} (?:previous|prior|above|earlier|preceding|original|system|safety|other|former|existing|initial)(?: [a-z']{1,20}){0,2}? ` + nouns + `\b|\b(?:ignore|disregard|forget|override|bypass)(?: (?:all|any|the|your|every|of|each)){0,3} ` + nouns + ` (?:that (?:came|come|were given) before|you (?:were|have been|got) given|given (?:before|earlier|so far)|before this|above|so far|until now|from (?:the )?(?:system|user|developer))\b`)},
		{RuleInjection, "override-identity", "prompt override: identity-override phrasing (\"from now on you are …\")",
			regexp.MustCompile(`\b(?:from now on|starting now|henceforth),? you are (?:now )?(?:an? )?(?:unrestricted|unfiltered|jailbroken|uncensored|dan\b|no longer|free of|without (?:any )?(?:rules|restrictions|limits))`)},
		{RuleHiddenInstruction, "hide-from-user", "asks the assistant to hide an action from the person",
			regexp.MustCompile(`\b(?:do not|don't|dont|never|without) (?:tell|telling|inform|informing) the user\b|\b(?:do not|don't|dont|never|without) (?:let|letting) (?:the user|them) (?:know|find out|notice)\b`)},
	}
})

// phrases adds the finding of each phrase check that matches sentence f,
// on the line where its match starts.
func (ss *sentenceScan) phrases(f folded) {
	for _, c := range phraseChecks() {
		if m := c.re.FindIndex(f.text); m != nil {
			ss.reportRule(c.rule, f.srcOf(m[0]), c.code, "", c.detail)
		}
	}
}
