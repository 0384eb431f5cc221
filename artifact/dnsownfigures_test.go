package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix32aUnparsed: the reasons of tl's unparsed lines, joined.
func fix32aUnparsed(text string) (string, int) {
	tl := ParseString(text, "p", Options{})
	var b strings.Builder
	for _, u := range tl.Unparsed {
		b.WriteString(u.Why)
		b.WriteByte('\n')
	}
	return b.String(), len(tl.Artifacts) + len(tl.Samples)
}

// fix32a: DNS servers' own lines and figures (corpus 2726, 2728, 2733, 2735): each was
// exit 3, "nothing is evidence"; each is now named as unread, and the counter-cases stay
// as they were.
func TestFix32aDNSOwnFigures(t *testing.T) {
	for _, c := range []struct {
		name, text, want string // want: a part of an unparsed reason; "" for none
	}{
		// PowerDNS Recursor's start-up descriptor check, bare and in syslog.
		{"pdns fd check", "```\npdns_recursor[24596]: Insufficient number of filedescriptors available for max-mthreads*threads setting! (4096 < 4121), reducing max-mthreads to 2035\n```\n", "hard RLIMIT_NOFILE"},
		{"pdns fd check syslog", "Jan 24 02:35:47 ns1 pdns_recursor[24596]: Insufficient number of filedescriptors available for max-mthreads*threads setting! (4096 < 4121), reducing max-mthreads to 2035\n", "hard RLIMIT_NOFILE"},
		// The soft limit raised to fit: no limit hit.
		{"pdns fd raised", "pdns_recursor[24596]: Raised soft limit on number of filedescriptors to 4121 to match max-mthreads and threads settings\n", ""},
		// A DNS server's syslog record whose errno is EMFILE; its message holds no digit.
		{"pdns emfile", "Nov 14 05:06:56 hades pdns_recursor[45931]: Network error in web thread: Accepting a connection: Too many open files\n", "EMFILE"},
		// Counter-cases: another program's record (no DNS server's tag) and a DNS server's
		// record with no errno stay other programs' log.
		{"other tag emfile", "Nov 14 05:06:56 hades myapp[45931]: Network error in web thread: Accepting a connection: Too many open files\n", ""},
		{"pdns no errno", "Nov 14 05:06:56 hades pdns_recursor[45931]: Network error in web thread: Accepting a connection: Connection reset\n", ""},
		// dnsdist's dumpStats() rows, two pairs a row, with an elision line.
		{"dnsdist stats", "```\ncache-hits                                 31599155    latency10-50                                  654685\ncache-misses                                3310691    latency100-1000                               103331\n..\ndyn-blocked                                       0    responses                                   34903454\n", "PowerDNS's own metrics"},
		// Counter-cases: one such pair alone; rows that hold a udp-* metric (the kernel's
		// counters, read by tryPdnsUDPRows, not named); a sentence.
		{"one pair", "queries 5\n", ""},
		{"udp rows", "cache-hits 31599155 udp-in-errors 0\ncache-misses 3310691 udp-noport-errors 7\ndyn-blocked 0 udp-recvbuf-errors 12\n", ""},
		{"sentence", "cache-hits grew to 31599155 while responses stayed at 34903454 and rule-drop at 0\n", ""},
		// Unbound's unbound.conf: its size settings named when nothing else was read.
		{"unbound conf", "unbound.conf:\nserver:\n\tnum-threads: 4\n\tso-rcvbuf: 8m\n\tmsg-cache-size: 256m\n", "Unbound's own setting"},
		// Counter-cases: the example config's commented-out default, the name in a sentence,
		// another key.
		{"unbound commented", "server:\n\t# so-rcvbuf: 0\n\tnum-threads: 4\n", ""},
		{"unbound sentence", "I raised so-rcvbuf: it is 8m now\n", ""},
		{"other key", "server:\n\tcache-min-ttl: 300\n", ""},
	} {
		got, _ := fix32aUnparsed(c.text)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: unparsed %q, want %q", c.name, got, c.want)
		}
	}
}

// The udp-* rows of the same listing are still read as the kernel's counters.
func TestFix32aPdnsUDPRowsKept(t *testing.T) {
	tl := ParseString("udp-in-errors 0 cache-hits 31599155\nudp-recvbuf-errors 12 cache-misses 3310691\n", "p", Options{})
	if len(tl.Artifacts) == 0 {
		t.Fatalf("udp-* rows not read: unparsed %+v", tl.Unparsed)
	}
}

func TestFix32aUnboundConfSize(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"\tso-rcvbuf: 8m", true},
		{"so-sndbuf: 4194304", true},
		{"  rrset-cache-size: 640m # twice msg-cache-size", true},
		{"\toutgoing-range: 8192", true},
		{"\t# so-rcvbuf: 0", false},
		{"\tso-rcvbuf: yes", false},
		{"\tso-reuseport: yes", false},
		{"\tverbosity: 5", false},
		{"set so-rcvbuf: 8m", false},
	} {
		if got := unboundConfSize(c.line); got != c.want {
			t.Errorf("%q: got %v, want %v", c.line, got, c.want)
		}
	}
}

// The kill line broken before each field, one a line with its comma (corpus 2721): the
// fields are joined to the line. Counter-cases: a "total-vm:" line after a kill line that
// ends with its fields already, and after a sentence, join nothing.
func TestFix32aKillLineFieldPerLine(t *testing.T) {
	kill := func(text string) *model.OOMKill {
		var o *model.OOMKill
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.OOMKill != nil {
				o = e.OOMKill
			}
		}
		return o
	}
	o := kill("Out of memory: Killed process 7794 (dotnet)\ntotal-vm:18186076kB,\nanon-rss:5366016kB,\nfile-rss:256kB,\nshmem-rss:33152kB,\nUID:0,\npgtables:13480kB,\noom_score_adj:0\n")
	if o == nil || o.KilledPID != 7794 || o.TotalVMKB != 18186076 || o.AnonRSSKB != 5366016 || o.ShmemRSSKB != 33152 || o.PgtablesKB != 13480 {
		t.Errorf("split kill line: %+v", o)
	}
	o = kill("Out of memory: Killed process 7794 (dotnet) total-vm:100kB, anon-rss:50kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:0\ntotal-vm:18186076kB,\n")
	if o == nil || o.TotalVMKB != 100 || o.AnonRSSKB != 50 {
		t.Errorf("whole kill line then a stray field: %+v", o)
	}
}
