package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
	"vouch/tool"
)

// Identities of the built-in read-only workspace tools (SPEC C1). Their wire
// names are fs_list, fs_read and fs_search.
const (
	IdentityFSList   = "builtin:fs_list"
	IdentityFSRead   = "builtin:fs_read"
	IdentityFSSearch = "builtin:fs_search"
)

// Bounds of the built-in file tools' output.
const (
	fsMaxListEntries   = 200
	fsMaxListDepth     = 3
	fsMaxReadBytes     = 12 << 10
	fsDefaultReadLines = 400
	fsMaxLineBytes     = 2000
	fsBinarySniff      = 8 << 10
	fsMaxSearchResults = 200
	fsDefaultResults   = 50
	fsMaxSearchFiles   = 5000
	fsMaxSearchFile    = 1 << 20
	fsMaxPattern       = 500
	fsMaxMatchLine     = 200
)

// Workspace is a directory tree the built-in file tools work in, and
// nothing outside it: Tools lists, reads and searches it; WriteTools,
// offered separately and always asked for, writes and edits its text files.
// Confinement is enforced by os.Root: ".." cannot climb out, absolute paths
// must lie inside, and symbolic links may not point outside the root. Output is bounded and
// binary files are reported, not dumped. A Workspace is safe for concurrent
// use; Close it when the tools are no longer offered.
type Workspace struct {
	root *os.Root
	dirs []string // absolute forms of the root accepted in absolute paths
}

// OpenWorkspace opens dir as a workspace root.
func OpenWorkspace(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	w := &Workspace{root: root, dirs: []string{abs}}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		w.dirs = append(w.dirs, real)
	}
	return w, nil
}

// Close releases the workspace root.
func (w *Workspace) Close() error { return w.root.Close() }

// Tools returns fs_list, fs_read and fs_search over the workspace: the
// read-only tools. The write tools are in WriteTools.
func (w *Workspace) Tools() []tool.Tool {
	return []tool.Tool{
		fsTool{def: tool.Def{
			Identity:    IdentityFSList,
			Description: "List the files and directories in a workspace directory. Directories end with '/'. Read-only.",
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"Directory relative to the workspace root; default \".\""},` +
				`"depth":{"type":"integer","minimum":1,"maximum":3,"description":"How many levels to list; default 1"}}}`),
		}, call: w.list},
		fsTool{def: tool.Def{
			Identity:    IdentityFSRead,
			Description: "Read a text file in the workspace. Long files come in parts: continue with start_line. Read-only.",
			Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{` +
				`"path":{"type":"string","description":"File relative to the workspace root"},` +
				`"start_line":{"type":"integer","minimum":1,"description":"First line to read; default 1"},` +
				`"max_lines":{"type":"integer","minimum":1,"description":"Most lines to return; default 400"}}}`),
		}, call: w.read},
		fsTool{def: tool.Def{
			Identity:    IdentityFSSearch,
			Description: "Search the text files under a workspace directory for a string or regular expression; returns path:line: text. Read-only.",
			Parameters: json.RawMessage(`{"type":"object","required":["pattern"],"properties":{` +
				`"pattern":{"type":"string","description":"Text to find (a regular expression when regex is true)"},` +
				`"path":{"type":"string","description":"Directory to search, relative to the workspace root; default \".\""},` +
				`"regex":{"type":"boolean","description":"Treat pattern as an RE2 regular expression; default false"},` +
				`"case_sensitive":{"type":"boolean","description":"Default false"},` +
				`"max_results":{"type":"integer","minimum":1,"maximum":200,"description":"Default 50"}}}`),
		}, call: w.search},
	}
}

type fsTool struct {
	def  tool.Def
	call func(ctx context.Context, args json.RawMessage) tool.Result
}

func (t fsTool) Def() tool.Def { return t.def }

func (t fsTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	return t.call(ctx, args), nil
}

func fsError(format string, args ...any) tool.Result {
	return tool.Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

// resolve turns a path from the model into a clean slash path relative to
// the root, or reports it outside. os.Root enforces the rest.
func (w *Workspace) resolve(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return ".", nil
	}
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		inside := false
		for _, dir := range w.dirs {
			if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				p, inside = rel, true
				break
			}
		}
		if !inside {
			return "", ErrOutsideWorkspace
		}
	}
	clean := path.Clean(filepath.ToSlash(p))
	if clean == ".." || strings.HasPrefix(clean, "../") || strings.HasPrefix(clean, "/") {
		return "", ErrOutsideWorkspace
	}
	return clean, nil
}

