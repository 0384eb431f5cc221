package artifact

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A munin plugin run by hand (`munin-run memory`, `munin-run memory config`) or fetched from
// munin-node on port 4949 ("fetch memory" … "."): one "field.value N" line per field, and in
// config mode the graph's "graph_*" lines and each field's "field.label/draw/info/…" lines.
//
//	free.value 6626140160
//	graph_args --base 1024 -l 0 --upper-limit 8053297152
//	free.info Wasted memory. Memory that is not used for anything at all.
//
// Every field is kept as read. Only the memory plugin's fields have a kernel line behind
// them (kernel.MuninMemoryMetric: meminfo × 1024), and only when the block is that plugin's
// (its free field with two more of its fields, or a config titled "Memory usage"); its
// config's --upper-limit is then MemTotal. The config's words ("Wasted memory") are munin's
// labels, no finding.
var (
	reMuninValue  = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*)\.value\s+(-?[0-9]+(?:\.[0-9]+)?(?:e\+?[0-9]+)?|U)\s*$`)
	reMuninConfig = lazyre.New(`^(?:graph(?:_[a-z_]+)?\s|[A-Za-z_][A-Za-z0-9_]*\.(?:label|draw|info|type|min|max|warning|critical|warn|colour|cdef|graph|negative|line|stack|sum|extinfo)\s)`)
	reMuninUpper  = lazyre.New(`--upper-limit\s+([0-9]+)`)
	reMuninRun    = lazyre.New(`(?:^|[#$>]\s*|\s)(?:munin-run\s+\S+|(?:fetch|config)\s+[a-z_][a-z0-9_]*)(?:\s+config)?\s*$`)
)

// MuninData is what a munin block held: each field's value as printed (bytes for memory),
// the graph's title and upper limit when its config was pasted, and how many values became
// meminfo lines.
type MuninData struct {
	Values     map[string]float64 `json:"values"`
	Title      string             `json:"graph_title,omitempty"`
	UpperLimit int64              `json:"graph_upper_limit,omitempty"`
	Mapped     int                `json:"mapped"`
}

func isMuninValueLine(_, t string) bool {
	return strings.Contains(t, ".value") && reMuninValue.MatchString(strings.TrimSpace(t))
}

// isMuninLine: a value line or a config line (a munin-run or munin-node command between
// them is taken by the block, never starts it).
func isMuninLine(t string) bool {
	t = strings.TrimSpace(t)
	return reMuninValue.MatchString(t) || reMuninConfig.MatchString(t)
}

// muninMemoryFields are the memory plugin's fields that name it together with "free".
var muninMemoryFields = []string{"apps", "buffers", "cached", "slab", "swap_cache", "page_tables", "committed", "vmalloc_used"}

func (m MuninData) isMemoryPlugin() bool {
	if strings.EqualFold(m.Title, "Memory usage") {
		return true
	}
	if _, ok := m.Values["free"]; !ok {
		return false
	}
	n := 0
	for _, f := range muninMemoryFields {
		if _, ok := m.Values[f]; ok {
			n++
		}
	}
	return n >= 2
}

// tryMunin reads value lines, config lines and the munin-run commands and "."
// terminators between them, from a first value line on.
func (d *doc) tryMunin(i int) int {
	data := MuninData{Values: map[string]float64{}}
	k, end := i, i
	for k < len(d.ls) {
		t := strings.TrimSpace(d.ls[k].Text)
		switch {
		case t == "" || t == "." || reMuninRun.MatchString(t):
			k++
			continue
		case !isMuninLine(t):
		default:
			if m := reMuninValue.FindStringSubmatch(t); m != nil {
				if v, err := strconv.ParseFloat(m[2], 64); err == nil {
					data.Values[m[1]] = v
				}
			} else if rest, ok := strings.CutPrefix(t, "graph_title "); ok {
				data.Title = strings.TrimSpace(rest)
			} else if strings.HasPrefix(t, "graph_args") {
				if m := reMuninUpper.FindStringSubmatch(t); m != nil {
					data.UpperLimit, _ = atoi(m[1])
				}
			}
			k++
			end = k
			continue
		}
		break
	}
	if len(data.Values) == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[end-1].No
	if data.isMemoryPlugin() {
		cs := &counterSample{}
		for _, f := range slices.Sorted(maps.Keys(data.Values)) { // one order, run after run
			v := data.Values[f]
			if nm, ok := kernel.MuninMemoryMetric(f); ok && v >= 0 {
				cs.set(nm, int64(v)/nm.Scale)
				data.Mapped++
			}
		}
		if data.UpperLimit > 0 {
			cs.set(kernel.NodeMetric{File: "meminfo", Name: kernel.MuninMemoryTotal, Scale: 1024}, data.UpperLimit/1024)
			data.Mapped++
		}
		s := cs.sample()
		s.Source = spanSource(first, last) + " (munin memory plugin)"
		d.segSeq++
		d.addSamples(KindMunin, d.label(i), first, last, []model.Sample{s})
	}
	d.addArtifact(KindMunin, first, last, data)
	return end - i
}
