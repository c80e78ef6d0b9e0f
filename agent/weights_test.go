package agent

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestNewWeightsAreTheEstimate (SPEC A3; issue 29 item 4): a weight made
// to keep is exactly the estimate and digest of its text — from the memo
// where the walk left one (an exact count there is not an estimate) —
// and reads back byte for byte.
func TestNewWeightsAreTheEstimate(t *testing.T) {
	c := NewClient("http://127.0.0.1:1", "", nil)
	texts := []string{"hello there, how are you", "中文的消息", "camelCase and {\"json\": 1}", "counted"}
	history := make([]Message, len(texts))
	weights := make([]MessageWeight, len(texts))
	for i, s := range texts {
		history[i] = Message{Role: RoleUser, Content: s}
		weights[i] = MessageWeight{Ref: uint64(10 + i)}
	}
	c.peekCost("m", texts[0])
	c.textCost("m", texts[1], false)
	c.remember(map[string]int{CountKey("m", texts[3]): 1})
	c.textCost("m", texts[3], false)
	got := c.newWeights("m", history, weights, 0)
	if len(got) != len(texts) {
		t.Fatalf("%d weights, want %d", len(got), len(texts))
	}
	for i, w := range got {
		hi, lo := estimateRange(texts[i])
		want := textWeight{hi: hi, lo: lo, digest: sha256.Sum256([]byte(texts[i]))}
		if w.Ref != uint64(10+i) || !bytes.Equal(w.Kept, encodeWeight(want)) {
			t.Errorf("%q: weight %d %x, want %x", texts[i], w.Ref, w.Kept, encodeWeight(want))
		}
		if back, ok := decodeWeight(w.Kept); !ok || back != want || !bytes.Equal(encodeWeight(back), w.Kept) {
			t.Errorf("%q: read back %+v, %v", texts[i], back, ok)
		}
	}
	weights[2].Kept = got[2].Kept
	if again := c.newWeights("m", history, weights, 0); len(again) != len(texts)-1 {
		t.Errorf("a weight already kept was made again: %d weights", len(again))
	}
}

// FuzzDecodeWeight: a kept weight is read only as encodeWeight writes
// one, and reads back byte for byte.
func FuzzDecodeWeight(f *testing.F) {
	f.Add(encodeWeight(textWeight{hi: 12, lo: 7}))
	f.Add([]byte{weightVersion, 0x80})
	f.Add([]byte{})
	f.Add(append([]byte{weightVersion, 0x90, 0x00, 0x00}, make([]byte, 32)...)) // 16, written long
	f.Fuzz(func(t *testing.T, b []byte) {
		w, ok := decodeWeight(b)
		if ok && !bytes.Equal(encodeWeight(w), b) {
			t.Fatalf("%x read as %+v, which is kept as %x", b, w, encodeWeight(w))
		}
	})
}
