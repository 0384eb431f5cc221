package tune

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 30 item 9: a rollback killed inside WriteFileAtomic (restoring the drop-in's old
// content) left .90-headroom.conf.tmp-*, and the rollback run after it kept it (6 of 120
// kill iterations), though a rollback removes such files.
func TestRollbackRemovesStaleDropInTemps(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir, sysctlDir := t.TempDir(), t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow, Persist: &PersistOptions{Dir: sysctlDir}}
	if _, _, err := a.Apply(context.Background(), changes[:2]); err != nil {
		t.Fatal(err)
	}
	// What a rollback killed between CreateTemp and the rename leaves.
	stale := filepath.Join(sysctlDir, "."+DropInName+".tmp-123456")
	if err := os.WriteFile(stale, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if fileExists(stale) {
		t.Errorf("%s left after the rollback", stale)
	}
	if fileExists(filepath.Join(sysctlDir, DropInName)) {
		t.Error("drop-in left after the rollback")
	}
}

// Issue 30 item 9: an apply whose last journal save failed (ENOSPC) leaves its entry
// pending; a rollback then restores every value but cannot save either. The next rollback
// found every value old and said "the apply was interrupted before its first change",
// which was false: the values had been written and restored.
func TestRollbackAfterUnsavedRollbackDoesNotClaimInterruptedApply(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow}
	e, _, err := a.Apply(context.Background(), changes[:2])
	if err != nil {
		t.Fatal(err)
	}
	// The journal as the failed saves left it: the entry as written before the first
	// change (pending, every record planned) ...
	jf := mustReadJournal(t, dir)
	jf.Entries[0].State = StatePending
	for i := range jf.Entries[0].Changes {
		jf.Entries[0].Changes[i].Status = StatusPlanned
	}
	if err := j.Save(jf); err != nil {
		t.Fatal(err)
	}
	// ... and the values as the unsaved rollback left them: old again.
	for _, r := range e.Changes {
		fs.Write(r.Key, r.Old)
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil || len(done) != 1 {
		t.Fatal(done, err)
	}
	n := strings.Join(done[0].Notes, "; ")
	if strings.HasPrefix(n, "nothing to undo: the apply was interrupted") || !strings.Contains(n, "an earlier rollback restored them") {
		t.Errorf("notes %q claim one cause the journal cannot tell", n)
	}
}
