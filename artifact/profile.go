package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/model"
)

// Kernel profiles:
//
//	readprofile (util-linux): "ticks symbol load" per line, load = ticks / symbol size, and a
//	"N total L" line:  "  28044 default_idle             584.2500"
//	perf report --stdio: comment header ("# Samples: 10K of event 'cycles'", "# Overhead
//	Command  Shared Object  Symbol") and rows "    12.34%  swapper  [kernel.kallsyms]  [k] intel_idle";
//	with -n a Samples column follows the overhead.
//	opreport -l (oprofile): a "samples  %  [image name  app name]  symbol name" header and
//	rows "303102   42.4732  zap_pte_range" (pp/opreport.cpp: samples, percent, symbol last).

// isReadprofileRow matches "ticks symbol load".
func isReadprofileRow(t string) bool {
	fs := fields(t)
	if len(fs) != 3 || !isDigits(fs[0]) {
		return false
	}
	if _, err := strconv.ParseFloat(fs[2], 64); err != nil || !strings.Contains(fs[2], ".") {
		return false
	}
	return isSymbol(fs[1])
}

func isSymbol(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return !isDigits(s)
}

// readprofileAt parses a table of at least three rows at ls[i].
func readprofileAt(ls []Line, i int) (*model.Profile, int) {
	k := i
	p := &model.Profile{Tool: "readprofile", Rows: []model.ProfileRow{}}
	for ; k < len(ls) && isReadprofileRow(ls[k].Text); k++ {
		fs := fields(ls[k].Text)
		ticks, _ := atoi(fs[0])
		load, _ := strconv.ParseFloat(fs[2], 64)
		if fs[1] == "total" {
			p.Total = ticks
			continue
		}
		p.Rows = append(p.Rows, model.ProfileRow{Symbol: fs[1], Ticks: ticks, Share: load})
	}
	if k-i < 3 {
		return nil, 0
	}
	total := p.Total
	if total == 0 {
		for _, r := range p.Rows {
			total += r.Ticks
		}
	}
	if total > 0 {
		for j := range p.Rows {
			p.Rows[j].SharePc = round2(100 * float64(p.Rows[j].Ticks) / float64(total))
		}
	}
	p.Source = spanSource(ls[i].No, ls[k-1].No)
	return p, k - i
}

func round2(v float64) float64 {
	return float64(int64(v*100+0.5)) / 100
}

// isPerfRow matches "    12.34%  cmd  [kernel.kallsyms]  [k] symbol".
func isPerfRow(t string) bool {
	fs := fields(t)
	if len(fs) < 4 || !strings.HasSuffix(fs[0], "%") {
		return false
	}
	_, ok := atof(fs[0])
	return ok && strings.Contains(t, "[")
}

func perfAt(ls []Line, i int) (*model.Profile, int) {
	k := i
	for k < len(ls) && strings.HasPrefix(strings.TrimSpace(ls[k].Text), "#") {
		k++
	}
	start := k
	p := &model.Profile{Tool: "perf", Rows: []model.ProfileRow{}}
	for ; k < len(ls); k++ {
		t := ls[k].Text
		if isBlank(t) || strings.HasPrefix(strings.TrimSpace(t), "#") {
			if len(p.Rows) > 0 && !strings.HasPrefix(strings.TrimSpace(t), "#") {
				break
			}
			continue
		}
		if !isPerfRow(t) {
			break
		}
		fs := fields(t)
		share, _ := atof(fs[0])
		row := model.ProfileRow{Share: share, SharePc: share}
		rest := fs[1:]
		if len(rest) > 0 && isDigits(rest[0]) { // -n: samples column
			row.Ticks, _ = atoi(rest[0])
			rest = rest[1:]
		}
		// [k] or [.] marks the start of the symbol; the shared object is the field before.
		for j, f := range rest {
			if (f == "[k]" || f == "[.]" || f == "[g]" || f == "[u]") && j+1 < len(rest) {
				row.Symbol = strings.Join(rest[j+1:], " ")
				if j > 0 {
					row.Module = strings.Trim(rest[j-1], "[]")
				}
				break
			}
		}
		if row.Symbol == "" {
			break
		}
		p.Rows = append(p.Rows, row)
	}
	if len(p.Rows) == 0 {
		return nil, 0
	}
	for k > start && isBlank(ls[k-1].Text) {
		k--
	}
	p.Source = spanSource(ls[i].No, ls[k-1].No)
	return p, k - i
}

// ParseReadprofile parses a readprofile table.
func ParseReadprofile(text string) (*model.Profile, error) {
	ls := SplitLines(text)
	for i := range ls {
		if p, n := readprofileAt(ls, i); n > 0 {
			return p, nil
		}
	}
	return nil, fmt.Errorf("artifact: no readprofile table (ticks symbol load) in the text")
}

// ParsePerfReport parses `perf report --stdio` output.
func ParsePerfReport(text string) (*model.Profile, error) {
	ls := SplitLines(text)
	for i := range ls {
		if p, n := perfAt(ls, i); n > 0 {
			return p, nil
		}
	}
	return nil, fmt.Errorf("artifact: no perf report rows in the text")
}

// isOpreportHeader matches opreport's "samples  %  symbol name" header.
func isOpreportHeader(t string) bool {
	fs := fields(t)
	return len(fs) >= 3 && fs[0] == "samples" && fs[1] == "%" && strings.Contains(t, "symbol")
}

// opreportAt parses opreport -l rows under the header at ls[i].
func opreportAt(ls []Line, i int) (*model.Profile, int) {
	p := &model.Profile{Tool: "opreport", Rows: []model.ProfileRow{}}
	k := i + 1
	for ; k < len(ls); k++ {
		fs := fields(ls[k].Text)
		if len(fs) < 3 || !isDigits(fs[0]) {
			break
		}
		pct, ok := atof(fs[1])
		if !ok || !isSymbol(fs[len(fs)-1]) {
			break
		}
		ticks, _ := atoi(fs[0])
		p.Rows = append(p.Rows, model.ProfileRow{Symbol: fs[len(fs)-1], Ticks: ticks, Share: pct, SharePc: pct})
	}
	if len(p.Rows) == 0 {
		return nil, 0
	}
	p.Source = spanSource(ls[i].No, ls[k-1].No)
	return p, k - i
}

// tryProfileComment reads a perf report that starts with its "# Samples", "# Overhead" or
// "# To display" comment.
func (d *doc) tryProfileComment(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if strings.HasPrefix(t, "# Samples") || strings.HasPrefix(t, "# Overhead") || strings.HasPrefix(t, "# To display") {
		return d.tryProfile(i)
	}
	return 0
}

func (d *doc) tryProfile(i int) int {
	t := d.ls[i].Text
	var p *model.Profile
	var n int
	if isOpreportHeader(t) {
		p, n = opreportAt(d.ls, i)
	} else if isReadprofileRow(t) {
		p, n = readprofileAt(d.ls, i)
	} else if s := strings.TrimSpace(t); strings.HasPrefix(s, "# Samples:") || strings.HasPrefix(s, "# Overhead") || strings.HasPrefix(s, "# To display the perf.data") || isPerfRow(t) {
		p, n = perfAt(d.ls, i)
	}
	if n == 0 {
		return 0
	}
	p.Label = d.label(i)
	d.segSeq++
	d.tl.Profiles = append(d.tl.Profiles, *p)
	kind := KindReadprofile
	switch p.Tool {
	case "perf":
		kind = KindPerf
	case "opreport":
		kind = KindOpreport
	}
	d.addArtifact(kind, d.ls[i].No, d.ls[i+n-1].No, p)
	return n
}
