package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI is tested as a user runs it: testscript scripts in testdata/script run the real
// binary (this test binary re-executed as "headroom").
func TestMain(m *testing.M) {
	if os.Getenv(idleHoldEnv) != "" {
		os.Exit(holdIdleConnections(os.Getenv(idleHoldEnv)))
	}
	if args := os.Getenv(runArgsEnv); args != "" {
		// A test that must kill a real headroom process (trace_lab_test.go) runs it so.
		os.Exit(run(strings.Fields(args), IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	testscript.Main(m, map[string]func(){
		"headroom": func() {
			os.Exit(run(os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
}

func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			if os.Geteuid() == 0 {
				env.Setenv("ROOT", "1")
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "linux-proc":
				_, err := os.Stat("/proc/zoneinfo")
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonreport": cmdJSONReport,
			"verdict":    cmdVerdict,
		},
	})
}

// verdict CMD ARGS... runs a doctor whose verdict depends on the host it reads (the live
// host, which other users share): any verdict is accepted, exit 0, 1 or 2, and an exit of 3
// (could not run) or a signal fails the script. The live host's state is not the script's.
func cmdVerdict(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: verdict CMD [ARGS...]")
	}
	err := ts.Exec(args[0], args[1:]...)
	var ee *exec.ExitError
	if err == nil || (errors.As(err, &ee) && ee.ExitCode() >= 1 && ee.ExitCode() <= 2) {
		return
	}
	ts.Fatalf("%s: %v (a verdict is exit 0, 1 or 2)", args[0], err)
}

// jsonreport FILE [path=value ...] checks that FILE is a doctor JSON report of schema 1 and
// that each dotted path has the given value (a path ending in ".len" compares a list's
// length; a value "*" only requires presence).
func cmdJSONReport(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsonreport FILE [path=value...]")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	if doc["schema"] != float64(1) {
		ts.Fatalf("schema = %v, want 1", doc["schema"])
	}
	for _, key := range []string{"source", "host", "findings", "checks", "artifacts", "unparsed"} {
		if _, ok := doc[key]; !ok {
			ts.Fatalf("report lacks %q", key)
		}
	}
	for _, a := range args[1:] {
		path, want, ok := strings.Cut(a, "=")
		if !ok {
			ts.Fatalf("bad assertion %q", a)
		}
		got, found := lookup(doc, path)
		match := found && (want == "*" || fmt.Sprint(got) == want)
		if match == neg {
			ts.Fatalf("%s: got %v (present %v), want %s (negated %v)", path, got, found, want, neg)
		}
	}
}

// lookup follows a dotted path through maps and lists ("host.kernel", "findings.0.id",
// "findings.len" for a length).
func lookup(v any, path string) (any, bool) {
	length := strings.HasSuffix(path, ".len")
	path = strings.TrimSuffix(path, ".len")
	for _, p := range strings.Split(path, ".") {
		if p == "" {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[p]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	if length {
		switch x := v.(type) {
		case []any:
			return len(x), true
		case map[string]any:
			return len(x), true
		}
		return nil, false
	}
	return v, true
}
