package archtest

// The lattice: every package of the module, one line each, with exactly
// what it may import of the module (its non-test files; _test.go files
// may import what they like). It is read bottom-up, as Go's own
// src/go/build/deps_test.go reads: a line names only packages on lines
// above it, so the table is a layering and can hold no cycle.
//
// A package that has no line, or an import its line does not draw, fails
// `go test ./internal/archtest/` (TestLattice). To add a package, add its
// line where its imports are above it; to add an import, add the word to
// its line — if docs/ARCHITECTURE.md allows it and no boundary below
// forbids it — and run `go test ./internal/archtest/ -update`, which
// redraws the figure in docs/ARCHITECTURE.md.
//
// Paths are inside the module ("tui/kit" is vouch/tui/kit). In may, "p/..."
// is p and every package below it that has a line.
var table = []line{
	// Leaves: they import no package of the module.
	{pkg: "tool"},
	{pkg: "safetext"},
	{pkg: "workflow"},
	{pkg: "internal/panics"},
	{pkg: "internal/sessiond"},
	{pkg: "internal/demo/scripted"},
	{pkg: "internal/cdp"},
	{pkg: "internal/e2epeer"},
	{pkg: "internal/termtest"},
	{pkg: "internal/benchtab", note: "benchmark figures over a grid of cases, for tests"},
	{pkg: "internal/archtest"},
	{pkg: "internal/msgcount", note: "what a person calls a message, for every count of them (issue 28 item 4)"},
	{pkg: "docs", note: "the reference pages and their topics (vouch help TOPIC)"},

	// The domain: it knows no store, no application and no interface.
	{pkg: "policy", may: "safetext"},
	{pkg: "skills", may: "safetext workflow"},
	{pkg: "agent", may: "internal/panics policy tool workflow"},
	{pkg: "mcpclient", may: "internal/panics policy safetext skills tool"},
	{pkg: "mcpclient/apps", may: "mcpclient"},
	{pkg: "internal/notify", may: "safetext"},
	{pkg: "internal/lock", may: "safetext", note: "the lockfile (SPEC N1-N3)"},
	{pkg: "internal/sshsign", may: "safetext", note: "SSH signatures and allowed_signers (SPEC N4-N6)"},

	// Persistence, below the application that adapts the domain to it.
	{pkg: "store", may: "internal/msgcount policy workflow"},

	// The leaf of view types both the application and the interface speak
	// (issue 23).
	{pkg: "internal/view", may: "agent tool"},

	// The application.
	{pkg: "internal/app/localskills", may: "internal/view safetext skills store workflow"},
	{pkg: "internal/app", may: "agent internal/app/localskills internal/lock internal/msgcount internal/notify internal/panics internal/sshsign internal/view mcpclient mcpclient/apps policy safetext skills store tool workflow"},
	{pkg: "internal/ttyprompt", may: "agent internal/app safetext tool"},
	{pkg: "internal/termout", may: "agent internal/app mcpclient safetext tool"},
	{pkg: "internal/clitext", may: "safetext"},
	{pkg: "internal/cliview", may: "agent docs internal/app internal/app/localskills internal/clitext mcpclient policy safetext workflow"},

	// The demo and the test doubles beside what they imitate.
	{pkg: "internal/demo", may: "internal/demo/scripted"},
	{pkg: "agent/agenttest", may: "internal/demo/scripted"},
	{pkg: "mcpclient/mcptest", may: "internal/demo"},
	{pkg: "store/storetest", may: "store workflow"},
	{pkg: "skills/skilltest", note: "skill packages and crafted archives for tests; only tests import it"},

	// The interface: tui/kit, then the rooms, then the root that composes
	// them.
	{pkg: "tui/kit", may: "agent safetext"},
	{pkg: "tui/kit/kittest", may: "safetext tui/kit", note: "the rooms' shared test helpers; only tests import it"},
	{pkg: "tui/chat", may: "agent internal/msgcount internal/view policy safetext tui/kit"},
	{pkg: "tui/convlist", may: "safetext tui/kit"},
	{pkg: "tui/picker", may: "agent safetext tui/kit"},
	{pkg: "tui/errline", may: "safetext"},
	{pkg: "tui/statusline", may: "agent safetext tui/kit"},
	{pkg: "tui/notes"},
	{pkg: "tui/history"},
	{pkg: "tui/clipboard"},
	{pkg: "tui/apps", may: "internal/view safetext"},
	{pkg: "tui/phase", may: "agent tui/kit"},
	{pkg: "tui/toolselect", may: "internal/view safetext tui/kit"},
	{pkg: "tui/ruleedit", may: "policy safetext tui/kit"},
	{pkg: "tui/approval", may: "agent internal/view policy safetext tool tui/kit tui/ruleedit"},
	{pkg: "tui/settings", may: "internal/view safetext tui/kit"},
	{pkg: "tui/settings/tools", may: "policy safetext tui/kit tui/settings"},
	{pkg: "tui/settings/notifications", may: "safetext tui/kit tui/settings"},
	{pkg: "tui/settings/policy", may: "policy safetext tui/kit tui/ruleedit tui/settings"},
	{pkg: "tui/settings/profiles", may: "internal/panics internal/view safetext tui/kit tui/settings tui/settings/tools workflow"},
	{pkg: "tui/settings/runs", may: "internal/view safetext tui/kit"},
	{pkg: "tui/settings/servers", may: "safetext tui/kit tui/settings"},
	{pkg: "tui/settings/serverskills", may: "safetext tui/kit tui/settings"},
	{pkg: "tui/settings/skills", may: "internal/view safetext tui/kit tui/settings"},
	{pkg: "tui/settings/workflows", may: "internal/view safetext tui/kit tui/settings"},
	{pkg: "tui/approval/approvaltest", may: "agent policy tool", note: "a changed tool's call and the gate's request for it; only tests import it"},
	{pkg: "tui/settings/settingstest", may: "tui/kit/kittest tui/settings", note: "the Settings pages' shared test helpers; only tests import it"},
	{pkg: "tui", may: "agent internal/view policy safetext tui/approval tui/apps tui/chat tui/clipboard tui/convlist tui/errline tui/history tui/kit tui/notes tui/phase tui/picker tui/ruleedit tui/settings tui/settings/notifications tui/settings/policy tui/settings/profiles tui/settings/runs tui/settings/servers tui/settings/serverskills tui/settings/skills tui/settings/tools tui/settings/workflows tui/statusline tui/toolselect"},

	// The composition: the adapter between the application and the
	// interface, the session's host, the binary.
	{pkg: "internal/tuiwire", may: "agent internal/app internal/app/localskills internal/notify internal/view mcpclient safetext tui tui/approval tui/chat tui/convlist tui/notes tui/settings tui/settings/notifications tui/settings/policy tui/settings/profiles tui/settings/runs tui/settings/servers tui/settings/serverskills tui/settings/skills tui/settings/workflows tool tui/toolselect",
		note: "the types app and the rooms share are internal/view's, passed through; TestNoTwins keeps it so (issue 23)"},
	{pkg: "internal/host", may: "internal/app internal/demo internal/notify internal/sessiond internal/tuiwire safetext tui"},
	{pkg: "cmd/vouch", may: "agent internal/app internal/app/localskills internal/clitext internal/cliview internal/host internal/sessiond internal/termout internal/ttyprompt internal/tuiwire mcpclient policy safetext skills tool tui/settings/workflows workflow",
		note: "tui/settings/workflows goes when the CLI stops borrowing a pane's text; issue 23"},

	// End-to-end harnesses.
	{pkg: "e2e/conformance", may: "internal/app mcpclient store tool"},
	{pkg: "e2e/ollama", may: "internal/e2epeer"},
}

