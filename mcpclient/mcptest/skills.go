package mcptest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// SkillsExtension is the Skills extension's identifier (SEP-2640).
const SkillsExtension = "io.modelcontextprotocol/skills"

// Skill is one skill a SkillsServer serves.
type Skill struct {
	// Path is the skill path: "git-workflow" or "acme/billing/refunds". The
	// SKILL.md URI is skill://<Path>/SKILL.md.
	Path string
	// Frontmatter is the entry's frontmatter object. Nil derives
	// {"name": last path segment, "description": Description}.
	Frontmatter map[string]any
	// Description is used when Frontmatter is nil.
	Description string
	// Files maps paths relative to the skill root ("SKILL.md",
	// "references/a.md") to content.
	Files map[string][]byte
	// Dynamic lists resources as "dynamic" instead of digests.
	Dynamic bool
	// Unlisted leaves the skill out of skills/list; skills/get and
	// resources/read still serve it.
	Unlisted bool
}

// URI is the skill's SKILL.md URI.
func (s Skill) URI() string { return "skill://" + s.Path + "/SKILL.md" }

// SkillMD returns a SKILL.md with the given name and description in its
// frontmatter and body after it.
func SkillMD(name, description, body string) []byte {
	return fmt.Appendf(nil, "---\nname: %s\ndescription: %s\n---\n\n%s\n", name, description, body)
}

// SkillsOptions configure a SkillsServer.
type SkillsOptions struct {
	// Name is the server's self-reported name (default "mcptest-skills").
	Name string
	// PageSize is the number of skills per skills/list page (default 100).
	PageSize int
	// NoExtension leaves the extension out of the capabilities, as a server
	// without skills declares.
	NoExtension bool
}

// SkillsServer is a real mcp-go Streamable HTTP server on loopback that
// declares the Skills extension. mcp-go has no way to register handlers for
// methods it does not know, so a thin HTTP layer in front of it answers
// skills/list, skills/get and resources/read of skill files; everything
// else (the handshake in both eras, tools) is mcp-go's. Skills, digests and
// served bytes can be changed between calls. Its methods are safe for
// concurrent use.
type SkillsServer struct {
	// URL is the MCP endpoint, http://127.0.0.1:<port>/mcp.
	URL string

	opts   SkillsOptions
	hs     *http.Server
	inner  http.Handler
	served chan struct{}

	mu        sync.Mutex
	skills    map[string]Skill  // by Path
	tampered  map[string][]byte // served instead of the listed content, by URI
	raw       []any             // extra raw entries appended to the listing
	failAfter int               // skills/list pages that succeed before an error; -1: never
	requests  map[string]int
	reads     []string
}

// NewSkillsServer starts a SkillsServer on 127.0.0.1 and a free port.
func NewSkillsServer(opts SkillsOptions) (*SkillsServer, error) {
	if opts.Name == "" {
		opts.Name = "mcptest-skills"
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	sopts := []server.ServerOption{server.WithRecovery(), server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false)}
	if !opts.NoExtension {
		sopts = append(sopts, server.WithExtensions(map[string]any{SkillsExtension: map[string]any{}}))
	}
	ms := server.NewMCPServer(opts.Name, "1.0.0", sopts...)
	ms.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text back."), mcp.WithString("text")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(req.GetString("text", "")), nil
		})
	s := &SkillsServer{opts: opts, served: make(chan struct{}), skills: map[string]Skill{}, tampered: map[string][]byte{},
		failAfter: -1, requests: map[string]int{},
		inner: server.NewStreamableHTTPServer(ms, server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mcptest: listen on loopback: %w", err)
	}
	s.URL = "http://" + ln.Addr().String() + "/mcp"
	s.hs = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() {
		defer close(s.served)
		if err := s.hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return
		}
	}()
	return s, nil
}

// Close stops the server.
func (s *SkillsServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.hs.Shutdown(ctx)
	if err != nil {
		err = s.hs.Close()
	}
	<-s.served
	return err
}

// PutSkill adds or replaces a skill (by Path).
func (s *SkillsServer) PutSkill(sk Skill) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk.Files = maps.Clone(sk.Files)
	s.skills[sk.Path] = sk
	delete(s.tampered, sk.URI())
}

// RemoveSkill stops serving the skill at path.
func (s *SkillsServer) RemoveSkill(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.skills, path)
}

// Tamper serves data at uri instead of the listed content, while the listing
// keeps describing the original: what a tampering intermediary or a
// half-updated server does.
func (s *SkillsServer) Tamper(uri string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tampered[uri] = slices.Clone(data)
}

// AddRawEntry appends a raw (possibly invalid) entry to every listing.
func (s *SkillsServer) AddRawEntry(v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw = append(s.raw, v)
}

