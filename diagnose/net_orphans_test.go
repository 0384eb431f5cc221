package diagnose

import (
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

func TestOrphanSendQueues(t *testing.T) {
	t.Run("seed 004: FIN_WAIT1 sockets with full send queues", func(t *testing.T) {
		tl := timeline(1)
		host32(tl)
		tl.Host.Kernel = "2.6.13-2smp"
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_wmem", "4096 32768 131072", "prose", 201)}
		tl.Samples[0].Source = "lines 245-266"
		tl.Samples[0].SocketList = sockets("FIN_WAIT1", 19, 0, 300000)
		f := mustFire(t, run(t, "orphan-send-queues", tl), Warning)
		if !evidenceHas(f, "FIN_WAIT1", "19 of 19 closing sockets") || !evidenceHas(f, "kernel 2.6.13", "before 3.18") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		// 224 MiB budget ÷ 128 KiB per orphan = 1792.
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.ipv4.tcp_max_orphans" || f.Changes[0].Recommended != "1792" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("orphans near tcp_max_orphans", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 10, "orphan", 70000)}
		f := mustFire(t, run(t, "orphan-send-queues", tl), Critical)
		if !evidenceHas(f, "tcp_max_orphans", "70000 / 131072 = 53%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "TCP: too many orphaned sockets"}.WithSource("line 9")})
		mustFire(t, run(t, "orphan-send-queues", tl), Critical)
	})
	t.Run("tcp_retries2 low enough to disable the zero-window abort", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Kernel = "5.15.0"
		tl.Host.Sysctls["net.ipv4.tcp_retries2"] = "8"
		tl.Samples[0].SocketList = sockets("FIN_WAIT1", 4, 0, 100000)
		f := mustFire(t, run(t, "orphan-send-queues", tl), Warning)
		found := false
		for _, c := range f.Changes {
			found = found || (c.Key == "net.ipv4.tcp_retries2" && c.Recommended == "15")
		}
		if !found {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 10, "orphan", 3)}
		tl.Samples[0].SocketList = append(sockets("FIN_WAIT1", 1, 0, 2000), sockets("ESTABLISHED", 10, 0, 500000)...)
		mustBeHealthy(t, run(t, "orphan-send-queues", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "orphan-send-queues", timeline(2)), "socket table")
	})
}

// The live host of the issue: old "too many orphaned sockets" lines in the kernel log, no
// orphans now, tcp_max_orphans 131072. doctor must report the lines as history with their
// age, and propose no change (tune had proposed tcp_max_orphans 131072 → 753).
func TestOldOrphanLogLinesProposeNoChange(t *testing.T) {
	tl := timeline(2)
	host64(tl)
	tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
	tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
	for i := range tl.Samples {
		tl.Samples[i].SockStat = kernel.Groups{group("TCP", "inuse", 40, "orphan", 0)}
	}
	tl.LogCurrentSince = t0.Add(-time.Hour)
	old := t0.Add(-3*24*time.Hour - 5*time.Hour)
	tl.Log = model.NewLog([]model.LogRecord{
		model.LogRecord{Message: "TCP: too many orphaned sockets"}.WithTime(old).WithSource("/dev/kmsg seq 10"),
		model.LogRecord{Message: "TCP: too many orphaned sockets"}.WithTime(old.Add(time.Minute)).WithSource("/dev/kmsg seq 11"),
	})
	d := Run(tl, nil)
	var f *Finding
	for i := range d.Findings {
		if d.Findings[i].ID == "orphan-send-queues" {
			f = &d.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no orphan finding: %+v", d.Findings)
	}
	if f.Severity != Info || len(f.Changes) != 0 {
		t.Errorf("history finding: severity %v, changes %+v", f.Severity, f.Changes)
	}
	// The newest line is 3 d 4 h 59 min older than the first sample.
	if !evidenceHas(*f, "when", "newest line 3d4h59m before the first sample") {
		t.Errorf("evidence lacks the age: %+v", f.Evidence)
	}
	for _, f := range d.Findings {
		for _, c := range f.Changes {
			if c.Key == "net.ipv4.tcp_max_orphans" {
				t.Errorf("%s proposes %s → %s", f.ID, c.Current, c.Recommended)
			}
		}
	}
}

// A current log line without a measured hoard or orphan count is still critical, but it
// proposes no change either: lowering the orphan limit because the limit was hit would only
// reset more connections.
func TestOrphanLogLineAloneProposesNoChange(t *testing.T) {
	tl := timeline(1)
	host64(tl)
	tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
	tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "TCP: too many orphaned sockets"}.WithSource("line 9")})
	f := mustFire(t, run(t, "orphan-send-queues", tl), Critical)
	if len(f.Changes) != 0 {
		t.Errorf("changes from a log line alone: %+v", f.Changes)
	}
}

// Only a sockstat orphan count, no socket table and no tcp_max_orphans: nothing said whether
// closing sockets hold send queues, and the count has no limit to be compared with. A
// healthy "no closing socket holds ≥ 64 KiB" would rest on a table that was never read.
func TestOrphanSockstatAloneIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 10, "orphan", 3)}
	mustNotCheck(t, run(t, "orphan-send-queues", tl), "tcp_max_orphans")

	// With the limit the count is judged, but the send queues still were not read.
	tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
	res := run(t, "orphan-send-queues", tl)
	mustBeHealthy(t, res)
	if strings.Contains(res.Checked, "no closing socket holds") || !strings.Contains(res.Checked, "no socket table") {
		t.Errorf("healthy text claims what was not read: %q", res.Checked)
	}
}
