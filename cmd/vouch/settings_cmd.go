package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"vouch/internal/app"
	"vouch/internal/clitext"
)

// runSettingsCmd is `vouch settings [--json]`, `vouch settings get KEY`,
// `vouch settings set KEY VALUE` and `vouch settings reset KEY`: the
// registry of internal/app/settings.go (notify, notify-terminal,
// long-turn, session-idle). A running interface reads them when it
// starts; its Settings page changes the level at once.
func runSettingsCmd(_ context.Context, g *globals, args []string, e env) error {
	fs := subFlags("settings", g)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	sub := "list"
	if len(pos) > 0 {
		sub, pos = pos[0], pos[1:]
	}
	want := map[string]int{"list": 0, "get": 1, "reset": 1, "set": 2}
	n, ok := want[sub]
	if !ok {
		return app.Errorf(app.Usage, "unknown subcommand 'vouch settings %s'; use get KEY, set KEY VALUE or reset KEY, or no subcommand to list them", sub)
	}
	if len(pos) != n {
		return app.Errorf(app.Usage, "vouch settings %s takes %s; run 'vouch help' for usage", sub, map[string]string{
			"list": "no argument", "get": "one KEY", "reset": "one KEY", "set": "a KEY and a VALUE"}[sub])
	}
	return withDB(g, e, func(s *app.State) error {
		st := s.Settings()
		if sub == "list" {
			vals, err := st.Values()
			if err != nil {
				return err
			}
			if *asJSON {
				return clitext.WriteJSON(e.stdout, vals)
			}
			return printSettings(e, vals)
		}
		var v app.SettingValue
		switch sub {
		case "get":
			v, err = st.Value(pos[0])
		case "set":
			v, err = st.Set(pos[0], pos[1])
		case "reset":
			v, err = st.Reset(pos[0])
		}
		if err != nil {
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, v)
		}
		if sub == "get" {
			_, err = fmt.Fprintln(e.stdout, v.Value)
			return err
		}
		return printSettings(e, []app.SettingValue{v})
	})
}

// printSettings lists settings as KEY, VALUE, DEFAULT and what they take.
func printSettings(e env, vals []app.SettingValue) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	if _, err := fmt.Fprintln(tw, "KEY\tVALUE\tDEFAULT\tALLOWED"); err != nil {
		return err
	}
	for _, v := range vals {
		value := v.Value
		if !v.IsSet {
			value += " (default)"
		}
		if _, err := fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.Key, value, v.Default, v.Allowed); err != nil {
			return err
		}
	}
	return tw.Flush()
}
