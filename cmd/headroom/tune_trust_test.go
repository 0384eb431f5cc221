package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/tune"
)

// Issue 22 items 2-7 and 13: who may make headroom write to a host, through the command.

// plantJournal writes a journal file as another process could have, with one entry.
func plantJournal(t *testing.T, stateDir string, entry map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"schema": 1, "entries": []any{entry}})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(stateDir, tune.JournalName)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// portEntry is the audit's planted entry: "restore" ip_unprivileged_port_start to 0.
func portEntry() map[string]any {
	return map[string]any{"id": 1, "time": "2026-03-01T00:00:00Z", "updated": "2026-03-01T00:00:00Z", "state": "applied",
		"changes": []any{map[string]any{"kind": "sysctl", "key": "net.ipv4.ip_unprivileged_port_start",
			"old": "0", "new": "1024", "why": "planted", "status": "written"}}}
}

func somaxconnEntry(state, status string) map[string]any {
	return map[string]any{"id": 1, "time": "2026-03-01T00:00:00Z", "updated": "2026-03-01T00:00:00Z", "state": state,
		"changes": []any{map[string]any{"kind": "sysctl", "key": "net.core.somaxconn",
			"old": "4096", "new": "8192", "why": "x", "status": status}}}
}

// Item 2: a state directory others may write, or a journal someone else owns, is refused
// before anything is read from it; the planted value stays unwritten.
func TestTuneRollbackRefusesUntrustedJournal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, state, journal string)
		want  string
	}{
		{"world-writable state dir", func(t *testing.T, state, _ string) { os.Chmod(state, 0o777) }, "writable by group or others"},
		{"group-writable journal", func(t *testing.T, _, journal string) { os.Chmod(journal, 0o664) }, "writable by group or others"},
		{"journal of another user", func(t *testing.T, _, journal string) {
			if os.Geteuid() != 0 {
				t.Skip("chown needs root")
			}
			if err := os.Chown(journal, 12345, 12345); err != nil {
				t.Fatal(err)
			}
		}, "owned by uid 12345"},
		{"journal is a symlink", func(t *testing.T, state, journal string) {
			real := filepath.Join(t.TempDir(), "elsewhere.json")
			os.Rename(journal, real)
			os.Symlink(real, journal)
		}, "symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeProcSys(t, map[string]string{"net.ipv4.ip_unprivileged_port_start": "1024"})
			state := t.TempDir()
			journal := plantJournal(t, state, portEntry())
			tc.setup(t, state, journal)
			for _, args := range [][]string{{"--rollback"}, {"--rollback", "--print"}} {
				code, stdout, stderr := runTuneCmd(t, "", append(args, "--proc-sys", dir, "--state-dir", state)...)
				if code == exitOK || !strings.Contains(stderr, tc.want) || strings.Contains(stdout, "ip_unprivileged_port_start=0") {
					t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, stdout, stderr)
				}
			}
			if v := readProcSys(t, dir, "net.ipv4.ip_unprivileged_port_start"); v != "1024" {
				t.Fatalf("rollback wrote the planted value: %s", v)
			}
		})
	}
}

// Item 2: even from a trusted journal, rollback writes only what apply could have
// written: a bounded key with its old value inside the bound.
func TestTuneRollbackAppliesApplyBounds(t *testing.T) {
	for _, tc := range []struct {
		name, key, old, new, want string
	}{
		{"unbounded key", "net.ipv4.ip_unprivileged_port_start", "0", "1024", "no safety bound"},
		{"old value out of bounds", "vm.min_free_kbytes", "12000000", "67584", "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeProcSys(t, map[string]string{tc.key: tc.new})
			state := t.TempDir()
			e := portEntry()
			e["changes"] = []any{map[string]any{"kind": "sysctl", "key": tc.key, "old": tc.old, "new": tc.new, "why": "x", "status": "written"}}
			plantJournal(t, state, e)
			for _, args := range [][]string{{"--rollback"}, {"--rollback", "--print"}} {
				code, stdout, stderr := runTuneCmd(t, "", append(args, "--proc-sys", dir, "--state-dir", state)...)
				if code == exitOK || !strings.Contains(stderr, tc.want) || strings.Contains(stdout, "sysctl -w") {
					t.Errorf("%v: code %d stdout %q stderr %q", args, code, stdout, stderr)
				}
			}
			if v := readProcSys(t, dir, tc.key); v != tc.new {
				t.Fatalf("rollback wrote %s = %s", tc.key, v)
			}
		})
	}
}

