package sessiond

import (
	"net"
	"sync"
	"time"
)

// writeTimeout bounds one frame write to a client; a client that takes
// longer is dropped.
const writeTimeout = 5 * time.Second

// client is one connection as the server holds it. Every frame to it goes
// through out, written by one goroutine, so the hub never waits for it.
type client struct {
	conn  net.Conn
	hello Hello
	out   chan []byte
	size  Size

	once sync.Once
	end  chan struct{} // closed: write what is queued, then close
	gone chan struct{} // closed when the writer has closed conn
}

func newClient(conn net.Conn) *client {
	return &client{conn: conn, out: make(chan []byte, queueLen), end: make(chan struct{}), gone: make(chan struct{})}
}

// write sends queued frames until end, then the rest, then closes.
func (c *client) write() {
	defer close(c.gone)
	defer func() { _ = c.conn.Close() }()
	send := func(f []byte) bool {
		if err := c.conn.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
			return false
		}
		_, err := c.conn.Write(f)
		return err == nil
	}
	for {
		select {
		case f := <-c.out:
			if !send(f) {
				return
			}
		case <-c.end:
			for {
				select {
				case f := <-c.out:
					if !send(f) {
						return
					}
				default:
					return
				}
			}
		}
	}
}

// frame queues one encoded frame; false when the queue is full.
func (c *client) frame(k Kind, payload []byte) bool {
	f, err := encode(k, payload)
	if err != nil {
		return false
	}
	select {
	case c.out <- f:
		return true
	default:
		return false
	}
}

// json queues one JSON frame.
func (c *client) json(k Kind, v any) bool {
	b, err := marshal(v)
	if err != nil {
		return false
	}
	return c.frame(k, b)
}

// bye queues b and ends the connection after what is queued.
func (c *client) bye(b Bye) {
	c.json(KindBye, b)
	c.drop("")
}

// drop ends the connection after what is queued; reason is for the log.
func (c *client) drop(string) {
	c.once.Do(func() { close(c.end) })
}
