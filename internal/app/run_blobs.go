package app

import (
	"errors"
	"fmt"
	"sync"

	"vouch/store"
	"vouch/tool"
)

// maxPinnedBytes bounds the local skill text one run holds in memory: the
// files of every enabled local skill (each package keeps at most 24 MiB of
// text, skills.Limits.KeptBytes).
const maxPinnedBytes = 64 << 20

// pinnedBlobs holds the files of the local skills a run froze — SKILL.md
// and the declared resources, nothing else — read from the catalog when
// the run starts (SPEC H4, H5). The run reads them from here, never from
// the catalog again, so removing or reinstalling a skill while the run
// goes on (store.RemoveSkill deletes files no version names) changes
// nothing the run sees; the run still checks each file against its
// frozen digest. It is an tool.SkillBlobs, safe for concurrent use.
type pinnedBlobs struct {
	mu    sync.Mutex
	files map[string][]byte // sha256 → content
	size  int64
	limit int64 // bytes it may hold
}

func newPinnedBlobs() *pinnedBlobs {
	return &pinnedBlobs{files: map[string][]byte{}, limit: maxPinnedBytes}
}

// pin reads the frozen files of s from db and keeps them. A file gone from
// the catalog means the skill was removed as the run started.
func (p *pinnedBlobs) pin(db *store.DB, s tool.FrozenSkill) error {
	for _, f := range append([]tool.FrozenFile{s.Instructions}, s.Resources...) {
		p.mu.Lock()
		_, have := p.files[f.SHA256]
		p.mu.Unlock()
		if have {
			continue
		}
		data, err := db.SkillBlob(f.SHA256)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %q was removed as the run started", errSkillMissing, s.Name)
		} else if err != nil {
			return fmt.Errorf("read skill %q file %s: %w", s.Name, f.Path, err)
		}
		p.mu.Lock()
		p.files[f.SHA256] = data
		p.size += int64(len(data))
		size := p.size
		p.mu.Unlock()
		if size > p.limit {
			return fmt.Errorf("the enabled skills' files come to more than the %s one run holds; enable fewer skills on the profile", fmt.Sprintf("%d KiB", p.limit>>10))
		}
	}
	return nil
}

// SkillBlob returns a pinned file; anything the run did not freeze is not
// there.
func (p *pinnedBlobs) SkillBlob(sum string) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if data, ok := p.files[sum]; ok {
		return data, nil
	}
	return nil, fmt.Errorf("skill file %s is not one this run froze: %w", sum, store.ErrNotFound)
}
