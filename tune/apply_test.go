package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/model"
)

func sysctl(key, rec, why string) model.Change {
	return model.Change{Kind: model.ChangeSysctl, Key: key, Recommended: rec, Why: why, Rule: "plan"}
}

var fixedNow = func() time.Time { return time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC) }

func fiveKeys() (map[string]string, []model.Change) {
	vals := map[string]string{
		"net.ipv4.tcp_rmem":            "4096\t131072\t6291456",
		"net.ipv4.tcp_wmem":            "4096\t16384\t4194304",
		"net.core.somaxconn":           "4096",
		"net.ipv4.tcp_max_syn_backlog": "512",
		"net.ipv4.udp_rmem_min":        "4096",
	}
	changes := []model.Change{
		sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "BDP of 1 Gbit/s × 125 ms is 15.6 MB"),
		sysctl("net.ipv4.tcp_wmem", "4096 16384 16777216", "BDP of 1 Gbit/s × 125 ms is 15.6 MB"),
		sysctl("net.core.somaxconn", "8192", "accept queue overflowed"),
		sysctl("net.ipv4.tcp_max_syn_backlog", "2048", "SYN queue overflowed"),
		sysctl("net.ipv4.udp_rmem_min", "8192", "test"),
	}
	return vals, changes
}

func TestApplyThenRollbackRestoresExactly(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	orig := fs.snapshot()
	dir := t.TempDir()
	var logs logBuffer
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Log: testLogger(&logs), Limits: testLimits, Now: fixedNow}
	e, _, err := a.Apply(context.Background(), changes)
	if err != nil {
		t.Fatal(err)
	}
	if e.State != StateApplied || len(e.Changes) != 5 {
		t.Fatalf("entry %+v", e)
	}
	if got := fs.snapshot()["net.ipv4.tcp_rmem"]; got != "4096 131072 16777216" {
		t.Errorf("tcp_rmem = %q after apply", got)
	}
	// One slog line per change, old → new with the reason.
	for _, c := range changes {
		if !strings.Contains(logs.String(), c.Key+": ") || !strings.Contains(logs.String(), "→ "+NormalizeValue(c.Recommended)) {
			t.Errorf("no log line for %s in:\n%s", c.Key, logs.String())
		}
	}
	if !strings.Contains(logs.String(), `msg="net.ipv4.tcp_rmem: 4096 131072 6291456 → 4096 131072 16777216" why="BDP of 1 Gbit/s × 125 ms is 15.6 MB" rule=plan`) {
		t.Errorf("log line format:\n%s", logs.String())
	}
	jf := mustReadJournal(t, dir)
	if len(jf.Entries) != 1 || jf.Entries[0].Changes[0].Old != "4096\t131072\t6291456" || jf.Entries[0].Changes[0].Why == "" {
		t.Fatalf("journal: %+v", jf.Entries[0])
	}

	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Log: testLogger(&logs), Now: fixedNow}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].State != StateRolledBack {
		t.Fatalf("rollback: %+v", done)
	}
	// The fake stores what is written; the kernel would print tabs again. Compare as values.
	for k, v := range orig {
		if !SameValue(fs.snapshot()[k], v) {
			t.Errorf("%s = %q after rollback, want %q", k, fs.snapshot()[k], v)
		}
	}
	// A second rollback has nothing left.
	done, err = rb.Rollback(context.Background(), 0)
	if err != nil || len(done) != 0 {
		t.Fatalf("second rollback: %v %v", done, err)
	}
}

