package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29 item 4: exit 3 ("nothing ... is evidence") is for empty, binary and
// evidence-free text; a paste of output headroom cannot read yet runs and lists the lines.
func TestDoctorUnreadOutputRunsProseExits3(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	table := write("table.txt", "port      hits     misses   evicted\n  80  620315792          0         11\n 443  692783857          0         22\n")
	prose := write("prose.txt", "My server is slow since Monday.\nAny idea what to look at?\n")

	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{table}, IO{Stdout: &out, Stderr: &errb})
	if code == exitFailure {
		t.Fatalf("unread output exited %d (stderr %q)", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "nothing could be checked") || !strings.Contains(s, "could not read lines 2-3") {
		t.Errorf("report:\n%s", s)
	}
	out.Reset()
	errb.Reset()
	if code := runDoctor(context.Background(), []string{prose}, IO{Stdout: &out, Stderr: &errb}); code != exitFailure {
		t.Errorf("prose exited %d, want %d", code, exitFailure)
	}
}