// FailListingAfter makes skills/list answer an error after n pages
// succeeded (-1: never fail).
func (s *SkillsServer) FailListingAfter(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failAfter = n
}

// Requests returns how many requests of method arrived (skills/list pages,
// skills/get, resources/read, and methods mcp-go served).
func (s *SkillsServer) Requests(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[method]
}

// Reads returns the URIs read with resources/read, in order.
func (s *SkillsServer) Reads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reads)
}

// ServeHTTP answers the extension's methods and hands everything else to
// mcp-go.
func (s *SkillsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.inner.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			URI    string `json:"uri"`
			Cursor string `json:"cursor"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) == nil && req.Method != "" {
		s.mu.Lock()
		s.requests[req.Method]++
		s.mu.Unlock()
	}
	var result any
	var rpcErr *rpcErrorBody
	switch {
	case len(req.ID) == 0:
		s.pass(w, r, body)
		return
	case req.Method == "skills/list" && !s.opts.NoExtension:
		result, rpcErr = s.list(req.Params.Cursor)
	case req.Method == "skills/get" && !s.opts.NoExtension:
		result, rpcErr = s.get(req.Params.URI)
	case req.Method == "resources/read" && strings.HasPrefix(req.Params.URI, "skill://"):
		result, rpcErr = s.read(req.Params.URI)
	default:
		s.pass(w, r, body)
		return
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
	if rpcErr != nil {
		resp["error"] = rpcErr
	} else {
		resp["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(resp); err != nil {
		return // the client went away
	}
}

func (s *SkillsServer) pass(w http.ResponseWriter, r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	s.inner.ServeHTTP(w, r)
}

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// entry renders a skill's entry.
func entry(sk Skill) map[string]any {
	fm := sk.Frontmatter
	if fm == nil {
		name := sk.Path[strings.LastIndexByte(sk.Path, '/')+1:]
		fm = map[string]any{"name": name, "description": sk.Description}
	}
	e := map[string]any{"uri": sk.URI(), "frontmatter": fm}
	if sk.Dynamic {
		e["resources"] = "dynamic"
		return e
	}
	var res []map[string]any
	for _, rel := range slices.Sorted(maps.Keys(sk.Files)) {
		sum := sha256.Sum256(sk.Files[rel])
		res = append(res, map[string]any{"uri": "skill://" + sk.Path + "/" + rel,
			"digest": "sha256:" + hex.EncodeToString(sum[:]), "size": len(sk.Files[rel])})
	}
	e["resources"] = res
	return e
}

func (s *SkillsServer) list(cursor string) (any, *rpcErrorBody) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 {
			return nil, &rpcErrorBody{Code: -32602, Message: "bad cursor"}
		}
		start = n
	}
	page := start / s.opts.PageSize
	if s.failAfter >= 0 && page >= s.failAfter {
		return nil, &rpcErrorBody{Code: -32603, Message: "listing failed"}
	}
	var all []any
	for _, p := range slices.Sorted(maps.Keys(s.skills)) {
		if !s.skills[p].Unlisted {
			all = append(all, entry(s.skills[p]))
		}
	}
	all = append(all, s.raw...)
	end := min(start+s.opts.PageSize, len(all))
	if start > len(all) {
		start = len(all)
	}
	res := map[string]any{"resultType": "complete", "skills": all[start:end], "ttlMs": 300000, "cacheScope": "public"}
	if end < len(all) {
		res["nextCursor"] = strconv.Itoa(end)
	}
	return res, nil
}

func (s *SkillsServer) get(uri string) (any, *rpcErrorBody) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sk := range s.skills {
		if sk.URI() == uri {
			return map[string]any{"resultType": "complete", "skill": entry(sk), "ttlMs": 300000, "cacheScope": "public"}, nil
		}
	}
	return nil, &rpcErrorBody{Code: -32602, Message: "No skill is served at " + uri}
}

func (s *SkillsServer) read(uri string) (any, *rpcErrorBody) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads = append(s.reads, uri)
	data, ok := s.tampered[uri]
	if !ok {
		for _, sk := range s.skills {
			if rel, found := strings.CutPrefix(uri, "skill://"+sk.Path+"/"); found {
				if d, has := sk.Files[rel]; has {
					data, ok = d, true
					break
				}
			}
		}
	}
	if !ok {
		return nil, &rpcErrorBody{Code: -32602, Message: "No resource at " + uri}
	}
	content := map[string]any{"uri": uri}
	if utf8.Valid(data) {
		content["mimeType"] = "text/markdown"
		content["text"] = string(data)
	} else {
		content["mimeType"] = "application/octet-stream"
		content["blob"] = base64.StdEncoding.EncodeToString(data)
	}
	return map[string]any{"resultType": "complete", "contents": []any{content}}, nil
}
