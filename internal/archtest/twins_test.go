package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// minTwinFields is the fewest fields a struct needs before a second one
// with the same names counts as its twin: two-field pairs such as
// {Name, Err} are common words, not a mirrored type.
const minTwinFields = 3

// shape is one struct type declared in a package: where, and its fields'
// names in order of declaration (an embedded field by its type's name).
type shape struct {
	pkg, name string
	fields    []string
}

// key is the shape's field names, sorted: two structs with the same key
// are field-for-field look-alikes, whatever their fields' types.
func (s shape) key() string {
	f := slices.Clone(s.fields)
	slices.Sort(f)
	return strings.Join(f, ",")
}

// structShapes parses the Go source src (one file) and returns its
// declared struct types (aliases are not declarations of a type).
func structShapes(fset *token.FileSet, pkg, filename string, src any) ([]shape, error) {
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", filename, err)
	}
	var out []shape
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Assign.IsValid() {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		s := shape{pkg: pkg, name: ts.Name.Name}
		for _, fl := range st.Fields.List {
			if len(fl.Names) == 0 {
				s.fields = append(s.fields, embeddedName(fl.Type))
			}
			for _, id := range fl.Names {
				s.fields = append(s.fields, id.Name)
			}
		}
		out = append(out, s)
		return true
	})
	return out, nil
}

func embeddedName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	}
	return fmt.Sprintf("%T", e)
}

// treeShapes returns the struct types of the non-test files under dir (a
// path inside the module), each with its package's path.
func treeShapes(fset *token.FileSet, dir string) ([]shape, error) {
	var out []shape
	err := filepath.WalkDir(filepath.Join("../..", dir), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		rel, err := filepath.Rel("../..", filepath.Dir(p))
		if err != nil {
			return err
		}
		s, err := structShapes(fset, filepath.ToSlash(rel), p, nil)
		out = append(out, s...)
		return err
	})
	return out, err
}

// twins pairs each struct of a with each struct of b that has the same
// field names, at least minTwinFields of them.
func twins(a, b []shape) []string {
	byKey := map[string][]shape{}
	for _, s := range b {
		if len(s.fields) >= minTwinFields {
			byKey[s.key()] = append(byKey[s.key()], s)
		}
	}
	var out []string
	for _, s := range a {
		for _, t := range byKey[s.key()] {
			out = append(out, fmt.Sprintf("%s.%s ~ %s.%s (%s)", s.pkg, s.name, t.pkg, t.name, strings.Join(s.fields, ", ")))
		}
	}
	slices.Sort(out)
	return out
}

// TestNoTwins: no struct of the application (internal/app) has a
// field-for-field twin in the interface (tui/...); a type both speak is
// declared once, in internal/view, and aliased where it is used (STYLE
// habit 20; issue 23 "one face").
func TestNoTwins(t *testing.T) {
	fset := token.NewFileSet()
	app, err := treeShapes(fset, "internal/app")
	if err != nil {
		t.Fatal(err)
	}
	tui, err := treeShapes(fset, "tui")
	if err != nil {
		t.Fatal(err)
	}
	if len(app) == 0 || len(tui) == 0 {
		t.Fatalf("read %d structs in internal/app and %d in tui: the walk found no source", len(app), len(tui))
	}
	for _, p := range twins(app, tui) {
		t.Errorf("look-alike types: %s; declare the type once in internal/view and alias it on both sides", p)
	}
}

// TestTwinsFindsAPlantedPair: the check sees a mirrored struct whatever
// its fields' types and order, and passes over aliases and small structs.
func TestTwinsFindsAPlantedPair(t *testing.T) {
	fset := token.NewFileSet()
	app, err := structShapes(fset, "internal/app", "a.go", `package app
type ProfileView struct { Name string; Schedule *workflow.Schedule; Revision int }
type Pair struct { Name string; Err error }
type Shared = view.Shared`)
	if err != nil {
		t.Fatal(err)
	}
	tui, err := structShapes(fset, "tui/x", "b.go", `package x
type Profile struct { Revision int; Name string; Schedule *ScheduleInput }
type Other struct { Name string; Err error }
type Shared = view.Shared
type Embeds struct { kit.Common; Name string; Revision int }`)
	if err != nil {
		t.Fatal(err)
	}
	got := twins(app, tui)
	want := []string{"internal/app.ProfileView ~ tui/x.Profile (Name, Schedule, Revision)"}
	if !slices.Equal(got, want) {
		t.Errorf("twins = %q, want %q", got, want)
	}
}
