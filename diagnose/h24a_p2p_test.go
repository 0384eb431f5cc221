package diagnose

import (
	"strings"
	"testing"
)

// h24a (blind, pre-round 24): a seedbox's paste mixes the client's own lines (named, no
// rule: unreadappbuf.go) with the kernel's; the kernel's reach their findings and the
// client's lines add none.
const h24aClientLines = "qbittorrent  | (I) 2023-05-01T10:00:00 - Performance alert: debian.iso: performance warning: too few file descriptors are allowed for this process. connection limit lowered. More info: https://libtorrent.org/reference-Alerts.html#enum-performance-warning-t\n" +
	"Jul 06 13:50:44 seedbox transmission-daemon[29663]: [2018-07-06 13:50:44.429] UDP Failed to set receive buffer: requested 4194304, got 425984 (tr-udp.c:84)\n" +
	"Jul 06 13:50:44 seedbox transmission-daemon[29663]: [2018-07-06 13:50:44.429] UDP Please add the line \"net.core.rmem_max = 4194304\" to /etc/sysctl.conf (tr-udp.c:89)\n" +
	"2023/05/01 10:00:00 failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n"

func TestH24aSeedboxKernelFindings(t *testing.T) {
	kern := "May  1 10:00:00 seedbox kernel: [123456.789] nf_conntrack: nf_conntrack: table full, dropping packet\n" +
		"May  1 10:00:01 seedbox kernel: [123457.789] TCP: out of memory -- consider tuning tcp_mem\n" +
		"May  1 10:00:03 seedbox kernel: [123459.789] Out of memory: Killed process 1234 (qbittorrent-nox) total-vm:4194304kB, anon-rss:3145728kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:8000kB oom_score_adj:0\n"
	for name, text := range map[string]string{
		"syslog": h24aClientLines + kern,
		"quoted": "> " + strings.ReplaceAll(strings.TrimSuffix(h24aClientLines+kern, "\n"), "\n", "\n> ") + "\n",
	} {
		tl := parseText19b(t, text)
		d := Run(tl, nil)
		got := map[string]bool{}
		for _, f := range d.Findings {
			got[f.ID] = true
		}
		for _, id := range []string{"conntrack-full", "tcp-memory-pressure", "oom-kill"} {
			if !got[id] {
				t.Errorf("%s: no %s in %v", name, id, got)
			}
		}
		if len(got) != 3 {
			t.Errorf("%s: findings %v, want only the kernel's three", name, got)
		}
		f := mustFire(t, run(t, "oom-kill", tl), Critical)
		if !evidenceHas(f, "", "qbittorrent-nox") {
			t.Errorf("%s: oom-kill evidence %+v, want the killed qbittorrent-nox", name, f.Evidence)
		}
	}
	// The client's lines alone: named, no finding, and the advice's 4194304 taken for no setting.
	tl := parseText19b(t, h24aClientLines)
	if d := Run(tl, nil); len(d.Findings) != 0 {
		t.Errorf("client lines alone: findings %+v", d.Findings)
	}
	if len(tl.Unparsed) != 4 {
		t.Errorf("client lines alone: unread %+v, want each named", tl.Unparsed)
	}
}
