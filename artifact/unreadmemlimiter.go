package artifact

import "strings"

// fix36a: the OpenTelemetry Collector's memory_limiter processor configured in its YAML
// (processor/memorylimiterprocessor: limit_mib, spike_limit_mib, limit_percentage,
// spike_limit_percentage, check_interval; the old ballast_size_mib): the collector's own
// soft and hard limits on its Go heap, which make it refuse data and force a GC. Not the
// host's memory, not a cgroup's limit: named unread, nothing diagnosed (corpus 3099: a
// reproduction recipe whose only figures are these; before, exit 3). Counter-cases: the keys
// under another block ("limits:" of a pod spec), a key in a sentence, the collector's own log
// line of the settings (a JSON field, left as it was).

const memLimiterWhy = "the OpenTelemetry Collector's memory_limiter processor settings (limit_mib, spike_limit_mib, limit_percentage: the collector's own limit on its Go heap, past which it refuses data and forces a GC; not the host's memory or a container's limit); headroom has no reader for this configuration"

// memLimiterKey: t (trimmed) is one of the processor's keys with a number.
func memLimiterKey(t string) bool {
	k, v, ok := strings.Cut(t, ":")
	if !ok {
		return false
	}
	switch k {
	case "limit_mib", "spike_limit_mib", "limit_percentage", "spike_limit_percentage", "ballast_size_mib":
	default:
		return false
	}
	v = strings.TrimSpace(v)
	return v != "" && len(leadingDigits(v)) == len(v)
}

// memLimiterLine: line i is such a key inside a "memory_limiter:" block (the block's key
// less indented, at most eight lines above, every line between it more indented than it).
func (d *doc) memLimiterLine(i int) bool {
	raw := d.ls[i].Text
	t := strings.TrimLeft(raw, " ")
	if len(t) < 10 || !strings.Contains(t, "_mib:") && !strings.Contains(t, "_percentage:") || !memLimiterKey(strings.TrimRight(t, " ")) {
		return false
	}
	ind := len(raw) - len(t)
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		u := d.ls[k].Text
		ut := strings.TrimLeft(u, " ")
		if strings.TrimSpace(ut) == "" {
			continue
		}
		uind := len(u) - len(ut)
		if uind >= ind {
			continue
		}
		return strings.TrimRight(ut, " ") == "memory_limiter:" || strings.HasPrefix(ut, "memory_limiter/") && strings.HasSuffix(strings.TrimRight(ut, " "), ":")
	}
	return false
}
