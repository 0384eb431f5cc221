package artifact

import (
	"encoding/json"
	"strings"
	"testing"
)

// fix52d (round 47, g203 and g205): a program's re-print of ethtool counters under its prefix
// (4338), a /dev/kmsg record's "\x0a" in show_mem's global block (4377), a SLUB report's node
// lines left above the next report (4347), and the kernel's task, CPU and RCU-stall lines
// quoted without a stamp (4348).

func TestFix52dEthtoolReprint(t *testing.T) {
	text := "```\n" +
		"diag: ethtool: lo: features: [tx-checksum-sctp highdma loopback]\n" +
		"diag: ethtool: ens5: features: [rx-hashing tx-checksum-ipv4 rx-gro]\n" +
		"diag: ethtool: ens5: warning: pps_allowance_exceeded = 99 > 0\n" +
		"diag: ethtool: ens5: warning: bw_in_allowance_exceeded = 1865 > 0\n" +
		"diag: ethtool: ens5: stats: warning: conntrack_allowance_available = 0 == 0\n" +
		"diag: ethtool: tailscale0: features: [tx-generic-segmentation rx-gro]\n" +
		"```\n"
	tl := ParseString(text, "t", Options{})
	es := artifactsOf(tl, KindEthtoolS)
	if len(es) != 1 {
		t.Fatalf("ethtool_stats artifacts %+v", tl.Artifacts)
	}
	st := es[0].Data.(*EthtoolStats)
	if st.Interface != "ens5" {
		t.Errorf("interface %q", st.Interface)
	}
	for name, want := range map[string]int64{"pps_allowance_exceeded": 99, "bw_in_allowance_exceeded": 1865, "conntrack_allowance_available": 0} {
		if v, ok := st.Stats.Get(name); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", name, v, ok, want)
		}
	}
	if n := len(artifactsOf(tl, KindEthtoolK)); n != 3 {
		t.Errorf("%d feature lists, want 3", n)
	}
	if len(tl.Samples) != 1 || len(tl.Samples[0].NICStats) != 1 || tl.Samples[0].NICStats[0].Name != "ens5" {
		t.Errorf("samples %+v", tl.Samples)
	}
	if tl.Lines == nil || tl.Lines.Read != 6 || tl.Lines.Unparsed != 0 {
		t.Errorf("lines %+v", tl.Lines)
	}
	// Not the template: advice with '=', a question, a doc's list, a compiler's warning, a
	// word glued to "ethtool", a "> 0" that contradicts the value.
	for _, l := range []string{
		"If ethtool: ens5: pps_allowance_exceeded = 99 shows up, raise the instance size.",
		"Why does ethtool: ens5: warning: pps_allowance_exceeded grow?",
		"- pps_allowance_exceeded = the packets queued or dropped",
		"gcc: warning: pps_allowance_exceeded = 99 > 0",
		"myethtool: ens5: warning: pps_allowance_exceeded = 99 > 0",
		"ethtool: ens5: warning: pps_allowance_exceeded = 0 > 0",
		"ethtool: my interface: warning: pps_allowance_exceeded = 9 > 0",
	} {
		if isEthtoolReprintStart("", l) {
			t.Errorf("read %q", l)
		}
	}
}

func TestFix52dKmsgEscapedShowMem(t *testing.T) {
	text := "May  7 16:08:50 u59 kernel: Mem-Info:\n" +
		`May  7 16:08:50 u59 kernel: active_anon:3033195 inactive_anon:348918 isolated_anon:96\x0a active_file:44 inactive_file:43 isolated_file:0\x0a unevictable:22 dirty:0 writeback:0\x0a slab_reclaimable:19069 slab_unreclaimable:460114\x0a mapped:90 shmem:29 pagetables:21770\x0a sec_pagetables:0 bounce:0\x0a kernel_misc_reclaimable:0\x0a free:61206 free_pcp:1 free_cma:0` + "\n" +
		"May  7 16:08:50 u59 kernel: Node 0 DMA free:15360kB boost:0kB min:12kB low:24kB high:36kB reserved_highatomic:0KB active_anon:0kB inactive_anon:0kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:15992kB managed:15360kB mlocked:0kB bounce:0kB free_pcp:0kB local_pcp:0kB free_cma:0kB\n" +
		"May  7 16:08:50 u59 kernel: lowmem_reserve[]: 0 1687 15745 15745\n"
	tl := ParseString(text, "t", Options{})
	b, _ := json.Marshal(artifactsOf(tl, KindShowMem))
	for _, want := range []string{`"isolated_anon":96`, `"slab_unreclaimable":460114`, `"pagetables":21770`, `"free":61206`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("show_mem lacks %s: %s", want, b)
		}
	}
	if got := kmsgUnescapeNewlines(`slab_unreclaimable:460114\x0a mapped:90\x09x`); got != "slab_unreclaimable:460114  mapped:90 x" {
		t.Errorf("unescaped %q", got)
	}
	if got := kmsgUnescapeNewlines(`C:\x0b path`); got != `C:\x0b path` {
		t.Errorf("another escape changed: %q", got)
	}
}

