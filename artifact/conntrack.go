package artifact

import (
	"sort"
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

// Sum adds each counter over the CPUs (the kernel keeps them per CPU and conntrack -S prints
// them so; a rule asks whether any CPU dropped), in name order; "cpu" is not a counter.
func (cs *ConntrackStats) Sum() *kernel.Counters {
	tot := map[string]int64{}
	for _, m := range cs.CPUs {
		for k, v := range m {
			if k != "cpu" {
				tot[k] += v
			}
		}
	}
	names := make([]string, 0, len(tot))
	for k := range tot {
		names = append(names, k)
	}
	sort.Strings(names)
	c := &kernel.Counters{}
	for _, k := range names {
		c.Set(k, tot[k])
	}
	return c
}
