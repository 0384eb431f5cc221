package main

import (
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
