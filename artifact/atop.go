package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// atop's screen (fix57b): its system lines are a label, then "|"-separated fields of a name
// and a value, as atop's showsys.c prints them:
//
//	ATOP - host   2019/05/20  10:00:00   ------------   10s elapsed
//	MEM | tot 7.7G | free 3.7G | cache 608.3M | buff 19.1M | slab 264.6M |
//	SWP | tot 2.0G | free 1.4G | | vmcom 13.4G | vmlim 5.8G |
//	PAG | scan 167264 | steal 109112 | stall 0 | swin 0 | swout 23834 |
//
// Memory values carry atop's K/M/G/T suffix (binary). MEM's tot, free, cache, buff, slab,
// slrec, shmem and avail are /proc/meminfo's MemTotal, MemFree, Cached, Buffers, Slab,
// SReclaimable, Shmem and MemAvailable; SWP's tot and free are SwapTotal and SwapFree, its
// vmcom and vmlim Committed_AS and CommitLimit (photosyst.c reads them from meminfo). PAG's
// swin and swout are pswpin and pswpout's growth over the screen's interval, in pages: a
// rate only with the interval its ATOP header line states ("10s elapsed").

// AtopScreen is one atop screen's system lines as read.
type AtopScreen struct {
	MemKB      map[string]int64 `json:"meminfo_kb"`          // under /proc/meminfo's names
	SwapIn     int64            `json:"swin_pages"`          // -1 when not shown
	SwapOut    int64            `json:"swout_pages"`         // -1 when not shown
	ElapsedSec int              `json:"elapsed_s,omitempty"` // the ATOP header's interval
	Label      string           `json:"label,omitempty"`
}

var (
	reAtopLabel   = lazyre.New(`^[A-Za-z]{3,4}$`)
	reAtopElapsed = lazyre.New(`(?:(\d+)h)?(?:(\d+)m)?(\d+)s elapsed\s*$`)
	// atopMem: MEM's and SWP's field names and the meminfo names they are.
	atopMem = map[string]map[string]string{
		"MEM": {"tot": "MemTotal", "free": "MemFree", "cache": "Cached", "buff": "Buffers", "slab": "Slab", "slrec": "SReclaimable", "shmem": "Shmem", "avail": "MemAvailable"},
		"SWP": {"tot": "SwapTotal", "free": "SwapFree", "vmcom": "Committed_AS", "vmlim": "CommitLimit"},
	}
)

// atopLine splits an atop system line into its label and fields; ok is false for any other
// line (a label of 3-4 letters, then at least two "name value" fields between bars).
func atopLine(t string) (label string, fs [][2]string, ok bool) {
	parts := strings.Split(strings.TrimSpace(t), "|")
	if len(parts) < 3 {
		return "", nil, false
	}
	label = strings.TrimSpace(parts[0])
	if !reAtopLabel.MatchString(label) {
		return "", nil, false
	}
	for _, p := range parts[1:] {
		f := fields(p)
		switch len(f) {
		case 0:
			continue // an empty column ("| |")
		case 2:
			fs = append(fs, [2]string{f[0], f[1]})
		default:
			return "", nil, false
		}
	}
	return label, fs, len(fs) >= 2
}

// atopKB reads an atop memory value ("7.7G", "608.3M", "0.0M") in kB.
func atopKB(v string) (int64, bool) {
	if strings.Trim(v, "0.KMGT") == "" && strings.Trim(v, "KMGT") != "" {
		return 0, true // zero: ParseSize takes sizes above zero only
	}
	b, err := units.ParseSize(v)
	if err != nil {
		return 0, false
	}
	return b / 1024, true
}

// atopElapsed reads the ATOP header's interval in seconds ("10s elapsed", "1h0m0s elapsed").
func atopElapsed(t string) int {
	if !strings.HasPrefix(strings.TrimSpace(t), "ATOP - ") {
		return 0
	}
	m := reAtopElapsed.FindStringSubmatch(t)
	if m == nil {
		return 0
	}
	n := 0
	for k, mult := range []int{3600, 60, 1} {
		if m[k+1] != "" {
			v, _ := strconv.Atoi(m[k+1])
			n += v * mult
		}
	}
	return n
}

// isAtopMemLine: the registry's detect (formats.go), for MEM, SWP and PAG lines.
func isAtopMemLine(ft, t string) bool {
	if ft != "MEM" && ft != "SWP" && ft != "PAG" && ft != "ATOP" {
		return false
	}
	if ft == "ATOP" {
		return atopElapsed(t) > 0
	}
	_, _, ok := atopLine(t)
	return ok
}

// tryAtop reads one screen's run of system lines (the ATOP header, PRC, CPU, MEM, SWP,
// PAG, DSK ... in any order) into one sample: the memory figures, and the swap rates when
// the header gives the interval.
func (d *doc) tryAtop(i int) int {
	sc := &AtopScreen{MemKB: map[string]int64{}, SwapIn: -1, SwapOut: -1, Label: d.label(i)}
	mem := &kernel.Counters{} // in the screen's order (MemKB is a map)
	k := i
	if e := atopElapsed(d.ls[k].Text); e > 0 {
		sc.ElapsedSec = e
		k++
	}
	seen := false
	for ; k < len(d.ls); k++ {
		label, fs, ok := atopLine(d.ls[k].Text)
		if !ok {
			break
		}
		if names, isMem := atopMem[label]; isMem {
			for _, f := range fs {
				name, ok := names[f[0]]
				if !ok {
					continue
				}
				if kb, ok := atopKB(f[1]); ok {
					sc.MemKB[name], seen = kb, true
					mem.Set(name, kb)
				}
			}
		}
		if label == "PAG" {
			for _, f := range fs {
				v, err := strconv.ParseInt(f[1], 10, 64)
				if err != nil {
					continue
				}
				switch f[0] {
				case "swin":
					sc.SwapIn, seen = v, true
				case "swout":
					sc.SwapOut, seen = v, true
				}
			}
		}
	}
	if !seen {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	s := model.Sample{Source: spanSource(first, last) + " (atop's screen)"}
	if mem.Len() > 0 {
		s.MemInfo = mem
		if v, ok := sc.MemKB["MemTotal"]; ok {
			d.host.memTotal(v, 2) // rounded to atop's one decimal
		}
	}
	if sc.ElapsedSec > 0 {
		// atop counts pages; 4 KiB is the smallest page, so a larger page only makes the
		// rate higher than this.
		s.Rates = model.Rates{}
		if sc.SwapIn >= 0 {
			s.Rates[model.RateSwapInKBPerSec] = float64(sc.SwapIn*4) / float64(sc.ElapsedSec)
		}
		if sc.SwapOut >= 0 {
			s.Rates[model.RateSwapOutKBPerSec] = float64(sc.SwapOut*4) / float64(sc.ElapsedSec)
		}
	}
	d.segSeq++
	d.addSamples(KindAtop, sc.Label, first, last, []model.Sample{s})
	d.addArtifact(KindAtop, first, last, sc)
	return k - i
}
