package ruleedit

import (
	"reflect"
	"strings"
	"testing"

	"vouch/policy"
)

// TestRuleDrafts: what the editor offers from a call's arguments, and that
// a rule's values survive the form unchanged.
func TestRuleDrafts(t *testing.T) {
	tests := []struct {
		name, args string
		want       []policy.Constraint
	}{
		{"absolute path", `{"path":"/srv/data/x.csv"}`, []policy.Constraint{{Arg: "path", Kind: policy.Under, Values: []string{"/srv/data"}}}},
		{"relative path", `{"file":"notes/todo.md"}`, []policy.Constraint{{Arg: "file", Kind: policy.Under, Values: []string{"notes"}}}},
		{"bare file name", `{"path":"x.csv"}`, []policy.Constraint{{Arg: "path", Kind: policy.OneOf, Values: []string{"x.csv"}}}},
		{"URL", `{"url":"https://a.example/b/c"}`, []policy.Constraint{{Arg: "url", Kind: policy.OneOf, Values: []string{"https://a.example/b/c"}}}},
		{"not strings", `{"n":1,"b":true,"o":{"path":"/x/y"},"a":["/x/y"]}`, nil},
		{"escapes, bidi, breaks and empties are not offered", `{"a":"\u001b[2J","b":"` + "\u202e" + `x","c":"a\nb","d":"","` + "\u200b" + `":"v"}`, nil},
		{"first of a duplicate key", `{"mode":"a","mode":"b"}`, []policy.Constraint{{Arg: "mode", Kind: policy.OneOf, Values: []string{"a"}}}},
		{"long values are not offered", `{"text":"` + strings.Repeat("x", offerLimit+1) + `"}`, nil},
		{"not an object", `["/srv/x"]`, nil},
		{"not JSON", `{"path":`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := FromCall("mcp:s:t", tt.args, "")
			if d.class != policy.Ask || d.effect != policy.Mutating || !d.fromCall {
				t.Errorf("draft = %s, %s, fromCall %v; want ask, mutating, true", d.class, d.effect, d.fromCall)
			}
			var got []policy.Constraint
			for _, c := range d.cons {
				if c.on {
					t.Errorf("constraint %s offered on", c.c.Arg)
				}
				got = append(got, c.c)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("offered %+v, want %+v", got, tt.want)
			}
		})
	}
	for _, vs := range [][]string{{"/srv/data"}, {"a,b", `c\d`, `\,`, "é ü"}, {"x, y"}} {
		if got := splitValues(joinValues(vs)); !reflect.DeepEqual(got, vs) {
			t.Errorf("values %q came back as %q", vs, got)
		}
	}
}