// Item 2: the drop-in a rollback rewrites must lie directly in the sysctl directory the
// apply recorded; a journal naming another file is refused and the file is left alone.
func TestTuneRollbackRefusesPersistOutsideSysctlDir(t *testing.T) {
	dir := fakeProcSys(t, tuneVals)
	state, sysctlDir := t.TempDir(), t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.conf")
	os.WriteFile(victim, []byte("root's own\n"), 0o644)
	e := somaxconnEntry("applied", "rolled-back")
	e["sysctl_dir"] = sysctlDir
	e["persist"] = map[string]any{"path": victim, "existed": true, "old_content": "attacker text\n", "new_content": "root's own\n", "status": "written"}
	plantJournal(t, state, e)
	code, _, stderr := runTuneCmd(t, "", "--rollback", "--proc-sys", dir, "--state-dir", state)
	if code == exitOK || !strings.Contains(stderr, "directly inside the sysctl directory") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "root's own\n" {
		t.Fatalf("victim rewritten: %q", b)
	}
}

// Item 3: an entry applied to one sysctl tree, or in one network namespace, is not rolled
// back into another.
// applySomaxconn applies net.core.somaxconn 4096 → 8192 to a fake /proc/sys and returns
// the tree and the state directory.
func applySomaxconn(t *testing.T) (dir, state string) {
	t.Helper()
	dir, state = fakeProcSys(t, tuneVals), t.TempDir()
	changes := `[{"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192","why":"x"}]`
	if code, _, stderr := runTuneCmd(t, changes, "--from", "-", "--apply", "--proc-sys", dir, "--state-dir", state); code != exitOK {
		t.Fatalf("apply: %d %s", code, stderr)
	}
	return dir, state
}

func TestTuneRollbackRefusesAnotherTree(t *testing.T) {
	dir, state := applySomaxconn(t)
	other := fakeProcSys(t, map[string]string{"net.core.somaxconn": "8192"})
	code, _, stderr := runTuneCmd(t, "", "--rollback", "--proc-sys", other, "--state-dir", state)
	if code == exitOK || !strings.Contains(stderr, "applied to the sysctl tree "+dir) {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	if readProcSys(t, other, "net.core.somaxconn") != "8192" {
		t.Fatal("rolled back into another tree")
	}
	if code, _, stderr := runTuneCmd(t, "", "--rollback", "--proc-sys", dir, "--state-dir", state); code != exitOK || readProcSys(t, dir, "net.core.somaxconn") != "4096" {
		t.Fatalf("rollback in its own tree: %d %s", code, stderr)
	}
}

func TestTuneRollbackRefusesAnotherNetns(t *testing.T) {
	dir, state := applySomaxconn(t)
	// The journal says the entry was written in another namespace than this process's.
	path := filepath.Join(state, tune.JournalName)
	var jf map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &jf); err != nil {
		t.Fatal(err)
	}
	e := jf["entries"].([]any)[0].(map[string]any)
	// No namespace has this inode: nsfs numbers start at 0xF0000000 (PROC_DYNAMIC_FIRST
	// in include/linux/proc_ns.h), far below 2^40.
	e["netns_ino"] = uint64(1) << 40
	b, _ = json.Marshal(jf)
	os.WriteFile(path, b, 0o644)
	code, _, stderr := runTuneCmd(t, "", "--rollback", "--proc-sys", dir, "--state-dir", state)
	if code == exitOK || !strings.Contains(stderr, "refusing to write into another namespace") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	if readProcSys(t, dir, "net.core.somaxconn") != "8192" {
		t.Fatal("rolled back from another namespace")
	}
}

