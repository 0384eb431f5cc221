// Package uniq drops repeated values from a slice, keeping the first of each in order: what
// a finding's list of keys (diagnose) and a run's cleanup list (lab/netlab) both need. It
// imports nothing of headroom's, so any layer may use it.
package uniq

// Stable returns the values of s without repeats, each at its first place; nil when s is
// empty. s is not changed.
func Stable[T comparable](s []T) []T {
	seen := map[T]bool{}
	var out []T
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
