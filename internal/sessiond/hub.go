package sessiond

import "sync"

// queueLen is how many frames wait for one client; a client that falls
// this far behind is dropped rather than slowing the renderer.
const queueLen = 1024

// hub is the program's output: every Write goes to each attached client's
// queue and never blocks. A client whose queue is full is dropped (its
// connection closes; running vouch again reattaches and repaints).
type hub struct {
	mu      sync.Mutex
	clients map[*client]struct{}
	// dropped is called (without mu) for a client the hub let go.
	dropped func(*client)
}

func newHub(dropped func(*client)) *hub {
	return &hub{clients: map[*client]struct{}{}, dropped: dropped}
}

// Write fans p out; it always succeeds, so the renderer never stops.
func (h *hub) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	total := len(p)
	var late []*client
	for len(p) > 0 {
		n := min(len(p), MaxPayload)
		f, err := encode(KindOutput, p[:n])
		if err != nil {
			return 0, err
		}
		h.mu.Lock()
		for c := range h.clients {
			select {
			case c.out <- f:
			default:
				delete(h.clients, c)
				late = append(late, c)
			}
		}
		h.mu.Unlock()
		p = p[n:]
	}
	for _, c := range late {
		c.drop("the terminal could not keep up")
		if h.dropped != nil {
			h.dropped(c)
		}
	}
	return total, nil
}

func (h *hub) add(c *client) {
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
}

func (h *hub) remove(c *client) {
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
}
