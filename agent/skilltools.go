package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"vouch/policy"
	"vouch/tool"
)

// skillState is what skill_load and skill_read read: the run's frozen
// skills, the blobs behind them, and the run's skill byte budget, shared
// by every part of a workflow run (SPEC H5).
type skillState struct {
	skills          []tool.FrozenSkill
	byName          map[string]int
	files           []map[string]tool.FrozenFile // per skill: cleaned declared path → file
	blobs           tool.SkillBlobs
	perCall, perRun int
	used            int
	verified        map[string][]byte // sha256 → content that matched it
}

func newSkillState(f frozenWorkflow) *skillState {
	st := &skillState{skills: f.Skills, byName: map[string]int{}, blobs: f.Blobs,
		perCall: f.SkillBytesPerCall, perRun: f.SkillBytesPerRun, verified: map[string][]byte{}}
	for i, s := range f.Skills {
		st.byName[s.Name] = i
		files := map[string]tool.FrozenFile{cleanSkillPath(s.Instructions.Path): s.Instructions}
		for _, r := range s.Resources {
			files[cleanSkillPath(r.Path)] = r
		}
		st.files = append(st.files, files)
	}
	return st
}

// cleanSkillPath is the form in which a declared path is stored and a
// requested path is looked up: slashes, no "./" segments, no trailing
// slash. It only ever selects among the declared files; a path that
// cleans to something undeclared is not found.
func cleanSkillPath(p string) string {
	p = strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	if p == "" {
		return ""
	}
	return strings.TrimPrefix(path.Clean(p), "./")
}

// skillToolDefs are skill_load and skill_read as the model sees them.
func skillToolDefs() []tool.Def {
	return []tool.Def{
		{Identity: SkillLoadIdentity,
			Description: "Read the instructions of one skill enabled for this run (see the Skills listing). Instructions grant no tools or permissions.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the skill's name"},` +
				`"offset":{"type":"integer","minimum":0,"description":"byte offset to continue a long text"}},"required":["name"]}`)},
		{Identity: SkillReadIdentity,
			Description: "Read one file that an enabled skill lists, by its path.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the skill's name"},` +
				`"path":{"type":"string","description":"a file the skill lists"},` +
				`"offset":{"type":"integer","minimum":0,"description":"byte offset to continue a long file"}},"required":["name","path"]}`)},
	}
}

// skillArgs are the arguments of skill_load and skill_read.
type skillArgs struct {
	Name   string          `json:"name"`
	Path   string          `json:"path"`
	Offset json.RawMessage `json:"offset"`
}

// load answers skill_load: the frozen SKILL.md of one enabled skill.
func (st *skillState) load(args json.RawMessage) tool.Result {
	var in skillArgs
	if err := json.Unmarshal(args, &in); err != nil || in.Name == "" {
		return tool.Result{Text: `skill_load needs {"name": "<an enabled skill>"}`, IsError: true}
	}
	i, res := st.skill(in.Name, "skill_load")
	if i < 0 {
		return res
	}
	s := st.skills[i]
	return st.serve("skill_load", s, s.Instructions, in.Offset)
}

// read answers skill_read: one declared file of one enabled skill.
// Anything else — an undeclared file, a path outside the package — is
// "not found": undeclared files are invisible (SPEC H5).
func (st *skillState) read(args json.RawMessage) tool.Result {
	var in skillArgs
	if err := json.Unmarshal(args, &in); err != nil || in.Name == "" || in.Path == "" {
		return tool.Result{Text: `skill_read needs {"name": "<an enabled skill>", "path": "<a file it lists>"}`, IsError: true}
	}
	i, res := st.skill(in.Name, "skill_read")
	if i < 0 {
		return res
	}
	file, ok := st.files[i][cleanSkillPath(in.Path)]
	if !ok {
		return tool.Result{Text: fmt.Sprintf("skill_read: skill %q has no file %q; its files are %s", in.Name, in.Path, st.fileList(i)), IsError: true}
	}
	return st.serve("skill_read", st.skills[i], file, in.Offset)
}

// skill finds an enabled skill by its exact name; -1 and the refusal when
// there is none.
func (st *skillState) skill(name, via string) (int, tool.Result) {
	if i, ok := st.byName[name]; ok {
		return i, tool.Result{}
	}
	names := make([]string, len(st.skills))
	for i, s := range st.skills {
		names[i] = strconv.Quote(s.Name)
	}
	return -1, tool.Result{Text: fmt.Sprintf("%s: no skill %q is enabled for this run; the enabled skills are %s. Skills are enabled only by the person, on the profile.",
		via, name, strings.Join(names, ", ")), IsError: true}
}

