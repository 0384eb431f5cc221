package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h29b (pre-round 29, DDoS mitigation, XDP and eBPF tools, blind to the batches): libbpf's,
// libxdp's, the XDP loaders', bpftool's and FastNetMon's own lines; XDP_DROP counters in
// ethtool -S and ip link's XDP attachment; BPF map allocation failures in the kernel log.
// Each snippet built from the programs' format strings, in the forms users paste them.

// memory rules that a named tool's line must leave unchecked (no kernel log is made of it).
var h29bKernelRules = []string{"alloc-fail-reserve", "alloc-fail-fragmented", "oom-kill", "slab-alloc-failure"}

func TestH29bBPFToolsNamed(t *testing.T) {
	for _, c := range []struct{ name, text, why string }{
		{"libbpf map ENOMEM", "libbpf: map 'blacklist_v4': failed to create: Cannot allocate memory(-12)\nlibbpf: failed to load object 'xdp_ddos_kern.o'\n", "RLIMIT_MEMLOCK"},
		{"libbpf old map form, syslog", "Nov 30 10:01:02 fw1 xdp-filter[881]: libbpf: failed to create map (name: 'filter_ipv4'): Cannot allocate memory(-12)\n", "memory cgroup"},
		{"ulimit advice, compose", "fastnetmon-1  | libbpf: permission error while running as root; try raising 'ulimit -l'? current value: 64.0 KiB\n", "RLIMIT_MEMLOCK"},
		{"probe loading, fenced", "```\nlibbpf: Error in bpf_object__probe_loading():Operation not permitted(1). Couldn't load trivial BPF program. Make sure your kernel supports BPF (CONFIG_BPF_SYSCALL=y) and/or that RLIMIT_MEMLOCK is set to big enough value.\n```\n", "RLIMIT_MEMLOCK"},
		{"libxdp quoted", "> libxdp: Failed to load dispatcher: Cannot allocate memory\n", "RLIMIT_MEMLOCK"},
		{"libbpf other line", "libbpf: prog 'xdp_prog': BPF program load failed: Invalid argument\n", "loader's report"},
		{"xdp-loader", "Nov 30 10:01:03 fw1 xdp-loader[991]: Couldn't attach XDP program on iface 'eth0': Operation not supported(-95)\n", "XDP loader"},
		{"xdp-tutorial", "ERR: loading BPF-OBJ file(xdp_prog_kern.o) (-12): Cannot allocate memory\n", "XDP loader"},
		{"bpftool map show", "12: hash  name blacklist_v4  flags 0x0\n\tkey 4B  value 8B  max_entries 10000000  memlock 1048576000B\n\tbtf_id 7\n", "bpftool"},
		{"bpftool prog show", "42: xdp  name xdp_ddos  tag 3b185187f1855c4c  gpl\n\tloaded_at 2026-11-30T10:01:02+0000  uid 0\n\txlated 1234B  jited 789B  memlock 4096B  map_ids 12,13\n\tpids xdp-loader(991)\n", "bpftool"},
		{"fastnetmon attack", "2026-11-30 10:01:02,123 [INFO] Attack with direction: incoming IP: 10.1.2.3 Power: 1234567\n", "FastNetMon"},
		{"xdp-bench", "Summary                 14,123,456 rx/s                  0 err,drop/s\n", "xdp-bench"},
		{"xdpsock", " sock0@eth0:0 rxdrop xdp-drv poll()\nfill ring empty    98,765         123,456\n", "fill ring"},
		{"fastnetmon_client", "Incoming traffic         3456789 pps   2345 mbps    12 flows\nTotal amount of IPv4 packets: 123456789\n", "fastnetmon_client"},
		{"cilium syslog", "Nov 30 10:00:00 node1 cilium-agent[2211]: level=warning msg=\"Unable to create map\" error=\"cannot allocate memory\" file-path=/sys/fs/bpf/tc/globals/cilium_ct4_global subsys=bpf\n", "memory cgroup"},
		{"cilium compose", "cilium-agent-1  | level=error msg=\"Failed to load BPF program\" error=\"failed to create map cilium_lb4_services_v2: cannot allocate memory\" subsys=datapath-loader\n", "Cilium"},
		{"cilium map pressure", "cilium_bpf_map_pressure{map_name=\"cilium_ct4_global\"} 0.97\n", "occupancy"},
		{"fastnetmon syslog", "Nov 30 10:01:02 fw1 fastnetmon[1234]: Attack with direction: incoming IP: 10.1.2.3 Power: 1234567\n", "FastNetMon"},
	} {
		tl := pasteTimeline(t, c.text)
		if artifact.NothingRead(tl) && len(tl.Unparsed) == 0 {
			t.Errorf("%s: nothing read", c.name)
			continue
		}
		if tl.Log.Len() != 0 || len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%s: log %d, unparsed %+v", c.name, tl.Log.Len(), tl.Unparsed)
		}
		for _, id := range h29bKernelRules {
			if res := run(t, id, tl); len(res.Findings) > 0 || res.NotChecked == "" {
				t.Errorf("%s: %s judged a tool's line: %+v", c.name, id, res)
			}
		}
	}
}

