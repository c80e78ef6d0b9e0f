package agent

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"vouch/tool"
)

// Identities of the built-in workspace write tools (SPEC C1). Their wire
// names are fs_write and fs_edit. Local policy asks for them every time.
const (
	IdentityFSWrite = "builtin:fs_write"
	IdentityFSEdit  = "builtin:fs_edit"
)

// Bounds and modes of the write tools.
const (
	// fsMaxWriteBytes bounds a written file, before and after the change.
	fsMaxWriteBytes = 1 << 20
	// fsMaxPreviews bounds the previews remembered for the stale check.
	fsMaxPreviews = 256
	fsFileMode    = 0o644
	fsDirMode     = 0o755
)

// WriteTools returns fs_write and fs_edit over the workspace. They are not
// part of Tools: they change files, so the caller offers them only when the
// person chose to, and local policy asks for them every time (SPEC D1).
//
// Both confine paths to the workspace as the read tools do (os.Root: no
// "..", no absolute path outside, no symbolic link out), refuse to write
// through a symbolic link, into .git, or a path with control or invisible
// characters, and handle UTF-8 text only, at most 1 MiB. Both are
// Previewers: Preview returns the unified diff the call would make, without
// writing, and Call makes exactly that change. Should the file change
// between the preview of a call and the call (the same correlation ID and
// arguments), Call writes nothing and says so, so what the person approved
// is what happens (SPEC D3, D5). A file is replaced by writing a temporary
// file next to it and renaming it over the old one: a reader never sees
// half a file, and a hard link to a file outside is never written through.
func (w *Workspace) WriteTools() []tool.Tool {
	log := &previewLog{bases: make(map[[32]byte][32]byte)}
	return []tool.Tool{
		writeTool{w: w, log: log, plan: w.planWrite, def: tool.Def{
			Identity: IdentityFSWrite,
			Description: "Create or replace a workspace text file (UTF-8, up to 1 MiB; parent directories are created). " +
				"vouch shows the person the diff and asks them every time.",
			Parameters: json.RawMessage(`{"type":"object","required":["path","content"],"additionalProperties":false,"properties":{` +
				`"path":{"type":"string","description":"File relative to the workspace root"},` +
				`"content":{"type":"string","description":"The whole new content"}}}`),
		}},
		writeTool{w: w, log: log, plan: w.planEdit, def: tool.Def{
			Identity: IdentityFSEdit,
			Description: "Replace text that occurs exactly once in a workspace text file, whitespace included " +
				"(add nearby lines to make it unique). vouch shows the person the diff and asks them every time.",
			Parameters: json.RawMessage(`{"type":"object","required":["path","old","new"],"additionalProperties":false,"properties":{` +
				`"path":{"type":"string","description":"File relative to the workspace root"},` +
				`"old":{"type":"string","description":"Exact text to replace, copied from the file"},` +
				`"new":{"type":"string","description":"Replacement text (may be empty)"}}}`),
		}},
	}
}

// writePlan is what one call would do, computed the same way for Preview
// and Call.
type writePlan struct {
	name    string // clean slash path relative to the root
	existed bool
	old     string
	new     string
	perm    fs.FileMode
	done    string // the result text after writing
}

// base identifies the file content the plan was computed from.
func (p writePlan) base() [32]byte {
	h := sha256.New()
	if p.existed {
		h.Write([]byte{1})
	}
	h.Write([]byte(p.old))
	return [32]byte(h.Sum(nil))
}

// diff is the preview: a unified diff, or a sentence when nothing changes.
func (p writePlan) diff() string {
	oldName := "a/" + p.name
	if !p.existed {
		oldName = "/dev/null"
	}
	if d := unifiedDiff(oldName, "b/"+p.name, p.old, p.new); d != "" {
		return d
	}
	if !p.existed {
		return "--- /dev/null\n+++ b/" + p.name + "\n(new empty file)\n"
	}
	return "(no change: " + p.name + " already has this content)\n"
}

type writeTool struct {
	def  tool.Def
	w    *Workspace
	log  *previewLog
	plan func(args json.RawMessage) (writePlan, error)
}

func (t writeTool) Def() tool.Def { return t.def }

// Preview returns the unified diff of the call and remembers which file
// content it was computed from. It writes nothing.
func (t writeTool) Preview(ctx context.Context, args json.RawMessage) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	p, err := t.plan(args)
	if err != nil {
		return "", err
	}
	t.log.remember(t.key(ctx, args), p.base())
	return p.diff(), nil
}

