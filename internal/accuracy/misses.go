package main

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// A miss is one labelled number ≥ 10 that no parsed artifact carries (-misses prints them),
// with where it stands in the text, so that misses can be grouped by the format that holds
// them rather than by case.
type miss struct {
	Value float64
	Key   string // the truth's path to it, e.g. reports[0].zones[0].present_kb
	Line  int    // first text line holding it as a token, 0 when none does
	Text  string // that line
	Kind  string // kinds of the artifacts whose lines cover it, "-" when none
}

// truthKeys maps each counted number to the first path that names it (same walk and
// exclusions as truthNumbers, so the two agree on what counts).
func truthKeys(t any) map[float64]string {
	keys := map[float64]string{}
	var walkN func(v any, key, path string)
	walkN = func(v any, key, path string) {
		if derivedKey(key) {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walkN(x[k], k, p)
			}
		case []any:
			for i, e := range x {
				walkN(e, key, fmt.Sprintf("%s[%d]", path, i))
			}
		case float64:
			if _, seen := keys[x]; !seen && math.Abs(x) >= 10 {
				keys[x] = path
			}
		}
	}
	walkN(t, "", "")
	return keys
}

// findMisses lists the case's labelled numbers that the run's artifacts do not carry.
func findMisses(c corpusCase, r doctorRun) []miss {
	arts, _ := r.Report["artifacts"].([]any)
	have := map[float64]bool{}
	for _, n := range truthNumbers(c.Truth) {
		if matchNumbers([]float64{n}, arts) == 1 {
			have[n] = true
		}
	}
	text, _ := os.ReadFile(c.TextPath)
	lines := strings.Split(string(text), "\n")
	keys := truthKeys(c.Truth)
	var ms []miss
	for _, n := range truthNumbers(c.Truth) {
		if have[n] {
			continue
		}
		m := miss{Value: n, Key: keys[n], Kind: "-"}
		for i, l := range lines {
			if hasNumberToken(l, n) {
				m.Line, m.Text = i+1, strings.TrimSpace(l)
				break
			}
		}
		if m.Line > 0 {
			var kinds []string
			for _, a := range arts {
				am, _ := a.(map[string]any)
				first, _ := am["first_line"].(float64)
				last, _ := am["last_line"].(float64)
				if int(first) <= m.Line && m.Line <= int(last) {
					k, _ := am["kind"].(string)
					kinds = append(kinds, k)
				}
			}
			if len(kinds) > 0 {
				sort.Strings(kinds)
				m.Kind = strings.Join(kinds, ",")
			}
		}
		ms = append(ms, m)
	}
	return ms
}

// hasNumberToken reports whether the line writes n as a whole token: 12345, 12,345 or
// 12 345 grouped, or n's shortest decimal form (1.5), not as part of a longer number.
func hasNumberToken(line string, n float64) bool {
	forms := []string{strconv.FormatFloat(n, 'f', -1, 64)}
	if n == math.Trunc(n) && math.Abs(n) >= 1000 {
		s := strconv.FormatFloat(math.Abs(n), 'f', 0, 64)
		var g strings.Builder
		for i, d := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				g.WriteByte(',')
			}
			g.WriteRune(d)
		}
		forms = append(forms, g.String())
	}
	for _, f := range forms {
		for from := 0; ; {
			i := strings.Index(line[from:], f)
			if i < 0 {
				break
			}
			i += from
			j := i + len(f)
			// A comma or point ends a number when no digit follows it ("slabs: 854, objs").
			before := i == 0 || !isNumByte(line[i-1]) || (i >= 2 && !isDigit(line[i-2]))
			after := j == len(line) || !isNumByte(line[j]) || j+1 == len(line) || !isDigit(line[j+1])
			if before && after {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func isDigit(b byte) bool   { return b >= '0' && b <= '9' }
func isNumByte(b byte) bool { return isDigit(b) || b == '.' || b == ',' }

func (m miss) row(stem string) string {
	return fmt.Sprintf("MISS\t%s\t%s\t%s\t%d\t%s\t%s", stem, strconv.FormatFloat(m.Value, 'f', -1, 64), m.Key, m.Line, m.Kind, m.Text)
}