func TestFix52dSlubNodeTail(t *testing.T) {
	text := "Allocation failure logs:\n" +
		"[38535644.718700] node 0: slabs: 1031, objs: 43328, free: 0\n" +
		"[38535644.725059] node 1: slabs: 339, objs: 17616, free: 317\n" +
		"[38535645.428345] SLUB: Unable to allocate memory on node -1, gfp=0x480020(GFP_ATOMIC)\n" +
		"[38535645.436888] cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 2, min order: 0\n" +
		"[38535645.447664] node 0: slabs: 940, objs: 40864, free: 144\n" +
		"[38535645.454026] node 1: slabs: 322, objs: 19168, free: 383\n"
	tl := ParseString(text, "t", Options{})
	as := artifactsOf(tl, KindSlabFailure)
	if len(as) != 2 {
		t.Fatalf("slab_failure artifacts %d, want the tail and the report: %+v", len(as), as)
	}
	b, _ := json.Marshal(as[0])
	for _, want := range []string{`"first_line":2`, `"last_line":3`, `"slabs":1031`, `"objs":17616`, `"free":317`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("tail lacks %s: %s", want, b)
		}
	}
	if n := len(tl.Events); n != 1 {
		t.Errorf("%d events, want the one whole report", n)
	}
	// Not a tail: node lines with no SLUB header under them (a NUMA listing), or in prose.
	for _, text := range []string{
		"[ 1.0] node 0: slabs: 10, objs: 20, free: 0\n[ 1.1] node 1: slabs: 11, objs: 21, free: 1\n[ 1.2] eth0: link up\n",
		"the kernel prints node 0: slabs: 10, objs: 20, free: 0\nSLUB: Unable to allocate memory on node -1, gfp=0x20\n",
	} {
		for _, a := range artifactsOf(ParseString(text, "t", Options{}), KindSlabFailure) {
			if a.FirstLine == 1 {
				t.Errorf("%q: tail read %+v", text, a)
			}
		}
	}
}

func TestFix52dKernelTaskLines(t *testing.T) {
	for _, l := range []string{
		"task:rcu_sched state:I stack:0 pid:14 tgid:14 ppid:2 flags:0x00004000",
		"task:kworker/0:1     state:D stack:0     pid:12    ppid:2      flags:0x00004000",
		"CPU: 0 UID: 500 PID: 21895 Comm: 31370.exe Not tainted 6.13.0-dirty #2",
		"CPU: 3 PID: 1234 Comm: kswapd0 Tainted: G        W         5.15.0 #1",
		"rcu: 0-...!: (332 ticks this GP) idle=255c/1/0x40000000 softirq=16420123/16420123 fqs=0",
		"rcu: (t=2103 jiffies g=35680089 q=4 ncpus=1)",
	} {
		if !bareKernelLine(l) {
			t.Errorf("not read as the kernel's: %q", l)
		}
	}
	for _, l := range []string{
		"CPU: 45% used by java",
		"task: build state: running",
		"CPU: 0 PID: 1 is init",
		"rcu: we saw a stall of 2103 jiffies",
	} {
		if bareKernelLine(l) {
			t.Errorf("read as the kernel's: %q", l)
		}
	}
	text := "rcu: INFO: rcu_sched self-detected stall on CPU\n" +
		"rcu: 0-...!: (332 ticks this GP) idle=255c/1/0x40000000 softirq=16420123/16420123 fqs=0\n" +
		"rcu: (t=2103 jiffies g=35680089 q=4 ncpus=1)\n" +
		"task:rcu_sched state:I stack:0 pid:14 tgid:14 ppid:2 flags:0x00004000\n" +
		"CPU: 0 UID: 500 PID: 21895 Comm: 31370.exe Not tainted 6.13.0-dirty #2\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("listed unread: %+v", tl.Unparsed)
	}
	if tl.Log.Len() != 5 {
		t.Errorf("%d log records, want 5", tl.Log.Len())
	}
}