// Call makes the change args describe — refusing, when this call was
// previewed, if the file no longer has the content the preview showed.
func (t writeTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	if err := ctx.Err(); err != nil {
		return tool.Result{}, err
	}
	p, err := t.plan(args)
	if err != nil {
		return tool.Result{Text: err.Error(), IsError: true}, nil
	}
	if base, ok := t.log.take(t.key(ctx, args)); ok && base != p.base() {
		return fsError("%s changed after the person saw the preview of this call, so nothing was written; "+
			"read the file again and make the change again", p.name), nil
	}
	if p.existed && p.old == p.new {
		return tool.Result{Text: p.name + " already has this content; nothing was written"}, nil
	}
	if err := t.w.replace(p); err != nil {
		return tool.Result{Text: writeFSError(p.name, err).Error(), IsError: true}, nil
	}
	return tool.Result{Text: p.done}, nil
}

// key names one call: the tool, its correlation ID (set by the run on
// both the preview's and the call's context) and its exact arguments.
func (t writeTool) key(ctx context.Context, args json.RawMessage) [32]byte {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(t.def.Identity), []byte(tool.CorrelationID(ctx)), args} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	return [32]byte(h.Sum(nil))
}

// previewLog remembers, per previewed call, the file content its preview
// was computed from; the oldest entries go first past fsMaxPreviews.
type previewLog struct {
	mu    sync.Mutex
	bases map[[32]byte][32]byte
	order [][32]byte
}

func (l *previewLog) remember(key, base [32]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.bases[key]; !ok {
		l.order = append(l.order, key)
	}
	l.bases[key] = base
	for len(l.order) > fsMaxPreviews {
		delete(l.bases, l.order[0])
		l.order = l.order[1:]
	}
}

func (l *previewLog) take(key [32]byte) ([32]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	base, ok := l.bases[key]
	if ok {
		delete(l.bases, key)
		l.order = slices.DeleteFunc(l.order, func(k [32]byte) bool { return k == key })
	}
	return base, ok
}

func (w *Workspace) planWrite(args json.RawMessage) (writePlan, error) {
	a, err := stringArgs(args, "path", "content")
	if err != nil {
		return writePlan{}, err
	}
	name, err := w.writePath(a["path"])
	if err != nil {
		return writePlan{}, err
	}
	content := a["content"]
	if len(content) > fsMaxWriteBytes {
		return writePlan{}, fmt.Errorf("content is %s; fs_write writes at most %s", humanBytes(int64(len(content))), humanBytes(fsMaxWriteBytes))
	}
	if err := textOnly("content", content); err != nil {
		return writePlan{}, err
	}
	p, err := w.current(name)
	if err != nil {
		return writePlan{}, err
	}
	p.new = content
	verb := "created"
	if p.existed {
		verb = "replaced"
	}
	p.done = fmt.Sprintf("%s %s (%d lines, %s)", verb, name, countLines(content), humanBytes(int64(len(content))))
	return p, nil
}

func (w *Workspace) planEdit(args json.RawMessage) (writePlan, error) {
	a, err := stringArgs(args, "path", "old", "new")
	if err != nil {
		return writePlan{}, err
	}
	name, err := w.writePath(a["path"])
	if err != nil {
		return writePlan{}, err
	}
	old, repl := a["old"], a["new"]
	switch {
	case old == "":
		return writePlan{}, errors.New("old is empty; give the exact text to replace, or use fs_write to write a whole file")
	case old == repl:
		return writePlan{}, errors.New("old and new are the same; nothing would change")
	}
	if err := errors.Join(textOnly("old", old), textOnly("new", repl)); err != nil {
		return writePlan{}, err
	}
	p, err := w.current(name)
	if err != nil {
		return writePlan{}, err
	}
	if !p.existed {
		return writePlan{}, fmt.Errorf("%s does not exist; use fs_write to create it", name)
	}
	i := strings.Index(p.old, old)
	switch {
	case i < 0:
		return writePlan{}, fmt.Errorf("found no occurrence of old in %s; read the file again and copy the text exactly, whitespace and indentation included", name)
	case strings.Contains(p.old[i+1:], old):
		return writePlan{}, fmt.Errorf("found %d occurrences of old in %s; include more of the surrounding lines in old so that it matches exactly one",
			max(strings.Count(p.old, old), 2), name)
	}
	p.new = p.old[:i] + repl + p.old[i+len(old):]
	if len(p.new) > fsMaxWriteBytes {
		return writePlan{}, fmt.Errorf("%s would grow to %s; vouch writes files of at most %s", name, humanBytes(int64(len(p.new))), humanBytes(fsMaxWriteBytes))
	}
	line := strings.Count(p.old[:i], "\n") + 1
	p.done = fmt.Sprintf("edited %s: replaced %d lines at line %d with %d lines", name, countLines(old), line, countLines(repl))
	return p, nil
}

