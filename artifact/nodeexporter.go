package artifact

import (
	"math"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Prometheus node_exporter's text exposition pasted into an issue (issue 29): "# HELP" and
// "# TYPE" lines, samples with labels, values in scientific notation ("1.234e+06"). The
// metrics with a kernel counter behind them (kernel.NodeExporterMetric, the one map) become
// one sample of those counters, so the rules read them as they read /proc.
//
//	# HELP node_memory_MemFree_bytes Memory information field MemFree_bytes.
//	# TYPE node_memory_MemFree_bytes gauge
//	node_memory_MemFree_bytes 2.714308608e+09
//	node_network_receive_fifo_total{device="eth0"} 7

var (
	reNodeSample = lazyre.New(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)(?:\s+-?\d+)?\s*$`)
	// "# HELP name ...": the line reader may have taken "# " for a root prompt.
	reNodeComment = lazyre.New(`^(?:#\s+)?(?:HELP|TYPE)\s+[a-zA-Z_:][a-zA-Z0-9_:]*\b`)
	reNodeLabel   = lazyre.New(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)
)

// NodeExporterData is what a pasted exposition held: how many samples, how many of them map
// to kernel counters, and those counters by file ("meminfo MemFree" in kB, "vmstat
// pgscan_kswapd", "netstat TcpExt PruneCalled", "netdev eth0 rx_fifo_errors", "softnet 0
// dropped").
type NodeExporterData struct {
	Samples int              `json:"samples"`
	Mapped  int              `json:"mapped"`
	Values  map[string]int64 `json:"values"`
}

// Fluent Bit prints a metrics chunk (its node_exporter_metrics input's node_ series) to
// stdout with cmetrics' text encoder (lib/cmetrics/src/cmt_encode_text.c, format_metric):
// the sample's time in RFC 3339 with nanoseconds and a 'Z', a space, the name with its
// labels as the exposition writes them, " = ", the value:
//
//	2023-01-26T07:56:18.298807727Z node_memory_MemFree_bytes = 40800112640
//
// The same sample in another printer's form: cmetricsText gives it back as an exposition
// line. A sample stamped at the epoch was never set (cmetrics keeps the time of the last
// set; node_exporter_metrics' collectors set theirs when they first run, so a collector not
// yet run prints 1970-01-01 and 0): its value is absent, not zero.
const cmetricsStampLen = len("2006-01-02T15:04:05.000000000Z")

func cmetricsText(t string) (exposition string, unset, ok bool) {
	if len(t) <= cmetricsStampLen+4 || t[0] < '0' || t[0] > '9' || t[10] != 'T' || t[cmetricsStampLen-1] != 'Z' || t[cmetricsStampLen] != ' ' {
		return "", false, false
	}
	name, value, found := strings.Cut(t[cmetricsStampLen+1:], " = ")
	if !found || strings.IndexByte(name, ' ') >= 0 && !strings.Contains(name, "{") {
		return "", false, false
	}
	return name + " " + value, strings.HasPrefix(t, "1970-01-01T00:00:00.000000000Z"), true
}

// isCMetricsTextLine: the format table's entry for cmetricsText's form with a node_ series.
func isCMetricsTextLine(ft, t string) bool {
	if len(ft) != cmetricsStampLen {
		return false
	}
	e, _, ok := cmetricsText(strings.TrimSpace(t))
	return ok && strings.HasPrefix(e, "node_")
}

func isNodeExpositionLine(t string) bool {
	t = strings.TrimSpace(t)
	if e, _, ok := cmetricsText(t); ok {
		return reNodeSample.MatchString(e)
	}
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "HELP ") || strings.HasPrefix(t, "TYPE ") {
		return reNodeComment.MatchString(t)
	}
	return reNodeSample.MatchString(t)
}

// tryNodeExporter reads a run of exposition lines that holds at least one node_ sample.
func (d *doc) tryNodeExporter(i int) int {
	k := i
	for k < len(d.ls) && isNodeExpositionLine(d.ls[k].Text) {
		k++
	}
	if k == i {
		return 0
	}
	data := NodeExporterData{Values: map[string]int64{}}
	var cs counterSample
	softnet := map[int]*kernel.SoftnetCPU{}
	var cpuOrder []int
	node := false
	for j := i; j < k; j++ {
		line := strings.TrimSpace(d.ls[j].Text)
		e, unset, cm := cmetricsText(line)
		if cm {
			line = e
		}
		m := reNodeSample.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		data.Samples++
		if strings.HasPrefix(m[1], "node_") {
			node = true
		}
		if unset {
			continue // stamped at the epoch: never collected, not a zero
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 9e18 {
			continue
		}
		labels := map[string]string{}
		for _, l := range reNodeLabel.FindAllStringSubmatch(m[2], -1) {
			labels[l[1]] = l[2]
		}
		nm, ok := kernel.NodeExporterMetric(m[1], labels)
		if !ok {
			continue
		}
		n := int64(math.Round(v)) / nm.Scale
		data.Mapped++
		switch nm.File {
		case "meminfo", "vmstat":
			cs.set(nm, n)
			data.Values[nm.File+" "+nm.Name] = n
		case "netstat", "netdev":
			cs.set(nm, n)
			data.Values[nm.File+" "+nm.Group+" "+nm.Name] = n
		case "ethtool":
			// An ENA allowance counter as an exporter's series (kernel.CloudAllowanceMetric):
			// the same counters ethtool -S prints, whoever exported them.
			node = true
			cs.set(nm, n)
			data.Values["ethtool "+nm.Group+" "+nm.Name] = n
		case "softnet":
			cpu, _ := strconv.Atoi(nm.Group)
			c := softnet[cpu]
			if c == nil {
				c = &kernel.SoftnetCPU{CPU: cpu, Columns: 3}
				softnet[cpu] = c
				cpuOrder = append(cpuOrder, cpu)
			}
			switch nm.Name {
			case "processed":
				c.Processed = n
			case "dropped":
				c.Dropped = n
			case "time_squeeze":
				c.TimeSqueeze = n
			}
			data.Values["softnet "+nm.Group+" "+nm.Name] = n
		}
	}
	if !node {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	if data.Mapped > 0 {
		s := cs.sample()
		for _, cpu := range cpuOrder {
			s.Softnet = append(s.Softnet, *softnet[cpu])
		}
		s.Source = spanSource(first, last) + " (node_exporter)"
		d.addSamples(KindNodeExporter, d.label(i), first, last, []model.Sample{s})
	}
	d.addArtifact(KindNodeExporter, first, last, data)
	return k - i
}

// counterSample gathers kernel counters a monitoring tool's metrics name (kernel.NodeMetric:
// node_exporter's, telegraf's) into one sample: meminfo and vmstat fields, netstat groups,
// /proc/net/dev's interfaces in the order first seen.
type counterSample struct {
	s        model.Sample
	mem, vm  kernel.Counters
	netdev   map[string]*kernel.NetDev
	devOrder []string
	nic      map[string]*kernel.NICStats
	nicOrder []string
	mapped   bool // a counter was set (telegraf's records start a new sample per interval)
}

func (c *counterSample) set(nm kernel.NodeMetric, n int64) {
	switch nm.File {
	case "meminfo":
		c.mem.Set(nm.Name, n)
	case "vmstat":
		c.vm.Set(nm.Name, n)
	case "netstat":
		c.s.NetStat.Set(nm.Group, nm.Name, n)
	case "ethtool":
		if c.nic == nil {
			c.nic = map[string]*kernel.NICStats{}
		}
		st := c.nic[nm.Group]
		if st == nil {
			st = &kernel.NICStats{Name: nm.Group, Stats: &kernel.Counters{}}
			c.nic[nm.Group] = st
			c.nicOrder = append(c.nicOrder, nm.Group)
		}
		st.Stats.Set(nm.Name, n)
	case "netdev":
		if c.netdev == nil {
			c.netdev = map[string]*kernel.NetDev{}
		}
		dev := c.netdev[nm.Group]
		if dev == nil {
			dev = &kernel.NetDev{Name: nm.Group}
			c.netdev[nm.Group] = dev
			c.devOrder = append(c.devOrder, nm.Group)
		}
		dev.Counters.Set(nm.Name, n)
	}
}

// sample is the gathered counters as one sample (no Source yet).
func (c *counterSample) sample() model.Sample {
	s := c.s
	if c.mem.Len() > 0 {
		s.MemInfo = &c.mem
	}
	if c.vm.Len() > 0 {
		s.VMStat = &c.vm
	}
	for _, name := range c.devOrder {
		s.NetDev = append(s.NetDev, *c.netdev[name])
	}
	for _, name := range c.nicOrder {
		s.NICStats = append(s.NICStats, *c.nic[name])
	}
	return s
}
