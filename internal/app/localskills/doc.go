// Package localskills owns the skill packages a person installs from a
// local path (SPEC G): reading one through the importer and scanner of
// package skills, the install preview (what installing would write, the
// name and definition conflicts and their resolutions, SPEC G4, G5), the
// install in one catalog transaction, and the catalog's listing and
// removal as Settings › Skills and 'vouch skill' use them.
//
// Installing enables and approves nothing: no policy rule, no profile, no
// tool. A package or an install the person must change is an ErrRejected
// whose text is one sentence; the catalog is then unchanged.
//
// It is a room of the application (package app) that needs nothing of the
// session but the database: it must not import vouch/internal/app, tui or
// any tui/... package, nor a *test package. Package app uses it for the
// demo's seeding; the command line and the terminal interface hand it the
// database and convert its types into their own.
package localskills
