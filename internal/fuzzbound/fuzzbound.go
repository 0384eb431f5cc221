// Package fuzzbound bounds how long `go test -fuzz` minimises a new interesting input, for
// the packages whose TestMain calls Main.
//
// go test minimises every new interesting input for up to 60 s (-fuzzminimizetime), one
// execution per candidate, and its candidates include every contiguous range of bytes to
// remove (internal/fuzz/minimize.go): some n² executions for an n-byte input. At 0.1 to 1
// ms an execution, a fixture-sized seed of a few KB takes the whole minute, and the fuzzer
// then executes nothing else: FuzzParseZoneInfo ran 13 inputs in 30 s (issue 22, item 14).
// Main makes the default 20 executions, which `make fuzz` also passes; a
// -test.fuzzminimizetime on the command line still wins.
package fuzzbound

import (
	"flag"
	"os"
	"testing"
)

// MinimizeLimit is the default -test.fuzzminimizetime under Main.
const MinimizeLimit = "20x"

// Main is a TestMain: it sets the default minimisation bound and runs the tests.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run sets the default minimisation bound and returns m.Run's exit code, for a TestMain that
// does more.
func Run(m *testing.M) int {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.fuzzminimizetime" {
			explicit = true
		}
	})
	if !explicit {
		// The flag exists in every test binary (testing.Init); ignore the error anyway.
		_ = flag.Set("test.fuzzminimizetime", MinimizeLimit)
	}
	return m.Run()
}
