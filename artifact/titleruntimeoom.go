package artifact

import "strings"

// A tracker's title that quotes the Go runtime's own out-of-memory in the author's spelling
// (fix30b, corpus 2622): "Fatal error runtime: out of memory when Starting Consul agent", the
// runtime's "fatal error: runtime: out of memory" (runtime/mem_linux.go sysMap's throw on
// ENOMEM) with its colon or case changed, which appOOMLine's exact spelling misses. The
// runtime's phrase "runtime: out of memory" is kept whole (its colon): "container runtime out
// of memory" or "out of memory at runtime" are no quote of it. The text is then about that
// program's own allocation failure, and the body's "it crashes with out of memory errors"
// (no kill word) is the same failure, not the host's OOM kill; a kill word ("killed by the
// OOM killer") still states a kill.
func runtimeOOMTitle(t string) bool {
	return len(t) <= 200 && containsFoldASCII(t, "runtime: out of memory") && strings.Contains(strings.ToLower(t), "fatal")
}
