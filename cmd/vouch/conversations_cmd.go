package main

import (
	"context"
	"fmt"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/safetext"
)

// conversationJSON is one conversation of `vouch conversations --json`.
type conversationJSON struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Updated  time.Time `json:"updated"`
	Created  time.Time `json:"created"`
	Model    string    `json:"model"`
	Messages int       `json:"messages"`
}

// runConversationsCmd is `vouch conversations [--json] [--limit N]`: the
// stored conversations, most recently updated first, each with its ID
// (for `vouch run --continue ID`), title, date, model and message count
// (SPEC L5, M). Conversations without a message are left out.
func runConversationsCmd(_ context.Context, g *globals, args []string, e env) error {
	fs := subFlags("conversations", g)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 50, "how many conversations to list")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return app.Errorf(app.Usage, "vouch conversations: unexpected argument %q; it takes only --json and --limit N", pos[0])
	case *limit <= 0 || *limit > 10000:
		return app.Errorf(app.Usage, "--limit must be between 1 and 10000")
	}
	return withDB(g, e, func(s *app.State) error {
		rows, err := s.Conversations(*limit)
		if err != nil {
			return err
		}
		if *asJSON {
			out := make([]conversationJSON, len(rows))
			for i, r := range rows {
				out[i] = conversationJSON{ID: r.ID, Title: r.Title, Updated: r.Updated, Created: r.Created, Model: r.Model, Messages: r.Messages}
			}
			return clitext.WriteJSON(e.stdout, out)
		}
		if len(rows) == 0 {
			_, err := fmt.Fprintln(e.stdout, "no conversations yet")
			return err
		}
		tw := clitext.NewTable(e.stdout)
		tw.Println("ID\tUPDATED\tMODEL\tMESSAGES\tTITLE")
		for _, r := range rows {
			model := r.Model
			if model == "" {
				model = "-"
			}
			tw.Printf("%s\t%s\t%s\t%d\t%s\n", r.ID, r.Updated.Local().Format("2006-01-02 15:04"),
				safetext.Line(model, 30), r.Messages, safetext.Line(r.Title, 50))
		}
		if err := tw.Flush("list"); err != nil {
			return err
		}
		_, err = fmt.Fprintln(e.stdout, "continue one: vouch run --continue ID TASK")
		return err
	})
}