// Item 7: an unknown state or status is an error, not "nothing to roll back".
func TestTuneRollbackUnknownStateIsAnError(t *testing.T) {
	for _, e := range []map[string]any{somaxconnEntry("half-applied", "written"), somaxconnEntry("applied", "maybe-written")} {
		dir := fakeProcSys(t, map[string]string{"net.core.somaxconn": "8192"})
		state := t.TempDir()
		plantJournal(t, state, e)
		for _, args := range [][]string{{"--rollback"}, {"--rollback", "--print"}} {
			code, stdout, stderr := runTuneCmd(t, "", append(args, "--proc-sys", dir, "--state-dir", state)...)
			if code == exitOK || strings.Contains(stdout, "nothing to roll back") || !strings.Contains(stderr, "unknown") {
				t.Errorf("%v %v: code %d stdout %q stderr %q", e["state"], args, code, stdout, stderr)
			}
		}
	}
}

// thisHostFacts reads what the report of a live doctor run on this host would say.
func thisHostFacts(t *testing.T) map[string]any {
	t.Helper()
	root := kernel.HostRoot()
	host, err := kernel.ReadSysctl(root, "kernel.hostname")
	if err != nil {
		t.Skip(err)
	}
	rel, _ := kernel.ReadSysctl(root, "kernel.osrelease")
	boot, _ := kernel.ReadSysctl(root, "kernel.random.boot_id")
	mi, err := kernel.ReadMemInfo(root)
	if err != nil {
		t.Skip(err)
	}
	mem, _ := mi.Get("MemTotal")
	return map[string]any{"hostname": host, "kernel": rel, "boot_id": boot, "mem_total_kb": mem}
}

func doctorReport(kind string, host map[string]any) string {
	b, _ := json.Marshal(map[string]any{"schema": 1, "source": map[string]any{"kind": kind, "name": "seed"}, "host": host,
		"findings": []any{map[string]any{"id": "tcp-mem", "changes": []any{
			map[string]any{"kind": "sysctl", "key": "net.core.somaxconn", "recommended": "8192", "why": "from the report"}}}}})
	return string(b)
}

// Item 4: changes derived from pasted text or from another host are refused, in the dry
// run (which says why) and on apply, unless --for-this-host.
func TestTuneFromReportOfAnotherHost(t *testing.T) {
	here := thisHostFacts(t)
	other := map[string]any{"hostname": "nas-004", "kernel": "2.6.30-1", "mem_total_kb": 516096}
	for _, tc := range []struct {
		name, report, want string
	}{
		{"pasted text", doctorReport("text", here), "derived from pasted text (seed)"},
		{"another host", doctorReport("capture", other), `the report is of host "nas-004"`},
		{"no host facts", doctorReport("live", map[string]any{}), "does not name its host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeProcSys(t, tuneVals)
			state := t.TempDir()
			code, stdout, stderr := runTuneCmd(t, tc.report, "--from", "-", "--proc-sys", dir, "--state-dir", state)
			if code == exitOK || !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "--for-this-host") {
				t.Errorf("dry run: code %d stdout %q stderr %q", code, stdout, stderr)
			}
			code, _, stderr = runTuneCmd(t, tc.report, "--from", "-", "--apply", "--proc-sys", dir, "--state-dir", state)
			if code == exitOK || !strings.Contains(stderr, tc.want) || readProcSys(t, dir, "net.core.somaxconn") != "4096" {
				t.Errorf("apply: code %d stderr %q", code, stderr)
			}
			code, _, stderr = runTuneCmd(t, tc.report, "--from", "-", "--apply", "--for-this-host", "--proc-sys", dir, "--state-dir", state)
			if code != exitOK || readProcSys(t, dir, "net.core.somaxconn") != "8192" {
				t.Errorf("--for-this-host: code %d stderr %q", code, stderr)
			}
		})
	}
	dir := fakeProcSys(t, tuneVals)
	code, _, stderr := runTuneCmd(t, doctorReport("live", here), "--from", "-", "--apply", "--proc-sys", dir, "--state-dir", t.TempDir())
	if code != exitOK || readProcSys(t, dir, "net.core.somaxconn") != "8192" {
		t.Errorf("this host's own report: code %d stderr %q", code, stderr)
	}
}

