// Package settings owns the Settings modal (SPEC L2): the frame that shows
// a section title, a row of tabs and the page shown, switches pages with
// tab and shift+tab, and hands every other key to the page shown and every
// other message to all pages. [Page] is what a page implements.
//
// # Pages
//
// Each page of Settings › Tools & Workflows lives in a package of its own
// under tui/settings and declares the narrow backend interface it needs.
// The root builds the pages from the capabilities its Backend has and
// passes them to [New] and [Model.WithPages]; a page whose backend is
// missing says so itself. A page asks the root for things — a modal above
// Settings, such as the server editor — through the kit.Action it returns.
//
// # Boundaries
//
// settings imports tui/kit and nothing of the root or of any page: pages
// import settings (for Page), never the other way round, and no page
// imports another. Like every package under tui it does no I/O and imports
// neither bbolt, net/http, a keyring package nor vouch/store
// (internal/archtest).
package settings
