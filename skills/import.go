package skills

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
)

// Import reads the skill package at path — a .zip, a .tar.gz/.tgz (or plain
// .tar), a folder, or a lone SKILL.md in any case — and returns it
// validated (SPEC G1–G4, G6). The format is told by content, not by the
// file name. Entries stream through the limits: each is judged by its name
// and declared size before a byte of it is read, and the bytes read are
// counted against what was declared. Kept files stay in memory; Import
// writes nothing anywhere and runs nothing from the package (SPEC G2).
//
// A refused package is a *Rejection whose Reason is one sentence saying
// what is wrong and what to do. Other errors (the path cannot be read,
// ctx was cancelled) are returned wrapped.
func Import(ctx context.Context, path string, lim Limits) (*Package, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("skill package: %w", err)
	}
	c := newCollector(ctx, lim)
	defer c.wait() // no scan outlives Import, refused or not
	if fi.IsDir() {
		err = readFolder(c, path)
	} else {
		err = readFile(c, path, fi.Size())
	}
	if err != nil {
		return nil, err
	}
	p, err := c.finish()
	if err != nil {
		return nil, err
	}
	p.Source = path
	return p, nil
}

// readFile tells an archive from a lone SKILL.md by its first bytes.
func readFile(c *collector, name string, size int64) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("skill package: %w", err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("skill package: %w", err)
	}
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("skill package: %w", err)
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return readZip(c, f, size)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return readTarGz(c, f, size)
	case len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
		return readTar(c, f, size)
	case strings.EqualFold(path.Base(strings.ReplaceAll(name, `\`, "/")), "skill.md"):
		return c.add(entry{name: "SKILL.md", kind: kindFile, size: size, compressed: -1,
			open: func() (io.ReadCloser, error) { return io.NopCloser(f), nil }})
	}
	return rejectf("%q is not a zip or tar.gz archive, a folder, or a SKILL.md file; point vouch at the skill's folder or its archive", path.Base(name))
}

type entryKind int

const (
	kindFile entryKind = iota
	kindDir
	kindSymlink
	kindHardlink
	kindDevice
)

// entry is one member of a package as a format reader sees it.
type entry struct {
	name string // raw, as the archive spells it
	kind entryKind
	exec bool
	// size is the declared uncompressed size; compressed is the stored
	// size for a per-entry ratio check, -1 when the format has none.
	size, compressed int64
	// target is a link's target; for a zip symlink it is read from open.
	target string
	// open returns the content; it may be called once, or not at all.
	open func() (io.ReadCloser, error)
}

// held is a file read into memory, or listed as excluded.
type held struct {
	name string
	data []byte
	why  string // non-empty: excluded
	// scanned is filled by a scan running while later entries are read;
	// valid after collector.wait.
	scanned *scanned
}

// scanned is one kept file's scan: findings (File is the raw entry name)
// and the text with secrets and activation payloads stripped.
type scanned struct {
	findings []Finding
	data     []byte
}

// collector applies the rules every format shares and gathers what is
// kept. It is used by one goroutine.
type collector struct {
	ctx   context.Context
	lim   Limits
	names *nameSet
	count int
	total int64 // declared uncompressed bytes of all entries
	kept  int64
	files []held
	scans sync.WaitGroup
	sem   chan struct{}
}

func newCollector(ctx context.Context, lim Limits) *collector {
	return &collector{ctx: ctx, lim: lim, names: newNameSet(), sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// scanLater scans a kept file on another goroutine, so scanning overlaps
// with decompressing the entries after it; at most GOMAXPROCS scans run.
func (c *collector) scanLater(name string, data []byte) *scanned {
	res := &scanned{}
	c.scans.Go(func() {
		c.sem <- struct{}{}
		defer func() { <-c.sem }()
		var pre []Finding
		if strings.EqualFold(path.Base(name), "skill.md") {
			raw := data
			data, pre = stripExecKeys(data)
			identify(pre, raw)
		}
		f, spans := scan(name, data)
		res.findings, res.data = append(pre, f...), redact(data, spans)
	})
	return res
}

// wait returns once every scan has finished.
func (c *collector) wait() { c.scans.Wait() }

// add judges one entry. Its name and declared size are checked before any
// of its bytes are read.
func (c *collector) add(e entry) error {
	if err := c.ctx.Err(); err != nil {
		return fmt.Errorf("skill import: %w", err)
	}
	c.count++
	if c.count > c.lim.Files {
		return rejectf("the package has more than %d files and folders; a skill package holds instructions and a few resources, so trim it and import again", c.lim.Files)
	}
	name, err := cleanName(e.name, c.lim)
	if err != nil {
		return err
	}
	switch e.kind {
	case kindDir:
		return c.names.addDir(name)
	case kindDevice:
		return rejectf("the package holds a device, pipe or socket (%q); a skill package holds only files and folders", name)
	}
	if name == "." {
		return rejectf("the package has a file entry with an empty name; re-pack it with a standard archiver")
	}
	if err := c.names.addFile(name); err != nil {
		return err
	}
	switch e.kind {
	case kindSymlink, kindHardlink:
		return c.addLink(e, name)
	}
	if err := c.admit(name, e.size, e.compressed); err != nil {
		return err
	}
	if why := byPlace(name); why != "" {
		c.files = append(c.files, held{name: name, why: why})
		return nil
	}
	if why := byName(name, e.exec); why != "" {
		c.files = append(c.files, held{name: name, why: why})
		return nil
	}
	return c.read(e, name)
}

// byPlace leaves out whole trees that are never part of a skill.
func byPlace(name string) string {
	for i, seg := range strings.Split(name, "/") {
		switch {
		case i == 0 && seg == "__MACOSX":
			return whyMacMeta
		case seg == ".git" || seg == ".hg" || seg == ".svn":
			return whyVCS
		}
	}
	return ""
}

// admit checks an entry's declared size against the limits.
func (c *collector) admit(name string, size, compressed int64) error {
	if size < 0 || size > c.lim.FileBytes {
		return rejectf("the file %q declares %s, more than the %s a file may hold; remove it from the package and import again", name, mib(size), mib(c.lim.FileBytes))
	}
	c.total += size
	if c.total > c.lim.TotalBytes {
		return rejectf("the package unpacks to more than %s; a skill package holds instructions and a few resources, so trim it and import again", mib(c.lim.TotalBytes))
	}
	if compressed >= 0 && size > c.lim.RatioFloor && float64(size) > float64(max(compressed, 1))*c.lim.Ratio {
		return rejectf("the file %q expands %.0f times when unpacked, more than the %.0f allowed — a zip bomb; do not import this archive", name, float64(size)/float64(max(compressed, 1)), c.lim.Ratio)
	}
	return nil
}

// addLink lists a link inside the package as excluded and refuses one that
// points outside it. No link is ever followed.
func (c *collector) addLink(e entry, name string) error {
	target := e.target
	if e.kind == kindSymlink && e.open != nil {
		rc, err := e.open()
		if err != nil {
			return rejectf("the link %q cannot be read (%v); re-pack the package without links", name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, int64(c.lim.PathLen)+1))
		rc.Close()
		if err != nil {
			return rejectf("the link %q cannot be read (%v); re-pack the package without links", name, err)
		}
		target = string(b)
	}
	kind, why := "symbolic link", whySymlink
	resolved := path.Join(path.Dir(name), target)
	if e.kind == kindHardlink {
		kind, why = "hard link", whyHardlink
		resolved = path.Clean(target) // hard links name a path from the archive root
	}
	if target == "" || strings.HasPrefix(target, "/") || hasDrive(target) || resolved == ".." || strings.HasPrefix(resolved, "../") {
		return rejectf("the %s %q points outside the package (to %q); vouch never follows links, so remove it and import again", kind, name, target)
	}
	c.files = append(c.files, held{name: name, why: why})
	return nil
}

// read sniffs an entry's first bytes, then keeps it as text or lists it
// as excluded without reading further.
func (c *collector) read(e entry, name string) error {
	rc, err := e.open()
	if err != nil {
		return c.unreadable(name, err)
	}
	defer rc.Close()
	m := &meter{ctx: c.ctx, r: rc, left: e.size, name: name}
	buf := make([]byte, 0, min(e.size, sniffLen)+1)
	buf, err = fill(buf, m, sniffLen)
	if err != nil {
		return c.unreadable(name, err)
	}
	complete := int64(len(buf)) >= e.size
	why := byContent(buf)
	if why == "" {
		why = privateKeyFile(name, buf)
	}
	if why != "" || !validText(buf, complete) {
		if why == "" {
			why = whyBinary
		}
		c.files = append(c.files, held{name: name, why: why})
		return nil
	}
	if c.kept+e.size > c.lim.KeptBytes {
		return rejectf("the package holds more than %s of text; trim it and import again", mib(c.lim.KeptBytes))
	}
	// Grow with the bytes that arrive, not with what the header claims.
	data := make([]byte, len(buf), min(e.size, 1<<20)+1)
	copy(data, buf)
	data, err = fill(data, m, int(e.size)+1)
	if err != nil {
		return c.unreadable(name, err)
	}
	if int64(len(data)) != e.size {
		return rejectf("the file %q holds %d bytes but its header declares %d; the archive is damaged or hostile, so do not import it", name, len(data), e.size)
	}
	switch {
	case !validText(data, true):
		c.files = append(c.files, held{name: name, why: whyBinary})
	case longestLine(data) > c.lim.LineBytes:
		c.files = append(c.files, held{name: name, why: whyLongLine})
	case mcpConfigContent(name, data):
		c.files = append(c.files, held{name: name, why: whyActivation})
	default:
		c.kept += e.size
		c.files = append(c.files, held{name: name, data: data, scanned: c.scanLater(name, data)})
	}
	return nil
}

func (c *collector) unreadable(name string, err error) error {
	var rej *Rejection
	if errors.As(err, &rej) {
		return rej
	}
	if ctxErr := c.ctx.Err(); ctxErr != nil {
		return fmt.Errorf("skill import: %w", ctxErr)
	}
	if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF) {
		return rejectf("the file %q does not match its header (size or checksum); the archive is damaged or hostile, so do not import it", name)
	}
	return rejectf("the file %q cannot be read from the package (%v); the archive is damaged, so re-pack it and import again", name, err)
}

// fill reads from r into buf until it holds upTo bytes or r ends.
func fill(buf []byte, r io.Reader, upTo int) ([]byte, error) {
	for len(buf) < upTo {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), upTo)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// meter passes at most left+1 bytes of an entry (one more than declared,
// so a lying header shows) and honours cancellation.
type meter struct {
	ctx  context.Context
	r    io.Reader
	left int64
	name string
}

func (m *meter) Read(p []byte) (int, error) {
	if err := m.ctx.Err(); err != nil {
		return 0, err
	}
	if m.left < 0 {
		return 0, rejectf("the file %q holds more bytes than its header declares; the archive is damaged or hostile, so do not import it", m.name)
	}
	if int64(len(p)) > m.left+1 {
		p = p[:m.left+1]
	}
	n, err := m.r.Read(p)
	m.left -= int64(n)
	return n, err
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", (n+1023)>>10)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
