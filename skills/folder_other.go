//go:build !unix

package skills

import (
	"io/fs"
	"os"
)

const openFlags = os.O_RDONLY

func hardLinked(fs.FileInfo) bool { return false }