// stringArgs decodes a write tool's arguments: one JSON object whose keys
// are exactly names, each once, each a JSON string. Unlike json.Unmarshal
// into a struct it folds no case, keeps no second value of a repeated key
// and ignores no unknown key, so what runs cannot differ from what the
// approval pane lists (SPEC D3, D5).
func stringArgs(args json.RawMessage, names ...string) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("arguments must be a JSON object")
	}
	out := make(map[string]string, len(names))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
		}
		key, _ := tok.(string) // object keys are strings
		if !slices.Contains(names, key) {
			return nil, fmt.Errorf("unknown argument %q; the arguments are %s", key, strings.Join(names, ", "))
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("argument %q is given twice; give each argument once", key)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
		}
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, fmt.Errorf("argument %q must be a string", key)
		}
		if !utf8.Valid(raw) {
			return nil, fmt.Errorf("%s is not valid UTF-8; vouch writes only text files", key)
		}
		out[key] = s
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("arguments must be one JSON object")
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("argument %q is required", n)
		}
	}
	return out, nil
}

// textOnly refuses text that is not text.
func textOnly(field, s string) error {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("%s contains a NUL byte; vouch writes only text files", field)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not valid UTF-8; vouch writes only text files", field)
	}
	return nil
}

// writePath checks a path the model wants to write and returns it clean
// and relative to the root.
func (w *Workspace) writePath(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", errors.New("path is required")
	}
	for _, r := range p {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", fmt.Errorf("path %q contains a control or invisible character; give a plain file name", p)
		}
	}
	name, err := w.resolve(p)
	if err != nil {
		return "", writeFSError(p, err)
	}
	if name == "." {
		return "", errors.New("path names the workspace itself; give the path of a file")
	}
	for part := range strings.SplitSeq(name, "/") {
		if strings.EqualFold(part, ".git") {
			return "", fmt.Errorf("%s: vouch does not write inside .git", name)
		}
	}
	return name, nil
}

// current reads the file at name as a plan's starting point; a missing
// file is a plan to create it.
func (w *Workspace) current(name string) (writePlan, error) {
	p := writePlan{name: name, perm: fsFileMode}
	info, err := w.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil:
		return p, writeFSError(name, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return p, fmt.Errorf("%s is a symbolic link; vouch does not write through links, give the path of the file itself", name)
	case info.IsDir():
		return p, fmt.Errorf("%s is a directory; give the path of a file", name)
	case !info.Mode().IsRegular():
		return p, fmt.Errorf("%s is not a regular file", name)
	case info.Size() > fsMaxWriteBytes:
		return p, fmt.Errorf("%s is %s; vouch writes files of at most %s", name, humanBytes(info.Size()), humanBytes(fsMaxWriteBytes))
	}
	data, err := w.root.ReadFile(name)
	if err != nil {
		return p, writeFSError(name, err)
	}
	if len(data) > fsMaxWriteBytes || textOnly(name, string(data)) != nil {
		return p, fmt.Errorf("%s is not a UTF-8 text file of at most %s; vouch writes only text files", name, humanBytes(fsMaxWriteBytes))
	}
	p.existed, p.old, p.perm = true, string(data), info.Mode().Perm()
	return p, nil
}

// replace writes p.new to a temporary file next to p.name and renames it
// over p.name, creating missing parent directories.
func (w *Workspace) replace(p writePlan) (err error) {
	dir := path.Dir(p.name)
	if dir != "." {
		if err := w.root.MkdirAll(dir, fsDirMode); err != nil {
			return err
		}
	}
	tmp := path.Join(dir, "."+path.Base(p.name)+".vouch-"+rand.Text()[:10]+".tmp")
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, p.perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, w.root.Remove(tmp))
		}
	}()
	_, err = f.WriteString(p.new)
	if err == nil && p.existed {
		err = f.Chmod(p.perm) // the creation mode was reduced by the umask
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return w.root.Rename(tmp, p.name)
}

// writeFSError words a file-system error of a write for the model.
func writeFSError(name string, err error) error {
	if errors.Is(err, ErrOutsideWorkspace) || strings.Contains(err.Error(), "escapes from parent") {
		return fmt.Errorf("%s: %w; only files inside the workspace can be written", name, ErrOutsideWorkspace)
	}
	return errors.New(describeFSError(name, err).Text)
}
