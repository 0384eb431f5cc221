package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestListenOverflow(t *testing.T) {
	t.Run("rising fast", func(t *testing.T) {
		tl := timeline(3)
		tl.Host.Sysctls["net.core.somaxconn"] = "128"
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 10*i, "ListenDrops", 10*i)}
		}
		f := mustFire(t, run(t, "listen-overflow", tl), Critical)
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.somaxconn" || f.Changes[0].Recommended != "4096" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("rising slowly", func(t *testing.T) {
		tl := timeline(3)
		tl.Host.Sysctls["net.core.somaxconn"] = "4096"
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 1, "ListenDrops", 1)}
		tl.Samples[2].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 2, "ListenDrops", 2)}
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		if len(f.Changes) != 1 || f.Changes[0].Recommended != "8192" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("since boot", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 5, "ListenDrops", 5)}
		f := mustFire(t, run(t, "listen-overflow", tl), Info)
		if len(f.Changes) != 0 {
			t.Errorf("an old count is no reason to change: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 0, "ListenDrops", 0)}
		}
		mustBeHealthy(t, run(t, "listen-overflow", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "listen-overflow", timeline(2)), "ListenOverflows")
	})
	t.Run("SYN flooding in the log alone", func(t *testing.T) {
		// Corpus 424 (cuberite #4596, 4.4 i386): tcp_syn_flood_action's warning is the only
		// evidence; before, the rule said "not checked" with the lines in the log.
		tl := timeline(0)
		tl.Log = model.NewLog([]model.LogRecord{
			model.LogRecord{Message: "TCP: request_sock_TCP: Possible SYN flooding on port 8080. Sending cookies.  Check SNMP counters."}.WithSource("line 6"),
			model.LogRecord{Message: "TCP: request_sock_TCP: Possible SYN flooding on port 25565. Sending cookies.  Check SNMP counters."}.WithSource("line 7"),
			model.LogRecord{Message: "TCP: request_sock_TCP: Possible SYN flooding on port 25565. Sending cookies.  Check SNMP counters."}.WithSource("line 8"),
		})
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		if v := f.Evidence[0].Value; !strings.Contains(v, "port 25565 2×, port 8080 1×") || !strings.Contains(v, "cookies") {
			t.Errorf("evidence: %q", v)
		}
	})
}

// A netstat -s grep that kept only the SYN-queue counter: ListenOverflows and ListenDrops were
// not read, so "ListenOverflows and ListenDrops are 0" would be a guess.
func TestListenOverflowPartialCounters(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "TCPReqQFullDrop", 0)}
	mustBeHealthyNaming(t, run(t, "listen-overflow", tl), "ListenOverflows", "ListenOverflows and ListenDrops are 0")
}
