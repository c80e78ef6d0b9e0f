package store

import (
	"bytes"
	"encoding/json"
)

// encodeRecord is json.Marshal without HTML escaping: '<', '>' and '&'
// are stored as themselves, so a json.RawMessage inside v — a pinned tool
// definition in canonical form (SPEC D8) — is stored byte for byte as
// given, not re-spelled `\u003c`, and digests to its pin when read back.
func encodeRecord(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