// The words of those lines in a sentence, or another program's "attack with direction",
// are not named as the tools' lines.
func TestH29bBPFToolsCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"sentence":        "When I load it I get the error libbpf: map 'x': failed to create and nothing else happens.\n",
		"game log":        "Executing attack with direction: (1.0, 0.0)\n",
		"no power figure": "Attack with direction: incoming was what the docs call it\n",
		"bpftool prose":   "The map shows memlock 4096B in bpftool, is that a lot?\n",
		"cilium no map":   "level=error msg=\"fork failed\" error=\"cannot allocate memory\" subsys=daemon\n",
		"traffic prose":   "Incoming traffic was about 3 Gbit and the box fell over.\n",
		"summary prose":   "Summary: the rx/s rate dropped when the err/s climbed.\n",
	} {
		tl := pasteTimeline(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "libbpf") || strings.Contains(u.Why, "FastNetMon") || strings.Contains(u.Why, "bpftool") || strings.Contains(u.Why, "XDP") || strings.Contains(u.Why, "fastnetmon") || strings.Contains(u.Why, "Cilium") {
				t.Errorf("%s: named as a tool's line: %+v", name, u)
			}
		}
	}
}

// A BPF map's allocation that failed in the kernel stays an allocation failure, its header
// read: kvmalloc's order-9 try (alloc-fail-fragmented), vmalloc's pages (order 0), and
// vmalloc's address space (alloc-fail-not-physical).
func TestH29bBPFMapAllocFailures(t *testing.T) {
	kv := `Nov 30 10:01:02 fw1 kernel: [ 1234.5678] fastnetmon: page allocation failure: order:9, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null),cpuset=/,mems_allowed=0
Nov 30 10:01:02 fw1 kernel: [ 1234.5679] CPU: 3 PID: 4242 Comm: fastnetmon Not tainted 5.15.0-91-generic #101-Ubuntu
Nov 30 10:01:02 fw1 kernel: [ 1234.5680] Call Trace:
Nov 30 10:01:02 fw1 kernel: [ 1234.5682]  warn_alloc+0x138/0x160
Nov 30 10:01:02 fw1 kernel: [ 1234.5685]  kmalloc_large_node+0x3e/0xa0
Nov 30 10:01:02 fw1 kernel: [ 1234.5687]  kvmalloc_node+0x4e/0xc0
Nov 30 10:01:02 fw1 kernel: [ 1234.5688]  __bpf_map_area_alloc+0x6b/0x110
Nov 30 10:01:02 fw1 kernel: [ 1234.5689]  array_map_alloc+0xa4/0x230
`
	f := mustFire(t, run(t, "alloc-fail-fragmented", pasteTimeline(t, kv)), Warning)
	if !evidenceHas(f, "page allocation failures", "order 9, mode 0x40dc0") {
		t.Errorf("kvmalloc: %+v", f.Evidence)
	}
	vm := `[ 2211.123456] xdp-loader: vmalloc error: size 268435456, page order 0, failed to allocate pages, mode:0x400cc2(GFP_KERNEL_ACCOUNT|__GFP_HIGHMEM), nodemask=(null),cpuset=/,mems_allowed=0
[ 2211.123470] CPU: 1 PID: 777 Comm: xdp-loader Not tainted 6.5.0-14-generic #14-Ubuntu
[ 2211.123480] Call Trace:
[ 2211.123482]  warn_alloc+0x165/0x1e0
[ 2211.123483]  __vmalloc_node_range+0x4d8/0x8a0
[ 2211.123484]  __bpf_map_area_alloc+0xb3/0x110
`
	f = mustFire(t, run(t, "alloc-fail-reserve", pasteTimeline(t, vm)), Critical)
	if !evidenceHas(f, "page allocation failures", "order 0, mode 0x400cc2") {
		t.Errorf("vmalloc pages: %+v", f.Evidence)
	}
	space := "[12345.678901] bpftool: vmalloc error: size 1073745920, vm_struct allocation failed, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0\n"
	f = mustFire(t, run(t, "alloc-fail-not-physical", pasteTimeline(t, space)), Warning)
	if !evidenceHas(f, "address-space failures", "size 1073745920") {
		t.Errorf("vmalloc space: %+v", f.Evidence)
	}
}