// The third of five writes fails: the first two are restored, the last two never written,
// and the journal says so.
func TestApplyThirdOfFiveFailsRestoresFirstTwo(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	orig := fs.snapshot()
	fs.failNth = 3
	fs.failErr = unix.EINVAL
	dir := t.TempDir()
	var logs logBuffer
	a := &Applier{FS: fs, Journal: openTestJournal(t, dir), Log: testLogger(&logs), Limits: testLimits, Now: fixedNow}
	e, _, err := a.Apply(context.Background(), changes)
	var ae *ApplyError
	if !errors.As(err, &ae) {
		t.Fatalf("want *ApplyError, got %v", err)
	}
	if ae.Index != 3 || ae.Total != 5 || ae.Key != "net.core.somaxconn" || !errors.Is(err, unix.EINVAL) {
		t.Errorf("error: %+v", ae)
	}
	if d := diffMaps(orig, fs.snapshot()); d != "" {
		// values written by apply are normalised; compare as values
		for k, v := range orig {
			if !SameValue(fs.snapshot()[k], v) {
				t.Errorf("not restored: %s", d)
				break
			}
		}
	}
	wantWrites := []string{
		"net.ipv4.tcp_rmem=4096 131072 16777216",
		"net.ipv4.tcp_wmem=4096 16384 16777216",
		"net.core.somaxconn=8192",
		"net.ipv4.tcp_wmem=4096 16384 4194304",
		"net.ipv4.tcp_rmem=4096 131072 6291456",
	}
	if strings.Join(fs.writes, "\n") != strings.Join(wantWrites, "\n") {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(fs.writes, "\n"), strings.Join(wantWrites, "\n"))
	}
	jf := mustReadJournal(t, dir)
	got := jf.Entries[0]
	if got.State != StateFailedRestored || e.ID != got.ID {
		t.Errorf("state %s", got.State)
	}
	wantStatus := []string{StatusRestored, StatusRestored, StatusFailed, StatusPlanned, StatusPlanned}
	for i, r := range got.Changes {
		if r.Status != wantStatus[i] {
			t.Errorf("change %d (%s): status %s, want %s", i+1, r.Key, r.Status, wantStatus[i])
		}
	}
	if !strings.Contains(got.Changes[2].Error, "EINVAL") {
		t.Errorf("failed change's error does not name EINVAL: %q", got.Changes[2].Error)
	}
	for _, want := range []string{"change 3 of 5 (net.core.somaxconn) failed", "restored the 2 change(s) already written: net.ipv4.tcp_wmem, net.ipv4.tcp_rmem"} {
		if !strings.Contains(got.Error, want) {
			t.Errorf("journal error %q lacks %q", got.Error, want)
		}
	}
	// A failed-and-restored entry leaves nothing for rollback.
	rb := &Rollbacker{Journal: a.Journal, OpenFS: fsOpener(fs), Now: fixedNow}
	if done, err := rb.Rollback(context.Background(), 0); err != nil || len(done) != 0 {
		t.Errorf("rollback after failed-restored: %v %v", done, err)
	}
}

func TestApplyReadBackMismatchFails(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	fs.clamp["net.ipv4.tcp_wmem"] = [2]string{"4096 16384 16777216", "4096 16384 8388608"} // the kernel stored something else
	a := &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Now: fixedNow}
	_, _, err := a.Apply(context.Background(), changes)
	var ae *ApplyError
	if !errors.As(err, &ae) || ae.Index != 2 || !strings.Contains(err.Error(), "read back") {
		t.Fatalf("got %v", err)
	}
	for _, k := range []string{"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"} {
		if !SameValue(fs.snapshot()[k], vals[k]) {
			t.Errorf("%s not restored: %q", k, fs.snapshot()[k])
		}
	}
	if !strings.Contains(err.Error(), "restored the 2 change(s) already written: net.ipv4.tcp_wmem, net.ipv4.tcp_rmem") {
		t.Errorf("error: %v", err)
	}
	if e := ae.Entry; e.State != StateFailedRestored || e.Changes[1].Status != StatusFailed || !strings.Contains(e.Changes[1].Error, "it had taken effect and was restored") {
		t.Errorf("entry: %+v", e)
	}
}

