package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"vouch/internal/app"
	"vouch/internal/clitext"
	"vouch/internal/cliview"
	"vouch/policy"
	"vouch/safetext"
)

// recentDecisions is how many decisions `vouch policy list` shows.
const recentDecisions = 20

// withDB opens only the database (no keyring, no MCP) for fn; in the
// session, fn runs on the session's database (SPEC K5).
func withDB(g *globals, e env, fn func(*app.State) error) error {
	if e.host != nil {
		return fn(app.StateOf(e.host))
	}
	dir, err := resolveStateDir(g)
	if err != nil {
		return err
	}
	return app.WithDB(dir, fn)
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// runPolicyCmd is `vouch policy list | set | remove` (SPEC M, D1).
func runPolicyCmd(_ context.Context, g *globals, args []string, e env) error {
	if len(args) == 0 {
		return app.Errorf(app.Usage, "vouch policy needs a subcommand: list, set or remove")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return policyList(g, rest, e)
	case "set":
		return policySet(g, rest, e)
	case "remove":
		return policyRemove(g, rest, e)
	}
	return app.Errorf(app.Usage, "unknown subcommand 'vouch policy %s'; use list, set or remove", sub)
}

func policyList(g *globals, args []string, e env) error {
	fs := subFlags("policy list", g)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	return withDB(g, e, func(s *app.State) error {
		out, err := s.Rules().Listing(recentDecisions)
		if err != nil {
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, out)
		}
		labels, err := s.ToolLabels()
		if err != nil {
			return err
		}
		return clitext.Write(e.stdout, "the policy", cliview.PolicyList(out, labels))
	})
}

// constraintFlag collects repeated --under or --one-of flags. Repeating
// the flag for one argument adds values to the same constraint, so
// `--under path=/a --under path=/b` allows either folder.
type constraintFlag struct {
	kind string
	list *[]policy.Constraint
}

func (f constraintFlag) String() string { return "" }

func (f constraintFlag) Set(v string) error {
	arg, val, ok := strings.Cut(v, "=")
	if !ok || arg == "" || val == "" {
		if f.kind == policy.Under {
			return errors.New("takes ARG=PATH, e.g. --under path=/srv/data")
		}
		return errors.New("takes ARG=V1,V2, e.g. --one-of mode=fast,safe")
	}
	vals := []string{val}
	if f.kind == policy.OneOf {
		vals = strings.Split(val, ",")
	}
	for i := range *f.list {
		if c := &(*f.list)[i]; c.Arg == arg && c.Kind == f.kind {
			c.Values = append(c.Values, vals...)
			return nil
		}
	}
	*f.list = append(*f.list, policy.Constraint{Arg: arg, Kind: f.kind, Values: vals})
	return nil
}

func policySet(g *globals, args []string, e env) error {
	fs := subFlags("policy set", g)
	asJSON := fs.Bool("json", false, "print JSON")
	effect := fs.String("effect", "", "read-only, idempotent or mutating (default: the rule's current effect)")
	note := fs.String("note", "", "your reminder of why")
	var constraints []policy.Constraint
	fs.Var(constraintFlag{kind: policy.Under, list: &constraints}, "under", "ARG=PATH: allow only when ARG is at or below PATH (repeatable)")
	fs.Var(constraintFlag{kind: policy.OneOf, list: &constraints}, "one-of", "ARG=V1,V2: allow only when ARG is one of the values (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return app.Errorf(app.Usage, "vouch policy set needs IDENTITY and a class, e.g. vouch policy set builtin:fs_write block")
	}
	identity, class := pos[0], policy.Class(pos[1])
	if class != policy.Ask && class != policy.Allow && class != policy.Block {
		return app.Errorf(app.Usage, "the class %q is not ask, allow or block", pos[1])
	}
	eff := policy.Effect(*effect)
	if eff != "" && eff != policy.ReadOnly && eff != policy.Idempotent && eff != policy.Mutating {
		return app.Errorf(app.Usage, "the effect %q is not read-only, idempotent or mutating", *effect)
	}
	return withDB(g, e, func(s *app.State) error {
		rule, summary, err := s.Rules().Set(app.RuleInput{Identity: identity, Class: class, Effect: eff,
			Constraints: constraints, Note: *note}, time.Now().UTC())
		if err != nil {
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, rule)
		}
		return clitext.Write(e.stdout, "the rule", cliview.RuleSet(identity, summary, rule))
	})
}

func policyRemove(g *globals, args []string, e env) error {
	fs := subFlags("policy remove", g)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return app.Errorf(app.Usage, "vouch policy remove needs the rule's IDENTITY; 'vouch policy list' shows them")
	}
	identity := pos[0]
	return withDB(g, e, func(s *app.State) error {
		if err := s.Rules().Delete(identity); err != nil {
			if errors.Is(err, app.ErrNoRule) {
				return app.Errorf(app.Usage, "there is no rule for %s; 'vouch policy list' shows them", safetext.Line(identity, 80))
			}
			return err
		}
		if *asJSON {
			return clitext.WriteJSON(e.stdout, map[string]string{"removed": identity})
		}
		now := policy.NewSnapshot(nil, policy.Options{}).Summary(identity, "")
		_, err := fmt.Fprintf(e.stdout, "removed the rule for %s; it now follows the default: %s\n", safetext.Line(identity, 0), now)
		return err
	})
}
