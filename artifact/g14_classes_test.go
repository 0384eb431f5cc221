package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// The prose-and-stated classes the held-out batches g14-g17 found (corpus 563-652), each on
// a minimal snippet written for the class (not the case's words); every test failed before
// its change.

// kswapd busy stated in prose: the thread's name shortened ("kswap"), and kswapd running hot
// without a figure (corpus 578 "kswapd winds up in a continuous cycle ... forever", 626
// "the kswap process is utilizing 100% of cpu", 649 "kswapd0 process is consuming a large
// amount of CPU resources"). Before: exit 3, nothing read.
func TestStatedSymptoms(t *testing.T) {
	rate := func(text, key string) float64 {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		v := 0.0
		for _, s := range tl.Samples {
			if strings.Contains(s.Source, model.ForeignMark) {
				continue
			}
			v = max(v, s.Rates[key])
		}
		return v
	}
	const pct, busy, oom, retrans = model.RateKswapdCPUPct, model.RateStatedKswapdBusy, model.RateStatedOOM, model.RateStatedRetransPct
	for _, c := range []struct {
		text, key string
		want      float64
	}{
		{"On our build VM htop shows kswap0 pinned at 98% of one cpu for hours.\n", pct, 98},
		{"Every evening the NAS becomes sluggish and top lists kswapd0 hogging the CPU.\n", busy, 1},
		{"After a day of uptime kswapd1 is eating most of the CPU and ssh times out.\n", busy, 1},
		{"The guest's Normal zone is tiny, so kswapd keeps trying to balance it: it loops forever\nand never sleeps.\n", busy, 1},
		{"kswapd0 shows high CPU on the database node even with 20 GB of page cache.\n", busy, 1},
		{"服务器卡死,top 看到 kswapd0 进程占用大量CPU。\n", busy, 1},
		// Counter-cases: a possibility, advice, a negation, and another machine's.
		{"If kswapd0 uses a lot of CPU, add some swap.\n", busy, 0},
		{"You should check whether kswapd is hogging the CPU before you blame the NIC.\n", busy, 0},
		{"kswapd0 is not hogging the CPU here; the load is all softirq.\n", busy, 0},
		{"> on my test box kswapd spins forever in balance_pgdat\n\nThanks, but my servers look fine.\n", busy, 0},
		// An out-of-memory stated without the kernel's report (corpus 646 "频繁因为OOM(Out Of
		// Memory)导致crash", 521 "偶爾,OOM-killer 會殺死一些程序"). Before: oom-kill not checked.
		{"Our 128 MB router reboots every night because of OOM.\n", oom, 1},
		{"Twice this week postgres was killed by the OOM killer on the replica.\n", oom, 1},
		{"这台 NAS 经常因为内存不足 OOM 导致崩溃。\n", oom, 1},
		{"If the heap grows past the limit, the OOM killer will kill the JVM.\n", oom, 0},
		{"Since the upgrade we have had no OOM crashes.\n", oom, 0},
		{"You should set oom_score_adj so that sshd is never killed by the OOM killer.\n", oom, 0},
		// A retransmitted share stated (corpus 608: "a lot of (30%) TCP retransmission in
		// tcpdump"). Before: exit 3.
		{"Wireshark shows roughly 12% of the segments are retransmitted on the uplink.\n", retrans, 12},
		{"The retransmission rate is about 7.5% during backups.\n", retrans, 7.5},
		{"监控显示 TCP 重传率高达 25%，下载很慢。\n", retrans, 25},
		{"Alert if the retransmission rate is above 2%.\n", retrans, 0},
		{"If retransmissions reach 5% the throughput collapses.\n", retrans, 0},
	} {
		if got := rate(c.text, c.key); got != c.want {
			t.Errorf("%q: %s %v, want %v", c.text, c.key, got, c.want)
		}
	}
}

// A slab field of /proc/meminfo stated with a size in a title or a sentence, with the memory
// the author states (corpus 581: "[BUG] Kernel SUnreclaim is 2.3 GB ..." and "I use a 4 gb
// system"). Before: exit 3. A threshold ("looking for SUnreclaim > 5GB", corpus 580) and
// another machine's figure are not the host's value; a "system disk" is no memory size.
func TestStatedSlabField(t *testing.T) {
	for _, c := range []struct {
		text     string
		kb, memK int64
	}{
		{"Kernel memory leak? SUnreclaim grows to 6.5G within a day\n\nThe box is a 16 GB system running 6.8.\n", 6815744, 16 << 20},
		{"Slab keeps growing and SUnreclaim: 900 MiB after two days on this 2GB RAM VPS.\n", 900 << 10, 2 << 20},
		{"We alert when SUnreclaim exceeds 4G on a node.\n", 0, 0},
		{"Our nhc check looks for SUnreclaim > 5GB.\n", 0, 0},
		{"Installed on a 64 GB system disk; kernel 6.1.\n", 0, 0},
		{"> on my test box SUnreclaim was 3 GB after the benchmark\n\nmine is different, see below\nand more text here\n", 0, 0},
	} {
		kb, mem := statedSUnreclaim(c.text)
		if kb != c.kb || mem != c.memK {
			t.Errorf("%q: SUnreclaim %d kB, memory %d kB; want %d, %d", c.text, kb, mem, c.kb, c.memK)
		}
	}
}

