package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"vouch/internal/app/localskills"
	"vouch/internal/lock"
	"vouch/policy"
	"vouch/safetext"
	"vouch/skills"
	"vouch/store"
	"vouch/tool"
)

// ManagedLockEnv names the managed lockfile for an administrator (SPEC
// N3); it comes before the managed-lock setting.
const ManagedLockEnv = "VOUCH_MANAGED_LOCK"

// managed is the managed lock in force: none (l nil, err nil), one read
// and verified, or one configured that cannot be (err: fail closed).
type managed struct {
	path string
	l    *lock.Lock
	err  error
}

// managedPath is the managed lock's path: the environment's, else the
// setting's; "" when none is configured.
func managedPath(db SettingStore) (string, error) {
	if p := strings.TrimSpace(os.Getenv(ManagedLockEnv)); p != "" {
		return p, nil
	}
	v, err := NewSettings(db).Value(SettingManagedLock)
	return v.Value, err
}

// loadManaged reads and verifies the managed lock, when one is
// configured. A lock that cannot be read, parsed or verified is an error
// in err, which every check returns: nothing looser gets through.
func loadManaged(db SettingStore, now time.Time) managed {
	path, err := managedPath(db)
	if err != nil {
		return managed{err: Wrap(Rejected, fmt.Errorf("the managed-lock setting cannot be read (%w), so no trust can change", err))}
	}
	if path == "" {
		return managed{}
	}
	l, _, err := readLock(db, path, now)
	if err != nil {
		return managed{path: path, err: Errorf(Rejected, "the managed lock %s cannot be used (%s), so nothing external runs and no trust can change until an administrator fixes it",
			safetext.Line(path, 200), safetext.Line(err.Error(), 400))}
	}
	return managed{path: path, l: &l}
}

// ManagedSummary says which managed lock is in force, "" when none; an
// unusable one is the error.
func (f *Fleet) ManagedSummary() (string, error) {
	m := loadManaged(f.db, f.now())
	return m.path, m.err
}

func (m managed) locked(format string, args ...any) error {
	return Errorf(Rejected, "%s, so the managed lock %s refuses it; tightening is always allowed", fmt.Sprintf(format, args...), safetext.Line(m.path, 200))
}

// admitRule refuses a rule looser than the managed lock's for its tool
// (or than the default ask, for a tool the lock has no rule for).
func (m managed) admitRule(r lock.Rule) error {
	if m.err != nil || m.l == nil {
		return m.err
	}
	want, ok := m.l.RuleFor(r.Server, r.Tool)
	if !ok {
		want = lock.Baseline(r.Server, r.Tool)
	}
	if why := lock.Looser(r, want); why != "" {
		return m.locked("tool %s: %s", safetext.Line(r.Subject(), 100), why)
	}
	return nil
}

// admitServer refuses a server the managed lock does not name, or names
// at another URL.
func (m managed) admitServer(name, rawURL string) error {
	if m.err != nil || m.l == nil {
		return m.err
	}
	s, ok := m.l.Server(name)
	if !ok {
		return m.locked("server %s is not named in it", safetext.Line(name, 60))
	}
	if strings.TrimSpace(rawURL) != s.URL {
		return m.locked("server %s may only be at %s", safetext.Line(name, 60), safetext.Line(s.URL, 100))
	}
	return nil
}

// admitSkill refuses a skill package the managed lock does not pin.
func (m managed) admitSkill(name, sha string) error {
	if m.err != nil || m.l == nil {
		return m.err
	}
	pin, ok := m.l.Skill(name)
	if !ok {
		return m.locked("skill %s is not pinned in it", safetext.Line(name, 60))
	}
	if pin.SHA256 != sha {
		return m.locked("skill %s is pinned to sha256 %s, and this package is %s", safetext.Line(name, 60), shortDigest(pin.SHA256), shortDigest(sha))
	}
	return nil
}

