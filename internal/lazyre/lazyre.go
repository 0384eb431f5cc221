// Package lazyre holds regular expressions that are compiled on first use instead of at
// program start.
//
// headroom declares about 130 package-level regexps, most of them for the text readers
// (package artifact) that only `doctor FILE` and the other readers of pasted text run.
// Compiled by regexp.MustCompile in the packages' initialisers they cost every start of
// every command, serve included, about 5 ms and 1.6 MB of heap that the process keeps for
// its life (GODEBUG=inittrace=1: artifact's init alone 2.2 ms, 1.6 MB in 12,314
// allocations). A Regexp here is compiled by the first call of one of its methods, once;
// cmd/headroom's TestRegexpsCompile compiles
// every registered expression so that a bad pattern still fails a test rather than the
// first scrape or paste that reaches it.
package lazyre

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// Regexp is a regexp.Regexp compiled on first use. Its methods are those of
// regexp.Regexp that headroom calls; Re returns the compiled expression for the others.
type Regexp struct {
	expr string
	once sync.Once
	re   atomic.Pointer[regexp.Regexp]
	// The prefilter (prefilter.go) is read off the expression when the first text of
	// preMinText bytes or more reaches it: most expressions only ever see lines.
	preOnce sync.Once
	pre     *prefilter
}

var (
	allMu sync.Mutex
	all   []*Regexp
)

// New returns expr to be compiled by regexp.MustCompile when first used. Like
// MustCompile it is meant for package-level variables; a bad expr panics at first use,
// and All lists it for a test to compile.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// All returns every Regexp made by New so far (package-level ones: all of them once the
// program's packages are initialised).
func All() []*Regexp {
	allMu.Lock()
	defer allMu.Unlock()
	return append([]*Regexp(nil), all...)
}

// Re returns the compiled expression, compiling it on the first call.
func (r *Regexp) Re() *regexp.Regexp {
	if re := r.re.Load(); re != nil {
		return re
	}
	r.once.Do(func() { r.re.Store(regexp.MustCompile(r.expr)) })
	return r.re.Load()
}

// MayMatch reports whether s can hold a match: false only when s is long enough to be
// filtered and holds none of the literals every match needs (prefilter.go). The methods
// below ask it; it is exported for the test that holds every registered expression's
// filter to its matcher.
func (r *Regexp) MayMatch(s string) bool { return r.may(s) }

// may reports whether s can hold a match (prefilter.go).
func (r *Regexp) may(s string) bool {
	if len(s) < preMinText {
		return true
	}
	r.preOnce.Do(func() { r.pre = newPrefilter(r.expr) })
	return r.pre.may(s)
}

// Compiled reports how many of All have been compiled so far.
func Compiled() int { return len(CompiledExprs()) }

// CompiledExprs returns the source text of those of All that have been compiled so far.
func CompiledExprs() []string {
	var c []string
	for _, r := range All() {
		if r.re.Load() != nil {
			c = append(c, r.expr)
		}
	}
	return c
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

// The methods below return what regexp.Regexp's return for no match when the prefilter
// says s holds none of the literals every match needs.

func (r *Regexp) MatchString(s string) bool { return r.may(s) && r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool       { return r.Re().Match(b) }
func (r *Regexp) FindString(s string) string {
	if !r.may(s) {
		return ""
	}
	return r.Re().FindString(s)
}
func (r *Regexp) FindStringIndex(s string) []int {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindStringIndex(s)
}
func (r *Regexp) FindStringSubmatch(s string) []string {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.may(s) {
		return nil
	}
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	if !r.may(src) {
		return src
	}
	return r.Re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !r.may(src) {
		return src
	}
	return r.Re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Split(s string, n int) []string {
	if n != 0 && !r.may(s) {
		return []string{s} // regexp's Split of a text with no match
	}
	return r.Re().Split(s, n)
}
func (r *Regexp) SubexpIndex(name string) int { return r.Re().SubexpIndex(name) }
func (r *Regexp) NumSubexp() int              { return r.Re().NumSubexp() }
