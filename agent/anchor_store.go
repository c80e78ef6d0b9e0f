package agent

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Calibration anchors kept across sessions (SPEC A6, F4; issue 29 item 2).
// A request that extends the prompt the server counted last needs no
// counting round trip (calibration.settled); that prompt's count lived in
// the client, so the first Enter of every session rendered and counted the
// whole window-filling prompt exactly — two round trips that encode and
// parse it on both sides, about half of that Enter once its plan came
// from the store. Each model's anchor is kept beside the planned tools
// (the PlanStore), written after the run that learned it and read once
// per model and client, when its first request is fitted. Written on
// their own they are written at most every anchorsEvery (plan_store.go).

// anchorKey is the PlanStore key of model's anchor.
func anchorKey(model string) [32]byte {
	return sha256.Sum256([]byte("vouch prompt anchor\x00" + model))
}

// anchorVersion starts every encoded anchor; another is not read.
const anchorVersion = 1

// encodeAnchor is a as kept: the version, the tools' digest, the last
// prefix digest, the prefix's length and the tokens.
func encodeAnchor(a promptAnchor) []byte {
	b := make([]byte, 0, 1+64+2*binary.MaxVarintLen64)
	b = append(b, anchorVersion)
	b = append(b, a.tools[:]...)
	b = append(b, a.last[:]...)
	b = binary.AppendUvarint(b, uint64(a.n))
	return binary.AppendUvarint(b, uint64(a.tokens))
}

// decodeAnchor reads what encodeAnchor wrote.
func decodeAnchor(b []byte) (promptAnchor, bool) {
	if len(b) < 65 || b[0] != anchorVersion {
		return promptAnchor{}, false
	}
	var a promptAnchor
	copy(a.tools[:], b[1:33])
	copy(a.last[:], b[33:65])
	b = b[65:]
	n, used := binary.Uvarint(b)
	if used <= 0 || n == 0 || n > 1<<30 {
		return promptAnchor{}, false
	}
	tokens, used2 := binary.Uvarint(b[used:])
	if used2 <= 0 || used+used2 != len(b) || tokens == 0 || tokens > 1<<30 {
		return promptAnchor{}, false
	}
	a.n, a.tokens = int(n), int(tokens)
	return a, true
}

// keptAnchor is model's anchor as an earlier session kept it, read from
// the store once per client and model; ok is false when there is none.
func (c *Client) keptAnchor(model string) (a promptAnchor, ok bool) {
	c.mu.Lock()
	asked := c.anchorsAsked[model]
	if !asked {
		if c.anchorsAsked == nil || len(c.anchorsAsked) >= maxCalibratedModels {
			c.anchorsAsked = make(map[string]bool)
		}
		c.anchorsAsked[model] = true
	}
	c.mu.Unlock()
	if asked {
		return promptAnchor{}, false
	}
	v, ok := c.plans.read(anchorKey(model))
	if !ok {
		return promptAnchor{}, false
	}
	if a, ok = decodeAnchor(v); !ok {
		return promptAnchor{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, learned := c.anchors[model]; learned {
		return promptAnchor{}, false // this session counted a prompt meanwhile
	}
	if c.anchors == nil || len(c.anchors) >= maxCalibratedModels {
		c.anchors = make(map[string]promptAnchor)
	}
	c.anchors[model] = a
	return a, true
}

// keepAnchor notes model's anchor a to be kept (planCache.keep).
func (c *Client) keepAnchor(model string, a promptAnchor) {
	p := &c.plans
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.store == nil {
		return
	}
	if p.anchors == nil || len(p.anchors) >= maxCalibratedModels {
		p.anchors = make(map[string][]byte)
	}
	k := anchorKey(model)
	p.anchors[hex.EncodeToString(k[:])] = encodeAnchor(a)
}

// read is the kept value under key, from the store.
func (c *planCache) read(key [32]byte) ([]byte, bool) {
	c.mu.Lock()
	st := c.store
	c.mu.Unlock()
	if st == nil {
		return nil, false
	}
	hk := hex.EncodeToString(key[:])
	got, err := st.ToolPlans([]string{hk})
	if err != nil {
		return nil, false // an unreadable anchor: the prompt is counted
	}
	v, ok := got[hk]
	return v, ok
}
