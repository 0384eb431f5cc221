package artifact

import (
	"strconv"
	"strings"
)

// KindESNodeStats is Elasticsearch's node statistics (GET _nodes/stats, and Marvel's copy of
// them) pasted as indented JSON, often a fragment cut mid-object: the host's memory and swap
// as the node saw them (os.mem, os.swap), the process's open file descriptors and resident
// size, the JVM heap. Elasticsearch names byte counts "…_in_bytes" and times "…_in_millis"
// (its XContent field names), which no kernel file or other reader here prints as quoted
// JSON keys. The figures are kept as read; no rule reads them, so every rule stays "not
// checked" rather than the paste being refused as evidence-free.
const KindESNodeStats = "es_node_stats"

// ESNodeStats holds the numeric leaves of the fragment by their dotted path inside it
// ("swap.used_in_bytes", "process.open_file_descriptors"; a fragment that starts inside an
// object has paths from where it starts).
type ESNodeStats struct {
	Values map[string]int64 `json:"values"`
}

// esNodeStatsKeys are keys only Elasticsearch's node stats print; one of them must be in the
// block besides a "…_in_bytes" key.
var esNodeStatsKeys = map[string]bool{
	"open_file_descriptors": true, "max_file_descriptors": true, "heap_used_in_bytes": true,
	"heap_used_percent": true, "heap_max_in_bytes": true, "actual_free_in_bytes": true,
	"actual_used_in_bytes": true, "resident_in_bytes": true, "total_virtual_in_bytes": true,
}

// esJSONLine splits a line of indented JSON: `"key": value,` (value "{" opens an object) or a
// closing "}" / "},". ok is false for any other line.
func esJSONLine(t string) (key, val string, closing, ok bool) {
	t = strings.TrimSpace(t)
	if t == "}" || t == "}," {
		return "", "", true, true
	}
	if len(t) < 4 || t[0] != '"' {
		return "", "", false, false
	}
	end := strings.IndexByte(t[1:], '"')
	if end <= 0 {
		return "", "", false, false
	}
	key = t[1 : 1+end]
	rest := strings.TrimSpace(t[2+end:])
	if !strings.HasPrefix(rest, ":") {
		return "", "", false, false
	}
	val = strings.TrimSuffix(strings.TrimSpace(rest[1:]), ",")
	if val == "" {
		return "", "", false, false
	}
	return key, val, false, true
}

func isESNodeStatsLine(_, t string) bool {
	_, _, closing, ok := esJSONLine(t)
	return ok && !closing
}

// tryESNodeStats reads a run of indented JSON lines that is Elasticsearch's node stats.
func (d *doc) tryESNodeStats(i int) int {
	var path []string
	vals := map[string]int64{}
	inBytes, marker := false, false
	k := i
	for ; k < len(d.ls); k++ {
		key, val, closing, ok := esJSONLine(d.ls[k].Text)
		if !ok {
			break
		}
		switch {
		case closing:
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
		case val == "{":
			path = append(path, key)
		default:
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				continue // a string, a float, a list: not a figure kept
			}
			vals[strings.Join(append(path, key), ".")] = n
			if strings.HasSuffix(key, "_in_bytes") {
				inBytes = true
			}
			if esNodeStatsKeys[key] {
				marker = true
			}
		}
	}
	if !inBytes || !marker || len(vals) < 3 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addArtifact(KindESNodeStats, first, last, ESNodeStats{Values: vals})
	return k - i
}
