package main

// Round 66: losses under a form that are limits of the form, each with its reason (three new
// kinds). The limit of 6863 under bullets-star was removed: with fix71e's pagetypeinfo read
// from its block table the case keeps its verdict.
const (
	limitMailWrappedStampedZones = "a zone line of a console log that the mail wrapped at 72 columns ('[ 1254.757520][ T3364] Node 1 Normal free:36116kB boost:0kB' then 'min:24292kB low:30364kB ...' with no stamp), between other CPUs' records: the pieces are rejoined by their position after the stamped line; under a syslog or journal prefix, or a stamp the form rewrites, each continuation is a record of its own and the watermarks are no longer the zone's"
	limitFlattenedValueNotes     = "a cgroup file cat'ed with the author's '#' note after each value ('oom_kill_disable 0  #默认为 0 表示打开 oom killer,就是说当内存超限时会触发干掉进程'): each note is read as the value's (stripCounterNote) and states nothing of the host; flattened onto one line the notes run into one sentence with no '#' at a line's start, and their 'when memory runs over the limit, the killer kills' reads as a statement"
	limitEvictionMessageWrapped  = "kubelet's eviction message ('The node was low on resource: memory. Threshold quantity: ..., available: ... Container X was using 1924152Ki, request is 0') is read within one line; wrapped at 72 columns as prose the container's usage and its request land on different lines"
)

func init() {
	for _, p := range []struct{ key, why string }{
		{"bullets 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"cri-prefix 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"backslash-ends 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitLayoutOfQPSource},
		{"inline-code-lines 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitLayoutOfQPSource},
		{"inline-code-indented 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitLayoutOfQPSource},
		{"irc-log 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"compose-logs 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"kubectl-prefix 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"quote-bar 7270-linux-mm-2009-krawczynski-2.6.30.1-backup-e1000e-swapper-klogd-order0-0x20-normal-2268-below-atomic-floor-quoted-printable", limitPrefixOnQPSource},
		{"flattened 7275-github-zh-jiankunking-perf-notes-centos7-3.10.0-862-docker-host-netstat-s-retrans-10055307-of-365986218-2.75pct-ip-s-link-ss-s", limitFlattenedBlock},
		{"flattened 7277-github-zh-telecom-db-incident-rhel6.6-338g-free-659m-sys-cpu-1300pct-slow-path-reclaim-lab-linux6-numa-buddyinfo-sysrq-node1-normal-9.8g", limitFlattenedBlock},
		{"indent-4 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"bullets 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"cri-prefix 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"backslash-ends 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitLayoutOfQPSource},
		{"backslash-ends-tight 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitLayoutOfQPSource},
		{"double-spaced-quoted 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitLayoutOfQPSource},
		{"inline-code-lines 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitLayoutOfQPSource},
		{"inline-code-indented 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitLayoutOfQPSource},
		{"flattened 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitFlattenedBlock},
		{"irc-log 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"compose-logs 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"gutter-bar 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"html-br 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"bullets-star 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"gutter-tab 7284-linux-mm-2017-congwang-4.9.23-twitter-ltp-memcg-stress-page-allocation-stalls-36056ms-node1-normal-44744-below-min-45108-all-unreclaimable-quoted-printable", limitPrefixOnQPSource},
		{"syslog-dots 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"syslog-hostname 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"journal-short-iso 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"journal-cat 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"journal-json-pretty 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"kernel-tag-bare-stamp 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"dmesg-decode 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"dmesg-ctime 7287-netdev-2022-syzkaller-5.16-rc8-hung-task-nl802154-interleaved-zone-lines-node0-dma32-98544-below-boosted-min-123560-node1-dma32-21864-below-min", limitMailWrappedStampedZones},
		{"flattened 7290-netdev-2022-syzbot-riscv-qemu-5.19-rc1-dhcpcd-vmalloc-error-size-4096-bpf-jit-dma32-free-1153504-279-order10-blocks-memory-healthy", limitFlattenedBlock},
		{"wrap-prose-72 7348-aks-standard-b2s-minecraft-evicted-node-low-on-memory-container-using-1924152ki-request-0-memory-pressure-taint", limitEvictionMessageWrapped},
		{"flattened 7354-zh-blog-2018-cgroup-v1-root-memory-stat-cache-1588879360-inactive-file-1574322176-rss-6mb-under-oom-0-healthy", limitFlattenedValueNotes},
	} {
		formsKnownLimits[p.key] = p.why
	}
}