// Item 5: renderers leave out what --apply would refuse, and only a journaled drop-in
// points at --rollback.
func TestTuneRenderersApplyBounds(t *testing.T) {
	evil := `[{"kind":"sysctl","key":"vm.min_free_kbytes","recommended":"12000000","why":"x"},
	 {"kind":"sysctl","key":"kernel.core_pattern","recommended":"|/tmp/evil","why":"x"},
	 {"kind":"sysctl","key":"net.core.somaxconn","recommended":"8192","why":"fine"}]`
	for _, format := range []string{"shell", "sysctl", "tuned"} {
		code, stdout, stderr := runTuneCmd(t, evil, "--from", "-", "--format", format)
		if code == exitOK || strings.Contains(stdout, "12000000") || strings.Contains(stdout, "/tmp/evil") ||
			!strings.Contains(stdout, "8192") || !strings.Contains(stderr, "kernel.core_pattern") || !strings.Contains(stderr, "vm.min_free_kbytes") {
			t.Errorf("%s: code %d\n%s\nstderr %s", format, code, stdout, stderr)
		}
		if strings.Contains(stdout, "Undo with: headroom tune --rollback") {
			t.Errorf("%s promises a rollback without a journal entry:\n%s", format, stdout)
		}
	}
}

// Item 13: a dry run whose changes --apply would refuse exits non-zero.
func TestTuneDryRunWithRefusedExitsNonZero(t *testing.T) {
	dir := fakeProcSys(t, tuneVals)
	code, stdout, stderr := runTuneCmd(t, `[{"kind":"sysctl","key":"net.ipv4.tcp_rmem","recommended":"4096 131072 3000000000","why":"x"}]`,
		"--from", "-", "--proc-sys", dir, "--state-dir", t.TempDir())
	if code == exitOK || !strings.Contains(stdout, "REFUSED") || !strings.Contains(stderr, "would refuse 1 change") {
		t.Errorf("code %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// Item 13: --persist into a missing directory fails before the first write, and leaves no
// journal entry to roll back.
func TestTunePersistIntoMissingDirFailsFirst(t *testing.T) {
	dir := fakeProcSys(t, tuneVals)
	state := t.TempDir()
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	code, _, stderr := runTuneCmd(t, tunePlanJSON, "--from", "-", "--apply", "--persist", "--proc-sys", dir, "--state-dir", state, "--sysctl-dir", missing)
	if code == exitOK || !strings.Contains(stderr, "nothing was changed") {
		t.Errorf("code %d stderr %q", code, stderr)
	}
	jf, err := tune.ReadJournal(filepath.Join(state, tune.JournalName))
	if err != nil || len(jf.Entries) != 0 {
		t.Errorf("journal: %v %+v", err, jf)
	}
	if readProcSys(t, dir, "net.core.somaxconn") != "4096" {
		t.Error("a sysctl was written")
	}
}

// Item 13: temporary files of a killed run (between writing and renaming) are cleaned by
// the next run that holds the journal lock.
func TestTuneCleansStaleTempFiles(t *testing.T) {
	dir := fakeProcSys(t, tuneVals)
	state, sysctlDir := t.TempDir(), t.TempDir()
	stale := []string{
		filepath.Join(state, "."+tune.JournalName+".tmp-1234"),
		filepath.Join(sysctlDir, "."+tune.DropInName+".tmp-5678"),
	}
	for _, p := range stale {
		os.WriteFile(p, []byte("half"), 0o644)
	}
	keep := filepath.Join(sysctlDir, "10-other.conf")
	os.WriteFile(keep, []byte("x = 1\n"), 0o644)
	code, _, stderr := runTuneCmd(t, tunePlanJSON, "--from", "-", "--apply", "--persist", "--proc-sys", dir, "--state-dir", state, "--sysctl-dir", sysctlDir)
	if code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale %s left", p)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error(fmt.Sprint("removed another file: ", err))
	}
}
