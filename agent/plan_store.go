package agent

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"maps"
	"time"

	"vouch/tool"
)

// Plans kept across sessions (SPEC F1, F4; issue 29 item 2). The plan
// cache (plan_cache.go) lives in a client, and every launch of vouch
// starts a new session process with a new client: its first Enter capped
// and encoded every schema again — with 200 tools, about a third of the
// CPU from Enter to request. What a definition is planned into depends on
// its content alone (CapTool, and the entry under its wire name), so it is
// kept in the state like the token counts are: keyed by the digest of the
// definition's content, read for all of a run's tools in one read, and
// written after the run, never on the way to a request.

// PlanStore keeps planned tool definitions across sessions, keyed by the
// hex digest of a definition's content. A CountStore given to
// SetCountStore that also implements PlanStore (the state database does)
// keeps them. The values are the agent's own encoding; a value it cannot
// read is planned again.
type PlanStore interface {
	ToolPlans(keys []string) (map[string][]byte, error)
	PutToolPlans(plans map[string][]byte) error
}

// maxPendingPlans bounds the entries waiting to be kept.
const maxPendingPlans = 1024

// setStore makes c read and keep its entries in s (nil: memory only).
func (c *planCache) setStore(s PlanStore) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store = s
}

// load reads the kept entries of keys c does not hold, in one read.
func (c *planCache) load(keys [][32]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	st := c.store
	var missing []string
	if st != nil {
		for _, k := range keys {
			if _, ok := c.m[k]; !ok {
				missing = append(missing, hex.EncodeToString(k[:]))
			}
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return
	}
	got, err := st.ToolPlans(missing)
	if err != nil {
		return // an unreadable plan is planned again
	}
	for hk, v := range got {
		var k [32]byte
		if n, err := hex.Decode(k[:], []byte(hk)); err != nil || n != len(k) {
			continue
		}
		if e, err := decodePlanEntry(v); err == nil {
			c.put(k, e, false)
		}
	}
}

// pendLocked notes v to be kept under key by the next keep; c.mu is held.
func (c *planCache) pendLocked(key [32]byte, v []byte) {
	if c.store == nil {
		return
	}
	if c.pending == nil {
		c.pending = make(map[string][]byte)
	}
	if len(c.pending) < maxPendingPlans {
		c.pending[hex.EncodeToString(key[:])] = v
	}
}

// anchorsEvery is how often a client writes its calibration anchors when
// no plan is written with them: each write is a transaction of the state
// (an fdatasync), which the next Enter's own writes would wait behind.
// An anchor kept a little older is still the count of a prompt the next
// one extends (anchor_store.go).
const anchorsEvery = 30 * time.Second

// keep writes what was noted since the last keep to the store, in the
// background; at most one write is in flight. Anchors go with plans, and
// on their own at most every anchorsEvery (the first at once).
func (c *planCache) keep() {
	c.mu.Lock()
	st, pending := c.store, c.pending
	if st == nil || c.writing {
		c.mu.Unlock()
		return
	}
	if now := time.Now(); len(c.anchors) > 0 && (len(pending) > 0 || c.anchorsAt.IsZero() || now.Sub(c.anchorsAt) >= anchorsEvery) {
		if pending == nil {
			pending = make(map[string][]byte, len(c.anchors))
		}
		maps.Copy(pending, c.anchors)
		c.anchors, c.anchorsAt = nil, now
	}
	if len(pending) == 0 {
		c.mu.Unlock()
		return
	}
	c.pending, c.writing = nil, true
	c.mu.Unlock()
	go func() {
		_ = st.PutToolPlans(pending) // a plan not kept is planned again next session
		c.mu.Lock()
		c.writing = false
		c.mu.Unlock()
	}()
}

// planEntryVersion starts every encoded entry; an entry of another is
// planned again. It must change whenever CapTool or toolEntryJSON changes
// what it makes of a definition, or a new vouch would send what an older
// one planned.
const planEntryVersion = 1

// encodePlanEntry is e as kept: the version, then the capped description,
// the capped parameters, the wire name and the entry, each
// length-prefixed. The identity is not kept: it is part of the key.
func encodePlanEntry(e planEntry) []byte {
	b := make([]byte, 0, 1+len(e.capped.Description)+len(e.capped.Parameters)+len(e.wire)+len(e.entry)+4*binary.MaxVarintLen32)
	b = append(b, planEntryVersion)
	for _, s := range []string{e.capped.Description, string(e.capped.Parameters), e.wire, e.entry} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errPlanEntry = errors.New("not a kept plan entry")

// decodePlanEntry reads what encodePlanEntry wrote; the identity is left
// for capped to fill in.
func decodePlanEntry(b []byte) (planEntry, error) {
	if len(b) == 0 || b[0] != planEntryVersion {
		return planEntry{}, errPlanEntry
	}
	b = b[1:]
	var f [4]string
	for i := range f {
		n, used := binary.Uvarint(b)
		if used <= 0 || n > uint64(len(b)-used) {
			return planEntry{}, errPlanEntry
		}
		f[i], b = string(b[used:used+int(n)]), b[used+int(n):]
	}
	if len(b) != 0 || f[1] == "" || f[3] == "" {
		return planEntry{}, errPlanEntry
	}
	return planEntry{capped: tool.Def{Description: f[0], Parameters: []byte(f[1])}, wire: f[2], entry: f[3]}, nil
}
