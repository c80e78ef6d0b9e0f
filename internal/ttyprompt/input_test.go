package ttyprompt

import (
	"strings"
	"testing"

	"vouch/tool"
)

type inputResult struct {
	a   tool.Answer
	err error
}

func fptr(v float64) *float64 { return &v }

// inputQuestion is a form with hostile text in the server's words.
func inputQuestion() tool.Question {
	return tool.Question{Server: "deploys", Host: "127.0.0.1", Tool: "deploy", Message: "Deploy \x1b[2Jwhere?",
		Fields: []tool.Field{
			{Name: "who", Title: "Who", Kind: tool.KindText, Default: "ada"},
			{Name: "count", Title: "Count", Kind: tool.KindInteger, Min: fptr(1), Max: fptr(9), Required: true},
			{Name: "env", Title: "Environment", Kind: tool.KindEnum, Default: "dev",
				Options: []tool.Option{{Value: "dev", Label: "Development"}, {Value: "prod", Label: "Production"}}},
			{Name: "regions", Title: "Regions", Kind: tool.KindMulti, Options: []tool.Option{{Value: "eu", Label: "EU"}, {Value: "us", Label: "US"}}},
		}}
}

func (a *ttyAsk) askInput(t *testing.T, q tool.Question) <-chan inputResult {
	ch := make(chan inputResult, 1)
	go func() {
		ans, err := (&Prompt{tty: a.tty}).AskInput(t.Context(), q)
		ch <- inputResult{ans, err}
	}()
	return ch
}

// answerAt waits for the question text after mark, types s and returns
// the new mark.
func (a *ttyAsk) answerAt(t *testing.T, mark int, question, s string) int {
	t.Helper()
	if err := a.term.WaitForFrom(mark, question, promptTimeout); err != nil {
		t.Fatalf("%v; the terminal shows:\n%s", err, a.term.Output())
	}
	mark = a.term.Len()
	a.typ(t, s)
	return mark
}

func (a *ttyAsk) inputResult(t *testing.T, ch <-chan inputResult) inputResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-t.Context().Done():
		t.Fatal("no answer")
	}
	return inputResult{}
}

// TestTTYAskInputFieldByField (SPEC B12, D7): `vouch run --approve-tty`
// asks a form field by field: Enter keeps a default, a value out of range
// is said and asked again, choices go by number; the type-ahead typed
// before the first question answers nothing; the server's text is
// neutralised.
func TestTTYAskInputFieldByField(t *testing.T) {
	a := newTTYAsk(t)
	a.typ(t, "y\n") // type-ahead
	if err := a.term.WaitFor("y", promptTimeout); err != nil {
		t.Fatal(err)
	}
	ch := a.askInput(t, inputQuestion())
	mark := a.answerAt(t, 0, "Answer it? Type y", "y\n")
	mark = a.answerAt(t, mark, "Who [Enter keeps ada]: ", "\n")
	mark = a.answerAt(t, mark, "Count: ", "12\n")
	mark = a.answerAt(t, mark, "Count: ", "4\n") // asked again
	if !strings.Contains(a.term.Output(), "    Type at most 9.") {
		t.Errorf("the prompt did not say what was wrong:\n%s", a.term.Output())
	}
	mark = a.answerAt(t, mark, "Environment [Enter keeps dev]: ", "2\n")
	mark = a.answerAt(t, mark, "Regions (numbers, comma-separated): ", "1,2\n")
	a.answerAt(t, mark, "Send it? Type y", "y\n")
	r := a.inputResult(t, ch)
	if r.err != nil || r.a.Action != tool.Accept {
		t.Fatalf("got %+v, %v", r.a, r.err)
	}
	c := r.a.Content
	if c["who"] != "ada" || c["count"] != int64(4) || c["env"] != "prod" || len(c["regions"].([]string)) != 2 {
		t.Errorf("content = %#v", c)
	}
	if strings.Contains(a.term.Output(), "\x1b[2J") {
		t.Error("the server's escape sequence reached the terminal")
	}
}

// TestTTYAskInputDeclineAndURL (SPEC B12): n declines the form; a URL is
// shown whole and "done" accepts; end of input cancels.
func TestTTYAskInputDeclineAndURL(t *testing.T) {
	a := newTTYAsk(t)
	ch := a.askInput(t, inputQuestion())
	a.answerAt(t, 0, "Answer it? Type y", "n\n")
	if r := a.inputResult(t, ch); r.err != nil || r.a.Action != tool.Decline {
		t.Errorf("n: %+v, %v", r.a, r.err)
	}

	a = newTTYAsk(t)
	const url = "https://auth.example.test/connect?session=42"
	ch = a.askInput(t, tool.Question{Server: "deploys", Message: "Connect.", URL: url, ElicitationID: "e1"})
	a.answerAt(t, 0, "Type done when", "done\n")
	if r := a.inputResult(t, ch); r.err != nil || r.a.Action != tool.Accept {
		t.Errorf("done: %+v, %v", r.a, r.err)
	}
	if !strings.Contains(a.term.Output(), url) {
		t.Errorf("the URL is not shown whole:\n%s", a.term.Output())
	}

	a = newTTYAsk(t)
	ch = a.askInput(t, inputQuestion())
	a.answerAt(t, 0, "Answer it? Type y", "\x04")
	if r := a.inputResult(t, ch); r.err != nil || r.a.Action != tool.Cancel {
		t.Errorf("end of input: %+v, %v", r.a, r.err)
	}
}