func TestApplyRefusesOutOfBoundsBeforeJournal(t *testing.T) {
	vals, _ := fiveKeys()
	vals["vm.min_free_kbytes"] = "2000"
	fs := newFakeFS(vals)
	dir := t.TempDir()
	a := &Applier{FS: fs, Journal: openTestJournal(t, dir), Limits: testLimits, Now: fixedNow, AllOrNothing: true}
	_, _, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.core.somaxconn", "8192", "ok"),
		sysctl("net.ipv4.tcp_rmem", "4096 87380 4294967296", "too big"),
		sysctl("vm.min_free_kbytes", "65536", "12.5 % of a 512 MiB host"),
	})
	var re *RefusedError
	if !errors.As(err, &re) || len(re.Items) != 2 {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{
		"net.ipv4.tcp_rmem = \"4096 87380 4294967296\" refused: field 3 = 4294967296 is above the maximum 2147483647",
		"vm.min_free_kbytes = \"65536\" refused: 65536 is above 26214 (bound: 5 % of MemTotal 524288 KB",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if len(fs.writes) != 0 {
		t.Errorf("wrote %v", fs.writes)
	}
	if fileExists(filepath.Join(dir, JournalName)) {
		t.Error("journal written for a refused apply")
	}
}

func TestApplyRefusesGlobalKeysInNetns(t *testing.T) {
	fs := newFakeFS(map[string]string{
		"net.core.rmem_max":  "212992",
		"net.core.somaxconn": "4096",
		"vm.min_free_kbytes": "2000",
		"net.ipv4.tcp_mem":   "1 2 3",
	})
	fs.readonly["net.core.rmem_max"] = true
	a := &Applier{FS: fs, Netns: "lab", Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, AllOrNothing: true}
	_, items, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.core.somaxconn", "8192", "ok"),
		sysctl("net.core.rmem_max", "4194304", "x"),
		sysctl("vm.min_free_kbytes", "20000", "x"),
		sysctl("net.ipv4.tcp_mem", "10 20 30", "x"),
	})
	var re *RefusedError
	if !errors.As(err, &re) || len(re.Items) != 3 {
		t.Fatalf("got %v", err)
	}
	for _, it := range items[1:] {
		if it.Action != ActionGlobal || !strings.Contains(it.Reason, "global, not per network namespace") ||
			!strings.Contains(it.Reason, "set it for the host with: sysctl -w "+it.Change.Key+"=") {
			t.Errorf("%s: %s %q", it.Change.Key, it.Action, it.Reason)
		}
	}
	if !strings.Contains(items[1].Reason, "19249c0724f2") {
		t.Errorf("rmem_max refusal does not cite the kernel commit: %q", items[1].Reason)
	}
	if items[0].Action != ActionApply {
		t.Errorf("somaxconn: %s", items[0].Action)
	}
}

func TestApplyNothingToDo(t *testing.T) {
	fs := newFakeFS(map[string]string{"net.core.somaxconn": "8192"})
	dir := t.TempDir()
	a := &Applier{FS: fs, Journal: openTestJournal(t, dir), Limits: testLimits}
	e, items, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.core.somaxconn", "8192", "ok"),
		{Kind: model.ChangeOther, Key: "kernel", Recommended: "upgrade to a kernel with batched TLB flushes", Why: "seed 003"},
	})
	if err != nil || e != nil {
		t.Fatalf("entry %v err %v", e, err)
	}
	if items[0].Action != ActionAlreadySet || items[1].Action != ActionAdvice {
		t.Errorf("actions %s %s", items[0].Action, items[1].Action)
	}
	if fileExists(filepath.Join(dir, JournalName)) || len(fs.writes) != 0 {
		t.Error("something was written")
	}
}

// Rollback of an entry the process died in before its first write: nothing to undo.
func TestRollbackPendingEntryNothingToUndo(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	stop := errors.New("crash")
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow,
		AfterJournal: func() { panic(stop) }}
	func() {
		defer func() {
			if r := recover(); r != stop {
				t.Fatalf("recovered %v", r)
			}
		}()
		a.Apply(context.Background(), changes)
	}()
	if len(fs.writes) != 0 {
		t.Fatal("wrote before the hook")
	}
	if jf := mustReadJournal(t, dir); jf.Entries[0].State != StatePending {
		t.Fatalf("state %s", jf.Entries[0].State)
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil || len(done) != 1 {
		t.Fatal(done, err)
	}
	if len(fs.writes) != 0 {
		t.Errorf("rollback wrote %v", fs.writes)
	}
	if n := done[0].Notes; len(n) != 1 || !strings.HasPrefix(n[0], "nothing to undo: every value equals its old value (the apply was interrupted before its first change") {
		t.Errorf("notes %q", n)
	}
}

