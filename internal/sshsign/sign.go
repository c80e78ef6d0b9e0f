package sshsign

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"vouch/safetext"
)

// The namespaces vouch signs and verifies in.
const (
	NamespaceLock  = "vouch-lock"
	NamespaceSkill = "vouch-skill"
)

// The ways a signature is refused; each error wraps one of them.
var (
	// ErrMalformed: the signature is not an armored SSHSIG signature.
	ErrMalformed = errors.New("not an SSH signature")
	// ErrUnknownKey: the key is in no line of allowed-signers.
	ErrUnknownKey = errors.New("signed by a key you do not trust")
	// ErrNamespace: the signature is for another namespace, or the key
	// may not sign in this one.
	ErrNamespace = errors.New("signed for another purpose")
	// ErrMismatch: the content changed after it was signed.
	ErrMismatch = errors.New("the content changed after it was signed")
	// ErrExpired: the key is trusted, but not at this time.
	ErrExpired = errors.New("the signing key is not valid now")
	// ErrKey: the private key cannot sign (unreadable or passphrase).
	ErrKey = errors.New("the key cannot sign")
)

// Signer is who made a verified signature.
type Signer struct {
	// Principal is the first principal of the allowed-signers line.
	Principal string `json:"principal"`
	// Fingerprint is "ED25519 SHA256:…", as ssh-keygen names a key.
	Fingerprint string `json:"fingerprint"`
}

// String is "lead@example.org, ED25519 SHA256:…".
func (s Signer) String() string { return s.Principal + ", " + s.Fingerprint }

// Fingerprint names key as ssh-keygen -l does: its type and SHA256
// fingerprint ("ED25519 SHA256:…").
func Fingerprint(key ssh.PublicKey) string {
	t := key.Type()
	name := map[string]string{
		ssh.KeyAlgoED25519: "ED25519", ssh.KeyAlgoRSA: "RSA", ssh.KeyAlgoECDSA256: "ECDSA", ssh.KeyAlgoECDSA384: "ECDSA",
		ssh.KeyAlgoECDSA521: "ECDSA", ssh.KeyAlgoSKED25519: "ED25519-SK", ssh.KeyAlgoSKECDSA256: "ECDSA-SK",
	}[t]
	if name == "" {
		name = strings.ToUpper(t)
	}
	return name + " " + ssh.FingerprintSHA256(key)
}

// Verify checks that armored is a signature of message in namespace by a
// key of signers valid at now, and returns who signed. Every refusal wraps
// one of the errors above and is one sentence.
func Verify(message, armored []byte, signers []AllowedSigner, namespace string, now time.Time) (Signer, error) {
	sig, err := sshsig.Unarmor(bytes.TrimSpace(armored))
	if err != nil {
		return Signer{}, fmt.Errorf("%w: the file is not an armored SSH signature (%s)", ErrMalformed, safetext.Line(err.Error(), 60))
	}
	fp := Fingerprint(sig.PublicKey)
	if sig.Namespace != namespace {
		return Signer{}, fmt.Errorf("%w: the signature is for namespace %q, not %q", ErrNamespace, safetext.Line(sig.Namespace, 40), namespace)
	}
	// The signature is checked against its own key first: content changed
	// after signing is named as such, whoever signed it.
	if err := sshsig.Verify(bytes.NewReader(message), sig, sig.PublicKey, sig.HashAlgorithm, namespace); err != nil {
		return Signer{}, fmt.Errorf("%w: the signature by %s does not match the content", ErrMismatch, fp)
	}
	want := sig.PublicKey.Marshal()
	var lines []AllowedSigner
	for _, s := range signers {
		if bytes.Equal(s.Key.Marshal(), want) {
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		return Signer{}, fmt.Errorf("%w: %s is not in allowed-signers", ErrUnknownKey, fp)
	}
	var why error
	for _, s := range lines {
		switch {
		case !s.allows(namespace):
			why = fmt.Errorf("%w: allowed-signers line %d does not let %s sign in namespace %q", ErrNamespace, s.Line, fp, namespace)
		case !s.ValidAfter.IsZero() && now.Before(s.ValidAfter):
			why = fmt.Errorf("%w: allowed-signers line %d trusts %s only from %s", ErrExpired, s.Line, fp, s.ValidAfter.UTC().Format(time.RFC3339))
		case !s.ValidBefore.IsZero() && !now.Before(s.ValidBefore):
			why = fmt.Errorf("%w: allowed-signers line %d trusted %s only until %s", ErrExpired, s.Line, fp, s.ValidBefore.UTC().Format(time.RFC3339))
		default:
			return Signer{Principal: safetext.Line(s.Principals[0], 80), Fingerprint: fp}, nil
		}
	}
	return Signer{}, why
}

// Sign signs message in namespace with the OpenSSH private key keyPEM and
// returns the armored signature, as `ssh-keygen -Y sign -n NAMESPACE -f
// KEY` writes it (SHA-512).
func Sign(message, keyPEM []byte, namespace string) ([]byte, error) {
	key, err := ssh.ParsePrivateKey(keyPEM)
	if err != nil {
		var pp *ssh.PassphraseMissingError
		if errors.As(err, &pp) {
			return nil, fmt.Errorf("%w: the key is protected by a passphrase; sign with ssh-keygen -Y sign -n %s -f KEY FILE instead", ErrKey, namespace)
		}
		return nil, fmt.Errorf("%w: it is not an OpenSSH private key (%s)", ErrKey, safetext.Line(err.Error(), 60))
	}
	sig, err := sshsig.Sign(bytes.NewReader(message), key, sshsig.HashSHA512, namespace)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	return sshsig.Armor(sig), nil
}
