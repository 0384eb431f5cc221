package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// A key of a BSD's sysctl tree written with a value ("on FreeBSD you could set sysctl
// net.inet.tcp.blackhole=2", "kern.ipc.maxsockbuf=...") is another system's advice: no
// Linux kernel has the namespace, so no setting of this host failed (990). A Linux key
// written wrong with a value still fires, and so does one under a Linux tree.
func TestBSDSysctlKeyNotUnknown(t *testing.T) {
	for _, key := range []string{"net.inet.tcp.blackhole", "kern.ipc.maxsockbuf", "net.inet6.ip6.forwarding", "hw.physmem"} {
		tl := timeline(0)
		tl.Settings = []model.SettingMention{mention(key, "2", "sysctl -w", 9)}
		mustBeHealthy(t, run(t, "sysctl-unknown-key", tl))
	}
	for _, key := range []string{"net.ipv4.tcp_tw_recyle", "kernel.shmmaxx", "net.ipv4.inet_peer_maxtll"} {
		t.Run(key, func(t *testing.T) {
			tl := timeline(0)
			tl.Settings = []model.SettingMention{mention(key, "2", "sysctl -w", 9)}
			mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
		})
	}
}

// ListenDrops since boot with no ListenOverflows in the input (a re-print that filtered it
// out, corpus 974): the listeners dropped attempts at some time, info; the title names the
// drops, not a full accept queue, because ListenDrops counts every listener drop
// (tcp_listendrop) and only ListenOverflows says the queue was full. With ListenOverflows
// read, or read as 0, the title says so.
func TestListenDropsAloneNotAcceptQueue(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenDrops", 600)}
	f := mustFire(t, run(t, "listen-overflow", tl), Info)
	if strings.Contains(f.Title, "accept queues were full") || !strings.Contains(f.Title, "ListenOverflows") {
		t.Errorf("title %q", f.Title)
	}
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenDrops", 600, "ListenOverflows", 0)}
	f = mustFire(t, run(t, "listen-overflow", tl), Info)
	if !strings.Contains(f.Title, "none for a full accept queue") {
		t.Errorf("title %q", f.Title)
	}
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenDrops", 600, "ListenOverflows", 600)}
	f = mustFire(t, run(t, "listen-overflow", tl), Info)
	if !strings.Contains(f.Title, "accept queues were full") {
		t.Errorf("title %q", f.Title)
	}
}
