package tool

import (
	"errors"
	"testing"
)

func ptr(v float64) *float64 { return &v }

// SPEC B12: every field type is validated as typed; invalid input says
// what to type and is not sent.
func TestFieldParse(t *testing.T) {
	opts := []Option{{Value: "dev", Label: "Development"}, {Value: "prod", Label: "Production"}}
	cases := []struct {
		name  string
		f     Field
		in    string
		want  any
		wrong bool
	}{
		{"text", Field{Kind: KindText}, " hi ", "hi", false},
		{"empty optional is not sent", Field{Kind: KindText}, "", nil, false},
		{"empty required", Field{Kind: KindText, Required: true}, "  ", nil, true},
		{"too short", Field{Kind: KindText, MinLength: 3}, "ab", nil, true},
		{"too long counts runes", Field{Kind: KindText, MaxLength: 2}, "éé", "éé", false},
		{"too long", Field{Kind: KindText, MaxLength: 2}, "abc", nil, true},
		{"email", Field{Kind: KindEmail}, "a@b.org", "a@b.org", false},
		{"email without at", Field{Kind: KindEmail}, "ab.org", nil, true},
		{"email with space", Field{Kind: KindEmail}, "a b@c.org", nil, true},
		{"uri", Field{Kind: KindURI}, "https://x.test/p", "https://x.test/p", false},
		{"uri relative", Field{Kind: KindURI}, "/p", nil, true},
		{"date", Field{Kind: KindDate}, "2026-02-28", "2026-02-28", false},
		{"date impossible", Field{Kind: KindDate}, "2026-02-30", nil, true},
		{"date-time", Field{Kind: KindDateTime}, "2026-02-28T10:00:00Z", "2026-02-28T10:00:00Z", false},
		{"integer", Field{Kind: KindInteger, Min: ptr(1), Max: ptr(10)}, "7", int64(7), false},
		{"integer fraction", Field{Kind: KindInteger}, "7.5", nil, true},
		{"integer below min", Field{Kind: KindInteger, Min: ptr(1)}, "0", nil, true},
		{"number above max", Field{Kind: KindNumber, Max: ptr(2.5)}, "2.6", nil, true},
		{"number", Field{Kind: KindNumber}, "-2.5", -2.5, false},
		{"number not a number", Field{Kind: KindNumber}, "NaN", nil, true},
		{"number infinite", Field{Kind: KindNumber}, "1e999", nil, true},
		{"boolean", Field{Kind: KindBoolean}, "yes", true, false},
		{"boolean garbage", Field{Kind: KindBoolean}, "maybe", nil, true},
		{"enum by value", Field{Kind: KindEnum, Options: opts}, "prod", "prod", false},
		{"enum by label", Field{Kind: KindEnum, Options: opts}, "development", "dev", false},
		{"enum other", Field{Kind: KindEnum, Options: opts}, "staging", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.f.Parse(c.in)
			if c.wrong {
				if !errors.Is(err, ErrInvalidValue) {
					t.Fatalf("Parse(%q) = %v, %v; want an invalid value", c.in, got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Parse(%q) = %#v, %v; want %#v", c.in, got, err, c.want)
			}
		})
	}
}

func TestCheckItems(t *testing.T) {
	f := Field{Kind: KindMulti, MinItems: 1, MaxItems: 2}
	for n, bad := range map[int]bool{0: true, 1: false, 2: false, 3: true} {
		if err := f.CheckItems(n); (err != nil) != bad {
			t.Errorf("CheckItems(%d) = %v, want error %v", n, err, bad)
		}
	}
	if (Field{Kind: KindMulti, Required: true}).CheckItems(0) == nil {
		t.Error("a required multi-select with nothing chosen passed")
	}
}

func TestDefaults(t *testing.T) {
	if got := (Field{Default: 3.0}).DefaultText(); got != "3" {
		t.Errorf("DefaultText(3.0) = %q", got)
	}
	if got := (Field{Default: true}).DefaultText(); got != "true" {
		t.Errorf("DefaultText(true) = %q", got)
	}
	if got := (Field{Default: []string{"a"}}).DefaultItems(); len(got) != 1 {
		t.Errorf("DefaultItems = %v", got)
	}
}

// SEP-1034: a person who keeps the defaults sends each of them, an
// integer as an integer; a field without a default is left out.
func TestDefaultContent(t *testing.T) {
	q := Question{Fields: []Field{
		{Name: "n", Kind: KindInteger, Default: 30.0},
		{Name: "s", Kind: KindText, Default: "x"},
		{Name: "b", Kind: KindBoolean, Default: false},
		{Name: "m", Kind: KindMulti, Default: []string{"a"}},
		{Name: "none", Kind: KindText},
	}}
	got := q.DefaultContent()
	if got["n"] != int64(30) || got["s"] != "x" || got["b"] != false || len(got["m"].([]string)) != 1 || len(got) != 4 {
		t.Errorf("DefaultContent() = %#v", got)
	}
}

// SPEC B12: what was sent is recorded with its values, a secret's never.
func TestAnswerDescribe(t *testing.T) {
	q := Question{Fields: []Field{{Name: "n", Title: "Name"}, {Name: "tok", Title: "Token", Secret: true}, {Name: "c", Title: "Count"}}}
	got := Answer{Action: Accept, Content: map[string]any{"n": "Ada", "tok": "s3cret", "c": int64(3)}}.Describe(q)
	if got != `the person sent Name "Ada", Token (hidden), Count 3` {
		t.Errorf("Describe = %q", got)
	}
	if got := (Answer{Action: Decline}).Describe(q); got != "the person declined" {
		t.Errorf("Describe(decline) = %q", got)
	}
	if got := (Answer{Action: Accept}).Describe(Question{URL: "https://x.test"}); got != "the person said they are done with the link" {
		t.Errorf("Describe(url) = %q", got)
	}
}