// XDP_DROP verdicts are the program's own drops: neither nic-rx-overruns nor
// rx-dropped-software takes them for the host failing.
func TestH29bXDPDropCounters(t *testing.T) {
	mlx5 := "# ethtool -S enp65s0f0 | grep -E 'xdp|buff|out_of'\n     rx_xdp_drop: 184467123\n     rx_xdp_redirect: 0\n     rx_xdp_tx_xmit: 0\n     rx_xdp_tx_full: 0\n     rx_xdp_tx_err: 0\n     rx_buff_alloc_err: 0\n     rx_out_of_buffer: 0\n     rx_xsk_buff_alloc_err: 0\n     tx_xdp_err: 0\n"
	mustBeHealthy(t, run(t, "nic-rx-overruns", pasteTimeline(t, mlx5)))
	// virtio_net cut with grep: the queue's drops are its XDP verdicts (no kicks printed).
	virtio := "# ethtool -S eth0 | grep drops\n     rx_queue_0_drops: 999000\n     rx_queue_0_xdp_drops: 999000\n"
	if res := run(t, "nic-rx-overruns", pasteTimeline(t, virtio)); len(res.Findings) > 0 {
		t.Errorf("virtio XDP drops: %+v", res.Findings)
	}
	// Counter-case: the same queue with no XDP drop is a failed skb allocation.
	f := mustFire(t, run(t, "nic-rx-overruns", pasteTimeline(t, strings.ReplaceAll(virtio, "xdp_drops: 999000", "xdp_drops: 0"))), Warning)
	if !strings.Contains(f.Title, "failed 999000 times to allocate receive buffers") {
		t.Errorf("virtio refill: %q", f.Title)
	}
	// AF_XDP's fill ring refilled short: a failed RX buffer allocation, with its figure.
	xsk := "# ethtool -S enp65s0f0 | grep xsk\n     rx_xsk_packets: 883410092\n     rx_xsk_buff_alloc_err: 1734022\n"
	f = mustFire(t, run(t, "nic-rx-overruns", pasteTimeline(t, xsk)), Warning)
	if !evidenceHas(f, "rx_xsk_buff_alloc_err", "1734022") {
		t.Errorf("xsk: %+v", f.Evidence)
	}
}

const h29bIPLinkXDP = `$ ip -s -d link show dev eth0
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 xdp qdisc mq state UP mode DEFAULT group default qlen 1000
    link/ether 52:54:00:12:34:56 brd ff:ff:ff:ff:ff:ff
    prog/xdp id 42 tag 3b185187f1855c4c jited 
    RX:  bytes packets errors dropped  missed   mcast
    9123456789 123456789      0 98765432       0       0
    TX:  bytes packets errors dropped carrier collsns
    123456789   1234567      0       0       0       0
`

func TestH29bIPLinkXDPDropped(t *testing.T) {
	tl := pasteTimeline(t, h29bIPLinkXDP)
	if len(tl.Samples) == 0 || len(tl.Samples[0].NetDev) != 1 || tl.Samples[0].NetDev[0].XDP != "prog/xdp id 42" {
		t.Fatalf("XDP attachment not read: %+v", tl.Samples)
	}
	f := mustFire(t, run(t, "rx-dropped-software", tl), Info)
	if !evidenceHas(f, "eth0 XDP program attached", "prog/xdp id 42") {
		t.Errorf("no XDP note: %+v", f.Evidence)
	}
	// With the driver's XDP drop counts covering rx_dropped: the program's drops, no finding.
	withStats := h29bIPLinkXDP + "\n# ethtool -S eth0 | grep xdp_drops\n     rx_queue_0_xdp_drops: 50000000\n     rx_queue_1_xdp_drops: 48765432\n"
	res := run(t, "rx-dropped-software", pasteTimeline(t, withStats))
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, "XDP program's own drops (rx_queue_0_xdp_drops 98765432)") {
		t.Errorf("healthy note: %q", res.Checked)
	}
	// The header's mode alone ("mtu 1500 xdp qdisc"), and iproute2's older "xdp/id:42".
	for _, hdr := range []string{"mtu 1500 xdp qdisc mq", "mtu 1500 xdp/id:42 qdisc mq"} {
		text := strings.Replace(strings.Replace(h29bIPLinkXDP, "    prog/xdp id 42 tag 3b185187f1855c4c jited \n", "", 1), "mtu 1500 xdp qdisc mq", hdr, 1)
		if f := mustFire(t, run(t, "rx-dropped-software", pasteTimeline(t, text)), Info); !evidenceHas(f, "XDP program attached", strings.Fields(hdr)[2]) {
			t.Errorf("%s: %+v", hdr, f.Evidence)
		}
	}
}

func TestH29bIPLinkXDPCounterCases(t *testing.T) {
	noXDP := strings.Replace(strings.Replace(h29bIPLinkXDP, "    prog/xdp id 42 tag 3b185187f1855c4c jited \n", "", 1), " xdp qdisc", " qdisc", 1)
	for name, text := range map[string]string{
		"no program":           noXDP,
		"generic mode":         strings.Replace(strings.Replace(h29bIPLinkXDP, "prog/xdp id", "prog/xdpgeneric id", 1), " xdp qdisc", " xdpgeneric qdisc", 1),
		"XDP drops below drop": noXDP + "\n# ethtool -S eth0 | grep xdp_drops\n     rx_queue_0_xdp_drops: 1000\n",
	} {
		f := mustFire(t, run(t, "rx-dropped-software", pasteTimeline(t, text)), Info)
		if evidenceHas(f, "XDP program attached", "") || !evidenceHas(f, "eth0 rx_dropped", "98765432") {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
	}
}
