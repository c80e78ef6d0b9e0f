package runs

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// fakeHistory is a History over runs and details, paging by two like the
// root's fake workflows backend.
type fakeHistory struct {
	mu      sync.Mutex
	runs    []Summary
	details map[string]Detail
	pages   []string // cursors ListRuns was asked for
}

func newFakeHistory() *fakeHistory { return &fakeHistory{details: map[string]Detail{}} }

// ListRuns pages by two.
func (f *fakeHistory) ListRuns(_ context.Context, cursor string, _ int) (Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pages = append(f.pages, cursor)
	start := 0
	for i, r := range f.runs {
		if r.ID == cursor {
			start = i + 1
		}
	}
	end := min(start+2, len(f.runs))
	page := Page{Runs: slices.Clone(f.runs[start:end])}
	if end < len(f.runs) {
		page.Next = f.runs[end-1].ID
	}
	return page, nil
}

func (f *fakeHistory) Run(_ context.Context, id string) (Detail, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.details[id]
	if !ok {
		return Detail{}, errors.New("no run " + id)
	}
	return d, nil
}
