package tune

import (
	"context"
	"maps"
	"strings"
	"testing"

	"headroom/model"
)

func TestLowers(t *testing.T) {
	for _, c := range []struct {
		kind, key, cur, next, want string
		lowers                     bool
	}{
		{model.ChangeSysctl, "net.core.rmem_max", "4194304", "212992", "4194304 → 212992", true},
		{model.ChangeSysctl, "net.core.rmem_max", "212992", "4194304", "", false},
		{model.ChangeSysctl, "net.ipv4.tcp_rmem", "4096\t131072\t6291456", "4096 87380 8388608", "field 2 131072 → 87380", true},
		{model.ChangeSysctl, "vm.min_free_kbytes", "67584", "18578", "67584 → 18578", true},
		{model.ChangeSysctl, "net.ipv4.tcp_max_orphans", "131072", "753", "131072 → 753", true},
		// The kernel's "no limit" for tcp_notsent_lowat is nobody's raise.
		{model.ChangeSysctl, "net.ipv4.tcp_notsent_lowat", "4294967295", "131072", "", false},
		{model.ChangeSysctl, "net.ipv4.tcp_notsent_lowat", "1048576", "131072", "1048576 → 131072", true},
		// No direction: not checked.
		{model.ChangeSysctl, "vm.swappiness", "60", "10", "", false},
		{model.ChangeSysctl, "net.ipv4.tcp_congestion_control", "cubic", "bbr", "", false},
		{model.ChangeEthtool, "eth0 rx", "4096", "256", "4096 → 256", true},
		{model.ChangeSysctl, "net.ipv4.tcp_rmem", "garbage", "4096 87380 8388608", "", false},
	} {
		got, lowers := Lowers(c.kind, c.key, c.cur, c.next)
		if got != c.want || lowers != c.lowers {
			t.Errorf("Lowers(%s %s, %q → %q) = %q, %v; want %q, %v", c.kind, c.key, c.cur, c.next, got, lowers, c.want, c.lowers)
		}
	}
}

// Raise only: a lowering is held back (and named) without --allow-lower, applied with it;
// tcp_max_orphans and tcp_mem are refused below the host's use even with it; the rest of
// the set is applied and the held-back changes are reported.
func TestApplyRaiseOnlyAndPartial(t *testing.T) {
	vals := map[string]string{
		"net.core.somaxconn":       "4096",
		"net.core.rmem_max":        "4194304",
		"net.ipv4.tcp_max_orphans": "131072",
		"net.ipv4.tcp_mem":         "287898 383867 575796",
		"vm.min_free_kbytes":       "20000",
	}
	changes := []model.Change{
		sysctl("net.core.somaxconn", "8192", "raise"),
		sysctl("net.core.rmem_max", "212992", "lower"),
		sysctl("net.ipv4.tcp_max_orphans", "753", "old log lines"),
		sysctl("net.ipv4.tcp_mem", "100 200 300", "lower below use"),
		sysctl("net.unknown.key", "1", "no bound"),
	}
	usage := Usage{Known: true, TCPOrphans: 900, TCPMemPages: 5000}

	fs := newFakeFS(maps.Clone(vals))
	a := &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Usage: usage, Now: fixedNow}
	e, items, err := a.Apply(context.Background(), changes)
	if err != nil || e == nil {
		t.Fatalf("entry %v err %v", e, err)
	}
	want := []Action{ActionApply, ActionNeedsAllowLower, ActionRefused, ActionRefused, ActionRefused}
	for i, it := range items {
		if it.Action != want[i] {
			t.Errorf("%s: %s (%s), want %s", it.Change.Key, it.Action, it.Reason, want[i])
		}
	}
	if !strings.Contains(items[1].Reason, "lowers 4194304 → 212992") || !strings.Contains(items[1].Reason, "--allow-lower") {
		t.Errorf("rmem_max reason %q", items[1].Reason)
	}
	if !strings.Contains(items[2].Reason, "below the 900 orphaned sockets") || !strings.Contains(items[3].Reason, "below the 5000 pages") {
		t.Errorf("reasons %q / %q", items[2].Reason, items[3].Reason)
	}
	if strings.Join(fs.writes, ",") != "net.core.somaxconn=8192" || len(e.Changes) != 1 {
		t.Errorf("writes %v, journal %d changes", fs.writes, len(e.Changes))
	}

	// With --allow-lower: rmem_max goes down; orphans and tcp_mem stay refused.
	fs = newFakeFS(maps.Clone(vals))
	a = &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Usage: usage, AllowLower: true}
	_, items, err = a.Apply(context.Background(), changes)
	if err != nil {
		t.Fatal(err)
	}
	if items[1].Action != ActionApply || items[1].Lowers != "4194304 → 212992" || items[2].Action != ActionRefused || items[3].Action != ActionRefused {
		t.Errorf("with --allow-lower: %s %q / %s / %s", items[1].Action, items[1].Lowers, items[2].Action, items[3].Action)
	}
	if strings.Join(fs.writes, ",") != "net.core.somaxconn=8192,net.core.rmem_max=212992" {
		t.Errorf("writes %v", fs.writes)
	}
	// Above the use, a lowering of tcp_max_orphans is allowed with --allow-lower.
	fs = newFakeFS(maps.Clone(vals))
	a = &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Usage: usage, AllowLower: true}
	if _, items, err = a.Apply(context.Background(), []model.Change{sysctl("net.ipv4.tcp_max_orphans", "65536", "x")}); err != nil || items[0].Action != ActionApply {
		t.Errorf("orphans above use: %v %s %s", err, items[0].Action, items[0].Reason)
	}

	// A raise that still stays below the use is not refused: it only helps.
	fs = newFakeFS(map[string]string{"net.ipv4.tcp_mem": "10 20 30"})
	a = &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Usage: usage}
	if _, items, err = a.Apply(context.Background(), []model.Change{sysctl("net.ipv4.tcp_mem", "100 200 300", "x")}); err != nil || items[0].Action != ActionApply {
		t.Errorf("raise below use: %v %s %s", err, items[0].Action, items[0].Reason)
	}

	// --all-or-nothing: nothing is written.
	fs = newFakeFS(maps.Clone(vals))
	a = &Applier{FS: fs, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, Usage: usage, AllOrNothing: true}
	if _, _, err := a.Apply(context.Background(), changes); err == nil || len(fs.writes) != 0 || !strings.Contains(err.Error(), "4 change(s) refused") {
		t.Errorf("all-or-nothing: err %v, writes %v", err, fs.writes)
	}
}

// In a namespace the per-namespace keys are applied and the global ones listed with the
// command for the host.
func TestApplyNetnsPartial(t *testing.T) {
	fs := newFakeFS(map[string]string{"net.ipv4.tcp_rmem": "4096 131072 6291456", "net.ipv4.tcp_notsent_lowat": "4294967295", "vm.min_free_kbytes": "2000"})
	a := &Applier{FS: fs, Netns: "lab", Journal: openTestJournal(t, t.TempDir()), Limits: testLimits}
	e, items, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "x"),
		sysctl("net.ipv4.tcp_notsent_lowat", "131072", "x"),
		sysctl("vm.min_free_kbytes", "20000", "x"),
	})
	if err != nil || e == nil || e.Netns != "lab" || len(e.Changes) != 2 {
		t.Fatalf("entry %+v err %v", e, err)
	}
	if items[2].Action != ActionGlobal || !strings.Contains(items[2].Reason, "sysctl -w vm.min_free_kbytes=20000") {
		t.Errorf("min_free: %s %q", items[2].Action, items[2].Reason)
	}
}
