package skills

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"io"
)

// readTarGz reads a gzip-compressed tar stream. Tar entries carry no
// compressed size, so the compression ratio is judged over the stream:
// decompressed bytes against the compressed bytes consumed so far.
func readTarGz(c *collector, r io.Reader, size int64) error {
	if size > c.lim.TotalBytes+archiveSlack(c.lim) {
		return rejectf("the archive is %s, more than a skill package may unpack to (%s); trim it and import again", mib(size), mib(c.lim.TotalBytes))
	}
	in := &counted{r: bufio.NewReader(r)}
	gz, err := gzip.NewReader(in)
	if err != nil {
		return rejectf("the file is not a readable gzip stream (%v); re-pack the skill folder as .tar.gz or .zip and import again", err)
	}
	defer gz.Close()
	return readTarStream(c, &ratioGuard{r: gz, in: in, lim: c.lim})
}

// readTar reads an uncompressed tar archive.
func readTar(c *collector, r io.Reader, size int64) error {
	if size > c.lim.TotalBytes+archiveSlack(c.lim) {
		return rejectf("the archive is %s, more than a skill package may unpack to (%s); trim it and import again", mib(size), mib(c.lim.TotalBytes))
	}
	return readTarStream(c, r)
}

func readTarStream(c *collector, r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return c.unreadable("(archive header)", err)
		}
		e := entry{name: h.Name, size: h.Size, compressed: -1, exec: h.Mode&0o111 != 0, target: h.Linkname,
			open: func() (io.ReadCloser, error) { return io.NopCloser(tr), nil }}
		switch h.Typeflag {
		case tar.TypeReg: // archive/tar reports the old TypeRegA as TypeReg
		case tar.TypeDir:
			e.kind = kindDir
		case tar.TypeSymlink:
			e.kind = kindSymlink
			e.open = nil
		case tar.TypeLink:
			e.kind = kindHardlink
			e.open = nil
		case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
			e.kind = kindDevice
		case tar.TypeXGlobalHeader:
			continue
		default:
			return rejectf("the entry %q is a tar entry of type %q, which vouch does not import; re-pack the skill folder with a standard archiver", h.Name, string(h.Typeflag))
		}
		if err := c.add(e); err != nil {
			return err
		}
	}
}

// counted counts the bytes read through it.
type counted struct {
	r io.Reader
	n int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioGuard bounds a decompressed stream: its ratio to the compressed
// bytes consumed (past the floor) and its total.
type ratioGuard struct {
	r   io.Reader
	in  *counted
	lim Limits
	n   int64
}

func (g *ratioGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.n += int64(n)
	if g.n > g.lim.TotalBytes+archiveSlack(g.lim) {
		return n, rejectf("the archive unpacks to more than %s; a skill package holds instructions and a few resources, so do not import this one", mib(g.lim.TotalBytes))
	}
	if g.n > g.lim.RatioFloor && float64(g.n) > float64(max(g.in.n, 1))*g.lim.Ratio {
		return n, rejectf("the archive expands more than %.0f times when unpacked — a compression bomb; do not import it", g.lim.Ratio)
	}
	return n, err
}
