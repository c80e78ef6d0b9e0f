package tool

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A running tool may ask the person for something mid-call: MCP
// elicitation (SPEC B12). The provider (mcpclient) turns the server's
// request into a Question and asks the Asker its context carries; the
// front end (a pane in the TUI, a terminal prompt, the approvals inbox)
// answers. Every string of a Question came from an untrusted server:
// front ends neutralize it before it reaches a screen.

// Kind is the type of one form field.
type Kind string

// The field kinds vouch renders. Anything else in a form is declined.
const (
	KindText     Kind = "text"
	KindEmail    Kind = "email"
	KindURI      Kind = "uri"
	KindDate     Kind = "date"
	KindDateTime Kind = "date-time"
	KindInteger  Kind = "integer"
	KindNumber   Kind = "number"
	KindBoolean  Kind = "boolean"
	KindEnum     Kind = "enum"  // one of Options
	KindMulti    Kind = "multi" // some of Options (an array of enum)
)

// Option is one choice of an enum or multi-select field: Value is sent,
// Label shown (the server's title, or the value itself).
type Option struct {
	Value string
	Label string
}

// Field is one field of a form question.
type Field struct {
	Name        string // the property name sent back
	Title       string // "" when the server gave none
	Description string
	Kind        Kind
	Required    bool
	// Default is the schema's default (SEP-1034), as JSON decodes it:
	// string, float64, bool or []string; nil when there is none.
	Default any
	// MinLength and MaxLength bound a text field (MaxLength 0: no bound).
	MinLength, MaxLength int
	// Min and Max bound a number or integer; nil means no bound.
	Min, Max *float64
	Options  []Option
	// MinItems and MaxItems bound a multi-select (MaxItems 0: no bound).
	MinItems, MaxItems int
	// Secret reports that the field asks for a password, token, secret or
	// key: servers must not ask for secrets in a form.
	Secret bool
}

// Label is the field's title, or its name.
func (f Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Question is one request from a running tool to the person.
type Question struct {
	Server        string // the server's label, as the person named it
	Host          string // the server's host
	Tool          string // the tool whose call asks
	CorrelationID string // the call's correlation ID
	Message       string // why the server asks (untrusted)
	// URL, when set, makes this a URL-mode question: the person is asked
	// to visit it (vouch never opens or fetches it) and to say when done.
	URL           string
	ElicitationID string
	Fields        []Field // form mode
}

// IsURL reports whether the question asks the person to visit a URL.
func (q Question) IsURL() bool { return q.URL != "" }

// AsksSecret reports whether a field asks for a secret.
func (q Question) AsksSecret() bool {
	for _, f := range q.Fields {
		if f.Secret {
			return true
		}
	}
	return false
}

// DefaultContent is what a person who keeps every default sends: each
// field that has a default, with it (SEP-1034).
func (q Question) DefaultContent() map[string]any {
	content := map[string]any{}
	for _, f := range q.Fields {
		switch {
		case f.Kind == KindMulti:
			if items := f.DefaultItems(); items != nil {
				content[f.Name] = items
			}
		case f.Kind == KindInteger:
			if v, ok := f.Default.(float64); ok {
				content[f.Name] = int64(v)
			}
		case f.Default != nil:
			content[f.Name] = f.Default
		}
	}
	return content
}

// Action is the person's answer to a question.
type Action string

// The three answers MCP knows.
const (
	Accept  Action = "accept"  // the values are sent (URL mode: the person is done)
	Decline Action = "decline" // the person said no
	Cancel  Action = "cancel"  // the person dismissed it without choosing
)

// Answer is what the person answered. Content holds the accepted values,
// keyed by field name (nil otherwise).
type Answer struct {
	Action  Action
	Content map[string]any
	// Why, when set, says that vouch answered for nobody there, and why
	// (a headless run with no terminal declines at once).
	Why string
}

// Asker asks the person. Ask blocks until the person answers or ctx ends
// (then it returns ctx's error); Declined is told, without blocking, of a
// question vouch declined without asking and why, for the transcript.
// Implementations must be safe for concurrent use.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, error)
	Declined(q Question, why string)
}

type askerKey struct{}

// WithAsker returns ctx whose tool calls may ask the person through a.
func WithAsker(ctx context.Context, a Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, a)
}

// AskerFrom returns the Asker of ctx, or nil: nobody may be asked.
func AskerFrom(ctx context.Context) Asker {
	a, _ := ctx.Value(askerKey{}).(Asker)
	return a
}

// ErrClosedByServer is the cause of an Ask's context ending because the
// server closed the question itself (a URL step it saw complete,
// notifications/elicitation/complete): the front end closes the question
// and the server is told the person is done.
var ErrClosedByServer = errors.New("the server said the step is complete")

