package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// Galaxy's job metrics as its job information page shows them (fix44c, from Galaxy's
// lib/galaxy/job_metrics/instrumenters/cgroup.py and core.py, blind to the cases beyond their
// form): one row per metric, "Title<TAB>value" as copied from the page's table, or
// "- Title | value" as a pull request's list quotes it. The cgroup plugin reads the job's v1
// memory cgroup when the job ends:
//
//	memory.failcnt                       "Failed to allocate memory count"
//	memory.limit_in_bytes                "Memory limit on cgroup (MEM)"
//	memory.max_usage_in_bytes            "Max memory usage (MEM)"
//	memory.memsw.limit_in_bytes          "Memory limit on cgroup (MEM+SWP)"
//	memory.memsw.max_usage_in_bytes      "Max memory usage (MEM+SWP)"
//	memory.soft_limit_in_bytes           "Memory softlimit on cgroup"
//	memory.oom_control oom_kill_disable  "OOM Control enabled"
//	memory.oom_control under_oom         "Was OOM Killer active?" (at collection, no kill count)
//
// sizes printed by nice_size ("36.0 GB", "8.0 EB", "0 bytes", powers of 1024); the core
// plugin's "Memory Allocated (MB)" is what Galaxy asked the scheduler for. These are one
// job's cgroup figures on a cluster node, never the host's memory: read (kind
// galaxy_job_metrics), no finding of their own (a failcnt proves the limit was reached, not
// a kill: no oom_kill count is among them). A block needs two of the cgroup plugin's memory
// rows; a sentence naming one title is prose.
const KindGalaxyJobMetrics = "galaxy_job_metrics"

// GalaxyJobMetrics is one job's metrics table.
type GalaxyJobMetrics struct {
	Metrics []GalaxyMetric `json:"metrics"`
}

// GalaxyMetric is one row: its title, the cgroup file it comes from (for the cgroup plugin's
// rows), the value as printed, its number and unit, and its size in bytes when it is one.
type GalaxyMetric struct {
	Title  string  `json:"title"`
	File   string  `json:"file,omitempty"`
	Value  string  `json:"value"`
	Number float64 `json:"number,omitempty"`
	Unit   string  `json:"unit,omitempty"`
	Bytes  int64   `json:"bytes,omitempty"`
	// Unlimited: a v1 limit left at its default (PAGE_COUNTER_MAX pages, printed "8.0 EB"),
	// past int64's bytes: no limit.
	Unlimited bool `json:"unlimited,omitempty"`
}

// galaxyTitles maps the plugins' titles to the cgroup file they read ("" for the core
// plugin's and cgroup's non-memory rows).
var galaxyTitles = map[string]string{
	"Failed to allocate memory count":  "memory.failcnt",
	"Memory limit on cgroup (MEM)":     "memory.limit_in_bytes",
	"Max memory usage (MEM)":           "memory.max_usage_in_bytes",
	"Memory limit on cgroup (MEM+SWP)": "memory.memsw.limit_in_bytes",
	"Max memory usage (MEM+SWP)":       "memory.memsw.max_usage_in_bytes",
	"Memory softlimit on cgroup":       "memory.soft_limit_in_bytes",
	"OOM Control enabled":              "memory.oom_control",
	"Was OOM Killer active?":           "memory.oom_control",
	"CPU Time":                         "",
	"Cores Allocated":                  "",
	"Memory Allocated (MB)":            "",
	"Job Start Time":                   "",
	"Job End Time":                     "",
	"Job Runtime (Wall Clock)":         "",
}

var (
	reGalaxyRow  = lazyre.New(`^\s*(?:[-*]\s+)?\|?\s*([A-Z][A-Za-z ()+?]{5,40}?)\s*(?:\t|\s\|\s|\s{2,})\s*([^\t|]{1,60}?)\s*\|?\s*$`)
	reGalaxySize = lazyre.New(`^(\d{1,15}(?:\.\d{1,9})?)(?:\s*(bytes|KB|MB|GB|TB|PB|EB))?$`)
)

// galaxyRow reads line t as a row of the metrics table.
func galaxyRow(t string) (GalaxyMetric, bool) {
	m := reGalaxyRow.FindStringSubmatch(t)
	if m == nil {
		return GalaxyMetric{}, false
	}
	file, ok := galaxyTitles[m[1]]
	if !ok {
		return GalaxyMetric{}, false
	}
	g := GalaxyMetric{Title: m[1], File: file, Value: m[2]}
	if s := reGalaxySize.FindStringSubmatch(m[2]); s != nil {
		g.Number, _ = strconv.ParseFloat(s[1], 64)
		g.Unit = s[2]
		if g.Unit != "" {
			mul := float64(1)
			for _, u := range []string{"KB", "MB", "GB", "TB", "PB", "EB"} {
				mul *= 1024
				if u == g.Unit {
					if b := g.Number * mul; b >= 1<<62 {
						g.Unlimited = strings.HasPrefix(g.File, "memory.") && strings.Contains(g.File, "limit")
					} else {
						g.Bytes = int64(b)
					}
				}
			}
			if g.Unit == "bytes" {
				g.Bytes = int64(g.Number)
			}
		}
	}
	return g, true
}

// galaxyJobMetrics reads the metrics table whose first row is line i; it returns the lines
// it read.
func (d *doc) galaxyJobMetrics(i int) int {
	t := d.ls[i].Text
	if !strings.Contains(t, "emory") && !strings.Contains(t, "Time") && !strings.Contains(t, "Cores") && !strings.Contains(t, "OOM") {
		return 0
	}
	var s GalaxyJobMetrics
	mem := 0
	last := i - 1
	for k := i; k < len(d.ls) && k-i < 64; k++ {
		r := d.ls[k].Text
		if g, ok := galaxyRow(r); ok {
			s.Metrics = append(s.Metrics, g)
			if strings.HasPrefix(g.File, "memory.") {
				mem++
			}
			last = k
			continue
		}
		// A blank line or the next plugin's name ("core", "cgroup") between two rows.
		if w := strings.TrimSpace(r); (w == "" || w == "core" || w == "cgroup") && k+1 < len(d.ls) {
			if _, ok := galaxyRow(d.ls[k+1].Text); ok {
				continue
			}
			if w == "" && k+2 < len(d.ls) {
				if n := strings.TrimSpace(d.ls[k+1].Text); n == "core" || n == "cgroup" {
					continue
				}
			}
		}
		break
	}
	if mem < 2 {
		return 0
	}
	for k := i; k <= last; k++ {
		d.used[k] = true
	}
	d.addArtifact(KindGalaxyJobMetrics, d.ls[i].No, d.ls[last].No, s)
	return last - i + 1
}
