package skills

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
)

// zipMethods names the compression methods vouch meets but cannot read.
var zipMethods = map[uint16]string{1: "shrink", 6: "implode", 9: "deflate64", 12: "bzip2", 14: "LZMA", 93: "zstd", 95: "xz", 98: "PPMd", 99: "AES encryption"}

// readZip reads a zip archive through an io.ReaderAt: the entry count is
// checked from the end record before the central directory is parsed, and
// each entry's declared sizes before any of it is decompressed.
func readZip(c *collector, f io.ReaderAt, size int64) error {
	if size > c.lim.TotalBytes+archiveSlack(c.lim) {
		return rejectf("the archive is %s, more than a skill package may unpack to (%s); trim it and import again", mib(size), mib(c.lim.TotalBytes))
	}
	if n, ok := zipEntryCount(f, size); ok && n > uint64(c.lim.Files) {
		return rejectf("the package has %d files and folders, more than the %d allowed; a skill package holds instructions and a few resources, so trim it and import again", n, c.lim.Files)
	}
	zr, err := zip.NewReader(f, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are judged by cleanName
		return rejectf("the file is not a readable zip archive (%v); re-pack the skill folder and import again", err)
	}
	for _, zf := range zr.File {
		if zf.Flags&0x1 != 0 {
			return rejectf("the entry %q is encrypted; vouch imports only plain archives, so re-pack it without a password", zf.Name)
		}
		if zf.Method != zip.Store && zf.Method != zip.Deflate {
			m, ok := zipMethods[zf.Method]
			if !ok {
				m = "unknown"
			}
			return rejectf("the entry %q uses compression method %d (%s), which vouch does not read; re-pack the archive with standard deflate and import again", zf.Name, zf.Method, m)
		}
		mode := zf.Mode()
		e := entry{name: zf.Name, exec: mode&0o111 != 0 && mode.IsRegular(), compressed: int64(min(zf.CompressedSize64, 1<<62)), open: zf.Open}
		e.size = int64(min(zf.UncompressedSize64, 1<<62))
		switch {
		case mode&fs.ModeSymlink != 0:
			e.kind = kindSymlink
		case mode.IsDir():
			e.kind = kindDir
		case mode&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeIrregular) != 0:
			e.kind = kindDevice
		}
		if err := c.add(e); err != nil {
			return err
		}
	}
	return nil
}

// archiveSlack is what headers and directories may add to an archive
// beyond its content.
func archiveSlack(lim Limits) int64 { return int64(lim.Files)*(1024+int64(lim.PathLen)*2) + 1<<20 }

// zipEntryCount reads the entry count from a zip's end-of-central-directory
// record (or its zip64 form) without parsing the directory; ok is false
// when the record cannot be found, and archive/zip then decides.
func zipEntryCount(r io.ReaderAt, size int64) (n uint64, ok bool) {
	const eocdLen, maxComment = 22, 65535
	tail := min(size, eocdLen+maxComment)
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < eocdLen {
		return 0, false
	}
	n = uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n != 0xffff {
		return n, true
	}
	loc := size - tail + int64(i) - 20 // zip64 end-of-central-directory locator
	if loc < 0 {
		return n, true
	}
	lb := make([]byte, 20)
	if _, err := r.ReadAt(lb, loc); err != nil || !bytes.HasPrefix(lb, []byte("PK\x06\x07")) {
		return n, true
	}
	off := binary.LittleEndian.Uint64(lb[8:])
	rec := make([]byte, 40)
	if off > uint64(size) || off+40 > uint64(size) {
		return 0, false
	}
	if _, err := r.ReadAt(rec, int64(off)); err != nil || !bytes.HasPrefix(rec, []byte("PK\x06\x06")) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}
