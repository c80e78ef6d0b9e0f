package store

import "errors"

// Errors returned when opening the database (SPEC K1). Open wraps each with
// the database path (and the lock holder's PID when known), so test with
// errors.Is and show the wrapped message to the person as it is: every
// message ends in what to do.
var (
	// ErrLocked means another vouch process holds the database file. Open
	// gives up after Options.Timeout (default 1s) instead of waiting on the
	// lock; the wrapped message names the holder's PID when its
	// lock-holder sidecar is readable.
	ErrLocked = errors.New("another vouch is using this database; quit it or pass another --state-dir")

	// ErrNewerSchema means the file was written by a newer vouch whose schema
	// this build does not know. The file is left untouched.
	ErrNewerSchema = errors.New("the database was written by a newer vouch; upgrade vouch or pass another --state-dir")

	// ErrCorrupt means the file is not a readable vouch database (bbolt
	// rejected it or panicked on one of its pages, or its records do not
	// decode). vouch never deletes it. A damaged page met while reading is
	// wrapped with the file's path (see damaged).
	ErrCorrupt = errors.New("the database file is damaged; restore a copy of it, or move it aside (do not delete it) and start vouch again to create a fresh one; `vouch doctor --check` lists what is damaged")

	// ErrReadOnly means the database file or its directory cannot be written
	// (permissions, a read-only file system, or a directory in the way).
	ErrReadOnly = errors.New("vouch cannot write its database there; fix the permissions or pass another --state-dir")
)

// Errors returned by record operations.
var (
	// ErrNotFound means the conversation, message or provider asked for does
	// not exist. It is wrapped with the kind and the name or ID.
	ErrNotFound = errors.New("no such record; check the name or ID")

	// ErrInvalid means a record was rejected before anything was written,
	// e.g. a provider without a name or a message with an unknown status.
	ErrInvalid = errors.New("the record is invalid; nothing was written")

	// ErrDuplicate means another record already has that name; nothing was
	// written.
	ErrDuplicate = errors.New("that name is already taken; choose another")

	// ErrUnaccepted means a skill version carries high-severity scanner
	// findings the person has not accepted by ID (SPEC G8); nothing was
	// written. The wrapped message lists the IDs.
	ErrUnaccepted = errors.New("the skill has high-severity scanner findings that were not accepted; read them in the preview and accept each by ID to install it")
)

// Errors returned by Secrets (SPEC K2). Their wrapped messages name the
// operation and the key, never the secret.
var (
	// ErrKeyringTimeout means the keyring did not answer before the call's
	// deadline (default 3s). A hung D-Bus or an unanswered unlock prompt
	// usually causes it. A timed-out Set or Delete may still complete later.
	ErrKeyringTimeout = errors.New("the keyring did not answer in time; unlock it or set VOUCH_KEYRING_BACKEND=file")

	// ErrKeyringUnavailable means no usable keyring backend could be opened
	// (no Secret Service on the session bus, no kernel keyring, or the file
	// backend without a passphrase).
	ErrKeyringUnavailable = errors.New("no keyring is available; start a Secret Service such as gnome-keyring, or set VOUCH_KEYRING_BACKEND=keyctl or file")

	// ErrKeyringLocked means the keyring refused access: it is locked, or the
	// file backend's passphrase is wrong.
	ErrKeyringLocked = errors.New("the keyring is locked or the passphrase is wrong; unlock it (or check VOUCH_KEYRING_PASSPHRASE) and try again")

	// ErrSecretNotFound means the keyring holds no secret under that key.
	ErrSecretNotFound = errors.New("no secret is stored under that key; set it again")
)
