package artifact

import (
	"strconv"
	"strings"
)

// Torque's pbsnodes (fix34d): each node's block holds one long "status = " line, the MoM's
// report of its node (src/resmom/mom_server.c gen_* functions), comma-separated key=value:
// "rectime=...,jobs=,state=free,size=11175056kb:11218120kb,netload=...,loadave=0.01,
// ncpus=2,physmem=4047312kb,availmem=12224780kb,totmem=12435916kb,idletime=...,uname=...".
// physmem is the node's RAM (MemTotal), totmem RAM plus swap, availmem free RAM plus free
// swap (Torque's own sums of /proc/meminfo): so availmem near totmem is an idle node, and
// availmem above physmem counts swap. Each node's figures are kept as printed in an artifact
// named with its node (the unindented line above the block); they are the cluster's nodes,
// as the server lists them, never this text's host, so no rule reads them as the host's.
// Only a "status =" line holding physmem= and availmem= is read; a sentence naming the keys,
// PBS Pro's "resources_available.mem = " and another program's key=value line are not.

// PBSNodeStatus is one node's memory figures from pbsnodes' status line, as printed (kB).
type PBSNodeStatus struct {
	Node       string  `json:"node,omitempty"`
	State      string  `json:"state,omitempty"`
	Jobs       string  `json:"jobs"`
	NCPUs      int64   `json:"ncpus,omitempty"`
	LoadAvg    float64 `json:"loadave,omitempty"`
	PhysMemKB  int64   `json:"physmem_kb"`
	AvailMemKB int64   `json:"availmem_kb"`
	TotMemKB   int64   `json:"totmem_kb,omitempty"`
	// SwapKB is totmem - physmem (the swap Torque adds in), when both are printed.
	SwapKB  int64  `json:"swap_kb,omitempty"`
	NotRead string `json:"not_read"`
}

// pbsnodesStatus reads line i as a pbsnodes status line.
func (d *doc) pbsnodesStatus(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	v, ok := strings.CutPrefix(t, "status")
	if !ok {
		return false
	}
	v = strings.TrimLeft(v, " \t")
	if v, ok = strings.CutPrefix(v, "="); !ok {
		return false
	}
	kv := map[string]string{}
	parts := strings.Split(strings.TrimSpace(v), ",")
	for n, p := range parts {
		k, val, ok := strings.Cut(p, "=")
		if !ok || n == len(parts)-1 && !strings.HasSuffix(val, "kb") && (k == "physmem" || k == "availmem" || k == "totmem") {
			continue // the paste cut the line inside this pair
		}
		kv[k] = val
	}
	kb := func(k string) (int64, bool) {
		s, ok := strings.CutSuffix(kv[k], "kb")
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil && n >= 0
	}
	phys, ok1 := kb("physmem")
	avail, ok2 := kb("availmem")
	if !ok1 || !ok2 || phys == 0 {
		return false
	}
	st := PBSNodeStatus{State: kv["state"], Jobs: kv["jobs"], PhysMemKB: phys, AvailMemKB: avail,
		NotRead: "loadave, netload, size (the MoM's disk), idletime and sessions; the figures are a cluster node's as pbsnodes lists it, not this host's, and no rule reads them"}
	if tot, ok := kb("totmem"); ok {
		st.TotMemKB = tot
		if tot >= phys {
			st.SwapKB = tot - phys
		}
	}
	st.NCPUs, _ = strconv.ParseInt(kv["ncpus"], 10, 64)
	st.LoadAvg, _ = strconv.ParseFloat(kv["loadave"], 64)
	for k := i - 1; k >= 0 && k >= i-40; k-- {
		if lt := d.ls[k].Text; lt != "" && lt[0] != ' ' && lt[0] != '\t' {
			if f := strings.Fields(lt); len(f) == 1 {
				st.Node = f[0] // the node's name heads its block, unindented
			}
			break
		}
	}
	d.addArtifact(KindPBSNodes, d.ls[i].No, d.ls[i].No, st)
	d.used[i] = true
	return true
}
