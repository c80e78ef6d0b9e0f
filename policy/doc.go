// Package policy owns tool classification and approval decisions: the local
// rules a person reviewed, the previews the approval pane renders, and the
// frozen boundaries of a run. It decides; it never renders.
package policy
