package artifact

import "strings"

// fix52d: a SLUB failure of which only the node lines are left. mm/slub.c slab_out_of_memory
// prints "SLUB: Unable to allocate memory on node N, gfp=...", "  cache: NAME, object size:
// ...", then "  node N: slabs: N, objs: N, free: N" per node. A paste that starts inside a
// report keeps only the previous report's node lines above the next whole header (corpus
// 4347: "[38535644.718700] node 0: slabs: 1031, objs: 43328, free: 0", "node 1: ..." then
// "SLUB: Unable to allocate memory on node -1, ..."). The node line in that form is printed
// only by slab_out_of_memory, and a whole SLUB header right under the run says which
// report's tail it is: its figures are kept in an artifact of their own. No event is made:
// the cache and GFP mode of that failure are cut, and the failure the rule names is the
// whole one below (slubheaderless.go reads a tail with its cache line).

// slubNodeLine: one of slab_out_of_memory's node lines, after a kernel log prefix.
func slubNodeLine(t string) bool {
	s := slubBody(t)
	return strings.HasPrefix(s, "node ") && reSlabNode.MatchString(s)
}

// slubNodeTail reads the run of node lines at i (kernel log lines, not yet read) when a
// whole SLUB header follows it.
func (d *doc) slubNodeTail(i int) bool {
	if d.used[i] || !d.ls[i].Kernel || !slubNodeLine(d.ls[i].Text) {
		return false
	}
	if i > 0 && !d.used[i-1] && slubPiece(d.ls[i-1].Text) {
		return false // inside a report the collectors read
	}
	last := i
	for last+1 < len(d.ls) && !d.used[last+1] && d.ls[last+1].Kernel && slubNodeLine(d.ls[last+1].Text) {
		last++
	}
	if last+1 >= len(d.ls) || !isSlabHeader(slubBody(d.ls[last+1].Text)) {
		return false
	}
	var x reportExtras
	used := make([]int, 0, last-i+1)
	for k := i; k <= last; k++ {
		x.addSlabNode(slubBody(d.ls[k].Text))
		used = append(used, k)
	}
	if len(x.SlabNodes) == 0 {
		return false
	}
	for _, k := range used {
		d.logLine(k)
	}
	d.markUsed(used)
	d.addArtifact(KindSlabFailure, d.ls[i].No, d.ls[last].No, map[string]any{
		"slab_nodes": x.SlabNodes,
		"notes": []string{"the node lines of a SLUB failure (mm/slub.c slab_out_of_memory) whose header and cache line the paste cut: " +
			"another report's tail, above the next report's header; its cache and GFP mode are not in the text"},
	})
	return true
}
