package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"vouch/tool"
)

// Bounds on what one elicitation may make vouch hold and show (SPEC B12).
const (
	maxElicitSchemaBytes = 64 << 10
	maxElicitFields      = 32
	maxElicitOptions     = 64
	maxElicitMessage     = 2000
	maxElicitTitle       = 120
	maxElicitDescription = 400
	maxElicitURL         = 2048
	maxElicitValue       = 256
)

// declined is a question vouch declines without asking: Sentence says why,
// to the person and to the server.
type declined struct{ Sentence string }

func (d *declined) Error() string { return d.Sentence }

func decline(format string, args ...any) *declined {
	return &declined{Sentence: fmt.Sprintf(format, args...)}
}

// elicitParams is an elicitation/create request's params as sent.
type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	ElicitationID   string          `json:"elicitationId"`
	URL             string          `json:"url"`
}

// parseQuestion turns an elicitation's params into a Question whose texts
// are neutralized and bounded, or says in one sentence why vouch cannot
// show it: a schema too large, nested objects, references, a URL that
// could disguise itself. base carries who asks.
func parseQuestion(raw []byte, base tool.Question) (tool.Question, *declined) {
	if len(raw) > maxElicitSchemaBytes+maxElicitMessage*8 {
		return base, decline("vouch declined the server's form: it is larger than the %d KiB vouch shows.", maxElicitSchemaBytes>>10)
	}
	var p elicitParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return base, decline("vouch declined the server's request: it is not a well-formed elicitation.")
	}
	q := base
	q.Message = cleanText(p.Message, maxElicitMessage)
	switch p.Mode {
	case "url":
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(p.URL) > maxElicitURL {
			return q, decline("vouch declined the server's link: it is not a web address vouch can show.")
		}
		for i := 0; i < len(p.URL); i++ {
			if c := p.URL[i]; c <= ' ' || c >= 0x7f {
				return q, decline("vouch declined the server's link: it has characters that could disguise where it goes.")
			}
		}
		if p.ElicitationID == "" {
			return q, decline("vouch declined the server's link: it carries no elicitation ID.")
		}
		q.URL, q.ElicitationID = p.URL, cleanText(p.ElicitationID, maxElicitValue)
		return q, nil
	case "", "form":
	default:
		return q, decline("vouch declined the server's request: it asks in a mode vouch does not know.")
	}
	fields, d := parseForm(p.RequestedSchema)
	if d != nil {
		return q, d
	}
	q.Fields = fields
	return q, nil
}

// parseForm reads a requestedSchema: an object of flat properties, in the
// order the server wrote them.
func parseForm(schema []byte) ([]tool.Field, *declined) {
	if len(schema) > maxElicitSchemaBytes {
		return nil, decline("vouch declined the server's form: it is larger than the %d KiB vouch shows.", maxElicitSchemaBytes>>10)
	}
	var props, required []byte
	var typ string
	var other string
	err := eachField(schema, func(k string, v []byte) bool {
		switch k {
		case "type":
			typ = smallString(v, 16)
		case "properties":
			props = v
		case "required":
			required = v
		case "$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf", "not", "if":
			other = k
		}
		return true
	})
	switch {
	case err != nil:
		return nil, decline("vouch declined the server's form: its schema is not a JSON object.")
	case other != "":
		return nil, decline("vouch declined the server's form: it uses %s, which vouch cannot show as a form.", other)
	case typ != "object":
		return nil, decline("vouch declined the server's form: its schema is not of type object.")
	}
	req := map[string]bool{}
	if len(required) > 0 {
		_ = eachElement(required, func(v []byte) bool { // a malformed list requires nothing more
			req[smallString(v, maxElicitValue)] = true
			return len(req) <= maxElicitFields
		})
	}
	var fields []tool.Field
	var bad *declined
	if len(props) == 0 {
		return nil, nil
	}
	err = eachField(props, func(name string, v []byte) bool {
		if len(fields) == maxElicitFields {
			bad = decline("vouch declined the server's form: it has more than %d fields.", maxElicitFields)
			return false
		}
		f, d := parseField(name, v)
		if d != nil {
			bad = d
			return false
		}
		f.Required = req[name]
		fields = append(fields, f)
		return true
	})
	if err != nil {
		return nil, decline("vouch declined the server's form: its properties are not a JSON object.")
	}
	return fields, bad
}

