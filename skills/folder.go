package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readFolder walks a folder through an os.Root, so nothing outside it can
// be reached. Links are listed, never followed: the walk does not enter
// linked folders and files are opened without following a final link.
// Devices, pipes and sockets are refused before they are opened.
func readFolder(c *collector, dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("skill package: %w", err)
	}
	defer root.Close()
	return fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("skill package: %w", err)
		}
		if name == "." {
			return nil
		}
		t := d.Type()
		e := entry{name: name, compressed: -1}
		switch {
		case t.IsDir():
			e.kind = kindDir
		case t&fs.ModeSymlink != 0:
			e.kind = kindSymlink
			if e.target, err = root.Readlink(name); err != nil {
				return fmt.Errorf("skill package: %w", err)
			}
		case !t.IsRegular():
			e.kind = kindDevice
		default:
			fi, err := d.Info()
			if err != nil {
				return fmt.Errorf("skill package: %w", err)
			}
			e.size, e.exec = fi.Size(), fi.Mode()&0o111 != 0
			if hardLinked(fi) {
				e.kind, e.target = kindHardlink, name
			}
			e.open = func() (io.ReadCloser, error) { return openPlain(root, name) }
		}
		return c.add(e)
	})
}

// openPlain opens a regular file without following a link or blocking on
// a pipe swapped in since the walk saw it.
func openPlain(root *os.Root, name string) (io.ReadCloser, error) {
	f, err := root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file any more")
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
