//go:build !unix

package skills

import "errors"

func mkfifo(string) error { return errors.New("no fifos on this system") }
