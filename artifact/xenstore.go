package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// `xenstore-ls -f` (full paths) as a Xen host prints its store: one node a line, its value
// quoted, with `-p` its permissions in parentheses.
//
//	/local/domain/0/memory/target = "4194304" (n0)
//	/local/domain/0/memory/static-max = "4294967292" (n0)
//
// Every node is kept as read. A domain's memory/target is the balloon driver's target in kB
// (tools/libs/light: libxl_set_memory_target writes it, the guest's xen-balloon driver
// reads it), what that domain is given now; memory/static-max is its ceiling in kB, and
// libxl writes 4294967292 (LIBXL_MEMKB_DEFAULT … ~0U - 3 kB, 4 TiB) for "no limit" (dom0
// without dom0_mem=max:…), so that value is no memory size. /local/domain/0/memory/
// freemem-slack is the host memory libxl keeps free when it builds guests, no loss. These
// are context about a Xen host's memory split; no rule judges them.
var reXenstoreNode = lazyre.New(`^(/(?:[A-Za-z0-9_.:@-]+/?)*) = "([^"]*)"(?:\s+\([a-z0-9,]+\))?\s*$`)

// xenstoreNoLimitKB is libxl's static-max for a domain with no ceiling.
const xenstoreNoLimitKB = 4294967292

// XenstoreNode is one node: its path, its value as printed, and the number when it is one.
type XenstoreNode struct {
	Path   string   `json:"path"`
	Value  string   `json:"value"`
	Number *float64 `json:"number,omitempty"`
}

// XenstoreData is the nodes read, and per domain the memory figures named.
type XenstoreData struct {
	Nodes   []XenstoreNode       `json:"nodes"`
	Domains map[string]XenMemory `json:"domains,omitempty"`
}

// XenMemory is one domain's memory nodes in kB; StaticMaxUnlimited marks libxl's no-limit value.
type XenMemory struct {
	TargetKB           int64 `json:"target_kb,omitempty"`
	StaticMaxKB        int64 `json:"static_max_kb,omitempty"`
	StaticMaxUnlimited bool  `json:"static_max_unlimited,omitempty"`
	FreememSlackKB     int64 `json:"freemem_slack_kb,omitempty"`
}

func isXenstoreLine(_, t string) bool {
	return strings.Contains(t, `= "`) && reXenstoreNode.MatchString(strings.TrimSpace(t))
}

func (d *doc) tryXenstore(i int) int {
	var data XenstoreData
	k := i
	for k < len(d.ls) {
		m := reXenstoreNode.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil {
			break
		}
		n := XenstoreNode{Path: m[1], Value: m[2]}
		if v, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			f := float64(v)
			n.Number = &f
			data.noteMemory(m[1], v)
		}
		data.Nodes = append(data.Nodes, n)
		k++
	}
	if k-i < 2 { // one quoted assignment is anybody's
		return 0
	}
	d.addArtifact(KindXenstore, d.ls[i].No, d.ls[k-1].No, data)
	return k - i
}

// noteMemory files /local/domain/N/memory/{target,static-max,freemem-slack} under domain N.
func (x *XenstoreData) noteMemory(path string, v int64) {
	rest, ok := strings.CutPrefix(path, "/local/domain/")
	if !ok {
		return
	}
	dom, node, ok := strings.Cut(rest, "/memory/")
	if !ok || strings.Contains(dom, "/") {
		return
	}
	if x.Domains == nil {
		x.Domains = map[string]XenMemory{}
	}
	m := x.Domains[dom]
	switch node {
	case "target":
		m.TargetKB = v
	case "static-max":
		m.StaticMaxKB = v
		m.StaticMaxUnlimited = v == xenstoreNoLimitKB
	case "freemem-slack":
		m.FreememSlackKB = v
	default:
		return
	}
	x.Domains[dom] = m
}