// admitPolicyRule is admitRule for a policy rule about to be stored.
func admitPolicyRule(db *store.DB, r policy.Rule) error {
	m := loadManaged(db, time.Now())
	if m.err != nil || m.l == nil {
		return m.err
	}
	servers, err := db.MCPServers()
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, s := range servers {
		names[s.ID] = s.Name
	}
	lr, ok := lockRuleOf(RuleToStore(r), names)
	if !ok {
		if !strings.HasPrefix(r.Identity, tool.MCPPrefix) {
			return nil
		}
		lr = lock.Rule{Server: "?", Tool: r.Identity, Class: string(r.Class), Effect: string(r.Effect)}
	}
	return m.admitRule(lr)
}

// admitSkills wraps load so that a package the managed lock does not pin
// is refused as it is read, for a preview as for an install (SPEC N3),
// and its signature is judged (SPEC N5: signer, warnings, the high finding
// of content changed after signing, require-signed-skills).
func admitSkills(db *store.DB, load localskills.Loader) localskills.Loader {
	return func(ctx context.Context, path string) (*skills.Package, error) {
		p, err := load(ctx, path)
		if err != nil {
			return p, err
		}
		if err := loadManaged(db, time.Now()).admitSkill(p.Name, p.SHA256); err != nil {
			return nil, &skills.Rejection{Reason: err.Error()}
		}
		if err := judgeSignature(db, path, p, time.Now()); err != nil {
			return nil, err
		}
		return p, nil
	}
}

// managedBlock is the reason every external tool is blocked with when the
// managed lock cannot be used, "" otherwise (SPEC N3: fail closed).
func managedBlock(db *store.DB) string {
	if m := loadManaged(db, time.Now()); m.err != nil {
		return safetext.Line(m.err.Error(), 400)
	}
	return ""
}

// DoctorLock is the summary of 'vouch lock check' on the managed lock
// that 'vouch doctor' shows (SPEC N2).
type DoctorLock struct {
	File   string `json:"file"`
	Signer string `json:"signer,omitempty"`
	Drifts int    `json:"drifts"`
	// Summary is one sentence: agreement, the drift count, or why the lock
	// cannot be used.
	Summary string `json:"summary"`
}

// doctorLock checks the managed lock, when one is configured and the
// database can be read (the session's when it holds it).
func doctorLock(stateDir string, db DoctorDatabase, held *State) *DoctorLock {
	if !db.Exists || held == nil && db.LockHolderPID != 0 {
		return nil
	}
	var out *DoctorLock
	check := func(d *store.DB) error {
		f := newFleet(d)
		path, err := managedPath(d)
		if err != nil || path == "" {
			return err
		}
		out = &DoctorLock{File: path}
		rep, err := f.Check(path, "")
		switch {
		case err != nil:
			out.Summary = "cannot be used, so nothing external runs: " + safetext.Line(err.Error(), 300)
		case len(rep.Drifts) == 0:
			out.Summary = "this machine agrees with it"
		default:
			out.Drifts = len(rep.Drifts)
			out.Summary = fmt.Sprintf("this machine differs from it in %d ways; 'vouch lock check' names them", len(rep.Drifts))
		}
		if rep.Signer != nil {
			out.Signer = rep.Signer.String()
		}
		return nil
	}
	var err error
	if held != nil {
		err = check(held.db)
	} else {
		err = WithDB(stateDir, func(s *State) error { return check(s.db) })
	}
	if err != nil && out == nil {
		out = &DoctorLock{Summary: "not checked: " + safetext.Line(err.Error(), 200)}
	}
	return out
}

// guardTrustSetting refuses, under a managed lock an administrator names
// (VOUCH_MANAGED_LOCK), a change of allowed-signers — which keys verify
// the lock — and turning require-signed-skills off: a person cannot lift
// what the administrator set (SPEC N3). The managed-lock setting itself
// yields to the environment, so it may change.
func guardTrustSetting(db SettingStore, key, value string) error {
	if key != SettingAllowedSigners && !(key == SettingRequireSigned && value == "off") {
		return nil
	}
	if strings.TrimSpace(os.Getenv(ManagedLockEnv)) == "" {
		return nil
	}
	if cur, err := NewSettings(db).Value(key); err != nil || cur.Value == value {
		return err
	}
	return Errorf(Rejected, "%s is held by the managed lock %s (VOUCH_MANAGED_LOCK); an administrator changes it", key, safetext.Line(os.Getenv(ManagedLockEnv), 200))
}
