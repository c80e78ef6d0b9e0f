package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vouch/agent/agenttest"
	"vouch/internal/app"
	"vouch/internal/tuiwire"
	"vouch/store"
	"vouch/store/storetest"
)

// catalogSkill puts a skill with SKILL.md, one declared resource and one
// undeclared file into the catalog at state, as an import would.
func catalogSkill(t *testing.T, state, name string) store.SkillVersion {
	t.Helper()
	db, err := store.Open(filepath.Join(state, store.FileName), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	return storetest.PutSkill(t, db, name)
}

// writeDefinition writes a definition file and returns its path.
func writeDefinition(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "def.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// roleDefinition is storetest's role definition "notes".
const roleDefinition = storetest.RoleDefinition

// skillScript loads the skill once, then answers.
func skillScript() agenttest.Script {
	return agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.AfterToolResult(), Repeat: true, Steps: agenttest.Words("Notes written.")},
		{Match: agenttest.Offers("skill_load"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "skill_load", `{"name":"release-notes"}`)}},
		{Repeat: true, Steps: agenttest.Words("No skills here.")},
	}}
}

// TestRunProfileJSON: `vouch run --profile P --json` end to end against a
// scripted model with a skill enabled (SPEC H4, H5, H7, M): the frozen
// skill version and the allowlist reach the run (skill_load is offered,
// the skill's instructions come back, only allowlisted tools are offered),
// stdout is one JSON object, and history keeps the run with its frozen spec
// and its calls.
func TestRunProfileJSON(t *testing.T) {
	model := agenttest.New(skillScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	skill := catalogSkill(t, state, "release-notes")
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "notes", "--definition", "notes", "--tool", "builtin:fs_read", "--skill", "release-notes", "--context", "8192")

	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--profile", "notes", "--json", "write the notes")
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if res.Outcome != "done" || res.Answer != "Notes written." || res.Profile != "notes" || res.ProfileRevision != 1 || res.RunID == "" {
		t.Fatalf("result = %+v", res)
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	offered := strings.Join(reqs[0].Tools, " ")
	if !strings.Contains(offered, "skill_load") || !strings.Contains(offered, "skill_read") || strings.Contains(offered, "fs_write") || strings.Contains(offered, "fs_list") {
		t.Fatalf("offered %q: want the skill tools and only the allowlisted built-in", offered)
	}
	var sawInstructions bool
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" && strings.Contains(m.Content, "Always list breaking changes first.") {
			sawInstructions = true
		}
	}
	if !sawInstructions {
		t.Fatal("skill_load did not return the frozen SKILL.md")
	}

	show, _ := cli(t, state, "", exitOK, "runs", "show", res.RunID, "--json")
	var detail app.RunRecordDetail
	if err := json.Unmarshal([]byte(show), &detail); err != nil {
		t.Fatal(err)
	}
	r := detail.Run
	if r.Kind != store.RunHeadless || r.Profile != "notes" || r.ProfileRevision != 1 || r.Definition != "notes" || r.DefinitionRevision != 1 || r.Outcome != store.RunDone {
		t.Fatalf("history record = %+v", r)
	}
	var spec app.FrozenSpec
	if err := json.Unmarshal(r.Spec, &spec); err != nil {
		t.Fatal(err)
	}
	if len(spec.Skills) != 1 || spec.Skills[0].Version != skill.Version || spec.Skills[0].Instructions.SHA256 != skill.Files[0].SHA256 ||
		len(spec.Skills[0].Resources) != 1 || spec.Skills[0].Resources[0].Path != "references/style.md" {
		t.Fatalf("frozen skills = %+v; want one version with SKILL.md and only the declared resource", spec.Skills)
	}
	if len(spec.Tools) != 1 || spec.Tools[0].Identity != "builtin:fs_read" || spec.Tools[0].WireName == "" {
		t.Fatalf("frozen allowlist = %+v", spec.Tools)
	}
	if spec.ContextWindow != 8192 || spec.WindowSource != "profile" || spec.Model != "m" {
		t.Fatalf("frozen window = %d (%s), model %q; want the profile's 8192 narrowing the server's 16384", spec.ContextWindow, spec.WindowSource, spec.Model)
	}
	var loaded bool
	for _, ev := range detail.Events {
		if ev.Kind == store.EventToolCall && ev.Identity == "builtin:skill_load" && ev.CorrelationID != "" {
			loaded = true
		}
	}
	if !loaded {
		t.Fatalf("history lacks the skill_load call: %+v", detail.Events)
	}
	list, _ := cli(t, state, "", exitOK, "runs", "--json")
	var page runsJSON
	if err := json.Unmarshal([]byte(list), &page); err != nil || len(page.Runs) != 1 || page.Runs[0].ID != res.RunID {
		t.Fatalf("runs = %s (%v)", list, err)
	}
}

