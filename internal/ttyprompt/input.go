package ttyprompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"vouch/safetext"
	"vouch/tool"
)

// AskInput puts a server's question (SPEC B12) to the person on the
// terminal, field by field, under the rule of Ask (SPEC D7): type-ahead is
// discarded before each line is read, and only a line typed after its
// question answers it. The person first says whether to answer at all; an
// empty line keeps a field's default (SEP-1034); what does not validate is
// said and asked again, at most ttyAttempts times, then the form is
// declined. A URL is shown whole and never opened: "done" says the person
// finished there. End of input cancels. An error means the terminal could
// not be used: the caller declines.
func (p *Prompt) AskInput(ctx context.Context, q tool.Question) (tool.Answer, error) {
	head := fmt.Sprintf("\nvouch: %s asks, for its tool %s:\n  “%s”\n", serverOf(q), safetext.Line(q.Tool, 80), safetext.Line(q.Message, 600))
	if q.IsURL() {
		head += "  It asks you to visit this page (vouch opens nothing and fetched nothing from it):\n    " +
			safetext.Line(q.URL, 0) + "\n"
	} else if q.AsksSecret() {
		head += "  ⚠ A field asks for a secret: servers must not ask for secrets in a form.\n"
	}
	head += "  Only a line typed after each question answers it: whatever was typed before is discarded.\n"
	if err := p.say(head); err != nil {
		return tool.Answer{}, err
	}
	if q.IsURL() {
		word, err := p.choose(ctx, "Type done when you have finished there, or n to cancel, then Enter: ", "done", "d", "n", "no", "cancel")
		if err != nil || word == "" {
			return tool.Answer{Action: tool.Cancel}, ignoreEnd(err)
		}
		if word == "done" || word == "d" {
			return tool.Answer{Action: tool.Accept}, p.say("  told the server you are done\n")
		}
		return tool.Answer{Action: tool.Cancel}, p.say("  cancelled\n")
	}
	word, err := p.choose(ctx, "Answer it? Type y to fill in the form, n to decline, then Enter: ", "y", "yes", "n", "no")
	if err != nil || word == "" {
		return tool.Answer{Action: tool.Cancel}, ignoreEnd(err)
	}
	if word == "n" || word == "no" {
		return tool.Answer{Action: tool.Decline}, p.say("  declined\n")
	}
	content := map[string]any{}
	for _, f := range q.Fields {
		v, ok, err := p.askField(ctx, f)
		if err != nil {
			return tool.Answer{Action: tool.Cancel}, ignoreEnd(err)
		}
		if !ok {
			return tool.Answer{Action: tool.Decline}, p.say("  declined: no valid answer\n")
		}
		if v != nil {
			content[f.Name] = v
		}
	}
	word, err = p.choose(ctx, "Send it? Type y to send, n to decline, then Enter: ", "y", "yes", "n", "no")
	if err != nil || word == "" {
		return tool.Answer{Action: tool.Cancel}, ignoreEnd(err)
	}
	if word == "n" || word == "no" {
		return tool.Answer{Action: tool.Decline}, p.say("  declined\n")
	}
	return tool.Answer{Action: tool.Accept, Content: content}, p.say("  sent\n")
}

// ignoreEnd is nil for the end of input (which cancels), else err.
func ignoreEnd(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func serverOf(q tool.Question) string {
	s := safetext.Line(q.Server, 40)
	if q.Host != "" {
		s += " (" + safetext.Line(q.Host, 60) + ")"
	}
	return s
}

// line discards type-ahead, asks question and reads one line.
func (p *Prompt) line(ctx context.Context, question string) (string, error) {
	if _, err := discardTypeAhead(p.tty); err != nil {
		return "", err
	}
	if err := p.say(question); err != nil {
		return "", err
	}
	l, err := p.readLine(ctx)
	if err != nil {
		return "", err
	}
	if _, err := discardTypeAhead(p.tty); err != nil { // a second answer typed at once is for no question yet
		return "", err
	}
	return strings.TrimSpace(l), nil
}

// choose asks until the answer is one of words, at most ttyAttempts
// times; "" when none was clear.
func (p *Prompt) choose(ctx context.Context, question string, words ...string) (string, error) {
	for range ttyAttempts {
		l, err := p.line(ctx, question)
		if err != nil {
			return "", err
		}
		for _, w := range words {
			if strings.EqualFold(l, w) {
				return strings.ToLower(w), nil
			}
		}
		if err := p.say("  not an answer\n"); err != nil {
			return "", err
		}
	}
	return "", nil
}

// askField asks one field until its answer validates (ok false after
// ttyAttempts tries). An empty line keeps the default.
func (p *Prompt) askField(ctx context.Context, f tool.Field) (any, bool, error) {
	desc := "  " + safetext.Line(f.Label(), 80)
	if f.Required {
		desc += " (required)"
	}
	desc += " — " + string(f.Kind)
	if f.Description != "" {
		desc += ": " + safetext.Line(f.Description, 300)
	}
	if f.Secret {
		desc += "\n    ⚠ servers must not ask for secrets in a form"
	}
	for i, o := range f.Options {
		desc += fmt.Sprintf("\n    %d) %s", i+1, safetext.Line(o.Label, 80))
	}
	if err := p.say(desc + "\n"); err != nil {
		return nil, false, err
	}
	prompt := "  " + safetext.Line(f.Label(), 40)
	switch {
	case f.Kind == tool.KindMulti:
		prompt += " (numbers, comma-separated"
		if d := f.DefaultItems(); d != nil {
			prompt += "; Enter keeps " + safetext.Line(strings.Join(d, ", "), 80)
		}
		prompt += "): "
	case f.DefaultText() != "":
		prompt += " [Enter keeps " + safetext.Line(f.DefaultText(), 80) + "]: "
	default:
		prompt += ": "
	}
	for range ttyAttempts {
		l, err := p.line(ctx, prompt)
		if err != nil {
			return nil, false, err
		}
		v, err := fieldValue(f, l)
		if err == nil {
			return v, true, nil
		}
		if err := p.say("    " + safetext.Line(err.Error(), 200) + "\n"); err != nil {
			return nil, false, err
		}
	}
	return nil, false, nil
}

// errChoices is said when a multi-select's answer is not its numbers.
var errChoices = errors.New("type the numbers of your choices, such as 1,3")

// fieldValue is what a line typed for f sends.
func fieldValue(f tool.Field, l string) (any, error) {
	if l == "" && f.Kind == tool.KindMulti && f.DefaultItems() != nil {
		return f.DefaultItems(), nil
	}
	if l == "" && f.DefaultText() != "" {
		l = f.DefaultText()
	}
	switch f.Kind {
	case tool.KindEnum:
		if n, err := strconv.Atoi(l); err == nil && n >= 1 && n <= len(f.Options) {
			return f.Options[n-1].Value, nil
		}
	case tool.KindMulti:
		var items []string
		for _, part := range strings.Split(l, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			n, err := strconv.Atoi(part)
			if err != nil || n < 1 || n > len(f.Options) {
				return nil, errChoices
			}
			items = append(items, f.Options[n-1].Value)
		}
		if err := f.CheckItems(len(items)); err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, nil
		}
		return items, nil
	}
	return f.Parse(l)
}
