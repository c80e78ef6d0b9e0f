package mcpclient

import (
	"context"
	"errors"
)

// How overlapping refreshes of one server settle (SPEC B5). Refreshes
// overlap in practice: activation runs a background refresh next to the
// person's own, tools/list_changed starts one while the warm-up runs, a
// short-bounded warm (`vouch tools`) can meet a long one. Each refresh
// takes a sequence number when it starts; its outcome is settled when it
// ends:
//
//   - An answered tools/list is applied unless the catalog in place came
//     from a newer refresh (catalogSeq). A newer refresh that failed first
//     does not discard it: the answer is the latest news from the server.
//     Before this rule, a newer refresh failing while an older one was
//     still dialing made the older one's answer "stale" on arrival, and
//     the server stayed stale with no refresh left to run.
//   - A failure is recorded unless a refresh at least as new has settled
//     (appliedSeq), so an old failure never overwrites a newer catalog.
//   - A refresh whose caller gave up (its context cancelled) records
//     nothing: the server did not fail. Nor does a refresh whose context
//     ended close the live connection, which another refresh's request may
//     be on; only a connection that broke is dropped.

// catalogWins reports whether a catalog from refresh seq may replace the
// one in place. Callers hold m.mu.
func catalogWins(s *server, seq uint64) bool { return seq > s.catalogSeq }

// gaveUp reports whether a refresh ended because its caller cancelled it
// (not because Options.Timeout or the caller's deadline passed, which
// says the server did not answer in time).
func gaveUp(ctx context.Context) bool { return errors.Is(ctx.Err(), context.Canceled) }