// TestRunProfileErrors: every refusal of `vouch run --profile` and `vouch
// profile` is one sentence with the documented exit code (SPEC M).
func TestRunProfileErrors(t *testing.T) {
	model := agenttest.New(skillScript(), agenttest.WithModels("m"))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "notes", "--definition", "notes")
	for _, tc := range []struct {
		name string
		code int
		want string
		args []string
	}{
		{"unknown profile", exitUsage, "no profile is named \"nope\"", []string{"run", "--profile", "nope", "hi"}},
		{"no task", exitUsage, "needs a task", []string{"run", "--profile", "notes"}},
		{"model down", exitUnavailable, "127.0.0.1:9", []string{"--model-url", "http://127.0.0.1:9/v1", "run", "--profile", "notes", "hi"}},
		{"create twice", exitRejected, "already exists", []string{"profile", "create", "notes", "--definition", "notes"}},
		{"create without definition", exitUsage, "needs --definition", []string{"profile", "create", "x"}},
		{"unknown definition", exitUsage, "no definition is named \"ghost\"", []string{"profile", "create", "x", "--definition", "ghost"}},
		{"unknown tool", exitUsage, "no tool has the identity", []string{"profile", "edit", "notes", "--tool", "mcp:nowhere:thing"}},
		{"reserved tool", exitUsage, "vouch's own", []string{"profile", "edit", "notes", "--tool", "builtin:skill_load"}},
		{"bad tool shape", exitUsage, "must be a unique tool identity", []string{"profile", "edit", "notes", "--tool", "fs_read"}},
		{"unknown skill", exitUsage, "no skill named \"ghost\" is installed", []string{"profile", "edit", "notes", "--skill", "ghost"}},
		{"bad budget", exitUsage, "--tool-budget", []string{"profile", "edit", "notes", "--tool-budget", "1.5"}},
		{"bad temperature", exitUsage, "--temperature", []string{"profile", "edit", "notes", "--temperature", "hot"}},
		{"bad context", exitUsage, "--context", []string{"profile", "edit", "notes", "--context", "-1"}},
		{"bad workspace", exitUsage, "is not a directory", []string{"profile", "edit", "notes", "--workspace", "/no/such/dir"}},
		{"bad cron", exitUsage, "write five", []string{"profile", "edit", "notes", "--cron", "* *", "--task", "t"}},
		{"schedule without task", exitUsage, "needs --task", []string{"profile", "edit", "notes", "--every", "1h"}},
		{"task without schedule", exitUsage, "goes with a schedule", []string{"profile", "edit", "notes", "--task", "t"}},
		{"edit unknown", exitUsage, "no profile is named", []string{"profile", "edit", "ghost", "--model", "m"}},
		{"remove unknown", exitUsage, "no profile is named", []string{"profile", "remove", "ghost"}},
		{"unknown subcommand", exitUsage, "use list, show", []string{"profile", "frob"}},
		{"definition in use", exitRejected, "used by profile notes", []string{"definition", "remove", "notes"}},
		{"invalid definition", exitRejected, "fix the file", []string{"definition", "add", writeDefinition(t, `{"name":"x","kind":"role"}`)}},
		{"unknown run", exitUsage, "no run has the ID", []string{"runs", "show", "0123"}},
		{"bad cursor", exitUsage, "--before", []string{"runs", "--before", "zz"}},
		{"workflows bad", exitUsage, "use on, off or status", []string{"workflows", "maybe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut := cli(t, state, "", tc.code, tc.args...)
			if !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Fatalf("stderr %q, want one line containing %q", errOut, tc.want)
			}
		})
	}

	// The switch off: a profile run is refused in one sentence, exit 1,
	// and nothing is deleted; on again, the profile is as it was (SPEC H1).
	cli(t, state, "", exitOK, "workflows", "off")
	_, errOut := cli(t, state, "", exitFailure, "--model-url", model.URL(), "--model", "m", "run", "--profile", "notes", "hi")
	if !strings.Contains(errOut, "Agent Workflows switch is off") || !strings.Contains(errOut, "vouch workflows on") {
		t.Fatalf("switch off: stderr %q", errOut)
	}
	st, _ := cli(t, state, "", exitOK, "workflows", "status", "--json")
	var status app.WorkflowsStatus
	if err := json.Unmarshal([]byte(st), &status); err != nil || status.Enabled || status.Profiles != 1 {
		t.Fatalf("status while off = %s (%v)", st, err)
	}
	cli(t, state, "", exitOK, "workflows", "on")
	out, _ := cli(t, state, "", exitOK, "profile", "show", "notes", "--json")
	if !strings.Contains(out, `"definition": "notes"`) {
		t.Fatalf("the profile changed across off and on: %s", out)
	}
	for _, r := range model.Requests() {
		t.Fatalf("a refused run reached the model: %+v", r)
	}
}