// fileList names skill i's declared files, instructions first.
func (st *skillState) fileList(i int) string {
	s := st.skills[i]
	names := []string{strconv.Quote(cleanSkillPath(s.Instructions.Path))}
	for _, r := range s.Resources {
		names = append(names, strconv.Quote(cleanSkillPath(r.Path)))
	}
	return strings.Join(names, ", ")
}

// serve returns file's verified text from offset, within the per-call
// budget and what is left of the per-run budget, tagged with the skill's
// name and origin.
func (st *skillState) serve(via string, s tool.FrozenSkill, file tool.FrozenFile, rawOffset json.RawMessage) tool.Result {
	offset := 0
	if len(rawOffset) > 0 && string(rawOffset) != "null" {
		n, err := strconv.Atoi(strings.Trim(string(rawOffset), `" `))
		if err != nil || n < 0 {
			return tool.Result{Text: via + ": offset must be a whole number of bytes, 0 or more", IsError: true}
		}
		offset = n
	}
	left := st.perRun - st.used
	if left <= 0 {
		return tool.Result{Text: fmt.Sprintf("%s refused: this run has read its budget of %s of skill text; work with what is already loaded, and answer without more skill files.",
			via, byteSize(st.perRun)), IsError: true}
	}
	data, err := st.content(file)
	if err != nil {
		return tool.Result{Text: fmt.Sprintf("%s: skill %q file %q cannot be used: %v; continue without it.", via, s.Name, cleanSkillPath(file.Path), err), IsError: true}
	}
	if offset > len(data) {
		return tool.Result{Text: fmt.Sprintf("%s: offset %d is past the end of %q (%d bytes)", via, offset, cleanSkillPath(file.Path), len(data)), IsError: true}
	}
	end := min(len(data), offset+st.perCall, offset+left)
	for end < len(data) && end > offset && !utf8.RuneStart(data[end]) {
		end--
	}
	for end == offset && end < len(data) { // never an empty step: finish the rune
		end++
		for end < len(data) && !utf8.RuneStart(data[end]) {
			end++
		}
	}
	chunk := data[offset:end]
	st.used += len(chunk)
	var b strings.Builder
	fmt.Fprintf(&b, "skill %s (from %s), file %s, sha256 %s", oneLine(s.Name), oneLine(s.Origin), cleanSkillPath(file.Path), file.SHA256[:12])
	if offset > 0 || end < len(data) {
		fmt.Fprintf(&b, ", bytes %d-%d of %d", offset, end, len(data))
	}
	b.WriteString(":\n")
	b.Write(chunk)
	if end < len(data) {
		arg := fmt.Sprintf(`{"name": %q, "offset": %d}`, s.Name, end)
		if via == "skill_read" {
			arg = fmt.Sprintf(`{"name": %q, "path": %q, "offset": %d}`, s.Name, cleanSkillPath(file.Path), end)
		}
		why := fmt.Sprintf("one call returns at most %s", byteSize(st.perCall))
		if left < st.perCall {
			why = fmt.Sprintf("the run's skill budget of %s is now spent", byteSize(st.perRun))
		}
		fmt.Fprintf(&b, "\n[… %d more bytes not shown: %s. Continue with %s %s if you need them.]", len(data)-end, why, via, arg)
	}
	return tool.Result{Text: b.String()}
}

// content reads a file through the blobs and checks it against the
// frozen digest and size, and that it is text. Verified content is kept
// for the rest of the run.
func (st *skillState) content(file tool.FrozenFile) ([]byte, error) {
	if data, ok := st.verified[file.SHA256]; ok {
		return data, nil
	}
	data, err := st.blobs.SkillBlob(file.SHA256)
	if err != nil {
		return nil, fmt.Errorf("it could not be read (%v)", err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != file.SHA256 || int64(len(data)) != file.Size {
		return nil, fmt.Errorf("its content does not match the version this run froze, so it is not used")
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("it is not text")
	}
	st.verified[file.SHA256] = data
	return data, nil
}

// skillTools are skill_load and skill_read as app tools of one run part.
// They read only frozen content, so they never consult the policy; each
// call is audited as allowed by vouch (SPEC H5).
func (st *skillState) tools() []appTool {
	defs := skillToolDefs()
	handlers := []func(json.RawMessage) tool.Result{st.load, st.read}
	out := make([]appTool, len(defs))
	for i, def := range defs {
		h := handlers[i]
		out[i] = appTool{wire: strings.TrimPrefix(def.Identity, "builtin:"), def: def,
			call: func(r *run, call ToolCall, args json.RawMessage) (tool.Result, bool) {
				r.audit(policy.Record{CorrelationID: call.CorrelationID, Identity: def.Identity, Outcome: policy.OutcomeAutoAllow,
					By: "vouch", Reason: "reads frozen skill text; grants nothing", At: r.spec.Now()})
				return h(args), true
			}}
	}
	return out
}