// ErrInvalidValue is what Field.Parse and Field.CheckItems wrap.
var ErrInvalidValue = errors.New("invalid value")

// valueError is an invalid value: its text is the one sentence saying
// what to type; it is ErrInvalidValue.
type valueError struct{ sentence string }

func (e valueError) Error() string        { return e.sentence }
func (e valueError) Is(target error) bool { return target == ErrInvalidValue }

func invalid(format string, args ...any) error {
	return valueError{sentence: fmt.Sprintf(format, args...)}
}

// Parse turns what the person typed into the value sent for the field, or
// an error whose text is one sentence saying what to type. An empty
// optional field parses to nil (not sent). Enum and multi fields take an
// option's value; boolean "true" or "false".
func (f Field) Parse(s string) (any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if f.Required {
			return nil, invalid("This field is required.")
		}
		return nil, nil
	}
	switch f.Kind {
	case KindInteger, KindNumber:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, invalid("Type a number.")
		}
		if f.Kind == KindInteger && v != math.Trunc(v) {
			return nil, invalid("Type a whole number.")
		}
		if f.Min != nil && v < *f.Min {
			return nil, invalid("Type at least %s.", strconv.FormatFloat(*f.Min, 'g', -1, 64))
		}
		if f.Max != nil && v > *f.Max {
			return nil, invalid("Type at most %s.", strconv.FormatFloat(*f.Max, 'g', -1, 64))
		}
		if f.Kind == KindInteger {
			return int64(v), nil
		}
		return v, nil
	case KindBoolean:
		switch strings.ToLower(s) {
		case "true", "yes", "y":
			return true, nil
		case "false", "no", "n":
			return false, nil
		}
		return nil, invalid("Answer yes or no.")
	case KindEnum:
		for _, o := range f.Options {
			if s == o.Value || strings.EqualFold(s, o.Label) {
				return o.Value, nil
			}
		}
		return nil, invalid("Pick one of the choices.")
	case KindMulti:
		return nil, invalid("Pick the choices with space.")
	}
	n := utf8.RuneCountInString(s)
	if n < f.MinLength {
		return nil, invalid("Type at least %d characters.", f.MinLength)
	}
	if f.MaxLength > 0 && n > f.MaxLength {
		return nil, invalid("Type at most %d characters.", f.MaxLength)
	}
	switch f.Kind {
	case KindEmail:
		at := strings.LastIndexByte(s, '@')
		if at <= 0 || at == len(s)-1 || strings.ContainsFunc(s, unicode.IsSpace) || !strings.Contains(s[at:], ".") {
			return nil, invalid("Type an email address, such as name@example.com.")
		}
	case KindURI:
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return nil, invalid("Type a full address, such as https://example.com/.")
		}
	case KindDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return nil, invalid("Type a date as YYYY-MM-DD.")
		}
	case KindDateTime:
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return nil, invalid("Type a date and time as YYYY-MM-DDTHH:MM:SSZ.")
		}
	}
	return s, nil
}

// CheckItems says whether n chosen items satisfy a multi-select field.
func (f Field) CheckItems(n int) error {
	switch {
	case n == 0 && f.Required && f.MinItems == 0:
		return invalid("Pick at least one.")
	case n < f.MinItems:
		return invalid("Pick at least %d.", f.MinItems)
	case f.MaxItems > 0 && n > f.MaxItems:
		return invalid("Pick at most %d.", f.MaxItems)
	}
	return nil
}

// DefaultText is the field's default as the person would type it ("" when
// it has none, or for a multi-select).
func (f Field) DefaultText() string {
	switch v := f.Default.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// DefaultItems is a multi-select's default choices.
func (f Field) DefaultItems() []string {
	v, _ := f.Default.([]string)
	return v
}

// Describe is one line saying what the person answered, for the
// transcript and the run's record: the action and, for an accepted form,
// each value sent by its field's label — a field that asks for a secret
// shows "(hidden)". Texts are the server's and the person's, not yet
// neutralized.
func (a Answer) Describe(q Question) string {
	switch {
	case a.Why != "":
		return "vouch declined it: " + a.Why
	case a.Action == Accept && q.IsURL():
		return "the person said they are done with the link"
	case a.Action == Decline:
		return "the person declined"
	case a.Action != Accept:
		return "the person cancelled"
	}
	var parts []string
	for _, f := range q.Fields {
		v, ok := a.Content[f.Name]
		if !ok {
			continue
		}
		shown := fmt.Sprint(v)
		if s, isText := v.(string); isText {
			shown = strconv.Quote(s)
		}
		if f.Secret {
			shown = "(hidden)"
		}
		parts = append(parts, f.Label()+" "+shown)
	}
	if len(parts) == 0 {
		return "the person sent the form empty"
	}
	return "the person sent " + strings.Join(parts, ", ")
}