// TestToolsPlanProfile: `vouch tools plan --profile P` plans the profile's
// allowlist with its tool budget and its window setting narrowing the
// server's (SPEC F1, F2, H2, M); --context still wins; an unknown profile
// is a usage error.
func TestToolsPlanProfile(t *testing.T) {
	model := agenttest.New(skillScript(), agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	cli(t, state, "", exitOK, "definition", "add", writeDefinition(t, roleDefinition))
	cli(t, state, "", exitOK, "profile", "create", "small", "--definition", "notes", "--tool", "builtin:fs_read", "--tool", "builtin:fs_list",
		"--context", "8192", "--tool-budget", "0.5")
	plan := func(args ...string) app.ToolPlan {
		t.Helper()
		out, _ := cli(t, state, "", exitOK, append([]string{"--model-url", model.URL(), "--model", "m", "tools", "plan", "--json"}, args...)...)
		var p app.ToolPlan
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := plan("--profile", "small")
	if p.Window != 8192 || p.WindowSource != "profile" || p.Fraction != 0.5 || p.Budget != 4096 {
		t.Fatalf("plan window %d (%s), fraction %v, budget %d; want 8192 (profile), 0.5, 4096", p.Window, p.WindowSource, p.Fraction, p.Budget)
	}
	var ids []string
	for _, tool := range append(p.Inline, p.Deferred...) {
		ids = append(ids, tool.Identity)
	}
	if strings.Join(ids, " ") != "builtin:fs_list builtin:fs_read" && strings.Join(ids, " ") != "builtin:fs_read builtin:fs_list" {
		t.Fatalf("planned tools %v, want exactly the profile's allowlist", ids)
	}
	if len(p.Workflow) != 0 {
		t.Fatalf("a profile without skills adds %v", p.Workflow)
	}
	pkg, err := app.WriteDemoSkill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cli(t, state, "", exitOK, "skill", "install", pkg)
	cli(t, state, "", exitOK, "profile", "edit", "small", "--skill", "release-notes")
	p = plan("--profile", "small")
	sum := 0
	var added []string
	for _, w := range p.Workflow {
		added = append(added, w.Wire)
		if w.Tokens <= 0 {
			t.Errorf("%s counted as %d tokens", w.Wire, w.Tokens)
		}
		sum += w.Tokens
	}
	if strings.Join(added, " ") != "skill_load skill_read" || sum != p.WorkflowTokens {
		t.Fatalf("with a skill the plan adds %v (%d tokens, total %d), want skill_load and skill_read", added, sum, p.WorkflowTokens)
	}
	if p := plan("--profile", "small", "--context", "4096"); p.Window != 4096 || p.Budget != 2048 {
		t.Fatalf("--context with a profile: window %d budget %d", p.Window, p.Budget)
	}
	if p := plan(); p.Fraction != 0.25 || p.Window != 16384 || len(p.Inline)+len(p.Deferred) < 3 {
		t.Fatalf("without a profile: %+v", p)
	}
	_, errOut := cli(t, state, "", exitUsage, "tools", "plan", "--profile", "ghost")
	if !strings.Contains(errOut, "no profile is named \"ghost\"") {
		t.Fatalf("unknown profile: %q", errOut)
	}
}

// TestChatAndHeadlessHistory: a plain `vouch run` and a chat message are
// kept in run history with what they froze (SPEC H7); a headless run that
// stops for approval is recorded as waiting for it.
func TestChatAndHeadlessHistory(t *testing.T) {
	model := agenttest.New(agenttest.Script{Turns: []agenttest.Turn{
		{Match: agenttest.LastUserContains("write"), Repeat: true, Steps: []agenttest.Step{agenttest.ToolCall(0, "c1", "fs_write", `{"path":"x.txt","content":"x"}`)}},
		{Repeat: true, Steps: agenttest.Words("Plain answer.")},
	}}, agenttest.WithModels("m"), agenttest.WithFlavor(agenttest.LlamaCpp), agenttest.WithContextWindow(16384))
	defer model.Close()
	state := t.TempDir()
	out, _ := cli(t, state, "", exitOK, "--model-url", model.URL(), "--model", "m", "run", "--json", "say", "something")
	var res app.HeadlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Outcome != "done" || res.Answer != "Plain answer." || res.RunID == "" {
		t.Fatalf("plain run --json = %s (%v)", out, err)
	}
	_, errOut := cli(t, state, "", exitApproval, "--model-url", model.URL(), "--model", "m", "run", "write it")
	if !strings.Contains(errOut, "needs approval") {
		t.Fatalf("stderr %q", errOut)
	}

	s, err := openSession(t.Context(), state, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	cfg := s.ChatConfig()
	cfg.ModelURL, cfg.Model = model.URL(), "m"
	events, err := tuiwire.NewBackend(cfg, nil).Send(t.Context(), "", "hello")
	if err != nil {
		t.Fatal(err)
	}
	for range events {
	}
	runs, _, err := s.DB().Runs("", 10)
	if err != nil || len(runs) != 3 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	chat, waiting, plain := runs[0], runs[1], runs[2]
	convID, _ := s.Current()
	if chat.Kind != store.RunChat || chat.Outcome != store.RunDone || chat.ConversationID != convID || chat.Task != "hello" {
		t.Fatalf("chat run = %+v", chat)
	}
	var spec app.FrozenSpec
	if err := json.Unmarshal(chat.Spec, &spec); err != nil || spec.Model != "m" || spec.ContextWindow != 16384 || len(spec.Tools) == 0 {
		t.Fatalf("chat spec = %s (%v)", chat.Spec, err)
	}
	if waiting.Kind != store.RunHeadless || waiting.Outcome != store.RunWaitingApproval || !strings.Contains(waiting.Error, "correlation ID") {
		t.Fatalf("approval run = %+v", waiting)
	}
	if plain.Kind != store.RunHeadless || plain.Outcome != store.RunDone || plain.ID != res.RunID {
		t.Fatalf("plain run = %+v", plain)
	}
	evs, err := s.DB().RunEvents(plain.ID)
	if err != nil || len(evs) < 2 || evs[len(evs)-1].Kind != store.EventText || evs[len(evs)-1].Text != "Plain answer." {
		t.Fatalf("plain run events = %+v, %v; want the text coalesced into one event", evs, err)
	}
}
