package main

// fix22d: losses of round 17's cases (g82–g85) under a form that are limits of the form, not
// of the reading (kept apart from the table in forms_test.go so that its alignment does not move).

// limitFlattenedHumanStamps: records that carry dmesg -T's human stamps are not split again.
const limitFlattenedHumanStamps = "the whole paste joined onto one line, its kernel records stamped by dmesg -T ('[Wed Jun 17 10:37:10 2020]'): flattenedLog splits a line again only at the uptime stamps ('[ 3117.587337]', with or without a printk level '<6>' before it); a bracketed date inside a line is also how prose quotes a time, and the memory cgroup's stats block under one stamp is name-value rows the one line no longer pairs"

func init() {
	// 1944's `ip -s link`: the interface at column 0, its RX:/TX: header and value rows
	// indented under it; a list marker on every row takes the shape away.
	formsKnownLimits["bullets 1944-chinabin-work-note-zh-ip-s-eth0-rx-dropped-3180812-of-87.9m-overrun-0-errors-0"] = limitColumnShape
	formsKnownLimits["bullets-star 1944-chinabin-work-note-zh-ip-s-eth0-rx-dropped-3180812-of-87.9m-overrun-0-errors-0"] = limitColumnShape
	// 1951's "netstat -s | grep overflowed" output and ss -lnt rows, joined with the prose.
	formsKnownLimits["flattened 1951-dreamsxin-example-zh-notes-syn-recv-233-listen-overflowed-7102-then-172308-to-175641-ss-lnt-129-of-128"] = limitFlattenedBlock
	// 1995's memory cgroup OOM report under dmesg -T stamps.
	formsKnownLimits["flattened 1995-kata-runtime-2775-2020-pod-memcg-usage-1048576kb-limit-1048576kb-failcnt-153-anon-thp-1040187392"] = limitFlattenedHumanStamps
}
