package ruleedit

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"vouch/policy"
	"vouch/safetext"
)

// A rule draft is what the rule editor starts from. From a call (classify,
// in the approval pane) it is conservative: class "ask", never "allow",
// effect "mutating", and each top-level string argument offered as a
// constraint that is off until the person turns it on (SPEC D1: only the
// person sets a class). From a stored rule (Settings › Policy) it is that
// rule, its constraints on.

// Draft is the starting point of the rule editor: [FromCall] or
// [FromRule] makes one.
type Draft struct {
	identity string // saved exactly as given; shown neutralised
	class    policy.Class
	effect   policy.Effect
	cons     []draftConstraint
	note     string
	// fromCall says the editor was opened from the approval pane: the call
	// on screen still needs the person's answer.
	fromCall bool
	// seen is the digest of the tool's definition the approval pane was
	// asked about; the saved rule carries it as its Pin's Digest, so that
	// the Saver pins only the definition the person saw (SPEC D8). "" from
	// a stored rule or when the pane knew none.
	seen string
}

// draftConstraint is a constraint the editor offers, on or off.
type draftConstraint struct {
	c  policy.Constraint
	on bool
}

// offerLimit is the longest argument value offered as a constraint, in
// bytes: a longer value is content, not a choice.
const offerLimit = 200

// ruleClasses are the classes, in the order the editor shows them.
func ruleClasses() []policy.Class { return []policy.Class{policy.Ask, policy.Allow, policy.Block} }

// classes are the classes the editor offers for d's tool: allow is left
// out for a built-in tool that writes, which no rule may allow (issue 28
// item 10: the editor offered it, then refused it on save).
func (d Draft) classes() []policy.Class {
	if policy.CanAllow(d.identity) {
		return ruleClasses()
	}
	return []policy.Class{policy.Ask, policy.Block}
}

// ruleEffects are the effects, in the order the editor shows them.
func ruleEffects() []policy.Effect {
	return []policy.Effect{policy.ReadOnly, policy.Idempotent, policy.Mutating}
}

// FromCall is the draft for classifying the tool of identity from a
// call with these arguments (the JSON the model sent), asked about the
// definition whose digest is seen ("" when the pane knew none).
func FromCall(identity, args, seen string) Draft {
	d := Draft{identity: identity, class: policy.Ask, effect: policy.Mutating, fromCall: true, seen: seen}
	for _, kv := range topLevelStrings(args) {
		if c, ok := offerConstraint(kv[0], kv[1]); ok {
			d.cons = append(d.cons, draftConstraint{c: c})
		}
	}
	return d
}

// FromRule is the draft for editing a stored rule.
func FromRule(r policy.Rule) Draft {
	d := Draft{identity: r.Identity, class: r.Class, effect: r.Effect, note: r.Note}
	for _, c := range r.Constraints {
		d.cons = append(d.cons, draftConstraint{c: c, on: true})
	}
	return d
}

// topLevelStrings returns the string members of the arguments object as
// key and value pairs, in the model's order, each key once (its first
// value). Anything that is not a JSON object yields nothing.
func topLevelStrings(args string) [][2]string {
	dec := json.NewDecoder(strings.NewReader(args))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out [][2]string
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		var s string
		if seen[k] || json.Unmarshal(v, &s) != nil {
			continue
		}
		seen[k] = true
		out = append(out, [2]string{k, s})
	}
	return out
}

// offerConstraint suggests a constraint for the argument k with string
// value v: "under" the value's folder for a path, "one-of" the value
// otherwise. Values that a terminal would not show as they are (controls,
// bidi, line breaks), empty ones and long ones are not offered.
func offerConstraint(k, v string) (policy.Constraint, bool) {
	if k == "" || v == "" || len(v) > offerLimit || safetext.Line(k, 0) != k || safetext.Line(v, 0) != v {
		return policy.Constraint{}, false
	}
	if looksLikePath(k, v) {
		if dir := path.Dir(v); dir != "." && dir != v {
			return policy.Constraint{Arg: k, Kind: policy.Under, Values: []string{dir}}, true
		}
	}
	return policy.Constraint{Arg: k, Kind: policy.OneOf, Values: []string{v}}, true
}

// looksLikePath reports whether the value of argument k reads as a file
// path: it has a slash and is no URL, or the key names a path.
func looksLikePath(k, v string) bool {
	if strings.Contains(v, "://") {
		return false
	}
	if strings.Contains(v, "/") {
		return true
	}
	return slices.Contains(pathKeys(), strings.ToLower(k))
}

// pathKeys are argument names that usually hold a file path.
func pathKeys() []string {
	return []string{"path", "file", "filename", "dir", "directory", "folder", "cwd", "root",
		"src", "dst", "source", "dest", "destination", "target"}
}

// joinValues writes a constraint's values as one line, separated by ", ".
// A comma or backslash inside a value is escaped with a backslash, so that
// splitValues gives back exactly the same values.
func joinValues(vs []string) string {
	esc := make([]string, len(vs))
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`)
	for i, v := range vs {
		esc[i] = r.Replace(v)
	}
	return strings.Join(esc, ", ")
}

// splitValues reads what joinValues writes, and what the person typed:
// values separated by commas, "\," a comma inside a value and "\\" a
// backslash; space around each value is trimmed and empty values dropped.
func splitValues(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if v := strings.TrimSpace(cur.String()); v != "" {
			out = append(out, v)
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == ',' || s[i+1] == '\\'):
			cur.WriteByte(s[i+1])
			i++
		case c == ',':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}
