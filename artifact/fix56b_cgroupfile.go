package artifact

import (
	"math"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// cgroup v2 memory files listed one a line with their values (fix56b), as `grep .
// /sys/fs/cgroup/memory.*` prints them ("/sys/fs/cgroup/memory.max:max", each of
// memory.events' lines "/sys/fs/cgroup/memory.events:oom_kill 0") or as a post tabulates
// them ("/sys/fs/cgroup/memory.peak    8.31 GB", "memory.events  oom_kill 0"): the file's
// name, ':' or blanks, its value. The one-value files (mm/memcontrol.c: memory.current,
// memory.peak, memory.max, memory.high, memory.low, memory.min, memory.swap.*) hold bytes
// or "max" (no limit); a post may round them to "~2.04 GB" (kept as that many bytes, read
// as any other value: a peak is the watermark, never a breach unless it reaches a limit,
// cgroupsAtLimit). memory.events' keys (low, high, max, oom, oom_kill, oom_group_kill) with
// their counts: "oom_kill 0" is a cgroup that killed nothing. Every line of the run must be
// such a line whole, so a sentence naming memory.peak is never taken.
var (
	reCgroupFileValue = lazyre.New(`^(?:(/\S*?)/|\./)?memory\.(current|peak|max|high|low|min|swap\.current|swap\.max|swap\.peak|events|events\.local)(?::\s*|\s+)(\S.*?)\s*$`)
	reCgroupSizeValue = lazyre.New(`^(?:~|≈|about\s+)?(\d+(?:\.\d+)?)\s*(B|bytes|[KMGT]i?B?|[kKMGT]B)?$`)
)

// cgroupFileValueLine reads one line of the form: the directory, the file, the value (a
// file's bytes, or max) or the events (name, count pairs).
func cgroupFileValueLine(t string) (dir, file string, v int64, unlimited bool, ev *kernel.Counters, ok bool) {
	m := reCgroupFileValue.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return "", "", 0, false, nil, false
	}
	dir, file = m[1], "memory."+m[2]
	if strings.HasPrefix(m[2], "events") {
		fs := fields(m[3])
		if len(fs)%2 != 0 {
			return "", "", 0, false, nil, false
		}
		ev = &kernel.Counters{}
		for j := 0; j < len(fs); j += 2 {
			n, ok := atoi(fs[j+1])
			if !ok || !isDigits(fs[j+1]) || !memEventsV2[fs[j]] || ev.Has(fs[j]) {
				return "", "", 0, false, nil, false
			}
			ev.Set(fs[j], n)
		}
		return dir, file, 0, false, ev, true
	}
	if m[3] == "max" {
		return dir, file, 0, true, nil, true
	}
	s := reCgroupSizeValue.FindStringSubmatch(m[3])
	if s == nil {
		return "", "", 0, false, nil, false
	}
	f, err := strconv.ParseFloat(s[1], 64)
	if err != nil {
		return "", "", 0, false, nil, false
	}
	mult := 1.0
	switch u := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(s[2], "B"), "I")); {
	case strings.HasPrefix(u, "K"):
		mult = 1 << 10
	case strings.HasPrefix(u, "M"):
		mult = 1 << 20
	case strings.HasPrefix(u, "G"):
		mult = 1 << 30
	case strings.HasPrefix(u, "T"):
		mult = 1 << 40
	}
	if s[2] == "" && !isDigits(s[1]) || f*mult >= math.MaxInt64/2 {
		return "", "", 0, false, nil, false // a bare number is bytes: whole
	}
	return dir, file, int64(f * mult), false, nil, true
}

// tryCgroupFileValues reads a run of such lines: the one-value files into one cgroup's
// Files, memory.events' keys into its Events.
func (d *doc) tryCgroupFileValues(i int) int {
	k := i
	for k < len(d.ls) {
		if _, _, _, _, _, ok := cgroupFileValueLine(d.ls[k].Text); !ok {
			break
		}
		k++
	}
	if k == i {
		return 0
	}
	files, events := -1, -1 // indexes in d.tl.CgroupMemory (an append moves its entries)
	first := map[int]int{}  // an entry's first line
	entry := func(at *int, dir string, no int) *model.CgroupMemory {
		if *at < 0 || d.tl.CgroupMemory[*at].Path != dir {
			d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: 2, Path: dir})
			*at = len(d.tl.CgroupMemory) - 1
			first[*at] = no
		}
		c := &d.tl.CgroupMemory[*at]
		c.Source = spanSource(first[*at], no)
		return c
	}
	var evs kernel.Counters
	for j := i; j < k; j++ {
		dir, file, v, unlimited, ev, _ := cgroupFileValueLine(d.ls[j].Text)
		no := d.ls[j].No
		if ev != nil {
			c := entry(&events, dir, no)
			if c.Events == nil {
				c.Events = &kernel.Counters{}
			}
			for _, n := range ev.Names() {
				x, _ := ev.Get(n)
				c.Events.Set(n, x)
				evs.Set(n, x)
			}
			continue
		}
		d.segSeq++
		d.addArtifact(KindCgroupMemFiles, no, no, CgroupMemFile{Path: dir, File: file, Value: v, Max: unlimited})
		if unlimited {
			continue // nothing to compare
		}
		c := entry(&files, dir, no)
		if c.Files == nil {
			c.Files = &kernel.Counters{}
		}
		c.Files.Set(file, v)
	}
	if events >= 0 {
		d.segSeq++
		d.addArtifact(KindCgroupMemEvents, d.ls[i].No, d.ls[k-1].No, &CgroupMemEvents{Version: 2, Events: evs})
	}
	return k - i
}
