// Package sshsign owns vouch's SSH signatures (SPEC N4–N6): signing and
// verifying SSHSIG signatures — the format `ssh-keygen -Y sign` writes and
// git uses — through github.com/hiddeco/sshsig on golang.org/x/crypto/ssh,
// never hand-written crypto, and parsing git's allowed_signers files with
// the options that matter: namespaces="…", valid-after="…" and
// valid-before="…". A cert-authority line is refused with a sentence:
// vouch verifies plain keys only.
//
// Namespaces keep a signature to one purpose: a lockfile is signed in
// NamespaceLock, a skill's manifest in NamespaceSkill, and a signature made
// for one never verifies as the other.
package sshsign
