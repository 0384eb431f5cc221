package artifact

import (
	"fmt"
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
// such a line whole, so a sentence naming memory.peak is never taken. `grep .` prints the
// multi-line files the same way, a line each: memory.stat's "name value" pairs
// ("memory.stat:anon 10887168") and memory.pressure's some and full lines
// ("memory.pressure:full avg10=90.32 avg60=72.53 avg300=78.24 total=295658626500"; corpus
// 6505): the cgroup's own stall, kept with the cgroup (model.CgroupMemory.Pressure), never
// as the host's /proc/pressure/memory.
var (
	reCgroupFileValue = lazyre.New(`^(?:(/\S*?)/|\./)?memory\.(current|peak|max|high|low|min|swap\.current|swap\.max|swap\.peak|events|events\.local|stat|pressure)(?::\s*|\s+)(\S.*?)\s*$`)
	reCgroupSizeValue = lazyre.New(`^(?:~|≈|about\s+)?(\d+(?:\.\d+)?)\s*(B|bytes|[KMGT]i?B?|[kKMGT]B)?$`)
)

// cgroupFileLine is one line of such a run.
type cgroupFileLine struct {
	dir, file string
	v         int64
	unlimited bool
	ev        *kernel.Counters // memory.events' pairs
	stat      string           // memory.stat's name (its value in v)
	psi       string           // memory.pressure's line ("some avg10=...")
}

// cgroupFileValueLine reads one line of the form: the directory, the file, the value (a
// file's bytes, or max), the events (name, count pairs), a memory.stat pair or a
// memory.pressure line.
func cgroupFileValueLine(t string) (cgroupFileLine, bool) {
	m := reCgroupFileValue.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return cgroupFileLine{}, false
	}
	l := cgroupFileLine{dir: m[1], file: "memory." + m[2]}
	switch m[2] {
	case "pressure":
		if !isPSILine(m[3]) || strings.Contains(m[3], " full avg10=") {
			return cgroupFileLine{}, false
		}
		l.psi = m[3]
		return l, true
	case "stat":
		name, v, ok := memStatLine(m[3])
		if !ok {
			return cgroupFileLine{}, false
		}
		l.stat, l.v = name, v
		return l, true
	}
	if strings.HasPrefix(m[2], "events") {
		fs := fields(m[3])
		if len(fs)%2 != 0 {
			return cgroupFileLine{}, false
		}
		ev := &kernel.Counters{}
		for j := 0; j < len(fs); j += 2 {
			n, ok := atoi(fs[j+1])
			if !ok || !isDigits(fs[j+1]) || !memEventsV2[fs[j]] || ev.Has(fs[j]) {
				return cgroupFileLine{}, false
			}
			ev.Set(fs[j], n)
		}
		l.ev = ev
		return l, true
	}
	if m[3] == "max" {
		l.unlimited = true
		return l, true
	}
	s := reCgroupSizeValue.FindStringSubmatch(m[3])
	if s == nil {
		return cgroupFileLine{}, false
	}
	f, err := strconv.ParseFloat(s[1], 64)
	if err != nil {
		return cgroupFileLine{}, false
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
		return cgroupFileLine{}, false // a bare number is bytes: whole
	}
	l.v = int64(f * mult)
	return l, true
}

// tryCgroupFileValues reads a run of such lines: the one-value files into one cgroup's
// Files, memory.events' keys into its Events, memory.stat's pairs into its Stat and
// memory.pressure's lines into its Pressure.
func (d *doc) tryCgroupFileValues(i int) int {
	k := i
	for k < len(d.ls) {
		if _, ok := cgroupFileValueLine(d.ls[k].Text); !ok {
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
	psi := map[int][]string{} // an entry's memory.pressure lines
	psiLines := map[int][2]int{}
	var psiAt []int
	statFrom := map[int]int{} // an entry's first memory.stat line
	var statAt []int
	for j := i; j < k; j++ {
		l, _ := cgroupFileValueLine(d.ls[j].Text)
		no := d.ls[j].No
		switch {
		case l.ev != nil:
			c := entry(&events, l.dir, no)
			if c.Events == nil {
				c.Events = &kernel.Counters{}
			}
			for _, n := range l.ev.Names() {
				x, _ := l.ev.Get(n)
				c.Events.Set(n, x)
				evs.Set(n, x)
			}
			continue
		case l.psi != "":
			entry(&files, l.dir, no)
			if _, ok := psi[files]; !ok {
				psiAt = append(psiAt, files)
				psiLines[files] = [2]int{no, no}
			}
			psi[files] = append(psi[files], l.psi)
			psiLines[files] = [2]int{psiLines[files][0], no}
			continue
		case l.stat != "":
			c := entry(&files, l.dir, no)
			if c.Stat == nil {
				c.Stat = &kernel.Counters{}
				statFrom[files] = no
				statAt = append(statAt, files)
			}
			c.Stat.Set(l.stat, l.v)
			continue
		}
		d.segSeq++
		d.addArtifact(KindCgroupMemFiles, no, no, CgroupMemFile{Path: l.dir, File: l.file, Value: l.v, Max: l.unlimited})
		if l.unlimited {
			continue // nothing to compare
		}
		c := entry(&files, l.dir, no)
		if c.Files == nil {
			c.Files = &kernel.Counters{}
		}
		c.Files.Set(l.file, l.v)
	}
	if events >= 0 {
		d.segSeq++
		d.addArtifact(KindCgroupMemEvents, d.ls[i].No, d.ls[k-1].No, &CgroupMemEvents{Version: 2, Events: evs})
	}
	for _, at := range statAt {
		d.segSeq++
		d.addArtifact(KindCgroupMemStat, statFrom[at], d.ls[k-1].No, &CgroupMemStat{Version: 2, Stat: *d.tl.CgroupMemory[at].Stat})
	}
	for _, at := range psiAt {
		d.setCgroupPressure(at, psi[at], psiLines[at][0], psiLines[at][1])
	}
	return k - i
}

// KindCgroupPSI is a cgroup's memory.pressure (cgroup v2, 4.20+): the same some and full
// lines as /proc/pressure/memory, counting the stalls of the cgroup's own tasks (reclaim
// at its limits, memory.high's throttling, and reclaim on the host), not the host's.
const KindCgroupPSI = "cgroup_memory_pressure"

// setCgroupPressure parses a cgroup's memory.pressure lines into d.tl.CgroupMemory[at].
func (d *doc) setCgroupPressure(at int, lines []string, first, last int) {
	p, err := kernel.ParsePSI("memory", strings.NewReader(psiPasteText(lines)))
	if err != nil {
		d.unparsed(first, last, fmt.Sprintf("a cgroup's memory.pressure: %v", err))
		return
	}
	d.tl.CgroupMemory[at].Pressure = &p
	d.tl.CgroupMemory[at].PressureSource = spanSource(first, last)
	d.segSeq++
	d.addArtifact(KindCgroupPSI, first, last, struct {
		Path     string          `json:"path,omitempty"`
		Pressure kernel.Pressure `json:"pressure"`
	}{d.tl.CgroupMemory[at].Path, p})
}
