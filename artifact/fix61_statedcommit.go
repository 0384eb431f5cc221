package artifact

import (
	"strconv"
	"strings"

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

// statedSarCommitTable reads sar's %commit as a column of a table the author made of sar's
// figures (a Markdown table "| `--pipeherd` | `kbcommit` | `%commit` |" with its rows, or
// one aligned with blanks): the highest value of the column, with its row. A header needs
// the column's own name as a cell; the rows below it, one cell per header cell, until the
// table ends.
func statedSarCommitTable(ps []proseLine) (pct float64, no int, sentence string, ok bool) {
	for i, p := range ps {
		if !strings.Contains(strings.ToLower(p.text), "%commit") {
			continue
		}
		head := tableCells(p.text)
		col := -1
		for c, h := range head {
			if strings.EqualFold(strings.Trim(h, "`*_ "), "%commit") {
				col = c
			}
		}
		if col < 0 || len(head) < 2 {
			continue
		}
		for _, r := range ps[i+1:] {
			cells := tableCells(r.text)
			if tableRule(cells) {
				continue
			}
			if len(cells) != len(head) {
				break
			}
			f, err := strconv.ParseFloat(strings.TrimSuffix(strings.Trim(cells[col], "`*_ "), "%"), 64)
			if err != nil || f <= 0 {
				break
			}
			if !ok || f > pct {
				pct, no, sentence, ok = f, r.no, strings.TrimSpace(p.text)+" / "+strings.TrimSpace(r.text), true
			}
		}
	}
	return pct, no, sentence, ok
}

// tableCells splits a table's line into its cells: at '|' when the line has one (a
// Markdown or a rendered table's borders), else at runs of two blanks or a tab.
func tableCells(s string) []string {
	s = strings.Trim(s, "` \t") // a line the post wrapped in a code span
	if strings.Contains(s, "|") {
		cs := strings.Split(strings.Trim(s, "|"), "|")
		for k := range cs {
			cs[k] = strings.TrimSpace(cs[k])
		}
		return cs
	}
	return spacedCells(s)
}

// tableRule: a Markdown table's delimiter row ("| --- | :---: |"), every cell dashes and colons.
// Empty cells (a quoting bar before the table's border) are no cells of the rule.
func tableRule(cells []string) bool {
	dashes := 0
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
		if strings.Contains(c, "-") {
			dashes++
		}
	}
	return dashes > 0
}
