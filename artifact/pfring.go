package artifact

import "strings"

// PF_RING's capture statistics as pfcount and nprobe print them at intervals (PF_RING
// userland/examples/pfcount.c print_stats: "Duration: D:HH:MM:SS:ms", then "Bytes:",
// "Packets:", "Dropped:"): the counters of a user-space capture ring, whose "Dropped" are
// packets the ring had no free slot for, not a kernel or NIC counter. They are kept as an
// artifact of their own, with no sample: no rule judges a capture ring's drops, and
// /proc/meminfo's reader, which once took any "Name: value" run, no longer takes them.

// PFRingStats is one such reading.
type PFRingStats struct {
	Duration string `json:"duration"`
	Bytes    int64  `json:"bytes,omitempty"`
	Packets  int64  `json:"packets,omitempty"`
	Dropped  int64  `json:"dropped,omitempty"`
}

func (d *doc) tryPFRingStats(i int) int {
	dur, ok := strings.CutPrefix(strings.TrimSpace(d.ls[i].Text), "Duration:")
	if !ok {
		return 0
	}
	st := PFRingStats{Duration: strings.TrimSpace(dur)}
	k := i + 1
	seen := 0
block:
	for ; k < len(d.ls) && k < i+8; k++ {
		name, val, ok := strings.Cut(strings.TrimSpace(d.ls[k].Text), ":")
		if !ok {
			break
		}
		f := fields(val)
		if len(f) == 0 {
			break
		}
		v, num := atoi(strings.ReplaceAll(f[0], ",", ""))
		if !num {
			break
		}
		switch name {
		case "Bytes":
			st.Bytes = v
		case "Packets":
			st.Packets = v
		case "Dropped":
			st.Dropped = v
		default:
			break block // another name: the block ends before it
		}
		seen++
	}
	if seen < 2 {
		return 0
	}
	d.addArtifact(KindPFRing, d.ls[i].No, d.ls[k-1].No, st)
	return k - i
}
