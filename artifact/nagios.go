package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A Nagios (Icinga, Naemon, Shinken) plugin's output as pasted from a shell: one status line,
// the service's name and state, a text, and after "|" the performance data, each
// 'label'=value[UOM];[warn];[crit];[min];[max] (the Nagios plugin API, "Performance data"):
//
//	CONNTRACK OK: 57% state used (151335/262144)|count=151335;209715;235929;0;262144
//	SWAP CRITICAL - 100% free (0 MB out of 0 MB) |swap=0MB;0;0;0;0
//
// The state word is the plugin's verdict at the thresholds it was given, not a reading: only
// the numbers are read. Two plugins measure a kernel quantity headroom judges, and their
// perfdata become the host's readings: a conntrack check's count and maximum
// (nf_conntrack_count, nf_conntrack_max) and check_swap's free and total swap (perfdata
// value and max, in the UOM given). Every other plugin's perfdata is kept as what was read.
var (
	reNagiosStatus = lazyre.New(`^(?:([A-Z][A-Z0-9_]*(?:[ _][A-Z0-9_]+)?)\s+)?(OK|WARNING|CRITICAL|UNKNOWN)\b\s*[:-]?\s*([^|]*?)\s*\|\s*(\S+=\S*(?:\s+\S+=\S*)*)\s*$`)
	reNagiosPerf   = lazyre.New(`^'?([^'=]+)'?=(-?\d+(?:\.\d+)?)([a-zA-Z%]*)((?:;[^;\s]*){0,4})$`)
	rePluginName   = lazyre.New(`\bcheck_([a-z0-9_]+)`)
	// A number of the status text, not inside a word ("eth0", "IPv4").
	reNagiosTextNumber = lazyre.New(`(?:^|[^\w.])(\d+(?:\.\d+)?)`)
)

// NagiosPerf is one performance datum; absent thresholds and bounds are nil.
type NagiosPerf struct {
	Label string   `json:"label"`
	Value float64  `json:"value"`
	UOM   string   `json:"uom,omitempty"`
	Warn  *float64 `json:"warn,omitempty"`
	Crit  *float64 `json:"crit,omitempty"`
	Min   *float64 `json:"min,omitempty"`
	Max   *float64 `json:"max,omitempty"`
}

// NagiosData is one status line: the plugin (from the command line above it when given),
// the service word, the state the plugin chose, its text, and the perfdata.
type NagiosData struct {
	Plugin  string `json:"plugin,omitempty"`
	Service string `json:"service,omitempty"`
	State   string `json:"state"`
	Text    string `json:"text"`
	// TextNumbers are the numbers of the status text as the plugin printed them ("100% free
	// (0 MB out of 0 MB)": 100, 0, 0): its own arithmetic, which may differ from the perfdata
	// (check_swap divided by a total of zero).
	TextNumbers []float64    `json:"text_numbers,omitempty"`
	Perf        []NagiosPerf `json:"perf"`
	// Read names the kernel quantities the perfdata gave ("nf_conntrack_count",
	// "SwapTotal"); empty when the plugin measures nothing headroom judges.
	Read []string `json:"read,omitempty"`
}

// isNagiosLine: an upper-case service or state word first and performance data after "|".
func isNagiosLine(_, t string) bool {
	return strings.IndexByte(t, '|') > 0 && strings.IndexByte(t, '=') > 0 && reNagiosStatus.MatchString(strings.TrimSpace(t))
}

