package agent

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// accumulate decodes each line as a chunk payload and accumulates its tool
// call deltas.
func accumulate(lines []string) ([]pendingCall, error) {
	var acc toolCallAccumulator
	for _, line := range lines {
		ch, err := decodeChunk([]byte(line))
		if err != nil {
			return nil, err
		}
		for _, c := range ch.Choices {
			for _, d := range c.Delta.ToolCalls {
				if err := acc.add(d); err != nil {
					return nil, err
				}
			}
		}
	}
	return acc.finish(), nil
}

func delta(calls string) string {
	return `{"choices":[{"index":0,"delta":{"tool_calls":` + calls + `}}]}`
}

func TestAccumulateToolCalls(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string // id|name|args
	}{
		{
			name: "OpenAI: arguments split over chunks",
			lines: []string{
				delta(`[{"index":0,"id":"call_1","type":"function","function":{"name":"fs_read","arguments":""}}]`),
				delta(`[{"index":0,"function":{"arguments":"{\"pa"}}]`),
				delta(`[{"index":0,"function":{"arguments":"th\":\"a\"}"}}]`),
			},
			want: []string{`call_1|fs_read|{"path":"a"}`},
		},
		{
			name: "Ollama: several calls at index 0 with new ids",
			lines: []string{
				delta(`[{"index":0,"id":"call_a","function":{"name":"x","arguments":"{}"}}]`),
				delta(`[{"index":0,"id":"call_b","function":{"name":"y","arguments":"{\"n\":1}"}}]`),
			},
			want: []string{`call_a|x|{}`, `call_b|y|{"n":1}`},
		},
		{
			name: "same id repeated on every chunk stays one call",
			lines: []string{
				delta(`[{"index":0,"id":"c","function":{"name":"x","arguments":"{\"a\""}}]`),
				delta(`[{"index":0,"id":"c","function":{"name":"x","arguments":":1}"}}]`),
			},
			want: []string{`c|x|{"a":1}`},
		},
		{
			name: "two calls in one chunk, missing index means 0",
			lines: []string{
				delta(`[{"id":"a","function":{"name":"x","arguments":"{}"}},{"index":1,"id":"b","function":{"name":"y","arguments":"{}"}}]`),
			},
			want: []string{`a|x|{}`, `b|y|{}`},
		},
		{
			name:  "arguments as an object are kept verbatim",
			lines: []string{delta(`[{"index":0,"id":"a","function":{"name":"x","arguments":{"k":[1,2]}}}]`)},
			want:  []string{`a|x|{"k":[1,2]}`},
		},
		{
			name: "name streamed in pieces",
			lines: []string{
				delta(`[{"index":0,"id":"a","function":{"name":"fs_"}}]`),
				delta(`[{"index":0,"function":{"name":"read","arguments":"{}"}}]`),
			},
			want: []string{`a|fs_read|{}`},
		},
		{
			name:  "empty choices and null fields are ignored",
			lines: []string{`{"choices":[]}`, `{"choices":[{"delta":{"content":null,"tool_calls":null}}],"usage":null}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := accumulate(tt.lines)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.id+"|"+c.name+"|"+string(c.args))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAccumulateRejects(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
	}{
		{"chunk not JSON", []string{`{"choices":[`}},
		{"arguments string not a string", []string{delta(`[{"index":0,"function":{"arguments":"\x"}}]`)}},
		{"too many calls", func() []string {
			var b strings.Builder
			b.WriteString("[")
			for i := range maxToolCallsPerTurn + 1 {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(`{"index":` + strconv.Itoa(i) + `}`)
			}
			b.WriteString("]")
			return []string{delta(b.String())}
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := accumulate(tt.lines); !errors.Is(err, ErrBadStream) {
				t.Errorf("got %v, want ErrBadStream", err)
			}
		})
	}
}

func TestCheckArguments(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{in: "", want: "{}"},
		{in: "  ", want: "{}"},
		{in: ` {"a":1} `, want: `{"a":1}`},
		{in: `{"a":`, wantErr: "arguments were not valid JSON: unexpected end of JSON input; call the tool again with a JSON object"},
		{in: `{'a':1}`, wantErr: "arguments were not valid JSON"},
		{in: `[]`, wantErr: "arguments must be a JSON object, got an array"},
		{in: `"path"`, wantErr: "got a string"},
		{in: `null`, wantErr: "got null"},
		{in: `{"a":1} {"b":2}`, wantErr: "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := checkArguments(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("got (%s, %v), want error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("got (%s, %v), want %s", got, err, tt.want)
			}
		})
	}
}

// FuzzAccumulateToolCalls feeds arbitrary chunk payloads (one per line) to
// the decoder and accumulator: no panic, bounded calls and arguments, and
// whatever checkArguments accepts is a JSON object.
func FuzzAccumulateToolCalls(f *testing.F) {
	f.Add(delta(`[{"index":0,"id":"a","function":{"name":"x","arguments":"{\"k\""}}]`) + "\n" +
		delta(`[{"index":0,"function":{"arguments":":1}"}}]`))
	f.Add(delta(`[{"index":0,"id":"a","function":{"name":"x","arguments":"{}"}}]`) + "\n" +
		delta(`[{"index":0,"id":"b","function":{"name":"y","arguments":{"n":1}}}]`))
	f.Fuzz(func(t *testing.T, stream string) {
		lines := strings.Split(stream, "\n")
		calls, err := accumulate(lines)
		if err != nil {
			return
		}
		if len(calls) > maxToolCallsPerTurn {
			t.Fatalf("got %d calls, want at most %d", len(calls), maxToolCallsPerTurn)
		}
		for _, c := range calls {
			if len(c.args) > maxArgumentBytes {
				t.Fatalf("got %d argument bytes, want at most %d", len(c.args), maxArgumentBytes)
			}
			args, err := checkArguments(string(c.args))
			if err != nil {
				continue
			}
			var obj map[string]any
			if json.Unmarshal(args, &obj) != nil {
				t.Fatalf("checkArguments accepted %q, which is not a JSON object", args)
			}
		}
	})
}