// describeFSError words a file-system error for the model without host
// paths beyond the one it asked for.
func describeFSError(name string, err error) tool.Result {
	switch {
	case errors.Is(err, ErrOutsideWorkspace), strings.Contains(err.Error(), "escapes from parent"):
		return fsError("%s: %v; only paths inside the workspace can be read", name, ErrOutsideWorkspace)
	case errors.Is(err, fs.ErrNotExist):
		return fsError("%s: no such file or directory in the workspace", name)
	case errors.Is(err, fs.ErrPermission):
		return fsError("%s: permission denied", name)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fsError("%s: %v", name, pe.Err)
	}
	return fsError("%s: %v", name, err)
}

func decodeArgs(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("arguments do not match the tool's parameters: %v", err)
	}
	return nil
}

func (w *Workspace) list(ctx context.Context, args json.RawMessage) tool.Result {
	var a struct {
		Path  string `json:"path"`
		Depth int    `json:"depth"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return fsError("%v", err)
	}
	dir, err := w.resolve(a.Path)
	if err != nil {
		return describeFSError(a.Path, err)
	}
	depth := min(max(a.Depth, 1), fsMaxListDepth)
	fsys := w.root.FS()
	var b strings.Builder
	shown, hidden := 0, 0
	var walk func(rel, indent string, level int) error
	walk = func(rel, indent string, level int) error {
		entries, err := fs.ReadDir(fsys, rel)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if shown >= fsMaxListEntries {
				hidden++
				continue
			}
			shown++
			name := e.Name()
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				fmt.Fprintf(&b, "%s%s@ (symbolic link)\n", indent, name)
			case e.IsDir():
				fmt.Fprintf(&b, "%s%s/\n", indent, name)
				if level < depth && name != ".git" {
					if err := walk(path.Join(rel, name), indent+"  ", level+1); err != nil {
						fmt.Fprintf(&b, "%s  (cannot list: %s)\n", indent, describeFSError(name, err).Text)
					}
				}
			default:
				size := int64(-1)
				if info, err := e.Info(); err == nil {
					size = info.Size()
				}
				fmt.Fprintf(&b, "%s%s  %s\n", indent, name, humanBytes(size))
			}
		}
		return nil
	}
	if err := walk(dir, "", 1); err != nil {
		return describeFSError(dir, err)
	}
	if shown == 0 {
		return tool.Result{Text: dir + " is empty"}
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "[… %d more entries not shown; list a subdirectory to see them]\n", hidden)
	}
	return tool.Result{Text: b.String()}
}

func humanBytes(n int64) string {
	switch {
	case n < 0:
		return "? B"
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// openRegular opens name for reading if it is a regular file (not a
// directory, FIFO or device, which could block or never end).
func (w *Workspace) openRegular(name string) (*os.File, fs.FileInfo, error) {
	info, err := w.root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if info.IsDir() {
		return nil, nil, errors.New("is a directory; use fs_list")
	}
	if !info.Mode().IsRegular() {
		return nil, nil, errors.New("is not a regular file")
	}
	f, err := w.root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return f, info, nil
}

// looksBinary reports whether a file's first bytes are not text.
func looksBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for len(head) > 0 {
		r, size := utf8.DecodeRune(head)
		if r == utf8.RuneError && size == 1 {
			return len(head) >= utf8.UTFMax // a rune cut at the sniff boundary is fine
		}
		head = head[size:]
	}
	return false
}

func (w *Workspace) read(ctx context.Context, args json.RawMessage) tool.Result {
	var a struct {
		Path      string `json:"path"`
		StartLine int    `json:"start_line"`
		MaxLines  int    `json:"max_lines"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return fsError("%v", err)
	}
	if strings.TrimSpace(a.Path) == "" {
		return fsError("path is required")
	}
	name, err := w.resolve(a.Path)
	if err != nil {
		return describeFSError(a.Path, err)
	}
	f, info, err := w.openRegular(name)
	if err != nil {
		return describeFSError(name, err)
	}
	defer func() { _ = f.Close() }() // read-only file
	br := bufio.NewReaderSize(f, fsBinarySniff)
	head, err := br.Peek(fsBinarySniff)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return describeFSError(name, err)
	}
	if looksBinary(head) {
		return tool.Result{Text: fmt.Sprintf("%s is a binary file (%s); its content is not shown", name, humanBytes(info.Size()))}
	}
	start, maxLines := max(a.StartLine, 1), a.MaxLines
	if maxLines <= 0 {
		maxLines = fsDefaultReadLines
	}
	var b strings.Builder
	lineNo, taken := 0, 0
	for {
		if ctx.Err() != nil {
			return fsError("cancelled")
		}
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			break
		}
		lineNo++
		if lineNo < start {
			continue
		}
		if taken >= maxLines || b.Len()+min(len(line), fsMaxLineBytes) > fsMaxReadBytes {
			fmt.Fprintf(&b, "[… more lines follow; call fs_read with start_line=%d to continue]\n", lineNo)
			return tool.Result{Text: b.String()}
		}
		if len(line) > fsMaxLineBytes {
			cut := fsMaxLineBytes
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			line = line[:cut] + "… [line cut]\n"
		}
		b.WriteString(line)
		taken++
		if err != nil {
			break
		}
	}
	if taken == 0 {
		if lineNo == 0 {
			return tool.Result{Text: name + " is empty"}
		}
		return fsError("%s has only %d lines; start_line %d is past the end", name, lineNo, start)
	}
	return tool.Result{Text: b.String()}
}

