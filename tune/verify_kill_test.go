package tune

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"headroom/model"
)

// Issue 30 item 9: --apply --verify killed in its after window left the entry "applied" with
// no verification: a change nothing showed to help stayed, and no later run could tell. The
// entry is now saved applied with its verification pending, and the next apply rolls such
// an entry back (RollbackUnverified).
func TestVerifyKilledInAfterWindowIsRolledBackNext(t *testing.T) {
	const oldV, newV = "4096 131072 1048576", "4096 131072 16777216"
	h := newSim(map[string]string{"net.ipv4.tcp_rmem": oldV}, tcpHost)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: h.fs, Journal: j, Limits: testLimits, Now: fixedNow}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(h.fs), Limits: testLimits, Now: fixedNow}
	v := h.verifier()
	// The journal as a SIGKILL in the after window would leave it: copied at the first
	// interval after the value changed.
	killedDir := t.TempDir()
	h.beforeInterval = func() {
		if h.fs.snapshot()["net.ipv4.tcp_rmem"] == newV && !fileExists(filepath.Join(killedDir, JournalName)) {
			b, err := os.ReadFile(filepath.Join(dir, JournalName))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(killedDir, JournalName), b, 0o644)
		}
	}
	if _, _, _, err := v.ApplyVerified(context.Background(), a, rb, []model.Change{sysctl("net.ipv4.tcp_rmem", newV, "BDP")}); err != nil {
		t.Fatal(err)
	}
	killed := mustReadJournal(t, killedDir)
	if e := killed.Find(1); e == nil || e.State != StateApplied || e.Verify == nil || e.Verify.Decision != VerifyPending {
		t.Fatalf("journal in the after window: %+v", e)
	}
	// The next run, on the host as the killed one left it.
	fs := newFakeFS(map[string]string{"net.ipv4.tcp_rmem": newV})
	j2 := openTestJournal(t, killedDir)
	rb2 := &Rollbacker{Journal: j2, OpenFS: fsOpener(fs), Limits: testLimits, Now: fixedNow}
	done, err := rb2.RollbackUnverified(context.Background())
	if err != nil || len(done) != 1 {
		t.Fatal(done, err)
	}
	if got := fs.snapshot()["net.ipv4.tcp_rmem"]; !SameValue(got, oldV) {
		t.Errorf("tcp_rmem %q after the next run, want %q back", got, oldV)
	}
	e := mustReadJournal(t, killedDir).Find(1)
	if e.State != StateRolledBack || e.Verify.Decision != "rolled-back" || e.Verify.Error == "" {
		t.Errorf("entry after the next run: state %s, verify %+v", e.State, e.Verify)
	}
	// Nothing pending: a second call does nothing.
	if done, err := rb2.RollbackUnverified(context.Background()); err != nil || len(done) != 0 {
		t.Errorf("second call: %v, %v", done, err)
	}
}