// statedSUnreclaim: the host's SUnreclaim (not another machine's) and memory size read from text.
func statedSUnreclaim(text string) (int64, int64) {
	tl := ParseString(text, "p", Options{})
	var v int64
	for _, s := range tl.Samples {
		if x, ok := s.Mem("SUnreclaim"); ok && !strings.Contains(s.Source, model.ForeignMark) {
			v = x
		}
	}
	return v, tl.Host.MemTotalKB
}

// Ring sizes stated for two interfaces of the same machines that differ (corpus 609:
// "环形缓冲区设置不一致:eth0为1020,eth1为255"): the larger ring is the least the smaller one's
// maximum can be. Before: no ring read. Equal sizes, one interface, and advice state none.
func TestStatedRingsCompared(t *testing.T) {
	ring := func(text string) (string, int64, int64) {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			for _, st := range s.NICStats {
				if st.Ring != nil {
					return st.Name, st.Ring.Rx, st.Ring.RxMax
				}
			}
		}
		return "", 0, 0
	}
	for _, c := range []struct {
		text    string
		nic     string
		rx, max int64
	}{
		{"Our web tier has inconsistent ring buffer sizes: 512 for eno1 and 4096 for eno2, same hardware.\n", "(stated) eno1", 512, 4096},
		{"两台服务器的网卡环形缓冲区不一样:eth2为256,eth3为2048。\n", "(stated) eth2", 256, 2048},
		{"The RX ring buffer is 4096 for eth0 and 4096 for eth1.\n", "", 0, 0},
		{"The ring buffer of eth0 is 512.\n", "", 0, 0},
		{"You should set the ring to 4096 on eth0 and 512 on eth1.\n", "", 0, 0},
	} {
		nic, rx, mx := ring(c.text)
		if nic != c.nic || rx != c.rx || mx != c.max {
			t.Errorf("%q: ring %q %d/%d, want %q %d/%d", c.text, nic, rx, mx, c.nic, c.rx, c.max)
		}
	}
}

// dropwatch's session: "N drops at symbol+off (addr)" lines summed per location (corpus 608's
// __netif_receive_skb+49f). Before: the lines were prose. A sentence with "drops at" and no
// code location is not one.
func TestDropwatchSession(t *testing.T) {
	text := `dropwatch> start
Enabling monitoring...
Kernel monitoring activated.
Issue Ctrl-C to stop monitoring
4 drops at ip_rcv_finish+1a0 (0xffffffff8159e2c0)
11 drops at tcp_v4_rcv+87 (0xffffffff815c1a37)
3 drops at ip_rcv_finish+1a0 (0xffffffff8159e2c0)
1 drops at location 0xffffffffc04a1b2c
2 drops at tcp_v4_rcv+87 (0xffffffff815c1a37) ^CGot a stop message
dropwatch> exit
`
	tl := ParseString(text, "p", Options{})
	var s *DropwatchSession
	for _, a := range tl.Artifacts {
		if a.Kind == KindDropwatch {
			s, _ = a.Data.(*DropwatchSession)
		}
	}
	if s == nil || s.Total != 21 || len(s.Locations) != 3 || s.Locations[0] != (DropwatchLocation{"ip_rcv_finish", 7}) || s.Locations[1] != (DropwatchLocation{"tcp_v4_rcv", 13}) || s.Locations[2].Symbol != "0xffffffffc04a1b2c" {
		t.Fatalf("session %+v", s)
	}
	tl = ParseString("We saw 5 drops at the switch port last night.\n", "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindDropwatch {
			t.Errorf("prose read as dropwatch: %+v", a)
		}
	}
}

// A distribution's release written "<vendor> Linux N.N" is not the kernel's (corpus 609:
// "Redhat Enterprise Linux 5.8" read as kernel 5.8, so kernel-known-limits judged a 5.8
// kernel on a 2.6.18 host; 565: "Red Hat Enterprise Linux 2.1"). Before: kernel 5.8, 7.9.
// "Linux 2.6.13-2smp" is still a kernel.
func TestDistroReleaseIsNoKernel(t *testing.T) {
	for text, want := range map[string]string{
		"We run Oracle Linux 7.9 on the database hosts.\n":             "",
		"The box is on Red Hat Enterprise Linux 6.4 with bonding.\n":   "",
		"It runs Linux 2.6.13-2smp on a dual Xeon.\n":                  "2.6.13-2smp",
		"Scientific Linux 6.4, kernel 2.6.32-358.el6.x86_64, 16 GB.\n": "2.6.32-358.el6.x86_64",
	} {
		if got := ParseString(text, "p", Options{}).Host.Kernel; got != want {
			t.Errorf("%q: kernel %q, want %q", text, got, want)
		}
	}
}
