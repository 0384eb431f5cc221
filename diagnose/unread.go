package diagnose

import (
	"sort"
	"strings"

	"headroom/model"
)

// notRead pairs the sources tl could not read with the rules that went unchecked for them: a
// rule whose reason names the source (its path, or "kernel log" for /dev/kmsg). The kernel
// log comes first, as the source most rules of the memory family need; a source that left
// no rule unjudged is not named (it stays under "Not available").
func notRead(tl *model.Timeline, checks []Check) []Unread {
	var out []Unread
	seen := map[string]bool{}
	for _, u := range tl.NotAvailable {
		if seen[u.What] {
			continue
		}
		seen[u.What] = true
		isLog := strings.Contains(u.What, "kmsg") || strings.Contains(u.What, "kernel log")
		var rules []string
		for _, c := range checks {
			if c.Status != StatusNotChecked {
				continue
			}
			if strings.Contains(c.Why, u.What) || (isLog && strings.Contains(c.Why, "kernel log")) {
				rules = append(rules, c.ID)
			}
		}
		if len(rules) == 0 {
			continue
		}
		sort.Strings(rules)
		r := Unread{Source: u.What, Why: u.Why, Rules: rules}
		if isLog {
			out = append([]Unread{r}, out...)
		} else {
			out = append(out, r)
		}
	}
	return out
}