// propSchema is one property of a form, as far as vouch reads it.
type propSchema struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	Default     json.RawMessage `json:"default"`
	MinLength   int             `json:"minLength"`
	MaxLength   int             `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []titled        `json:"oneOf"`
	AnyOf       []titled        `json:"anyOf"`
	Items       *propSchema     `json:"items"`
	MinItems    int             `json:"minItems"`
	MaxItems    int             `json:"maxItems"`
	Ref         string          `json:"$ref"`
	Properties  json.RawMessage `json:"properties"`
}

type titled struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// parseField reads one property.
func parseField(name string, raw []byte) (tool.Field, *declined) {
	shown := cleanText(name, maxElicitTitle)
	var p propSchema
	if err := json.Unmarshal(raw, &p); err != nil {
		return tool.Field{}, decline("vouch declined the server's form: field %q is not a schema vouch can show.", shown)
	}
	if p.Ref != "" || (p.Items != nil && p.Items.Ref != "") {
		return tool.Field{}, decline("vouch declined the server's form: field %q refers to another schema ($ref), which vouch cannot show.", shown)
	}
	f := tool.Field{Name: name, Title: cleanText(p.Title, maxElicitTitle), Description: cleanText(p.Description, maxElicitDescription),
		MinLength: max(p.MinLength, 0), MaxLength: max(p.MaxLength, 0), Min: p.Minimum, Max: p.Maximum,
		MinItems: max(p.MinItems, 0), MaxItems: max(p.MaxItems, 0)}
	if f.Title == "" {
		f.Title = shown
	}
	switch p.Type {
	case "string":
		switch {
		case len(p.Enum) > 0 || len(p.OneOf) > 0:
			f.Kind = tool.KindEnum
			f.Options = options(p.Enum, p.EnumNames, p.OneOf)
		case p.Format == "email":
			f.Kind = tool.KindEmail
		case p.Format == "uri":
			f.Kind = tool.KindURI
		case p.Format == "date":
			f.Kind = tool.KindDate
		case p.Format == "date-time":
			f.Kind = tool.KindDateTime
		default:
			f.Kind = tool.KindText
		}
	case "integer":
		f.Kind = tool.KindInteger
	case "number":
		f.Kind = tool.KindNumber
	case "boolean":
		f.Kind = tool.KindBoolean
	case "array":
		if p.Items == nil || (len(p.Items.Enum) == 0 && len(p.Items.AnyOf) == 0 && len(p.Items.OneOf) == 0) {
			return f, decline("vouch declined the server's form: field %q is a list vouch cannot show.", shown)
		}
		f.Kind = tool.KindMulti
		f.Options = options(p.Items.Enum, p.Items.EnumNames, append(p.Items.AnyOf, p.Items.OneOf...))
	case "object":
		return f, decline("vouch declined the server's form: field %q is a nested object, which vouch cannot show.", shown)
	default:
		return f, decline("vouch declined the server's form: field %q has a type vouch cannot show.", shown)
	}
	if (f.Kind == tool.KindEnum || f.Kind == tool.KindMulti) && (len(f.Options) == 0 || len(f.Options) > maxElicitOptions) {
		return f, decline("vouch declined the server's form: field %q has no choices, or more than %d.", shown, maxElicitOptions)
	}
	f.Default = fieldDefault(f, p.Default)
	f.Secret = asksSecret(name, p.Title, p.Description, p.Format)
	return f, nil
}

// options are an enum's choices: values with their titles (oneOf/anyOf
// const+title, or the legacy enumNames), labels neutralized.
func options(enum, names []string, titledOpts []titled) []tool.Option {
	var out []tool.Option
	add := func(v, label string) {
		if label == "" {
			label = v
		}
		out = append(out, tool.Option{Value: v, Label: cleanText(label, maxElicitTitle)})
	}
	for _, t := range titledOpts {
		add(t.Const, t.Title)
	}
	for i, v := range enum {
		label := ""
		if i < len(names) {
			label = names[i]
		}
		add(v, label)
	}
	return out
}

// fieldDefault is the schema's default when it fits the field (SEP-1034),
// else nil.
func fieldDefault(f tool.Field, raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch d := v.(type) {
	case string:
		if f.Kind == tool.KindEnum && !hasOption(f, d) {
			return nil
		}
		if neutralize(d) != d || len(d) > maxElicitDescription {
			return nil // a default that could disguise itself is not filled in
		}
		if _, err := f.Parse(d); err != nil || f.Kind == tool.KindBoolean || f.Kind == tool.KindMulti {
			return nil
		}
		return d
	case float64:
		if f.Kind == tool.KindInteger || f.Kind == tool.KindNumber {
			return d
		}
	case bool:
		if f.Kind == tool.KindBoolean {
			return d
		}
	case []any:
		if f.Kind != tool.KindMulti {
			return nil
		}
		var items []string
		for _, it := range d {
			if s, ok := it.(string); ok && hasOption(f, s) {
				items = append(items, s)
			}
		}
		return items
	}
	return nil
}

func hasOption(f tool.Field, v string) bool {
	for _, o := range f.Options {
		if o.Value == v {
			return true
		}
	}
	return false
}

// secretWords are what a field asking for a secret is called.
var secretWords = map[string]bool{"password": true, "passwd": true, "passphrase": true,
	"token": true, "secret": true, "key": true, "apikey": true, "credential": true, "credentials": true, "otp": true}

// asksSecret reports whether a field asks for a password, token, secret
// or key, by its name, title, description or format.
func asksSecret(texts ...string) bool {
	for _, s := range texts {
		var word strings.Builder
		flush := func() bool {
			w := strings.ToLower(word.String())
			word.Reset()
			return secretWords[w]
		}
		prev := rune(0)
		for _, r := range s {
			if !unicode.IsLetter(r) || (unicode.IsUpper(r) && unicode.IsLower(prev)) {
				if flush() {
					return true
				}
			}
			if unicode.IsLetter(r) {
				word.WriteRune(r)
			}
			prev = r
		}
		if flush() {
			return true
		}
	}
	return false
}
