package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"vouch/workflow"
)

// SidecarName is the file at a package's root that carries vouch's
// additions to an Agent Skills package (docs/skill-format.md).
const SidecarName = "vouch.skill.json"

// Sidecar limits.
const (
	SidecarFormat   = 1
	maxSidecarBytes = 1 << 20
	maxSidecarTools = 32
	maxSidecarRes   = 256
	maxSidecarDefs  = 32
)

// sidecar is vouch.skill.json, decoded strictly.
type sidecar struct {
	Format         int               `json:"format"`
	RequestedTools []string          `json:"requested_tools"`
	Resources      []string          `json:"resources"`
	Definitions    []json.RawMessage `json:"definitions"`
}

// parseSidecar decodes and validates vouch.skill.json. kept reports
// whether a path is a kept text file of the package. Definitions are
// validated by workflow.Parse; their Origin is set by the caller once the
// package digest is known.
func parseSidecar(data []byte, kept func(string) bool, lim Limits) (*sidecar, []workflow.Definition, error) {
	if len(data) > maxSidecarBytes {
		return nil, nil, rejectf("%s is larger than %d KiB; trim it and import again", SidecarName, maxSidecarBytes>>10)
	}
	var sc sidecar
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, nil, rejectf("%s is not valid JSON of the documented shape (%v); fix it (see docs/skill-format.md) and import again", SidecarName, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, rejectf("%s has data after its closing brace; remove it and import again", SidecarName)
	}
	if sc.Format != SidecarFormat {
		return nil, nil, rejectf("%s has format %d, but vouch reads format %d; set \"format\": %d and import again", SidecarName, sc.Format, SidecarFormat, SidecarFormat)
	}
	if len(sc.RequestedTools) > maxSidecarTools || len(sc.Resources) > maxSidecarRes || len(sc.Definitions) > maxSidecarDefs {
		return nil, nil, rejectf("%s lists more than %d tools, %d resources or %d definitions; trim it and import again", SidecarName, maxSidecarTools, maxSidecarRes, maxSidecarDefs)
	}
	for _, t := range sc.RequestedTools {
		if !requestable[t] {
			return nil, nil, rejectf("%s requests %q, which is not a built-in tool a package may request (builtin:fs_read, fs_list, fs_search, fs_write, fs_edit); fix it and import again", SidecarName, clip(t, 80))
		}
	}
	for i, r := range sc.Resources {
		name, err := cleanName(r, lim)
		if err != nil || name == "." || name == SidecarName || !kept(name) {
			return nil, nil, rejectf("%s declares the resource %q, which is not a kept text file of the package; fix the path (see the excluded files) and import again", SidecarName, clip(r, 120))
		}
		sc.Resources[i] = name
	}
	defs := make([]workflow.Definition, 0, len(sc.Definitions))
	seen := map[string]bool{}
	for i, raw := range sc.Definitions {
		d, err := workflow.Parse(raw)
		if err != nil {
			return nil, nil, rejectf("%s definition %d is invalid: %s; fix it and import again", SidecarName, i+1, strings.TrimSuffix(err.Error(), "."))
		}
		if d.Origin != "" || d.Revision != 0 || d.EditedByPerson {
			return nil, nil, rejectf("%s definition %q sets origin, revision or edited_by_person, which only vouch records; remove them and import again", SidecarName, d.Name)
		}
		if seen[d.Name] {
			return nil, nil, rejectf("%s defines %q twice; keep one and import again", SidecarName, d.Name)
		}
		seen[d.Name] = true
		defs = append(defs, d)
	}
	return &sc, defs, nil
}
