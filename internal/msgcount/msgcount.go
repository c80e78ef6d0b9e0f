// Package msgcount is the one rule for how many messages a conversation
// holds (issue 28 item 4): the store counts its records by it for the
// conversation list, and the interface counts its transcript by it for
// the quit summary, so the two never disagree.
//
// A message is what a person calls one: what they sent, and what the
// model answered in words. A tool call and its result, a reasoning
// trace, a model turn that only called tools, and vouch's own notes are
// not messages; they are parts of the turn they belong to.
package msgcount

import "strings"

// The roles the rule reads, as the store keeps them.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Counts reports whether an entry with role and text is a message: the
// person's (any text), or the model's with words in it.
func Counts(role, text string) bool {
	switch role {
	case RoleUser:
		return true
	case RoleAssistant:
		return strings.TrimSpace(text) != ""
	}
	return false
}

// Of is 1 for an entry that is a message (Counts) and 0 for one that is
// not, for sums, and for differences when an entry changes (a streamed
// answer gets its first words).
func Of(role, text string) int {
	if Counts(role, text) {
		return 1
	}
	return 0
}
