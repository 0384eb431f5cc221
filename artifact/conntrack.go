package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// conntrack -S (conntrack-tools, src/conntrack.c: the per-CPU statistics of
// ctnetlink's IPCTNL_MSG_CT_GET_STATS_CPU, one line a CPU):
//
//	cpu=0   	found=770 invalid=3856 ignore=42570125 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=746284
//
// The names are the kernel's (include/uapi/linux/netfilter/nfnetlink_conntrack.h
// CTA_STATS_*; the counters of struct ip_conntrack_stat). insert_failed and drop count
// packets dropped for want of a conntrack entry, early_drop entries evicted to make room.
// Newer kernels add clash_resolve and chaintoolong: every key=number pair is kept.

// ConntrackStats is a parsed conntrack -S listing.
type ConntrackStats struct {
	CPUs []map[string]int64 `json:"cpus"` // each line's counters, the CPU under "cpu"
}

// conntrackStatLine reads one line; ok is false unless it is "cpu=N" and key=number pairs.
func conntrackStatLine(t string) (map[string]int64, bool) {
	fs := fields(t)
	if len(fs) < 2 || !strings.HasPrefix(fs[0], "cpu=") {
		return nil, false
	}
	m := map[string]int64{}
	for _, f := range fs {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, false
		}
		n, ok := atoi(v)
		if !ok {
			return nil, false
		}
		m[k] = n
	}
	return m, true
}

func (d *doc) tryConntrackStats(i int) int {
	cs := &ConntrackStats{}
	k := i
	for ; k < len(d.ls); k++ {
		m, ok := conntrackStatLine(d.ls[k].Text)
		if !ok {
			break
		}
		cs.CPUs = append(cs.CPUs, m)
	}
	if len(cs.CPUs) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindConntrackS, d.ls[i].No, d.ls[k-1].No, cs)
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addSamples(KindConntrackS, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last), Conntrack: cs.Sum()}})
	return k - i
}

// /proc/net/stat/nf_conntrack (net/netfilter/nf_conntrack_standalone.c ct_cpu_seq_show)
// holds the same per-CPU counters in hex under a header line, one row a CPU:
//
//	entries  searched found new invalid ignore delete delete_list insert insert_failed drop  early_drop icmp_error  expect_new expect_create expect_delete search_restart
//	000001a2  00000000 00000000 00000000 00000f10 0000a63d 00000000 00000000 00000000 00000000 00000000 00000000 00000000  00000000 00000000 00000000 000b6368
//
// Kernels renamed some columns (searched → clashres, delete_list → chainlength in 5.x); the
// names are read from the header. entries is the table's count, the same on every row.

// tryConntrackStatFile reads the file from its header line at i; the format's one home is
// kernel (ConntrackStatHeader, ConntrackStatRow), which the live sampler reads it with too.
func (d *doc) tryConntrackStatFile(i int) int {
	head, ok := kernel.ConntrackStatHeader(d.ls[i].Text)
	if !ok {
		return 0
	}
	cs := &ConntrackStats{}
	var vals []int64
	k := i + 1
	for ; k < len(d.ls); k++ {
		if vals, ok = kernel.ConntrackStatRow(d.ls[k].Text, len(head), vals); !ok {
			break
		}
		m := map[string]int64{"cpu": int64(len(cs.CPUs))}
		for j, v := range vals {
			m[head[j]] = v
		}
		cs.CPUs = append(cs.CPUs, m)
	}
	if len(cs.CPUs) == 0 {
		d.unparsed(i, i, "/proc/net/stat/nf_conntrack: a header without rows of as many hex counters")
		return 1
	}
	d.segSeq++
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addArtifact(KindConntrackS, first, last, cs)
	d.addSamples(KindConntrackS, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last), Conntrack: cs.Sum()}})
	return k - i
}

// Sum adds each counter over the CPUs (the kernel keeps them per CPU and conntrack -S prints
// them so; a rule asks whether any CPU dropped), in name order (kernel.SumConntrackStats).
func (cs *ConntrackStats) Sum() *kernel.Counters {
	c := &kernel.Counters{}
	kernel.SumConntrackStats(c, cs.CPUs)
	return c
}
