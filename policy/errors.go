package policy

import (
	"errors"
	"fmt"
)

// Errors returned by ValidateRule and ValidateIdentity. The error returned
// is one sentence about the rule at hand (what is wrong and what to write
// instead) that wraps one of these; test with errors.Is.
var (
	// ErrInvalidRule means a rule is malformed: an unknown class or effect,
	// an identity that is neither mcp:<server-id>:<tool> nor
	// builtin:<name>, or a constraint with a missing or unusable argument,
	// kind or value. Nothing was saved.
	ErrInvalidRule = errors.New("the rule is invalid; nothing was saved")

	// ErrWriteAllow means a rule tried to allow a built-in tool that writes
	// (every built-in but the read-only workspace tools) without asking.
	// Anything that writes asks; classify it ask or block instead.
	ErrWriteAllow = errors.New("anything that writes asks; a rule cannot allow it automatically")
)

// ruleError is one sentence about one rule, wrapping a sentinel.
type ruleError struct {
	sentence string
	kind     error
}

func (e *ruleError) Error() string { return e.sentence }
func (e *ruleError) Unwrap() error { return e.kind }

func invalid(format string, args ...any) error {
	return &ruleError{sentence: fmt.Sprintf(format, args...), kind: ErrInvalidRule}
}