func (w *Workspace) search(ctx context.Context, args json.RawMessage) tool.Result {
	var a struct {
		Pattern       string `json:"pattern"`
		Path          string `json:"path"`
		Regex         bool   `json:"regex"`
		CaseSensitive bool   `json:"case_sensitive"`
		MaxResults    int    `json:"max_results"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return fsError("%v", err)
	}
	if a.Pattern == "" || len(a.Pattern) > fsMaxPattern {
		return fsError("pattern must be between 1 and %d bytes", fsMaxPattern)
	}
	expr := a.Pattern
	if !a.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if !a.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return fsError("pattern is not a valid regular expression: %v", err)
	}
	dir, err := w.resolve(a.Path)
	if err != nil {
		return describeFSError(a.Path, err)
	}
	limit := a.MaxResults
	if limit <= 0 {
		limit = fsDefaultResults
	}
	limit = min(limit, fsMaxSearchResults)
	fsys := w.root.FS()
	var b strings.Builder
	matches, files, skipped := 0, 0, 0
	full := false
	walkErr := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // unreadable entries are skipped
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symbolic links and special files are not searched
		}
		if files >= fsMaxSearchFiles {
			skipped++
			return nil
		}
		files++
		info, err := d.Info()
		if err != nil || info.Size() > fsMaxSearchFile {
			skipped++
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil || looksBinary(data[:min(len(data), fsBinarySniff)]) {
			return nil
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !re.MatchString(line) {
				continue
			}
			if matches >= limit {
				full = true
				return fs.SkipAll
			}
			matches++
			line = strings.TrimSpace(line)
			if len(line) > fsMaxMatchLine {
				cut := fsMaxMatchLine
				for cut > 0 && !utf8.RuneStart(line[cut]) {
					cut--
				}
				line = line[:cut] + "…"
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", p, i+1, line)
		}
		return nil
	})
	if walkErr != nil {
		if ctx.Err() != nil {
			return fsError("cancelled")
		}
		return describeFSError(dir, walkErr)
	}
	if matches == 0 {
		return tool.Result{Text: fmt.Sprintf("no matches for %q under %s (%d files searched)", a.Pattern, dir, files)}
	}
	switch {
	case full:
		fmt.Fprintf(&b, "[stopped at %d matches; narrow the pattern or the path for more]\n", limit)
	case skipped > 0:
		fmt.Fprintf(&b, "[%d files were skipped: larger than %s or over the %d-file limit]\n", skipped, humanBytes(fsMaxSearchFile), fsMaxSearchFiles)
	}
	return tool.Result{Text: b.String()}
}
