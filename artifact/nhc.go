package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// KindNHC is a message of LBNL Node Health Check (nhc) about the node's memory: its
// check_hw_* functions (scripts/ww_hw.nhc; check_hw_slab_unreclaimable, nhc pull 72) read
// /proc/meminfo and quote what they read in kB when a check fails:
//
//	"ERROR:  nhc:  Health check failed:  check_hw_slab_unreclaimable:  Slab unreclaimable is too large (13424716 kB > 5242880 kB)."
//	"check_hw_physmem:  Actual RAM size (263848912 kB) less than minimum allowed (264000000 kB)."
//
// The first number is the node's (a meminfo field); the second is the site's threshold,
// kept in the artifact and never read as the node's.
const KindNHC = "nhc_check"

// NHCCheck is one failed nhc memory check.
type NHCCheck struct {
	Check     string `json:"check"`
	Field     string `json:"field"` // the /proc/meminfo field the value is
	ValueKB   int64  `json:"value_kb"`
	LimitKB   int64  `json:"threshold_kb,omitempty"`
	Message   string `json:"message"`
	Lines     []int  `json:"lines"`
	Threshold string `json:"threshold_kind,omitempty"` // "maximum" or "minimum"
}

var nhcMemMessages = []struct {
	re    *lazyre.Regexp
	field string
	kind  string
}{
	{lazyre.New(`Slab unreclaimable is too large \((\d+) kB > (\d+) kB\)`), "SUnreclaim", "maximum"},
	{lazyre.New(`Actual RAM size \((\d+) kB\) (?:less|greater) than (?:minimum|maximum) allowed \((\d+) kB\)`), "MemTotal", ""},
	{lazyre.New(`Actual SWAP size \((\d+) kB\) (?:less|greater) than (?:minimum|maximum) allowed \((\d+) kB\)`), "SwapTotal", ""},
	{lazyre.New(`Not enough swap free \((\d+) kB < (\d+) kB\)`), "SwapFree", "minimum"},
}

var reNHCCheck = lazyre.New(`\b(check_hw_\w+):`)

func isNHCLine(t string) bool { return strings.Contains(t, "check_hw_") }

// nhcMessage reads one line.
func nhcMessage(t string) (NHCCheck, bool) {
	c := reNHCCheck.FindStringSubmatch(t)
	if c == nil {
		return NHCCheck{}, false
	}
	for _, m := range nhcMemMessages {
		if v := m.re.FindStringSubmatch(t); v != nil {
			val, ok1 := atoi(v[1])
			lim, ok2 := atoi(v[2])
			if !ok1 || !ok2 {
				return NHCCheck{}, false
			}
			return NHCCheck{Check: c[1], Field: m.field, ValueKB: val, LimitKB: lim, Message: v[0], Threshold: m.kind}, true
		}
	}
	return NHCCheck{}, false
}

// tryNHC reads the run of nhc memory messages from line i (nhc, its log and
// node-mark-offline repeat one failure on several lines): one reading of each field, from the
// last line that states it.
func (d *doc) tryNHC(i int) int {
	var checks []NHCCheck
	k := i
	for ; k < len(d.ls); k++ {
		c, ok := nhcMessage(d.ls[k].Text)
		if !ok {
			break
		}
		c.Lines = []int{d.ls[k].No}
		merged := false
		for j := range checks {
			if checks[j].Field == c.Field && checks[j].ValueKB == c.ValueKB {
				checks[j].Lines = append(checks[j].Lines, d.ls[k].No)
				merged = true
			}
		}
		if !merged {
			checks = append(checks, c)
		}
	}
	if len(checks) == 0 {
		return 0
	}
	var mi kernel.Counters
	for _, c := range checks {
		mi.Set(c.Field, c.ValueKB)
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	src := fmt.Sprintf("%s (nhc's %s)", spanSource(first, last), checks[0].Check)
	d.segSeq++
	d.addSamples(KindNHC, "", first, last, []model.Sample{{Source: src, MemInfo: &mi}})
	d.addArtifact(KindNHC, first, last, checks)
	return k - i
}
