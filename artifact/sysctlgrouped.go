package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A setting's single value written with thousands separators in prose: "The param
// net.netfilter.nf_conntrack_max is 655,360." (corpus 1630, fix18b). reProseValue stopped at
// the comma and read 655. Groups of exactly three digits after the first one to three make the
// number; keys that hold a list or several numbers (tcp_mem's three, ip_local_port_range's
// two, ip_local_reserved_ports' comma list, kernel.printk, kernel.sem) keep reProseValue's
// reading, where "188,250,376" may be three values.
var reProseGrouped = lazyre.New(`^\s*(?:=|:|to|is|was|of|at default value of|default(?: value)? (?:of|is))\s*(\d{1,3}(?:,\d{3})+)(?:$|[^\w.,]|\.(?:\s|$))`)

// proseGroupedValue is the value a grouped number after key states, its commas dropped.
func proseGroupedValue(key, rest string) (string, bool) {
	if len(rest) < 5 || strings.IndexByte(rest[:min(len(rest), 48)], ',') < 0 || multiValueKey(key) {
		return "", false
	}
	m := reProseGrouped.FindStringSubmatch(rest)
	if m == nil {
		return "", false
	}
	return strings.ReplaceAll(m[1], ",", ""), true
}

// multiValueKey: a sysctl whose value is several numbers or a list.
func multiValueKey(key string) bool {
	for _, s := range []string{"_mem", "_rmem", "_wmem", "_range", "_ports", "kernel.printk", "kernel.sem"} {
		if strings.HasSuffix(key, s) {
			return true
		}
	}
	return false
}
