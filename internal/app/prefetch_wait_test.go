package app

// awaitPrefetch waits for the tail reads c's History started (the
// benchmark's "typed" Enter; the tree before issue 29 item 4 has none,
// and a copy of this file that does nothing measures it).
func awaitPrefetch(c *Chat) { c.prefetching.Wait() }
