package artifact

import (
	"strconv"

	"headroom/internal/lazyre"
)

// fix61: sar's %commit stated in prose or in a hand-made table: "`%commit` 180~205%",
// "%commit was 143%", "%commit 达到 180%". sysstat prints %commit as kbcommit over
// MemTotal + SwapTotal (sa_common.c/pr_stats.c: kbcommit is Committed_AS), so a figure
// above 100% is the kernel's Committed_AS above everything RAM and swap can back, whatever
// the sizes (model.RateStatedCommitPct). Only sar's own column name is read: "commit ratio"
// or "overcommit" in words names no measurement. A range keeps its upper end; a threshold
// ("alert when %commit exceeds 90%"), a condition or advice states nothing of this host.
var reStatedSarCommit = lazyre.New("(?i)(?:^|[^\\w%])%commit\\b[`*_\\s]*" +
	`(?:(?:=|:|：|is|was|of|at|reached|hit|peaked\s+at|went\s+to|climbed\s+to|rose\s+to|达到|高达|到了|到|为|是)\s*)?` +
	`(?:~|about\s+|around\s+|约)?(\d{1,4}(?:\.\d+)?)\s*%?` +
	`(?:\s*(?:~|-|–|to|至|到)\s*(\d{1,4}(?:\.\d+)?))?\s*%`)

// statedSarCommit reports the highest sar %commit para states as measured on this host,
// with its line and sentence.
func statedSarCommit(para string, lineAt func(int) int) (pct float64, no int, sentence string, ok bool) {
	return highestStatedPct(para, reStatedSarCommit, lineAt, func(m []int) (float64, bool) {
		v := para[m[2]:m[3]]
		if m[4] >= 0 {
			v = para[m[4]:m[5]]
		}
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil && f > 0
	})
}