func parseNagiosLine(t string) (NagiosData, bool) {
	m := reNagiosStatus.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return NagiosData{}, false
	}
	nd := NagiosData{Service: m[1], State: m[2], Text: m[3]}
	for _, n := range reNagiosTextNumber.FindAllStringSubmatch(m[3], 16) {
		if x, err := strconv.ParseFloat(n[1], 64); err == nil {
			nd.TextNumbers = append(nd.TextNumbers, x)
		}
	}
	for _, f := range strings.Fields(m[4]) {
		p := reNagiosPerf.FindStringSubmatch(f)
		if p == nil {
			return NagiosData{}, false
		}
		v, err := strconv.ParseFloat(p[2], 64)
		if err != nil {
			return NagiosData{}, false
		}
		perf := NagiosPerf{Label: p[1], Value: v, UOM: p[3]}
		for k, s := range strings.Split(strings.TrimPrefix(p[4], ";"), ";") {
			x, err := strconv.ParseFloat(s, 64)
			if s == "" || err != nil || k > 3 {
				continue
			}
			switch k {
			case 0:
				perf.Warn = &x
			case 1:
				perf.Crit = &x
			case 2:
				perf.Min = &x
			case 3:
				perf.Max = &x
			}
		}
		nd.Perf = append(nd.Perf, perf)
	}
	return nd, len(nd.Perf) > 0
}

// nagiosKiB is a perfdata value in the UOM the plugin gave, in KiB; ok is false for a UOM
// that is no size.
func nagiosKiB(v float64, uom string) (int64, bool) {
	mul := map[string]float64{"B": 1.0 / 1024, "KB": 1, "kB": 1, "MB": 1024, "GB": 1024 * 1024, "TB": 1024 * 1024 * 1024}[uom]
	if mul == 0 {
		return 0, false
	}
	return int64(v*mul + 0.5), true
}

// tryNagios reads consecutive plugin status lines.
func (d *doc) tryNagios(i int) int {
	k := i
	for k < len(d.ls) {
		t := d.ls[k].Text
		if !isNagiosLine("", t) {
			break
		}
		nd, ok := parseNagiosLine(t)
		if !ok {
			break
		}
		// The plugin named on the command line right above ("# /usr/lib/nagios/plugins/
		// check_conntrack -w 80 -c 90"), when there is one.
		if k > 0 {
			if pm := rePluginName.FindStringSubmatch(d.ls[k-1].Text); pm != nil {
				nd.Plugin = "check_" + pm[1]
			}
		}
		d.nagiosReadings(k, &nd)
		no := d.ls[k].No
		d.addArtifact(KindNagios, no, no, nd)
		k++
	}
	return k - i
}

// nagiosReadings turns the perfdata of the two plugins whose numbers are kernel quantities
// into the host's readings.
func (d *doc) nagiosReadings(k int, nd *NagiosData) {
	of := strings.ToLower(nd.Plugin + " " + nd.Service + " " + nd.Text)
	for _, p := range nd.Perf {
		label := strings.ToLower(p.Label)
		switch {
		case strings.Contains(of, "conntrack") && p.Max != nil && *p.Max > 0 && p.UOM == "" && p.Value >= 0:
			// count=N;warn;crit;0;max: the table's entries and nf_conntrack_max.
			d.hostValue("net.netfilter.nf_conntrack_count", strconv.FormatInt(int64(p.Value), 10), k)
			d.hostValue("net.netfilter.nf_conntrack_max", strconv.FormatInt(int64(*p.Max), 10), k)
			nd.Read = append(nd.Read, "nf_conntrack_count", "nf_conntrack_max")
		case label == "swap" && p.Max != nil && (strings.Contains(of, "swap")):
			// check_swap: value is the free swap, max the total (check_swap.c's perfdata).
			free, ok1 := nagiosKiB(p.Value, p.UOM)
			total, ok2 := nagiosKiB(*p.Max, p.UOM)
			if !ok1 || !ok2 || free > total {
				continue
			}
			var mem kernel.Counters
			mem.Set("SwapTotal", total)
			mem.Set("SwapFree", free)
			no := d.ls[k].No
			d.segSeq++
			d.addSamples(KindNagios, d.label(k), no, no, []model.Sample{{Source: spanSource(no, no) + " (check_swap)", MemInfo: &mem}})
			nd.Read = append(nd.Read, "SwapTotal", "SwapFree")
		}
	}
}