// Half an apply happened before the crash: rollback restores what was written and leaves
// the rest.
func TestRollbackPendingEntryHalfWritten(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow}
	if _, _, err := a.Apply(context.Background(), changes); err != nil {
		t.Fatal(err)
	}
	// Pretend the process died after two writes: journal pending, statuses planned, and the
	// last three values back to their old ones.
	jf := mustReadJournal(t, dir)
	e := jf.Entries[0]
	e.State = StatePending
	for i := range e.Changes {
		e.Changes[i].Status = StatusPlanned
		if i >= 2 {
			fs.vals[e.Changes[i].Key] = e.Changes[i].Old
		}
	}
	if err := j.Save(jf); err != nil {
		t.Fatal(err)
	}
	fs.writes = nil
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.writes) != 2 || !strings.HasPrefix(fs.writes[0], "net.ipv4.tcp_wmem=") {
		t.Errorf("writes %v", fs.writes)
	}
	if n := done[0].Notes; !strings.Contains(n[0], "rolled back 2 change(s); 3 already had their old value") {
		t.Errorf("notes %q", n)
	}
}

func TestRollbackConflictLeavesValueAlone(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow}
	if _, _, err := a.Apply(context.Background(), changes[:2]); err != nil {
		t.Fatal(err)
	}
	fs.vals["net.ipv4.tcp_wmem"] = "4096 16384 1048576" // an administrator changed it since
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	_, err := rb.Rollback(context.Background(), 0)
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `net.ipv4.tcp_wmem: now "4096 16384 1048576", neither the old "4096 16384 4194304" nor the new "4096 16384 16777216"`) {
		t.Fatalf("got %v", err)
	}
	if fs.vals["net.ipv4.tcp_wmem"] != "4096 16384 1048576" {
		t.Error("conflicting value overwritten")
	}
	if jf := mustReadJournal(t, dir); jf.Entries[0].State == StateRolledBack {
		t.Error("entry marked rolled back despite the conflict")
	}
}

