package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneFormatRefusesInjectedKey is issue 30 item 1's reproduction, through a plain array
// and through a doctor report's findings: a key with a newline used to print a live
// "kernel.core_pattern = |/tmp/evil" line (sysctl, tuned) or run "touch PWNED" (shell) and
// exit 0. Now every format exits 3 naming the change, and prints nothing.
func TestTuneFormatRefusesInjectedKey(t *testing.T) {
	keys := []string{"x\nkernel.core_pattern = |/tmp/evil\n#", "x\ntouch PWNED #"}
	var inputs []string
	for _, k := range keys {
		arr, _ := json.Marshal([]map[string]string{{"kind": "other", "key": k, "recommended": "y"}})
		report, _ := json.Marshal(map[string]any{"schema": 1, "findings": []map[string]any{{
			"id": "some-rule", "severity": "warning",
			"changes": []map[string]string{{"kind": "other", "key": k, "recommended": "y"}},
		}}})
		inputs = append(inputs, string(arr), string(report))
	}
	dir := t.TempDir()
	for i, in := range inputs {
		for _, format := range []string{"sysctl", "tuned", "shell"} {
			code, out, stderr := runTuneCmd(t, in, "--from", "-", "--format", format)
			if code != exitFailure || out != "" || !strings.Contains(stderr, "not rendered: change 1 (other ") {
				t.Errorf("input %d --format %s: exit %d, stdout %q, stderr %q", i, format, code, out, stderr)
			}
		}
		prof := filepath.Join(dir, "p")
		if code, _, _ := runTuneCmd(t, in, "--from", "-", "--format", "tuned", "--out", prof); code != exitFailure {
			t.Errorf("input %d --format tuned --out: exit %d", i, code)
		}
		if _, err := os.Stat(filepath.Join(prof, "tuned.conf")); err == nil {
			t.Errorf("input %d: tuned.conf written", i)
		}
	}
}
