// Package skills owns Settings › Tools & Workflows › Skills (SPEC G, L2):
// the installed skills ([Page]), their removal after a confirmation whose
// default is Cancel, and the install preview ([Install]) that shows what
// a package holds — files, exclusions, definitions, findings, conflicts —
// before i installs exactly what was previewed, settling first (SPEC D7).
// [Catalog] is the narrow backend it needs, with the view types a backend
// fills in; [Preview.Lines] is the preview's text, which the command line
// prints too.
//
// # Boundaries
//
// skills imports tui/kit and tui/settings only, never the root or another
// page. Its Cmds call the Catalog with a bounded context and return typed
// messages; Update and View do no I/O. Like every package under tui it
// imports neither bbolt, net/http, a keyring package nor vouch/store
// (internal/archtest). Its name is the one of vouch/skills, the package
// that reads skill packages: importers that need both name this one
// tuiskills.
package skills
