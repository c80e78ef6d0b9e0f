package localskills

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"vouch/skills"
)

// TestFromNamesThePathAsGiven (SPEC K5): a relative path is read against
// the command's directory, and the error names it as the person typed
// it, the same sentence in the session as in-process; an absolute path
// and no directory are read as given.
func TestFromNamesThePathAsGiven(t *testing.T) {
	dir := t.TempDir()
	var read string
	missing := errors.New("missing")
	load := func(_ context.Context, path string) (*skills.Package, error) {
		read = path
		return nil, errors.Join(missing, errors.New("cannot read "+path))
	}
	_, err := From(load, dir)(context.Background(), "pkg/skill.zip")
	if read != filepath.Join(dir, "pkg/skill.zip") {
		t.Errorf("read %q, want it under the command's directory", read)
	}
	if err == nil || err.Error() != "missing\ncannot read pkg/skill.zip" || !errors.Is(err, missing) {
		t.Errorf("err = %q, want the path as given and the cause kept", err)
	}
	for _, tc := range []struct{ dir, path string }{{dir, "/abs/skill.zip"}, {"", "rel/skill.zip"}} {
		if _, err := From(load, tc.dir)(context.Background(), tc.path); read != tc.path || err.Error() != "missing\ncannot read "+tc.path {
			t.Errorf("From(%q)(%q) read %q, err %q; want it read and named as given", tc.dir, tc.path, read, err)
		}
	}
}
