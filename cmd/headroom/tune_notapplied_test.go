package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Issue 30 item 9: when the apply failed, the changes it had left out (advice, refused
// values) were no longer listed: the "not applied:" list came only after a success.
func TestTuneFailureStillListsNotApplied(t *testing.T) {
	procSys := fakeProcSys(t, map[string]string{"net.core.somaxconn": "4096"})
	changes := `[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192","why":"accept queue"},
	 {"kind":"other","key":"kernel","recommended":"4.3 or later","why":"batched TLB flushes"}]`
	// --persist into a directory that does not exist fails before any change.
	code, out, stderr := runTuneCmd(t, changes, "--from", "-", "--apply", "--persist",
		"--proc-sys", procSys, "--state-dir", t.TempDir(), "--sysctl-dir", filepath.Join(t.TempDir(), "missing"))
	if code != exitFailure {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if !strings.Contains(out, "not applied:\nkernel: 4.3 or later") {
		t.Errorf("the advice left out is not listed:\nstdout %q\nstderr %q", out, stderr)
	}
}
