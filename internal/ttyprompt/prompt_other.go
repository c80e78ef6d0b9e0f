//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package ttyprompt

import (
	"errors"
	"os"
)

// discardTypeAhead cannot drop pending terminal input on this system, so
// the prompt does not ask at all: an answer typed ahead could decide
// (SPEC D7).
func discardTypeAhead(*os.File) (int, error) {
	return 0, errors.New("this system offers no way to discard what was typed before the question; answer approvals in the TUI or the approvals inbox instead")
}
