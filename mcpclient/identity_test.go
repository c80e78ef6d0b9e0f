package mcpclient

import (
	"errors"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/quick"
)

const (
	serverA = "0b6f4a4e-2c55-4c39-9a43-0c2b6f1d6a01"
	serverB = "7d1e9f0a-8b3c-4e2d-a6f5-3b4c5d6e7f80"
)

var legalWire = regexp.MustCompile(`^mcp_[A-Za-z0-9_-]{1,59}$`)

// TestIdentity covers SPEC C1.
func TestIdentity(t *testing.T) {
	id := Identity(serverA, "read:file")
	if want := "mcp:" + serverA + ":read:file"; id != want {
		t.Fatalf("Identity() = %q, want %q", id, want)
	}
	s, tool, ok := ParseIdentity(id)
	if !ok || s != serverA || tool != "read:file" {
		t.Fatalf("ParseIdentity(%q) = %q, %q, %v", id, s, tool, ok)
	}
	for _, bad := range []string{"builtin:read", "mcp:", "mcp:abc", "mcp::tool", "mcp:abc:"} {
		if _, _, ok := ParseIdentity(bad); ok {
			t.Errorf("ParseIdentity(%q) ok, want failure", bad)
		}
	}
}

// TestWireNames covers SPEC C2 and C3 with named cases.
func TestWireNames(t *testing.T) {
	long := strings.Repeat("a", 80)
	tests := []struct {
		name   string
		ids    []string
		check  string // identity to look at
		want   string // exact wire name, or "" to check hashed shape
		hashed bool
	}{
		{"plain", []string{Identity(serverA, "echo")}, Identity(serverA, "echo"), "mcp_echo", false},
		{"dashes kept", []string{Identity(serverA, "get-sum")}, Identity(serverA, "get-sum"), "mcp_get-sum", false},
		{"dot sanitized", []string{Identity(serverA, "fs.read")}, Identity(serverA, "fs.read"), "", true},
		{"unicode sanitized", []string{Identity(serverA, "résumé")}, Identity(serverA, "résumé"), "", true},
		{"too long", []string{Identity(serverA, long)}, Identity(serverA, long), "", true},
		{"same name two servers", []string{Identity(serverA, "echo"), Identity(serverB, "echo")}, Identity(serverA, "echo"), "", true},
		{"case-only difference", []string{Identity(serverA, "Echo"), Identity(serverB, "echo")}, Identity(serverB, "echo"), "", true},
		{"sanitized collides with plain", []string{Identity(serverA, "a.b"), Identity(serverB, "a_b")}, Identity(serverB, "a_b"), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WireNames(tt.ids)[tt.check]
			if !legalWire.MatchString(got) {
				t.Fatalf("wire name %q is not legal", got)
			}
			if tt.want != "" && got != tt.want {
				t.Fatalf("wire name = %q, want %q", got, tt.want)
			}
			if tt.hashed && !regexp.MustCompile(`_[0-9a-f]{12}$`).MatchString(got) {
				t.Fatalf("wire name %q has no identity hash", got)
			}
		})
	}
}

// identitySet is a random set of identities for property tests: few
// servers, tool names drawn to collide, to need sanitizing and to be long.
type identitySet []string

func (identitySet) Generate(r *rand.Rand, size int) reflect.Value {
	servers := []string{serverA, serverB, "c0ffee00-0000-4000-8000-000000000000"}
	names := []string{"echo", "Echo", "get-sum", "fs.read", "fs_read", "a b", "日本語", "", "x", strings.Repeat("z", 70), strings.Repeat("z", 71)}
	n := r.Intn(size + 1)
	out := make(identitySet, 0, n)
	for range n {
		name := names[r.Intn(len(names))]
		if r.Intn(3) == 0 {
			b := make([]byte, 1+r.Intn(90))
			for i := range b {
				b[i] = byte(32 + r.Intn(95))
			}
			name = string(b)
		}
		if name == "" {
			name = "e"
		}
		out = append(out, Identity(servers[r.Intn(len(servers))], name))
	}
	return reflect.ValueOf(out)
}

// TestWireNamesProperties checks, for random identity sets, that wire names
// are always legal, unique within the set (also case-insensitively), stable
// whatever the order and duplicates, and that reverse lookup maps back
// exactly while an unknown wire name is an error, never a guess (SPEC C2).
func TestWireNamesProperties(t *testing.T) {
	prop := func(ids identitySet, seed int64) bool {
		names := WireNames(ids)
		seen := map[string]string{}
		for id, w := range names {
			if !legalWire.MatchString(w) {
				t.Logf("illegal %q for %q", w, id)
				return false
			}
			if other, dup := seen[strings.ToLower(w)]; dup {
				t.Logf("%q and %q share %q", id, other, w)
				return false
			}
			seen[strings.ToLower(w)] = id
		}
		for _, id := range ids {
			if _, ok := names[id]; !ok {
				return false
			}
		}
		// Stable: shuffled and duplicated input gives the same map.
		r := rand.New(rand.NewSource(seed))
		shuffled := append(append([]string(nil), ids...), ids...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if !reflect.DeepEqual(WireNames(shuffled), names) {
			t.Log("not stable under reordering")
			return false
		}
		wm := NewWireMap(ids)
		for id, w := range names {
			if got, err := wm.Identity(w); err != nil || got != id {
				return false
			}
		}
		unknown := "mcp_unknown_" + strings.Repeat("q", int(seed&7))
		if _, used := seen[strings.ToLower(unknown)]; !used {
			if _, err := wm.Identity(unknown); !errors.Is(err, ErrUnknownWireName) {
				return false
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 500}); err != nil {
		t.Fatal(err)
	}
}

// TestWireMapUnknown covers SPEC C2: a near-miss is not resolved.
func TestWireMapUnknown(t *testing.T) {
	wm := NewWireMap([]string{Identity(serverA, "echo")})
	for _, w := range []string{"mcp_Echo", "echo", "mcp_echo ", "mcp_ech", ""} {
		if id, err := wm.Identity(w); !errors.Is(err, ErrUnknownWireName) {
			t.Errorf("Identity(%q) = %q, %v; want ErrUnknownWireName", w, id, err)
		}
	}
	if w, ok := wm.Wire(Identity(serverA, "echo")); !ok || w != "mcp_echo" {
		t.Errorf("Wire() = %q, %v", w, ok)
	}
}

// FuzzWireNames checks legality and uniqueness for arbitrary tool names.
func FuzzWireNames(f *testing.F) {
	f.Add("echo", "echo", "fs.read")
	f.Add(strings.Repeat("a", 100), "a\x00b", "ÅÅ")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ids := []string{Identity(serverA, a), Identity(serverB, a), Identity(serverA, b), Identity(serverB, c)}
		names := WireNames(ids)
		seen := map[string]bool{}
		for _, w := range names {
			if !legalWire.MatchString(w) || seen[strings.ToLower(w)] {
				t.Fatalf("bad or duplicate wire name %q in %v", w, names)
			}
			seen[strings.ToLower(w)] = true
		}
	})
}
