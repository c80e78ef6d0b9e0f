package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"vouch/internal/sshsign"
	"vouch/safetext"
)

// allowedSigners reads the allowed-signers setting's file: nil (and no
// error) when the setting is not set; a file that cannot be read or
// parsed is Rejected with its sentence.
func allowedSigners(db SettingStore) ([]sshsign.AllowedSigner, string, error) {
	v, err := NewSettings(db).Value(SettingAllowedSigners)
	if err != nil || v.Value == "" {
		return nil, "", err
	}
	data, err := readBounded(v.Value, sshsign.MaxAllowedSigners)
	if err != nil {
		return nil, v.Value, Wrap(Rejected, fmt.Errorf("read the allowed-signers file %s: %w; fix it or 'vouch settings reset allowed-signers'", safetext.Line(v.Value, 200), err))
	}
	signers, err := sshsign.ParseAllowedSigners(data, time.Local)
	if err != nil {
		return nil, v.Value, Wrap(Rejected, fmt.Errorf("%s: %w", safetext.Line(v.Value, 200), err))
	}
	return signers, v.Value, nil
}

// verifyBeside verifies path's signature path+".sig" over data in
// namespace when allowed-signers is set (SPEC N4), returning the signer;
// nil and no error when allowed-signers is not set. A missing, unknown or
// mismatching signature is Rejected.
func verifyBeside(db SettingStore, path string, data []byte, namespace string, now time.Time) (*Signer, error) {
	signers, file, err := allowedSigners(db)
	if err != nil || file == "" {
		return nil, err
	}
	sigPath := path + ".sig"
	sig, err := readBounded(sigPath, 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Errorf(Rejected, "%s is not signed, and allowed-signers asks for a signature: sign it with 'ssh-keygen -Y sign -n %s -f KEY %s' (or 'vouch lock sign %s --key KEY') so that %s sits beside it",
			safetext.Line(path, 200), namespace, ShellWord(path), ShellWord(path), safetext.Line(sigPath, 200))
	}
	if err != nil {
		return nil, Wrap(Rejected, fmt.Errorf("read the signature %s: %w", safetext.Line(sigPath, 200), err))
	}
	s, err := sshsign.Verify(data, sig, signers, namespace, now)
	if err != nil {
		return nil, Wrap(Rejected, fmt.Errorf("the signature of %s is refused: %w", safetext.Line(path, 200), err))
	}
	return &s, nil
}

// SignLockFile signs the lockfile at path with the OpenSSH private key at
// keyPath and writes path+".sig", as 'ssh-keygen -Y sign -n vouch-lock'
// does (SPEC N4). It returns the signature's path.
func SignLockFile(_ context.Context, path, keyPath string) (string, error) {
	return signFile(path, keyPath, sshsign.NamespaceLock)
}

// signFile signs the file at path in namespace, writing path+".sig".
func signFile(path, keyPath, namespace string) (string, error) {
	data, err := readBounded(path, 64<<20)
	if err != nil {
		return "", Wrap(Usage, fmt.Errorf("read %s: %w", safetext.Line(path, 200), err))
	}
	sig, err := signBytes(data, keyPath, namespace)
	if err != nil {
		return "", err
	}
	out := path + ".sig"
	if err := writeFile(out, sig); err != nil {
		return "", err
	}
	return out, nil
}

// writeFile writes a signature (public, like the file it signs).
func writeFile(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write the signature %s: %w", safetext.Line(path, 200), err)
	}
	return nil
}

// signBytes signs data with the key at keyPath.
func signBytes(data []byte, keyPath, namespace string) ([]byte, error) {
	key, err := readBounded(keyPath, 64<<10)
	if err != nil {
		return nil, Wrap(Usage, fmt.Errorf("read the key %s: %w", safetext.Line(keyPath, 200), err))
	}
	sig, err := sshsign.Sign(data, key, namespace)
	if err != nil {
		return nil, Wrap(Usage, fmt.Errorf("%s: %w", safetext.Line(keyPath, 200), err))
	}
	return sig, nil
}
