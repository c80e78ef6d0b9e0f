package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// valueFlag is a flag of a number or a duration, found in the source.
type valueFlag struct {
	command string // as typed after "vouch": "tools plan"
	name    string
	kind    string // the flag.FlagSet method: Int, Duration, Float64, …
}

// valueFlags walks the flag sets cmd/vouch's commands build (issue 28
// item 15): every call fs.Int, fs.Duration, fs.Float64 … with a literal
// name, and the command of its flag set, read from the subFlags or
// flag.NewFlagSet call of the same function — "vouch server "+sub taking
// each sub the function compares sub with, or the one of the if around
// the flag. The hidden session command is left out.
func valueFlags(t *testing.T) []valueFlag {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []valueFlag
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			out = append(out, funcValueFlags(fn)...)
		}
	}
	return out
}

var valueKinds = []string{"Int", "IntVar", "Int64", "Int64Var", "Uint", "UintVar", "Uint64", "Uint64Var", "Float64", "Float64Var", "Duration", "DurationVar"}

func funcValueFlags(fn *ast.FuncDecl) []valueFlag {
	var base, subVar string // "server " and "sub" for "vouch server "+sub
	var subs []string       // what sub is compared with
	var out []valueFlag
	var ifs []*ast.IfStmt
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if id, ok := n.X.(*ast.Ident); ok {
					if lit, ok := n.Y.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						subs = append(subs, id.Name+"="+s)
					}
				}
			}
		case *ast.CallExpr:
			if name := callName(n); name == "subFlags" || name == "NewFlagSet" {
				base, subVar = flagSetName(n.Args[0])
			}
		}
		return true
	})
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if s, ok := n.(*ast.IfStmt); ok {
			ifs = append(ifs, s)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || !slices.Contains(valueKinds, callName(call)) || len(call.Args) < 2 {
			return true
		}
		arg := call.Args[0]
		if strings.HasSuffix(callName(call), "Var") {
			arg = call.Args[1]
		}
		lit, ok := arg.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		name, _ := strconv.Unquote(lit.Value)
		kind := strings.TrimSuffix(callName(call), "Var")
		if subVar == "" {
			out = append(out, valueFlag{strings.TrimSpace(base), name, kind})
			return true
		}
		cands := subsOf(subs, subVar)
		for _, s := range ifs { // the if around the flag names its sub
			if s.Pos() <= call.Pos() && call.End() <= s.End() {
				if c, ok := s.Cond.(*ast.BinaryExpr); ok && c.Op == token.EQL {
					if one := subsOf(subsOfExpr(c), subVar); len(one) == 1 {
						cands = one
					}
				}
			}
		}
		for _, sub := range cands {
			out = append(out, valueFlag{base + sub, name, kind})
		}
		return true
	})
	if strings.HasPrefix(base, "session") {
		return nil
	}
	return out
}

func subsOfExpr(c *ast.BinaryExpr) []string {
	id, ok1 := c.X.(*ast.Ident)
	lit, ok2 := c.Y.(*ast.BasicLit)
	if !ok1 || !ok2 {
		return nil
	}
	s, _ := strconv.Unquote(lit.Value)
	return []string{id.Name + "=" + s}
}

func subsOf(subs []string, v string) []string {
	var out []string
	for _, s := range subs {
		if val, ok := strings.CutPrefix(s, v+"="); ok && !slices.Contains(out, val) {
			out = append(out, val)
		}
	}
	return out
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// flagSetName reads "tools plan" or "vouch profile "+sub: the command, and
// the variable of its last word.
func flagSetName(e ast.Expr) (base, subVar string) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, _ := strconv.Unquote(e.Value)
		return strings.TrimPrefix(s, "vouch "), ""
	case *ast.BinaryExpr:
		lit, ok1 := e.X.(*ast.BasicLit)
		id, ok2 := e.Y.(*ast.Ident)
		if ok1 && ok2 {
			s, _ := strconv.Unquote(lit.Value)
			return strings.TrimPrefix(s, "vouch "), id.Name
		}
	}
	return "", ""
}

// TestFlagValuesSayWhatTheyTake (issue 28 item 15): every number and
// duration flag of every command, given a value it does not take, is a
// usage error (exit 2) saying what the flag takes and the value given,
// and where to read the command's flags — never Go's "parse error".
func TestFlagValuesSayWhatTheyTake(t *testing.T) {
	flags := valueFlags(t)
	var seen []string
	for _, f := range flags {
		seen = append(seen, f.command+" --"+f.name)
	}
	for _, must := range []string{"runs --limit", "conversations --limit", "server timeout --call", "tools plan --context", "profile create --context", "profile edit --tool-budget"} {
		if !slices.Contains(seen, must) {
			t.Fatalf("the walk of the flag sets missed %s; it found %q", must, seen)
		}
	}
	t.Logf("walked: %q", seen)
	state := t.TempDir()
	want := map[string]string{
		"Int": "a whole number", "Int64": "a whole number", "Uint": "a whole number", "Uint64": "a whole number",
		"Float64": "a number, such as 0.25", "Duration": "a duration, such as 30s, 5m or 1h",
	}
	for _, f := range flags {
		args := append(strings.Fields(f.command), "--"+f.name, "5x")
		code, _, errOut := runCLI(t, cliEnv(), append([]string{"--state-dir", state}, args...)...)
		sentence := "vouch: --" + f.name + " needs " + want[f.kind] + `, not "5x"; run 'vouch ` + f.command + ` --help' for its flags.`
		if code != exitUsage || strings.TrimSpace(errOut) != sentence || strings.Contains(errOut, "parse error") {
			t.Errorf("vouch %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(args, " "), code, errOut, sentence)
		}
	}
}
