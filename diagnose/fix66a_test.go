package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// g267 (KubeFATE 64, kubernetes 112927, neonKUBE 1897, treetracker 49): a kubelet before
// 1.19 prints its eviction message without the threshold; an eviction for memory still says
// a memory threshold was met, and the admission's "The node had condition: [MemoryPressure]"
// says the condition was set.
func TestFix66aEvictedWithoutThreshold(t *testing.T) {
	for name, text := range map[string]string{
		"event": "4m11s       Warning   Evicted               pod/egg-1    The node was low on resource: memory. Container egg was using 5053216Ki, which exceeds its request of 0.\n",
		"describe, wrapped mid-word": "Status:         Failed\nReason:         Evicted\n" +
			"Message:        The node was low on resource: memory. Container treetracker-pgpool was using 1275700Ki, which e\nxceeds its request of 0.\n",
		"admission": "4m7s        Warning   Evicted               pod/egg-2    The node had condition: [MemoryPressure].\n",
	} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "kubelet-eviction-signal")
		if f == nil || f.Severity != Warning || !evidenceHas(*f, "node condition MemoryPressure", "True (Evicted)") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	for name, text := range map[string]string{
		"storage":          "Message:        The node was low on resource: ephemeral-storage. Container app was using 48Ki, which exceeds its request of 0.\n",
		"disk condition":   "4m7s        Warning   Evicted               pod/egg-2    The node had condition: [DiskPressure].\n",
		"condition, prose": "Pods get evicted when the node had condition: MemoryPressure, as the docs say.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "kubelet-eviction-signal"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}

// g265 (slskd 1800): `ss -ltn` quoted with its header and row ending at the local address,
// the port replaced by a placeholder; Recv-Q 4097 over Send-Q 4096 is a full accept queue.
func TestFix66bSSCutAfterLocal(t *testing.T) {
	const table = "  ```\n  State   Recv-Q  Send-Q  Local Address:Port\n  LISTEN  4097    4096    0.0.0.0:<listen_port>\n  ```\n"
	d, _ := rootOf(t, "- `ss -ltn` on the listen port:\n"+table)
	if f := findingOf(d, "listen-overflow"); f == nil || f.Severity != Warning {
		t.Fatalf("listen-overflow: %+v (%v)", f, ids(d))
	}
	for name, text := range map[string]string{
		"queue empty":      strings.Replace(table, "4097", "0", 1),
		"not a port":       strings.Replace(table, "0.0.0.0:<listen_port>", "0.0.0.0:<>", 1),
		"no queue numbers": strings.Replace(table, "4097    4096", "many    4096", 1),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "listen-overflow"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}

// g266 (5828): an ethtool -g block, a blank line and, further on, netstat -s lines each
// with an arrow to the author's note. The ring's reading ended at the end of the text, so
// nothing after it was read; and "---- >" is a note, not part of the counter's line.
func TestFix66cRingThenAnnotatedNetstat(t *testing.T) {
	const ring = "# ethtool --show-ring eth0\n    Ring parameters for eth0:\n    Pre-set maximums:\n    RX:             4096\n    TX:             4096\n" +
		"    Current hardware settings:\n    RX:             256\n    TX:             256\n```\n- data first lands in the NIC\n\n"
	const ns = "[root@VM_0_15_centos ~]# netstat -s | grep -i listen\n" +
		"62678 times the listen queue of a socket overflowed    ---- >the application accepts too slowly\n" +
		"65640 SYNs to LISTEN sockets dropped  ----> the SYN queue is full\n"
	d, root := rootOf(t, ring+"Some prose about offloads.\n\n"+ns)
	if findingOf(d, "nic-ring-below-max") == nil || findingOf(d, "listen-overflow") == nil {
		t.Fatalf("findings: %v", ids(d))
	}
	if root != "listen-overflow" {
		t.Errorf("root %q (%v)", root, ids(d))
	}
	// A ring whose sections a paste spaced apart is still one ring.
	spaced := "Ring parameters for eth0:\nPre-set maximums:\nRX:             4096\nTX:             4096\n\nCurrent hardware settings:\nRX:             256\nTX:             256\n"
	d, _ = rootOf(t, spaced)
	if f := findingOf(d, "nic-ring-below-max"); f == nil || !evidenceHas(*f, "", "256") {
		t.Errorf("spaced ring: %+v (%v)", f, ids(d))
	}
}

// corpus 268: a ring below its maximum while overruns were counted, then `ethtool -G` and a
// second reading at the maximum. Read now that the first ring no longer swallows the
// second (fix66c), the ring is named at info as the loss's setting, fixed since.
func TestFix66eRingRaisedAfterLoss(t *testing.T) {
	ring := func(cur int) string {
		return fmt.Sprintf("[root@node ~]# ethtool -g ens4f1\nRing parameters for ens4f1:\nPre-set maximums:\nRX:             4078\nTX:             4078\n"+
			"Current hardware settings:\nRX:             %d\nTX:             4078\n\n", cur)
	}
	const ifc = "ens4f1: flags=6211<UP,BROADCAST,RUNNING,SLAVE,MULTICAST>  mtu 1500\n" +
		"        RX packets 43065155382  bytes 23268992350550 (21.1 TiB)\n" +
		"        RX errors 1673119  dropped 11  overruns 1673109  frame 10\n" +
		"        TX packets 40810471807  bytes 18802712989712 (17.1 TiB)\n" +
		"        TX errors 0  dropped 0 overruns 0  carrier 0  collisions 0\n\n"
	raised := ifc + ring(453) + "[root@node ~]# ethtool -G ens4f1 rx 4078 tx 4078\n" + ring(4078)
	d, _ := rootOf(t, raised)
	f := findingOf(d, "nic-ring-below-max")
	if f == nil || f.Severity != Info || !evidenceHas(*f, "earlier reading", "453 of pre-set maximum 4078") || len(f.Changes) != 0 {
		t.Fatalf("raised ring: %+v", f)
	}
	for name, text := range map[string]string{
		"no loss":        strings.Replace(raised, "overruns 1673109", "overruns 0", 1),
		"always at max":  ifc + ring(4078) + ring(4078),
		"lowered at end": ifc + ring(4078) + ring(453),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "nic-ring-below-max"); f != nil && strings.Contains(f.Title, "a later reading") {
			t.Errorf("%s: %s", name, f.Title)
		}
	}
}

// g265 (bcc's drsnoop example): direct reclaims a tracer timed, one a line; 100 ms or more
// is a warning, shorter ones info; a table of other columns is not drsnoop's.
func TestFix66gDrsnoop(t *testing.T) {
	const long = "# ./drsnoop -n mond\nCOMM           PID     LAT(ms) PAGES\nsummond       10271       0.03    51\n" +
		"summond       10269     319.41    37\nsummond       10270     111.73    35\n^C\n"
	d, root := rootOf(t, long)
	f := findingOf(d, "direct-reclaim-stalls")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "bcc drsnoop", "longest 319.41 ms") || root != "direct-reclaim-stalls" {
		t.Fatalf("long reclaims: %+v (root %q)", f, root)
	}
	const short = "# ./drsnoop -Tv\nTIME(s)       COMM           PID     LAT(ms) PAGES  FREE(KB)\n" +
		"107.364115000 summond        17491      0.24    50     86260\n107.364550000 summond        17491      0.26    38     86228\n"
	d, _ = rootOf(t, short)
	if f := findingOf(d, "direct-reclaim-stalls"); f == nil || f.Severity != Info || strings.Contains(f.Title, "since boot") {
		t.Errorf("short reclaims: %+v", f)
	}
	for name, text := range map[string]string{
		"other tool's columns": "COMM           PID     LAT(ms) BYTES\nsummond       10269     319.41    37\n",
		"header alone":         "COMM           PID     LAT(ms) PAGES\n^C\n",
		"prose row":            "COMM           PID     LAT(ms) PAGES\nthe summond daemon stalls here\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "direct-reclaim-stalls"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}

// g268 (5906): an OOM report whose header syslog lost, its show_mem dump right before its
// task table: dump_header prints the host's memory only for an OOM that is not a memory
// cgroup's, so the host ran out, and the zone below min is the last of that memory.
func TestFix66hHeaderlessOOMAfterShowMem(t *testing.T) {
	const dump = "Jan 10 17:19:47 cam kern.emerg kernel: Normal free:624kB min:656kB low:820kB high:984kB active_anon:14384kB inactive_anon:108kB active_file:104kB inactive_file:116kB unevictable:0kB writepending:0kB present:32768kB managed:27192kB mlocked:0kB\n" +
		"Jan 10 17:19:47 cam kern.info kernel: lowmem_reserve[]: 0 0\n" +
		"Jan 10 17:19:47 cam kern.emerg kernel: Normal: 36*4kB (UME) 22*8kB (UME) 3*16kB (UME) 6*32kB (U) 1*64kB (M) 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 624kB\n" +
		"Jan 10 17:19:47 cam kern.emerg kernel: 8192 pages RAM\n"
	const table = "Jan 10 17:19:47 cam kern.info kernel: [ pid ]   uid  tgid total_vm      rss nr_ptes nr_pmds swapents oom_score_adj name\n" +
		"Jan 10 17:19:47 cam kern.info kernel: [  812]     0   812     2042      520       5       0        0             0 majestic\n" +
		"Jan 10 17:19:47 cam kern.info kernel: [  813]     0   813      300       20       3       0        0             0 sh\n"
	d, root := rootOf(t, dump+table)
	if f := findingOf(d, "oom-kill"); f == nil || f.Severity != Critical || root != "oom-kill" {
		t.Fatalf("oom-kill %+v, root %q (%v)", f, root, ids(d))
	}
	// The task table alone, or far from the dump, leaves host or cgroup open.
	for name, text := range map[string]string{
		"table alone":   table,
		"dump far away": dump + "\nsome prose\n\nmore prose\n\nand more\n\n" + table,
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "oom-kill"); f == nil || f.Severity == Critical {
			t.Errorf("%s: %+v", name, f)
		}
	}
}

// g265 (bpftrace's swapin.bt example): swap-ins counted a second by task under the time;
// each second summed is the swap-in rate.
func TestFix66iSwapinBT(t *testing.T) {
	const run = "# ./swapin.bt\nAttached 2 probes\n13:36:59\n\n13:37:00\n@[chrome, 4536]: 10809\n@[gnome-shell, 2239]: 12410\n\n" +
		"13:37:01\n@[chrome, 4536]: 3826\n\n13:37:02\n@[cron, 1180]: 23\n"
	d, root := rootOf(t, run)
	f := findingOf(d, "swap-under-load")
	if f == nil || f.Severity != Critical || !evidenceHas(*f, "swap in + out", "peak 92876 KiB/s") || root != "swap-under-load" {
		t.Fatalf("swapin.bt: %+v (root %q)", f, root)
	}
	// A second the author cut ("[...]" after its time) is no second without swap-ins.
	d, _ = rootOf(t, run+"\n13:37:03\n[...]\n")
	if f := findingOf(d, "swap-under-load"); f == nil || !evidenceHas(*f, "swap in + out", "of 3 samples") {
		t.Errorf("cut second counted: %+v", f)
	}
	for name, text := range map[string]string{
		"no command":    strings.TrimPrefix(run, "# ./swapin.bt\n"),
		"another tool":  strings.Replace(run, "swapin.bt", "biolatency.bt", 1),
		"no swap-ins":   "# ./swapin.bt\nAttached 2 probes\n13:36:59\n\n13:37:00\n\n13:37:01\n",
		"in a sentence": "I ran swapin.bt and saw chrome at @[chrome, 4536]: 10809 once.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "swap-under-load"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}

// g273 (6101, 6103): vmalloc's own failure lines from a kernel without printk time, read as
// kernel records: a failure of address space, alloc-fail-not-physical.
func TestFix66kBareVmallocFailure(t *testing.T) {
	for name, text := range map[string]string{
		"vm_struct": "vmalloc_node_range for size 4198400 failed: Address range restricted to 0xf1000000 - 0xf5110000\n" +
			"swapon: vmalloc error: size 4194304, vm_struct allocation failed, mode:0xdc0(GFP_KERNEL|__GFP_ZERO), nodemask=(null),cpuset=openrc.swap,mems_allowed=0\n" +
			"CPU: 0 UID: 0 PID: 870 Comm: swapon Tainted: G        W          6.14.0-rc4-PMacG4 #6\n",
		"vmap": "vmap allocation for size 1052672 failed: use vmalloc=<size> to increase size\n",
	} {
		d, root := rootOf(t, text)
		if findingOf(d, "alloc-fail-not-physical") == nil || root != "alloc-fail-not-physical" {
			t.Errorf("%s: root %q (%v)", name, root, ids(d))
		}
	}
	for name, text := range map[string]string{
		"question":          "So this is mostly a vmalloc error: size and range, not pages?\n",
		"range, no failure": "vmalloc_node_range for size checks happen at boot, as I understand.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "alloc-fail-not-physical"); f != nil {
			t.Errorf("%s: fired: %s", name, f.Title)
		}
	}
}
