// Package skills owns Agent Skills packages: import from local files,
// hostile-archive validation, the content scanner, frontmatter parsing,
// content addressing, the install preview and catalog operations. Nothing in
// a package is ever executed.
package skills
