package tool

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestWireNames(t *testing.T) {
	wireNameShape := regexp.MustCompile(`^[A-Za-z0-9_-]{1,63}$`)
	long := strings.Repeat("x", 80)
	tests := []struct {
		name       string
		identities []string
		want       map[string]string // wire -> identity; "" values mean "check shape only"
		wantErr    error
	}{
		{
			name:       "built-ins keep their bare names",
			identities: []string{"builtin:fs_read", "builtin:fs_list"},
			want:       map[string]string{"fs_read": "builtin:fs_read", "fs_list": "builtin:fs_list"},
		},
		{
			name:       "mcp tool gets the mcp_ prefix",
			identities: []string{"mcp:8d1f:search"},
			want:       map[string]string{"mcp_search": "mcp:8d1f:search"},
		},
		{
			name:       "two servers, same tool name: both hashed, distinct (C3)",
			identities: []string{"mcp:aaaa:search", "mcp:bbbb:search"},
			want:       map[string]string{"mcp_search_" + hash8("mcp:aaaa:search"): "mcp:aaaa:search", "mcp_search_" + hash8("mcp:bbbb:search"): "mcp:bbbb:search"},
		},
		{
			name:       "sanitized names are hashed",
			identities: []string{"mcp:s:get weather.now"},
			want:       map[string]string{"mcp_get_weather_now_" + hash8("mcp:s:get weather.now"): "mcp:s:get weather.now"},
		},
		{
			name:       "long names are truncated and hashed",
			identities: []string{"mcp:s:" + long},
			want:       map[string]string{"mcp_" + long[:63-4-1-wireHashLen] + "_" + hash8("mcp:s:"+long): "mcp:s:" + long},
		},
		{
			name:       "names that differ only in case are both hashed",
			identities: []string{"mcp:s:Search", "mcp:s:search"},
			want:       map[string]string{"mcp_Search_" + hash8("mcp:s:Search"): "mcp:s:Search", "mcp_search_" + hash8("mcp:s:search"): "mcp:s:search"},
		},
		{name: "duplicate identity", identities: []string{"builtin:a", "builtin:a"}, wantErr: ErrInvalid},
		{name: "empty identity", identities: []string{""}, wantErr: ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WireNames(tt.identities)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for wire, id := range tt.want {
				if got[wire] != id {
					t.Errorf("got %v, want %q -> %q", got, wire, id)
				}
				if !wireNameShape.MatchString(wire) {
					t.Errorf("wire name %q breaks the C2 shape", wire)
				}
			}
		})
	}
}

func TestWireNamesDeterministic(t *testing.T) {
	a, err := WireNames([]string{"mcp:1:t", "mcp:2:t", "builtin:fs_read"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := WireNames([]string{"builtin:fs_read", "mcp:2:t", "mcp:1:t"})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range a {
		if b[k] != v {
			t.Errorf("got %q -> %q in one order and %q in another; want the same map", k, v, b[k])
		}
	}
}

// hash8 is the fixed-width identity hash the wire name carries (the name is
// historical: the hash is wireHashLen hex digits).
func hash8(identity string) string {
	h := hashedWire(identity, "", "x", 0)
	return h[len(h)-wireHashLen:]
}