func TestRollbackToStopsAtEntry(t *testing.T) {
	fs := newFakeFS(map[string]string{"net.core.somaxconn": "4096"})
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow}
	for _, v := range []string{"5000", "6000", "7000"} {
		if _, _, err := a.Apply(context.Background(), []model.Change{sysctl("net.core.somaxconn", v, "step "+v)}); err != nil {
			t.Fatal(err)
		}
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	done, err := rb.Rollback(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 || done[0].ID != 3 || done[1].ID != 2 {
		t.Fatalf("rolled back %v", done)
	}
	if fs.vals["net.core.somaxconn"] != "5000" {
		t.Errorf("somaxconn = %s, want 5000 (entry 1 kept)", fs.vals["net.core.somaxconn"])
	}
	if _, err := rb.Rollback(context.Background(), 2); err == nil || !strings.Contains(err.Error(), "already rolled back") {
		t.Errorf("second --to 2: %v", err)
	}
	if _, err := rb.Rollback(context.Background(), 9); err == nil || !strings.Contains(err.Error(), "no entry 9") {
		t.Errorf("--to 9: %v", err)
	}
	if _, err := rb.Rollback(context.Background(), 0); err != nil || fs.vals["net.core.somaxconn"] != "4096" {
		t.Errorf("full rollback: %v, somaxconn %s", err, fs.vals["net.core.somaxconn"])
	}
}

func TestPersistWritesDropInAndRollbackRestoresIt(t *testing.T) {
	vals, changes := fiveKeys()
	fs := newFakeFS(vals)
	dir, sysctlDir := t.TempDir(), t.TempDir()
	path := filepath.Join(sysctlDir, DropInName)
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Now: fixedNow, Persist: &PersistOptions{Dir: sysctlDir}}
	if _, _, err := a.Apply(context.Background(), changes[:2]); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `# Written by headroom tune. Undo with: headroom tune --rollback
# Each setting follows the reason it was changed.

# net.ipv4.tcp_rmem: BDP of 1 Gbit/s × 125 ms is 15.6 MB (rule plan; headroom entry 1, 2026-01-02T15:04:05Z)
net.ipv4.tcp_rmem = 4096 131072 16777216

# net.ipv4.tcp_wmem: BDP of 1 Gbit/s × 125 ms is 15.6 MB (rule plan; headroom entry 1, 2026-01-02T15:04:05Z)
net.ipv4.tcp_wmem = 4096 16384 16777216
`
	if string(first) != want {
		t.Errorf("drop-in:\n%s\nwant:\n%s", first, want)
	}
	// A second apply merges: tcp_wmem replaced, somaxconn appended, tcp_rmem kept verbatim.
	if _, _, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.ipv4.tcp_wmem", "4096 16384 33554432", "larger"),
		sysctl("net.core.somaxconn", "8192", "accept queue"),
	}); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(path)
	for _, w := range []string{"net.ipv4.tcp_rmem = 4096 131072 16777216", "net.ipv4.tcp_wmem = 4096 16384 33554432", "# net.ipv4.tcp_wmem: larger (rule plan; headroom entry 2", "net.core.somaxconn = 8192"} {
		if !strings.Contains(string(second), w) {
			t.Errorf("merged drop-in lacks %q:\n%s", w, second)
		}
	}
	if strings.Count(string(second), "net.ipv4.tcp_wmem =") != 1 {
		t.Errorf("tcp_wmem twice:\n%s", second)
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs), Now: fixedNow}
	if _, err := rb.Rollback(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(first) {
		t.Errorf("after rolling back entry 2:\n%s\nwant:\n%s", got, first)
	}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if fileExists(path) {
		t.Error("drop-in still there after rolling back everything")
	}
}

func TestPersistRestoresPreexistingFile(t *testing.T) {
	fs := newFakeFS(map[string]string{"net.core.somaxconn": "4096"})
	sysctlDir := t.TempDir()
	path := filepath.Join(sysctlDir, DropInName)
	pre := "; kept by hand\nnet.core.somaxconn=1024\n-vm.swappiness = 10\n"
	if err := os.WriteFile(path, []byte(pre), 0o644); err != nil {
		t.Fatal(err)
	}
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: fs, Journal: j, Limits: testLimits, Persist: &PersistOptions{Dir: sysctlDir}}
	if _, _, err := a.Apply(context.Background(), []model.Change{sysctl("net.core.somaxconn", "8192", "q")}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "somaxconn=1024") || !strings.Contains(string(got), "-vm.swappiness = 10") || !strings.HasPrefix(string(got), "; kept by hand\n") {
		t.Errorf("merged:\n%s", got)
	}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(fs)}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != pre {
		t.Errorf("restored:\n%q\nwant:\n%q", got, pre)
	}
}

func TestPersistRefusesBootDirForNetns(t *testing.T) {
	fs := newFakeFS(map[string]string{"net.core.somaxconn": "4096"})
	a := &Applier{FS: fs, Netns: "lab", Journal: openTestJournal(t, t.TempDir()), Limits: testLimits,
		Persist: &PersistOptions{Dir: "/etc/sysctl.d"}}
	_, _, err := a.Apply(context.Background(), []model.Change{sysctl("net.core.somaxconn", "8192", "q")})
	if err == nil || !strings.Contains(err.Error(), "systemd-sysctl would apply it to the whole host") {
		t.Fatalf("got %v", err)
	}
	if len(fs.writes) != 0 {
		t.Error("wrote")
	}
}

func TestJournalLockIsExclusive(t *testing.T) {
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	_ = j
	// flock locks belong to the open file description: a second open in the same process
	// conflicts just as another process would.
	if _, err := OpenJournal(dir); err == nil || !strings.Contains(err.Error(), "another headroom tune holds the lock") {
		t.Fatalf("second open: %v", err)
	}
}
