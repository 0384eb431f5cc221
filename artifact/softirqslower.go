package artifact

import (
	"slices"
	"strings"
)

// bcc's softirqslower (tools/softirqslower.py, 2025) prints one line per softirq that waited
// or ran longer than its threshold (10 ms by default): the stage measured ("irq(hard) to
// softirq" from raise_softirq in a hard interrupt to the handler's entry, "softirq runtime"
// from entry to exit), the softirq's name, the latency in microseconds, the CPU and the task
// that was on it:
//
//	TIME     STAGE                SOFTIRQ  LAT(us)        CPU    COMM
//	14:41:43 irq(hard) to softirq net_rx   50223          0      cat
//
// A NET_RX softirq that waits tens of milliseconds leaves the NIC's ring undrained for that
// long. No rule judges softirq latency yet: the trace is read into the artifacts (the
// longest wait of each softirq, in doctor --json) so that a text holding it is not called
// evidence-free (exit 3).

// SoftirqSlowTrace is one run of softirqslower's lines.
type SoftirqSlowTrace struct {
	Events int `json:"events"`
	// Longest is the longest latency of each softirq and stage seen, longest first.
	Longest []SoftirqSlow `json:"longest"`
}

// SoftirqSlow is one softirq's longest latency in one stage.
type SoftirqSlow struct {
	Softirq string `json:"softirq"` // the kernel's softirq_to_name: "net_rx", "timer" ...
	Stage   string `json:"stage"`
	LatUS   int64  `json:"lat_us"`
	CPU     int64  `json:"cpu"`
	Comm    string `json:"comm"`
	Count   int    `json:"count"`
}

// softirqNames are the kernel's softirq_to_name (kernel/softirq.c), lower-cased as the tool
// prints them.
var softirqNames = []string{"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched", "hrtimer", "rcu"}

// isSoftirqSlowerHeader: the tool's header, its columns in its order.
func isSoftirqSlowerHeader(_, t string) bool {
	return slices.Equal(fields(t), []string{"TIME", "STAGE", "SOFTIRQ", "LAT(us)", "CPU", "COMM"})
}

// trySoftirqSlower reads the header at line i and the lines under it, up to the first line
// that is not one ("[...]", a blank line, prose).
func (d *doc) trySoftirqSlower(i int) int {
	if !isSoftirqSlowerHeader("", d.ls[i].Text) {
		return 0
	}
	tr := &SoftirqSlowTrace{}
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		// time, a stage of one word or more, the softirq, latency, CPU, a task name
		// (which may hold spaces).
		n := slices.IndexFunc(fs, func(f string) bool { return slices.Contains(softirqNames, f) })
		if len(fs) < 6 || n < 2 || n+3 > len(fs) || !strings.Contains(fs[0], ":") {
			break
		}
		lat, okLat := atoi(fs[n+1])
		cpu, okCPU := atoi(fs[n+2])
		if !okLat || !okCPU || lat < 0 {
			break
		}
		tr.Events++
		s := SoftirqSlow{Softirq: fs[n], Stage: strings.Join(fs[1:n], " "), LatUS: lat, CPU: cpu, Comm: strings.Join(fs[n+3:], " ")}
		j := slices.IndexFunc(tr.Longest, func(x SoftirqSlow) bool { return x.Softirq == s.Softirq && x.Stage == s.Stage })
		if j < 0 {
			s.Count = 1
			tr.Longest = append(tr.Longest, s)
			continue
		}
		tr.Longest[j].Count++
		if lat > tr.Longest[j].LatUS {
			s.Count = tr.Longest[j].Count
			tr.Longest[j] = s
		}
	}
	if tr.Events == 0 {
		return 0
	}
	slices.SortStableFunc(tr.Longest, func(a, b SoftirqSlow) int { return int(b.LatUS - a.LatUS) })
	d.addArtifact(KindSoftirqSlower, d.ls[i].No, d.ls[k-1].No, tr)
	return k - i
}
