package skills

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// sniffLen is how much of an entry is read to judge its content before
// the rest is accepted or discarded.
const sniffLen = 8 << 10

// Reasons a file is left out (Excluded.Reason). They are fixed sentences so
// the preview can group them.
const (
	whyScript     = "executable: a script or program (by its extension); nothing in a package is ever run"
	whyExecBit    = "executable: the file has its exec bit set; nothing in a package is ever run"
	whyShebang    = "executable: the file starts with #! (a script); nothing in a package is ever run"
	whyMachine    = "executable: machine code (ELF, Mach-O, PE or WebAssembly); nothing in a package is ever run"
	whyBuild      = "executable: a build or container recipe; nothing in a package is ever run"
	whyArchive    = "nested archive: never opened"
	whyFont       = "binary: a font"
	whyImage      = "binary: an image or media file"
	whyDocument   = "binary: a PDF or office document"
	whyBinary     = "binary: not UTF-8 text"
	whyLongLine   = "text with a line longer than the limit: not readable as a resource"
	whySymlink    = "symbolic link inside the package: links are never followed"
	whyHardlink   = "hard link inside the package: links are never followed"
	whyMacMeta    = "macOS metadata, not part of the skill"
	whyVCS        = "version-control data, not part of the skill"
	whyActivation = "carries an MCP server activation payload (SPEC G6); left out"
	whyPrivateKey = "private key: a package cannot carry credentials (SPEC G6); left out, not kept emptied"
)

// keyFileNames are the file names SSH and PuTTY give private keys.
var keyFileNames = set("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "identity")

// privateKeyFile reports whether a file is a private key, by its first
// bytes: its first non-blank line is a PEM private-key header or a PuTTY
// key header, or it has an SSH key's file name (or .ppk) and holds a
// private-key header in its head. Such a file is excluded, not kept with
// its block stripped (SPEC G6, G8).
func privateKeyFile(name string, head []byte) string {
	base := strings.ToLower(path.Base(name))
	if (keyFileNames[base] || strings.HasSuffix(base, ".ppk")) &&
		(bytes.Contains(head, []byte("PRIVATE KEY-----")) || bytes.Contains(head, []byte("PuTTY-User-Key-File-"))) {
		return whyPrivateKey
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	first, _, _ := bytes.Cut(t, []byte("\n"))
	switch {
	case bytes.HasPrefix(first, []byte("PuTTY-User-Key-File-")):
		return whyPrivateKey
	case bytes.HasPrefix(first, []byte("-----BEGIN ")) && bytes.Contains(first, []byte("PRIVATE KEY-----")):
		return whyPrivateKey
	}
	return ""
}

var (
	scriptExt = set("sh", "bash", "zsh", "fish", "ksh", "csh", "tcsh", "command",
		"py", "pyw", "pyc", "pyo", "pyz", "ipynb", "js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx",
		"rb", "pl", "pm", "php", "phar", "ps1", "psm1", "psd1", "bat", "cmd", "vbs", "vbe", "wsf", "wsh",
		"applescript", "scpt", "lua", "r", "tcl", "awk", "groovy", "kts", "swift",
		"exe", "dll", "so", "dylib", "bin", "elf", "com", "msi", "app", "apk", "deb", "rpm",
		"jar", "war", "class", "wasm", "o", "a", "lib", "node", "scr", "cpl", "hta", "lnk", "desktop")
	buildNames = set("makefile", "gnumakefile", "justfile", "dockerfile", "containerfile", "rakefile", "vagrantfile")
	archiveExt = set("zip", "tar", "gz", "tgz", "bz2", "tbz", "tbz2", "xz", "txz", "7z", "rar",
		"zst", "lz", "lz4", "lzma", "z", "cab", "iso", "dmg", "skill", "whl", "egg", "nupkg", "crx", "xpi", "vsix")
	fontExt  = set("ttf", "otf", "ttc", "woff", "woff2", "eot", "pfb", "pfm", "afm")
	imageExt = set("png", "jpg", "jpeg", "gif", "webp", "ico", "icns", "bmp", "tif", "tiff", "psd", "heic", "avif",
		"mp3", "mp4", "m4a", "wav", "ogg", "flac", "mov", "avi", "webm", "mkv")
	docExt = set("pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "epub",
		"sqlite", "db", "parquet", "pkl", "pickle", "npy", "npz", "pt", "safetensors", "onnx", "gguf")
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// byName judges a file by its path and mode alone, before any byte of it
// is read; "" means its content decides.
func byName(name string, exec bool) string {
	base := path.Base(name)
	lower := strings.ToLower(base)
	switch {
	case name == ".DS_Store" || strings.HasSuffix(name, "/.DS_Store") || strings.HasPrefix(base, "._"):
		return whyMacMeta
	case buildNames[lower]:
		return whyBuild
	case mcpConfigName(name):
		return whyActivation
	}
	ext := ""
	if i := strings.LastIndexByte(lower, '.'); i >= 0 {
		ext = lower[i+1:]
	}
	switch {
	case scriptExt[ext]:
		return whyScript
	case archiveExt[ext]:
		return whyArchive
	case fontExt[ext]:
		return whyFont
	case imageExt[ext]:
		return whyImage
	case docExt[ext]:
		return whyDocument
	case exec:
		return whyExecBit
	}
	return ""
}

// byContent judges a file by its first bytes; "" means it may be text.
func byContent(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		return whyShebang
	case bytes.HasPrefix(head, []byte("\x7fELF")),
		bytes.HasPrefix(head, []byte("MZ")),
		bytes.HasPrefix(head, []byte("\x00asm")),
		bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return whyMachine
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")),
		bytes.HasPrefix(head, []byte{0x1f, 0x8b}), bytes.HasPrefix(head, []byte("BZh")),
		bytes.HasPrefix(head, []byte("\xfd7zXZ\x00")), bytes.HasPrefix(head, []byte("7z\xbc\xaf\x27\x1c")),
		bytes.HasPrefix(head, []byte("Rar!")), bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
		return whyArchive
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return whyDocument
	case bytes.IndexByte(head, 0) >= 0:
		return whyBinary
	}
	return ""
}

// validText reports whether data is UTF-8 text. A multi-byte sequence cut
// at the end of a sniffed head is not held against it.
func validText(data []byte, complete bool) bool {
	if utf8.Valid(data) {
		return true
	}
	if complete {
		return false
	}
	for cut := 1; cut < utf8.UTFMax && cut <= len(data); cut++ {
		if utf8.Valid(data[:len(data)-cut]) {
			return true
		}
	}
	return false
}

// longestLine returns the length of data's longest line.
func longestLine(data []byte) int {
	longest := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		longest = max(longest, i)
		data = data[min(i+1, len(data)):]
	}
	return longest
}
