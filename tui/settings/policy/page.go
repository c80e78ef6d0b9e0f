package policy

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	vpolicy "vouch/policy"
	"vouch/safetext"
	"vouch/tui/kit"
	"vouch/tui/ruleedit"
	"vouch/tui/settings"
)

// Page is the Policy page of Settings (SPEC D1, D4, L2; issue 4
// "Audit"): the reviewed rules — identity, class, effect, constraints and
// note — and below them the most recent audited decisions: when, what
// happened, who or what decided, for which tool and correlation ID.
//
// From here the person edits a rule in the rule editor, deletes one after
// a confirmation whose default is Cancel, and refreshes. Rules are made by
// classifying a call in the approval pane; nothing here answers a call.
// Everything shown passes through safetext: a rule's identity and
// arguments, and an audit record's fields, may quote what a server or the
// model wrote. Without a Editor the page says policy is not
// available here.
type Page struct {
	kit.PageFrame
	kit.Loads // err is the last action's failure; a load's are below
	common    kit.Common
	keys      KeyMap
	confirm   kit.ConfirmKeyMap
	policy    Editor
	// edit opens the rule editor on a stored rule; nil when there is no
	// Editor, and then the edit key is off.
	edit func(vpolicy.Rule) kit.Modal

	rules      kit.ListCursor[vpolicy.Rule]
	changed    map[string]bool   // rules whose tool changed since (SPEC D8)
	names      map[string]string // tools as people read them (ToolNamer)
	records    []vpolicy.Record
	rulesErr   string
	recordsErr string
}

// Rules returns the rules listed, by identity.
func (p Page) Rules() []vpolicy.Rule { return append([]vpolicy.Rule(nil), p.rules.Items...) }

// New returns the page; it loads when focused.
//
// edit opens the rule editor (a shared component the root builds) on a
// stored rule; confirm is the delete confirmation's bindings.
func New(c kit.Common, keys KeyMap, confirm kit.ConfirmKeyMap, pe Editor, edit func(vpolicy.Rule) kit.Modal) Page {
	p := Page{common: c, keys: keys, confirm: confirm, policy: pe, edit: edit}
	p.syncKeys()
	return p
}

func (p Page) Title() string { return "Policy" }

// ShortHelp implements help.KeyMap.
func (p Page) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.Edit, k.Delete, k.Refresh, k.Close}
}

// FullHelp implements help.KeyMap.
func (p Page) FullHelp() [][]key.Binding {
	k := p.keys
	return [][]key.Binding{{k.Up, k.Down, k.Refresh, k.Close}, {k.Edit, k.Delete}}
}

func (p Page) SetSize(width, height int) settings.Page {
	p.Resize(width, height)
	return p
}

// focus shows the page and reloads it: a rule saved from an approval pane,
// or decisions made since, show when the page is seen.
func (p Page) Focus() (settings.Page, tea.Cmd) {
	p.Active = true
	p, cmd := p.reload()
	return p, cmd
}

func (p Page) Blur() settings.Page {
	p.Active = false
	return p
}

// reload asks for the rules and decisions again; the current ones stay on
// screen.
func (p Page) reload() (Page, tea.Cmd) {
	if p.policy == nil {
		return p, nil
	}
	return p, loadPolicy(p.policy, p.Begin())
}

func (p Page) Update(msg tea.Msg) (settings.Page, kit.Action, tea.Cmd) {
	p, action, cmd := p.handle(msg)
	p.syncKeys()
	return p, action, cmd
}

func (p Page) handle(msg tea.Msg) (Page, kit.Action, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		if msg.seq != p.Seq {
			return p, nil, nil
		}
		return p.loadedMsg(msg), nil, nil
	case ruleedit.SavedMsg:
		// The rule editor's result reaches the page once the editor above
		// it has closed: the rule is stored, or why it is not.
		return p.outcome(msg.Err, "Saved the rule for "+p.toolName(msg.Rule.Identity, 40)+".")
	case DeletedMsg:
		return p.outcome(msg.err, "Deleted the rule for "+p.toolName(msg.identity, 40)+"; the tool asks again in new runs.")
	case tea.KeyMsg:
		return p.key(msg)
	}
	return p, nil, nil
}

// loadedMsg applies a load; the cursor stays on the same rule if it is
// still there.
func (p Page) loadedMsg(msg LoadedMsg) Page {
	p.Loading = false
	p.rulesErr, p.recordsErr = "", ""
	if msg.rulesErr != nil {
		p.rulesErr = kit.Sentence(msg.rulesErr)
	} else {
		p.rules.Set(msg.rules, func(a, b vpolicy.Rule) bool { return a.Identity == b.Identity })
		p.changed = msg.changed
	}
	if msg.recordsErr != nil {
		p.recordsErr = kit.Sentence(msg.recordsErr)
	} else {
		p.records = msg.records
	}
	p.names = msg.names
	p.Loaded = true
	return p
}

// outcome reports what a Cmd did, in one sentence, and reloads.
func (p Page) outcome(err error, done string) (Page, kit.Action, tea.Cmd) {
	p.Report(err, done)
	p, cmd := p.reload()
	return p, nil, cmd
}

func (p Page) key(msg tea.KeyMsg) (Page, kit.Action, tea.Cmd) {
	k := p.keys
	cur, ok := p.rules.Selected()
	switch {
	case key.Matches(msg, k.Close):
		return p, kit.CloseModal{}, nil
	case key.Matches(msg, k.Up):
		p.rules.Up()
	case key.Matches(msg, k.Down):
		p.rules.Down()
	case key.Matches(msg, k.Refresh):
		p.Notice = ""
		p, cmd := p.reload()
		return p, nil, cmd
	case !ok:
		return p, nil, nil
	case key.Matches(msg, k.Edit):
		if p.edit == nil {
			return p, nil, nil
		}
		return p, kit.OpenModal{Modal: p.edit(cur)}, nil
	case key.Matches(msg, k.Delete):
		body := "Delete the rule for " + p.toolName(cur.Identity, 60) +
			"? The tool then asks on every call again, in runs that start later."
		c := kit.NewConfirm(p.common, p.confirm, "Delete rule", body, "Delete", deleteRule(p.policy, cur.Identity))
		return p, kit.OpenModal{Modal: c}, nil
	}
	return p, nil, nil
}

// syncKeys enables the bindings that act now.
func (p *Page) syncKeys() {
	k := &p.keys
	avail := p.policy != nil
	_, sel := p.rules.Selected()
	sel = sel && avail
	k.Up.SetEnabled(len(p.rules.Items) > 1)
	k.Down.SetEnabled(len(p.rules.Items) > 1)
	k.Refresh.SetEnabled(avail)
	k.Edit.SetEnabled(sel)
	k.Delete.SetEnabled(sel)
}

// constraintSummary says a rule's constraints in one line: "path under
// /srv/data; mode one-of a, b", or "–" for none.
func constraintSummary(cs []vpolicy.Constraint) string {
	if len(cs) == 0 {
		return "–"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Arg + " " + c.Kind + " " + strings.Join(c.Values, ", ")
	}
	return safetext.Line(strings.Join(parts, "; "), 0)
}