// planned are lines of packages that may not exist yet: their absence is
// no error. When one is built, delete it here (TestLattice says so).
var planned = []string{}

// boundaries are the seams no line of the table may cross: they hold
// whatever the table draws, so widening a line cannot open them. A deep
// boundary holds through other packages of the module too (agent may not
// reach mcpclient by way of a third package); the others are about direct
// imports (tui/... reaches net/http through agent, and may).
var boundaries = []boundary{
	{from: "vouch/tui/...", to: "go.etcd.io/bbolt/... net/http/... github.com/99designs/keyring/... github.com/zalando/go-keyring/...",
		why: "the interface reaches storage, HTTP and secrets only through its Backend (STYLE habit 5)"},
	{from: "vouch/tui/...", to: "vouch/store/... vouch/internal/app/...", deep: true,
		why: "the interface reaches the store and the application only through its Backend, which the composition adapts"},
	{from: "vouch/agent/... vouch/mcpclient/... vouch/skills/... vouch/policy/... vouch/workflow/...", to: "vouch/store/... vouch/internal/app/... vouch/tui/...", deep: true,
		why: "a domain package knows no store, application or interface: internal/app adapts it to the store (SPEC K1)"},
	{from: "vouch/agent/...", to: "vouch/mcpclient/... vouch/skills/...", deep: true,
		why: "the loop knows no MCP and no skill package: tools reach it through vouch/tool, skills as frozen text"},
	{from: "vouch/mcpclient/...", to: "vouch/agent/...", deep: true,
		why: "the MCP client shares the tool contract (vouch/tool) with the loop, not the loop itself"},
	{from: "vouch/internal/app/...", to: "vouch/tui/...", deep: true,
		why: "the application serves every front end and imports none"},
	{from: "vouch/store/...", to: "vouch/tui/...", deep: true,
		why: "the store knows no interface"},
	{from: "vouch/internal/ttyprompt", to: "vouch/tui/... vouch/store/...",
		why: "the headless prompt is a front end beside the TUI: it reads the application, never the store"},
	{from: "vouch/internal/termout", to: "vouch/tui/... vouch/store/...",
		why: "the headless run's output is a front end beside the TUI: it writes the run's events, never the store"},
	{from: "vouch/tool", to: "vouch/...",
		why: "the tool contract sits below every package of the module"},
	{from: "vouch/internal/panics", to: "vouch/...",
		why: "the one recover sits below every package of the module"},
	{from: "vouch/internal/sessiond", to: "vouch/...",
		why: "the session socket relays bytes and knows no vouch package; its host hands it the interface"},
}

// The rooms of the interface: a package under tui/ imports, of the
// interface's packages, only tui/kit, the shared components, the packages
// below itself and the frame that hosts it; never a sibling room and never
// the root (STYLE habit 16). Only the root composes the rooms.
var (
	// components are shared components under tui/ that are not panes:
	// every room may import them; they import only tui/kit and their frame.
	components = []string{"vouch/tui/ruleedit", "vouch/tui/settings/tools"}
	// frames host the packages below them, which implement the frame's
	// interface (a Settings page imports tui/settings).
	frames = []string{"vouch/tui/settings"}
)

// binaries are the product's commands: none links a test package, however
// indirectly (the demo has its own scripted model and server).
var binaries = []string{"vouch/cmd/vouch"}
