package artifact

import (
	"strings"
)

// slabtop (procps): a summary ("Active / Total Size (% used) : 2888893.34K / 2904551.59K
// (99.5%)") and a table of caches ("OBJS ACTIVE USE OBJ SIZE SLABS OBJ/SLAB CACHE SIZE NAME").
// It is read and kept as an artifact; slabtop does not say which caches are reclaimable, so
// no SUnreclaim figure is derived from it (the rules then say "not checked" rather than
// guess).

// Slabtop is parsed slabtop output.
type Slabtop struct {
	Summary map[string]string `json:"summary,omitempty"` // "Active / Total Size (% used)" → "2888893.34K / 2904551.59K (99.5%)"
	Caches  [][]string        `json:"caches,omitempty"`  // the table's rows as printed
}

func isSlabtopSummary(t string) bool {
	s := strings.TrimSpace(t)
	return (strings.HasPrefix(s, "Active / Total ") || strings.HasPrefix(s, "Minimum / Average / Maximum Object")) && strings.Contains(s, ":")
}

func isSlabtopHeader(t string) bool {
	fs := fields(t)
	return len(fs) >= 8 && fs[0] == "OBJS" && fs[1] == "ACTIVE" && fs[len(fs)-1] == "NAME"
}

func (d *doc) trySlabtop(i int) int {
	if !isSlabtopSummary(d.ls[i].Text) && !isSlabtopHeader(d.ls[i].Text) {
		return 0
	}
	st := &Slabtop{Summary: map[string]string{}}
	k := i
	for k < len(d.ls) && isSlabtopSummary(d.ls[k].Text) {
		key, val, _ := strings.Cut(strings.TrimSpace(d.ls[k].Text), ":")
		st.Summary[strings.TrimSpace(key)] = strings.TrimSpace(val)
		k++
	}
	for k < len(d.ls) && isBlank(d.ls[k].Text) && k+1 < len(d.ls) && isSlabtopHeader(d.ls[k+1].Text) {
		k++
	}
	if k < len(d.ls) && isSlabtopHeader(d.ls[k].Text) {
		k++
		for k < len(d.ls) {
			fs := fields(d.ls[k].Text)
			if len(fs) < 8 || !isDigits(fs[0]) {
				break
			}
			st.Caches = append(st.Caches, fs)
			k++
		}
	}
	d.segSeq++
	d.addArtifact(KindSlabtop, d.ls[i].No, d.ls[k-1].No, st)
	return k - i
}
