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
		// Pasted log lines each marked with "# " (a root prompt's mark) quote the message;
		// a comment whose words name it, or a '#' glued to it, does not.
		{"           # vmap allocation for size 268439552 failed: use vmalloc=<size> to increase size.", true},
		{"# beware of vmap allocation for size errors on 32-bit", false},
		{"#vmap allocation for size 4096 failed", false},
		// A quotation elsewhere on the line is not one around the message (corpus 224).
		{`在系统日志中有nf_conntrack: table full, dropping packet.，需要调下 echo "262144" > /proc/sys/net/netfilter/nf_conntrack_max。`, true},
	} {
		if got := IsQuotedMessage(tc.line); got != tc.want {
			t.Errorf("IsQuotedMessage(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// The allocator's WARN for an order above its largest is read by its site (file and entry
// function), not by its line number; other WARNs in mm/page_alloc.c, or the entry function
// named elsewhere, are not it.
func TestIsAllocOrderWarn(t *testing.T) {
	for line, want := range map[string]bool{
		"[ 12.5] WARNING: CPU: 3 PID: 1 at mm/page_alloc.c:4724 __alloc_pages_nodemask+0x1ee/0x320": true,
		"WARNING: CPU: 0 PID: 9 at mm/page_alloc.c:5525 __alloc_pages+0x2f5/0x350":                  true,
		"WARNING: CPU: 1 PID: 77 at mm/page_alloc.c:4670 __alloc_pages_noprof+0x2c1/0x340":          true,
		"WARNING: at mm/page_alloc.c:2123 __alloc_pages_nodemask+0x1c0/0x8e0()":                     true,
		// decode_stacktrace.sh's form (0-day reports): the offset replaced by the source line
		"[ 34.78][ T2413] WARNING: CPU: 11 PID: 2413 at mm/page_alloc.c:4685 __alloc_pages_noprof (mm/page_alloc.c:4685 (discriminator 11)) ": true,
		"WARNING: CPU: 1 PID: 3730 at mm/page_alloc.c:5364 __alloc_pages (mm/page_alloc.c:5364)":                                              true,
		// decoded, another function of the file, or the entry function in another file's site
		"WARNING: CPU: 1 PID: 3 at mm/page_alloc.c:1204 __free_pages_ok (mm/page_alloc.c:1204)": false,
		"WARNING: CPU: 1 PID: 3 at mm/page_alloc.c:4685 __alloc_pages (mm/slub.c:12)":           false,
		// the slow path's WARNs (__GFP_NOFAIL misuse; the order check before 4.20)
		"WARNING: CPU: 2 PID: 5 at mm/page_alloc.c:4180 __alloc_pages_slowpath+0xa1/0xd20": false,
		// another WARN of the file
		"WARNING: CPU: 2 PID: 5 at mm/page_alloc.c:2290 rmqueue+0x61/0x9a0": false,
		// another file's WARN with the allocator in its trace
		"WARNING: CPU: 2 PID: 5 at mm/slub.c:3990 __alloc_pages+0x1/0x9": false,
		// the entry function as a trace frame, no WARNING
		" __alloc_pages_nodemask+0x1ee/0x320":          false,
		"RIP: 0010:__alloc_pages_nodemask+0x1ee/0x320": false,
	} {
		if got := IsAllocOrderWarn(line); got != want {
			t.Errorf("IsAllocOrderWarn(%q) = %v, want %v", line, got, want)
		}
	}
}
