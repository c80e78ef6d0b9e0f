package agent

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"vouch/tool"
)

// maxPlanCache bounds a client's planCache (entries, one per declared
// tool definition); when full it starts over.
const maxPlanCache = 4096

// planCache keeps, across the runs of one client, what planned() makes of
// each declared tool definition: the capped definition (CapTool) and its
// entry in a request's tools array under the wire name it last had. Every
// run plans every selected tool again, and capping a schema and encoding
// its entry were most of the per-run cost each active MCP server adds to
// an Enter (BenchmarkSubmitWithDeadServers, SPEC B5); the catalog rarely
// changes between runs, so a run now repeats that work only for a
// definition it has not seen. A definition is identified by its content
// (identity, description and parameters), so a changed tool is planned
// afresh. The cached capped definition is shared by the plans that use
// it and must not be modified. Safe for concurrent use; the zero value is
// ready.
type planCache struct {
	mu sync.Mutex
	m  map[[32]byte]planEntry
	// store keeps entries across sessions; pending are those planned
	// since they were last written there, writing is set while they are
	// (plan_store.go).
	store   PlanStore
	pending map[string][]byte // hex key → encoded
	writing bool
	// anchors are the calibration anchors to keep (anchor_store.go), and
	// anchorsAt when anchors were last written.
	anchors   map[string][]byte
	anchorsAt time.Time
}

type planEntry struct {
	capped tool.Def
	wire   string // the wire name entry was encoded with
	entry  string // toolEntryJSON(wire, capped)
}

// planKey identifies a declared definition by its content.
func planKey(d tool.Def) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range []string{d.Identity, d.Description} {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		_, _ = h.Write(n[:]) // a hash.Hash never returns an error
		_, _ = h.Write([]byte(s))
	}
	_, _ = h.Write(d.Parameters)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// capped returns full as sent (CapTool) and its request entry under wire,
// from the cache when full, whose planKey is key, was planned before
// (in this client, or kept in its store and loaded). full.Parameters is a
// JSON value (never empty). A nil cache computes every time.
func (c *planCache) capped(key [32]byte, wire string, full tool.Def) (tool.Def, string, error) {
	if c != nil {
		c.mu.Lock()
		e, ok := c.m[key]
		c.mu.Unlock()
		if ok {
			e.capped.Identity = full.Identity // a kept entry leaves it to its key
			if e.wire != wire {
				e.wire, e.entry = wire, toolEntryJSON(wire, e.capped)
				c.put(key, e, true)
			}
			return e.capped, e.entry, nil
		}
	}
	var schema map[string]any
	if err := json.Unmarshal(full.Parameters, &schema); err != nil {
		return tool.Def{}, "", fmt.Errorf("%w: tool %q: parameters are not a JSON object", tool.ErrInvalid, full.Identity)
	}
	capped, err := CapTool(full)
	if err != nil {
		return tool.Def{}, "", fmt.Errorf("%w: tool %q: %v", tool.ErrInvalid, full.Identity, err)
	}
	entry := toolEntryJSON(wire, capped)
	if c != nil {
		c.put(key, planEntry{capped: capped, wire: wire, entry: entry}, true)
	}
	return capped, entry, nil
}

// put holds e under key, and notes it to be kept in the store when keep
// is set (an entry planned here, not one read from there).
func (c *planCache) put(key [32]byte, e planEntry, keep bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxPlanCache {
		c.m = make(map[[32]byte]planEntry)
	}
	c.m[key] = e
	if keep {
		c.pendLocked(key, encodePlanEntry(e))
	}
}
