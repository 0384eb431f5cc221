package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"headroom/internal/lazyre"
)

// compiledAtInit is evaluated while the test binary initialises, after every package
// headroom links has run its initialisers and before any test.
var compiledAtInit = lazyre.CompiledExprs()

// TestNoRegexpCompiledAtInit: the package-level regexps (most of them the text readers')
// are compiled when first used, so that serve and the other commands that never read a
// pasted text do not pay for them at start (docs/performance.md, "serve's RSS").
func TestNoRegexpCompiledAtInit(t *testing.T) {
	if len(compiledAtInit) != 0 {
		t.Fatalf("%d of %d package-level regexps were compiled by the packages' initialisers: %q", len(compiledAtInit), len(lazyre.All()), compiledAtInit)
	}
	if len(lazyre.All()) < 100 {
		t.Fatalf("only %d package-level regexps registered: are they still declared with lazyre.New?", len(lazyre.All()))
	}
}

// TestRegexpsCompile compiles every package-level regexp of the binary, which
// regexp.MustCompile at init used to do on every start: a bad pattern fails here, not at
// the first paste or scrape that reaches it.
func TestRegexpsCompile(t *testing.T) {
	for _, r := range lazyre.All() {
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("%q: %v", r.String(), e)
				}
			}()
			r.Re()
		}()
	}
}

// TestNoConstantRegexpCompiledOutsideLazyre walks the module's non-test sources for
// regexp.MustCompile or regexp.Compile of a string literal. At package level such a call
// runs in every command's start (TestNoRegexpCompiledAtInit only sees lazyre's own
// registrations); inside a function it compiles the expression on every call. Either way the
// expression belongs in a package-level lazyre.New. Expressions built at run time (a
// redaction list, a user's pattern) are not literals and stay with regexp.
func TestNoConstantRegexpCompiledOutsideLazyre(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "lazyre", ".git", "dist":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "MustCompile" && sel.Sel.Name != "Compile") {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "regexp" {
				return true
			}
			if _, ok := call.Args[0].(*ast.BasicLit); ok {
				found = append(found, fset.Position(call.Pos()).String())
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Fatalf("regexp compiled from a literal outside lazyre (declare it with lazyre.New at package level): %s", strings.Join(found, ", "))
	}
}

// TestPrefiltersAgreeWithTheMatchers holds every registered expression's prefilter
// (internal/lazyre/prefilter.go) to its matcher on real texts: corpus cases of prose,
// kernel logs and command output. A text the filter says cannot match must not match.
func TestPrefiltersAgreeWithTheMatchers(t *testing.T) {
	var texts []string
	for _, stem := range []string{"6310-", "5360-", "5383-", "4961-", "933-", "4424-", "5437-", "5585-", "2591-", "002-kirkwood", "1205-", "1053-"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", stem+"*.txt"))
		if err != nil || len(files) != 1 {
			t.Fatalf("corpus case %s: %v %v", stem, files, err)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		// The whole text, and its paragraphs of filterable length.
		texts = append(texts, string(b))
		for _, p := range strings.Split(string(b), "\n\n") {
			if len(p) >= 256 {
				texts = append(texts, p)
			}
		}
	}
	filtered := 0
	for _, r := range lazyre.All() {
		if _, err := regexp.Compile(r.String()); err != nil {
			continue // TestRegexpsCompile's
		}
		for _, s := range texts {
			if r.MayMatch(s) {
				continue
			}
			filtered++
			if r.Re().MatchString(s) {
				t.Errorf("%q matches a text (%.60q...) its prefilter rejects", r.String(), s)
			}
		}
	}
	if filtered < 1000 {
		t.Fatalf("the prefilters rejected only %d expression-text pairs: are they still read?", filtered)
	}
	t.Logf("%d expressions, %d texts, %d pairs rejected by the prefilter", len(lazyre.All()), len(texts), filtered)
}
