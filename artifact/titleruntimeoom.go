package artifact

import "strings"

// The Go runtime's own out-of-memory quoted in the author's spelling (fix30b, corpus 2622):
// a tracker's title "Fatal error runtime: out of memory when Starting Consul agent", the
// runtime's "fatal error: runtime: out of memory" (runtime/mem_linux.go sysMap's throw on
// ENOMEM) with its colon or case changed, which appOOMLine's exact spelling misses. The
// runtime's phrase "runtime: out of memory" is kept whole (its colon) and "fatal" must stand
// before it: "container runtime out of memory" or "out of memory at runtime" are no quote of
// it. The text is then about that program's own allocation failure, and its "it crashes with
// out of memory errors" (no kill word) is the same failure, not the host's OOM kill; a kill
// word ("killed by the OOM killer") still states a kill. The title is most often where it
// stands, but a wrapped or flattened paste moves it (a code fence, one long line), so every
// prose line is looked at.
func runtimeOOMQuoted(lines []proseLine) bool {
	for _, l := range lines {
		if runtimeOOMTitle(l.text) {
			return true
		}
	}
	return false
}

// runtimeOOMTitle: t quotes the runtime's fatal out-of-memory ("fatal" before "runtime: out
// of memory", any case).
func runtimeOOMTitle(t string) bool {
	if !containsFoldASCII(t, "runtime: out of memory") {
		return false // the gate: a substring search before any lower-case copy
	}
	lt := strings.ToLower(t)
	i := strings.Index(lt, "runtime: out of memory")
	return strings.Contains(lt[:i], "fatal")
}
