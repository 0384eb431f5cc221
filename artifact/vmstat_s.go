package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// vmstat -s (procps) prints one counter per line: "30517772 K total memory", "0 pages
// swapped in", "95960349 CPU context switches". The memory lines become the /proc/meminfo
// names procps read them from, the since-boot counters their /proc/vmstat and /proc/stat
// names; the rest are read and kept in the artifact.
var vmstatSMem = map[string]string{
	"K total memory": "MemTotal", "K free memory": "MemFree", "K active memory": "Active",
	"K inactive memory": "Inactive", "K buffer memory": "Buffers", "K swap cache": "Cached",
	"K total swap": "SwapTotal", "K free swap": "SwapFree", "K used swap": "SwapUsed",
}

var vmstatSCounters = map[string]string{
	"pages swapped in": "pswpin", "pages swapped out": "pswpout", "K paged in": "pgpgin",
	"K paged out": "pgpgout", "pages free": "pgfree",
	// procps 3.2 (vmstat.c sum_format) printed /proc/vmstat's pgpgin and pgpgout, which
	// count kB, as "pages paged in/out"; procps-ng renamed them "K paged in/out".
	"pages paged in": "pgpgin", "pages paged out": "pgpgout",
}

// vmstatSLine splits "  30517772 K total memory" into the value and the text after it.
func vmstatSLine(t string) (int64, string, bool) {
	s := strings.TrimSpace(t)
	f := firstField(s)
	v, ok := atoi(f)
	if !ok {
		return vmstatSLabelFirstLine(s) // pl.po's "Pamięć razem:   8009114 K" (vmstat_s_locales.go)
	}
	rest := strings.TrimSpace(s[len(f):])
	if rest == "" || rest[0] >= '0' && rest[0] <= '9' {
		return 0, "", false
	}
	if en, ok := vmstatSLocale[rest]; ok {
		rest = en // "K Gesamtspeicher", "K mémoire totale" (vmstat_s_locales.go)
	}
	return v, rest, true
}

func isVMStatSLine(t string) bool {
	_, rest, ok := vmstatSLine(t)
	if !ok {
		return false
	}
	if _, m := vmstatSMem[rest]; m {
		return true
	}
	_, c := vmstatSCounters[rest]
	return c || strings.HasSuffix(rest, "cpu ticks") || rest == "CPU context switches" || rest == "boot time" || rest == "forks" ||
		rest == "interrupts" || strings.HasPrefix(rest, "pages alloc in") || rest == "K used memory"
}

func (d *doc) tryVMStatS(i int) int {
	k := i
	for k < len(d.ls) && isVMStatSLine(d.ls[k].Text) {
		k++
	}
	if k-i < 3 {
		return 0
	}
	mem, vm := &kernel.Counters{}, &kernel.Counters{}
	all := map[string]int64{}
	for j := i; j < k; j++ {
		v, rest, _ := vmstatSLine(d.ls[j].Text)
		all[rest] = v
		if n, ok := vmstatSMem[rest]; ok {
			mem.Set(n, v)
		}
		if n, ok := vmstatSCounters[rest]; ok {
			vm.Set(n, v)
		}
	}
	s := model.Sample{Source: spanSource(d.ls[i].No, d.ls[k-1].No)}
	if mem.Len() > 0 {
		s.MemInfo = mem
		if v, ok := mem.Get("MemTotal"); ok {
			d.host.memTotal(v, 3)
		}
	}
	if vm.Len() > 0 {
		s.VMStat = vm
	}
	d.segSeq++
	d.addSamples(KindVMStatS, d.label(i), d.ls[i].No, d.ls[k-1].No, []model.Sample{s})
	d.addArtifact(KindVMStatS, d.ls[i].No, d.ls[k-1].No, all)
	return k - i
}
