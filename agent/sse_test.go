package agent

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// readFiltered reads a body through the SSE filter, as go-openai does.
func readFiltered(body string) (string, error) {
	f := newSSEFilter(io.NopCloser(strings.NewReader(body)))
	var out bytes.Buffer
	buf := make([]byte, 7) // small reads exercise partial copies
	for {
		n, err := f.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			return out.String(), err
		}
	}
}

func TestSSEFilter(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    string
		wantErr error // io.EOF for a clean end
		errText string
	}{
		{
			name:    "data lines normalised, [DONE] ends cleanly",
			body:    "data:{\"a\":1}\r\n\r\ndata: {\"b\":2}\n\ndata: [DONE]\n\n",
			want:    "data: {\"a\":1}\ndata: {\"b\":2}\ndata: [DONE]\n",
			wantErr: io.EOF,
		},
		{
			name:    "comments and other fields dropped",
			body:    ": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: {}\n: ping\ndata: [DONE]\n",
			want:    "data: {}\ndata: [DONE]\n",
			wantErr: io.EOF,
		},
		{
			name:    "end without [DONE] is a drop",
			body:    "data: {}\n\n",
			want:    "data: {}\n",
			wantErr: errStreamDropped,
		},
		{
			name:    "error object in a data line",
			body:    "data: {}\n\ndata: {\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\"}}\n\n",
			want:    "data: {}\n",
			errText: "out of memory",
		},
		{
			name:    "llama.cpp error line",
			body:    "error: {\"code\":500,\"message\":\"decode failed\"}\n\n",
			errText: "decode failed",
		},
		{
			name:    "event: error then data",
			body:    "event: error\ndata: {\"message\":\"overloaded\"}\n\n",
			errText: "overloaded",
		},
		{
			name:    "string error",
			body:    "data: {\"error\":\"bad things\"}\n",
			errText: "bad things",
		},
		{
			name:    "HTML is not SSE",
			body:    "<!DOCTYPE html>\n<html></html>\n",
			wantErr: errNotSSE,
		},
		{
			name:    "raw JSON lines are not SSE",
			body:    "{\"id\":\"x\",\"choices\":[]}\n",
			wantErr: errNotSSE,
		},
		{
			name:    "overlong line",
			body:    "data: " + strings.Repeat("x", maxSSELine+10) + "\n",
			wantErr: errLineTooLong,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readFiltered(tt.body)
			if got != tt.want {
				t.Errorf("got output %q, want %q", got, tt.want)
			}
			switch {
			case tt.errText != "":
				var se *streamError
				if !errors.As(err, &se) || !strings.Contains(se.Error(), tt.errText) {
					t.Errorf("got error %v, want a stream error containing %q", err, tt.errText)
				}
			case !errors.Is(err, tt.wantErr):
				t.Errorf("got error %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// FuzzSSEFilter feeds arbitrary bodies through the filter: it must never
// panic, must pass on only normalised data lines, and must end.
func FuzzSSEFilter(f *testing.F) {
	f.Add("data: {}\n\ndata: [DONE]\n")
	f.Add(": keep-alive\n\ndata: {\"error\":{}}\n")
	f.Fuzz(func(t *testing.T, body string) {
		got, err := readFiltered(body)
		if err == nil {
			t.Fatal("got no terminal error, want one")
		}
		for line := range strings.Lines(got) {
			if !strings.HasPrefix(line, "data: ") || !strings.HasSuffix(line, "\n") {
				t.Fatalf("passed on %q, want only data lines", line)
			}
		}
		if len(got) > len(body)+len("data: \n")*(strings.Count(body, "\n")+1) {
			t.Fatalf("output of %d bytes from a %d-byte body", len(got), len(body))
		}
	})
}
