package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// A finding whose measurements are all another machine's (a guide's example buddyinfo) and
// whose other evidence is the basis it is judged on — the order needed from "host NICs /
// input", the host's size from "host facts: MemTotal" — rests on nothing of this host's:
// info, marked so. Before: memory-fragmented stayed a warning on "Here is what
// /proc/buddyinfo looks like on a fragmented system:". A measurement of the host's beside
// the foreign one keeps the severity.
func TestForeignOnlyWithHostBasis(t *testing.T) {
	foreign := "lines 3-5 snapshot 1 (" + model.ForeignMark + ": an example the text shows)"
	f := Finding{Severity: Warning, Title: "free memory is plentiful but order-3 blocks are scarce", Evidence: []Evidence{
		{What: "order needed", Value: "3", Source: "host NICs / input"},
		{What: "order-3 buffers obtainable", Value: "2", Source: foreign},
		{What: "memory", Value: "4 GiB", Source: "host facts: MemTotal"},
	}}
	weighStated(&f)
	if f.Severity != Info || !f.Facts.Foreign || !strings.Contains(f.Title, model.ForeignMark) {
		t.Errorf("weighed %v %q foreign=%v, want info, another machine's", f.Severity, f.Title, f.Facts.Foreign)
	}
	g := Finding{Severity: Warning, Title: "t", Evidence: []Evidence{
		{What: "order needed", Value: "3", Source: "host NICs / input"},
		{What: "order-3 buffers obtainable", Value: "2", Source: foreign},
		{What: "order-3 buffers obtainable", Value: "1", Source: "/proc/buddyinfo"},
	}}
	weighStated(&g)
	if g.Severity != Warning || g.Facts.Foreign {
		t.Errorf("with the host's own buddyinfo: %v foreign=%v, want a warning", g.Severity, g.Facts.Foreign)
	}
}

// A key named in prose only, with no value, sets nothing: whether the key is absent from the
// key list (proc(5)'s kernel.modprobe, fs.inode-max of 2.2) or a historical one the text's
// kernel no longer has (tcp(7) documents tcp_bic, read on a page whose history names Linux
// 2.6.30), nothing failed to take effect. Before: sysctl-unknown-key warned on both. Written
// with a value, or as a near miss of a listed key, it still warns.
func TestSysctlProseKeyWithoutValueSetsNothing(t *testing.T) {
	for _, m := range []model.SettingMention{
		mention("kernel.modprobe", "", "prose", 3),
		mention("fs.inode-max", "", "prose", 4),
		mention("net.ipv4.tcp_bic", "", "prose", 5),
	} {
		tl := timeline(0)
		tl.Host.Kernel = "2.6.30"
		tl.Settings = []model.SettingMention{m}
		for _, f := range run(t, "sysctl-unknown-key", tl).Findings {
			if f.Severity >= Warning {
				t.Errorf("%s in prose, no value: %v %q, want no warning", m.Key, f.Severity, f.Title)
			}
		}
	}
	tl := timeline(0)
	tl.Host.Kernel = "2.6.30"
	tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_bic", "1", "sysctl-w", 3)}
	mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
	tl = timeline(0)
	tl.Settings = []model.SettingMention{mention("vm.min_kbytes_free", "", "prose", 3)}
	mustFire(t, run(t, "sysctl-unknown-key", tl), Warning)
}
