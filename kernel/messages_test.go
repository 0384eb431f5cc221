package kernel

import "testing"

// A message quoted as the kernel printed it, versus a sentence that names it (corpus 478,
// 216, 444 against 134, 224, 387, 423, 429).
func TestIsQuotedMessage(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Out of socket memory", true},
		{"kernel: TCP: too many of orphaned sockets", true},
		{"27341.246171] TCP: too many orphaned sockets", true},
		{"net_ratelimit: 280 callbacks suppressed", true},
		{"e.g. kernel: [1694413.644132] nf_conntrack: nf_conntrack: table full, dropping packet", true},
		{"Kernel panic - not syncing: Out of memory and no killable processes", true},
		{"在系统日志中有nf_conntrack: table full, dropping packet.", true},
		{"- There are too many orphaned sockets on the system", false},
		{`the kernel will start throwing the "Out of socket memory" error in the logs.`, false},
		{"如果超出这个值，系统就会记录错误信息：Out of socket memory OK", false},
		// Retyped in lower case after the title's words (corpus 524).
		{"# 使用aria2下载时，总出现tcp:out of memory -- consider tuning tcp_mem", true},
		{`"tcp: out of memory -- consider tuning tcp_mem"这个错误信息表示系统已经耗尽了为TCP连接分配的内存。`, false},
		{`"TCP: out of memory -- consider tuning tcp_mem"`, true},
		// A quotation elsewhere on the line is not one around the message (corpus 224).
		{`在系统日志中有nf_conntrack: table full, dropping packet.，需要调下 echo "262144" > /proc/sys/net/netfilter/nf_conntrack_max。`, true},
	} {
		if got := IsQuotedMessage(tc.line); got != tc.want {
			t.Errorf("IsQuotedMessage(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
