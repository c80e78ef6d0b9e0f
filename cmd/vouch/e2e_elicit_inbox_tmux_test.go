package main

import (
	"fmt"
	"strings"
	"testing"

	"vouch/agent/agenttest"
)

// TestE2EElicitInboxTmux (SPEC B12, H6, D7; issue 26): a profile run
// started from Settings › Profiles calls server-everything's
// trigger-elicitation-request; the server's question does not reach the
// chat and is not declined: it waits in the approvals inbox as input,
// which the status line counts. ctrl+e, enter opens the same form as a
// chat's question, naming the run; once it settles a typed value and
// ctrl+s send it to the server, whose result the model then reads.
func TestE2EElicitInboxTmux(t *testing.T) {
	url := startEverything(t)
	bin := buildVouch(t)
	state := t.TempDir()
	wire, identity := everythingTool(t, state, url, "trigger-elicitation-request")
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "asker", "--definition", "notes", "--tool", identity)
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: toolResults(1), Repeat: true, Steps: agenttest.Words("Done.")},
		{Match: agenttest.Offers(wire), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "e1", wire, `{}`)}},
		{Repeat: true, Steps: agenttest.Words("No tools yet.")},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(32768))
	defer model.Close()
	env := "env"
	for k, v := range cliEnv() {
		env += " " + k + "=" + v
	}
	s := newTmux(t, 120, 60, fmt.Sprintf("%s %s --state-dir %s --model-url %s --model m", env, bin, state, model.URL()))
	s.waitText("Ask anything")

	s.openSettingsPage("Profiles")
	s.waitText("asker")
	s.keys("g")
	s.waitText("enter start")
	s.typeText("ask the person")
	s.keys("Enter")
	s.waitText("1 approval waiting (ctrl+e)")
	s.keys("Escape")
	s.waitFor("Settings to close", func(p string) bool { return !strings.Contains(p, "Settings ›") })
	if strings.Contains(s.capture(), formTitle) {
		t.Fatalf("a background run's question reached the chat:\n%s", s.capture())
	}
	s.keys("C-e")
	s.waitText("input · everything asks during trigger-elicitat")
	s.keys("Enter")
	s.waitText(formTitle)
	if !strings.Contains(s.capture(), "of profile asker") {
		t.Errorf("the form does not name the run:\n%s", s.capture())
	}
	s.settledFooter("ctrl+s send")
	for range 7 { // the fields come in name order; "name" is the eighth
		s.keys("Tab")
	}
	s.waitText("› String * (text)")
	s.typeText("Ada Lovelace")
	s.waitText("› Ada Lovelace")
	s.keys("C-s")
	s.waitText("Answered the server")
	s.waitText("Nothing waits for you.")

	// The run goes on with the server's result.
	s.waitFor("the model to read the server's result", func(string) bool {
		for _, r := range model.Requests() {
			for _, m := range r.Messages {
				if m.Role == "tool" && strings.Contains(m.Content, `"name": "Ada Lovelace"`) && strings.Contains(m.Content, `"action": "accept"`) {
					return true
				}
			}
		}
		return false
	})
}
