package artifact

import (
	"strconv"
	"strings"
)

// KindKubeletSummary is the kubelet's Summary API (/stats/summary) pasted as JSON, whole or
// through jq ('jq .node.memory'): the node's memory as the kubelet measures it for eviction
// (pkg/kubelet/apis/stats/v1alpha1 MemoryStats: availableBytes = memory limit of the root
// cgroup − workingSetBytes, the memory.available eviction signal).
const KindKubeletSummary = "kubelet_stats_summary"

// KubeletSummary holds the numbers of the JSON object by their key path ("availableBytes",
// "node.memory.availableBytes" when the whole summary was pasted).
type KubeletSummary struct {
	Values map[string]int64 `json:"values"`
	Time   string           `json:"time,omitempty"`
	// Cut: the text ended inside the object (a paste or an index cut it): the values
	// before the cut are read.
	Cut bool `json:"cut,omitempty"`
}

// kubeletSummaryKeys are the MemoryStats fields: an object that holds one is the kubelet's.
var kubeletSummaryKeys = []string{"availableBytes", "workingSetBytes", "usageBytes", "rssBytes"}

// tryKubeletSummary reads a JSON object from line i ("{" alone) to its closing "}": one
// "key": value per line, as jq and curl | python -m json.tool print it.
func (d *doc) tryKubeletSummary(i int) int {
	if strings.TrimSpace(d.ls[i].Text) != "{" {
		return 0
	}
	ks := KubeletSummary{Values: map[string]int64{}}
	var path []string
	depth := 1
	k := i + 1
	for ; k < len(d.ls) && k-i < 2000 && depth > 0; k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		t = strings.TrimSuffix(t, ",")
		switch {
		case t == "}" || t == "]":
			depth--
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			continue
		case strings.HasSuffix(t, "{") || strings.HasSuffix(t, "["):
			depth++
			key, _, _ := strings.Cut(t, ":")
			path = append(path, strings.Trim(strings.TrimSpace(key), `"`))
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok || !strings.HasPrefix(key, `"`) {
			return 0 // not JSON of one key a line
		}
		key = strings.Trim(strings.TrimSpace(key), `"`)
		val = strings.TrimSpace(val)
		if key == "time" && len(path) == 0 {
			ks.Time = strings.Trim(val, `"`)
		}
		if v, err := strconv.ParseInt(val, 10, 64); err == nil {
			ks.Values[strings.Join(append(append([]string(nil), path...), key), ".")] = v
		}
	}
	if depth != 0 {
		if k < len(d.ls) || len(ks.Values) == 0 {
			return 0
		}
		ks.Cut = true // the text ends inside the object
	}
	found := false
	for p := range ks.Values {
		for _, key := range kubeletSummaryKeys {
			found = found || p == key || strings.HasSuffix(p, "."+key)
		}
	}
	if !found {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindKubeletSummary, d.ls[i].No, d.ls[k-1].No, ks)
	return k - i
}
