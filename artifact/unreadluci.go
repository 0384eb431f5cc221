package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix52c (corpus 4364, 4366): an OpenWrt router's memory as its web interface shows it, and
// a reporter's per-process sizes written with thousands separators.
//
//   - LuCI's Status → Overview "Memory" rows (luci-mod-status, include/20_memory.js: the
//     labels "Total Available", "Used", "Buffered", "Cached", "Free", each a progress bar
//     "%1024.2mB / %1024.2mB (%d%%)" of the figure against the RAM, from ubus system info's
//     memory), copied or retyped ("Total Available:   ~174 MiB / 406.23 MiB"). This host's
//     available or used memory against its RAM: no free pages against a watermark, no
//     reclaim or swap counter, so no rule decides pressure from it.
//   - measuredSizeLine takes "hostapd: 45,628 kB" (a size with its thousands separated by
//     commas, as ps and top never print but reporters write) as it takes "hostapd: 45628 kB".

var reLuCIMemRow = lazyre.New(`(?i)^(?:total available|available|used|buffered|cached|free)\s*:?\s+~?\d+(?:\.\d+)?\s*[kmg]i?b\s*/\s*\d+(?:\.\d+)?\s*[kmg]i?b(?:\s*\(\d+(?:\.\d+)?\s*%\))?$`)

const whyLuCIMemRow = "an OpenWrt router's memory row as LuCI's status overview shows it (luci-mod-status 20_memory.js: \"Total Available\", \"Used\", \"Buffered\", \"Cached\", each \"FIGURE / RAM\"): this host's available or used memory against its RAM, from ubus system info; no free pages against a watermark and no reclaim or swap counter, so no rule decides memory pressure from it"

// luciMemRow: t is one of LuCI's memory rows, the whole line.
func luciMemRow(t string) bool {
	t = strings.TrimSpace(t)
	return len(t) <= 80 && strings.IndexByte(t, '/') > 0 && reLuCIMemRow.MatchString(t)
}

// thousandsComma: s[i] is a comma between digits with exactly three digits after it
// ("45,628"), a thousands separator inside a number.
func thousandsComma(s string, i int) bool {
	if s[i] != ',' || i == 0 || !isDigit(s[i-1]) || i+4 > len(s) || !isDigits(s[i+1:i+4]) {
		return false
	}
	return i+4 == len(s) || !isDigit(s[i+4])
}

func init() {
	proseLineForms = append(proseLineForms, figureForm{luciMemRow, whyLuCIMemRow})
}
