package tune

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 22 item 6: --rollback --print must quote the old drop-in so that no content breaks
// out into shell. The printed script is run under sh, in a temporary directory, with a
// fake sysctl first on PATH; it must restore the file byte for byte and run nothing else.
func TestPrintRollbackHostileContentRunsUnderSh(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	os.Mkdir(bin, 0o755)
	// The fake sysctl records its arguments, one call per line.
	fake := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + quoteAlways(filepath.Join(work, "sysctl.calls")) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "sysctl"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	dropIn := filepath.Join(work, "90-headroom.conf")
	hostile := strings.Join([]string{
		"# an administrator's file",
		"net.core.somaxconn = 1024",
		"HEADROOM_EOF",
		"touch pwned-heredoc",
		"EOF",
		"touch pwned-eof",
		"'; touch pwned-quote; '",
		"$(touch pwned-subst) `touch pwned-backtick` ${HOME}",
		"\\",
		"",
	}, "\n")
	os.WriteFile(dropIn, []byte("new content\n"), 0o644)
	jf := &JournalFile{Schema: JournalSchema, Entries: []*Entry{{
		ID: 1, Time: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), State: StateApplied,
		SysctlDir: work,
		Changes: []Record{{Kind: "sysctl", Key: "net.core.somaxconn", Old: "1024", New: "8192",
			Why: "reason\ntouch pwned-why", Status: StatusWritten}},
		Persist: &PersistRecord{Path: dropIn, Existed: true, OldContent: hostile, NewContent: "new content\n", Status: StatusWritten},
	}}}
	var b bytes.Buffer
	if err := PrintRollback(&b, jf, 0, testLimits); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(work, "undo.sh")
	os.WriteFile(script, b.Bytes(), 0o644)
	cmd := exec.Command("sh", script)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=/nonexistent"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sh: %v\n%s\nscript:\n%s", err, out, b.String())
	}
	ents, _ := os.ReadDir(work)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "pwned") {
			t.Errorf("the script ran %s:\n%s", e.Name(), b.String())
		}
	}
	got, err := os.ReadFile(dropIn)
	if err != nil || string(got) != hostile {
		t.Errorf("drop-in restored as %q (%v), want %q", got, err, hostile)
	}
	calls, _ := os.ReadFile(filepath.Join(work, "sysctl.calls"))
	if string(calls) != "-w net.core.somaxconn=1024\n" {
		t.Errorf("sysctl calls %q", calls)
	}
}
