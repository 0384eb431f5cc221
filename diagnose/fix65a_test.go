package diagnose

import (
	"slices"
	"strings"
	"testing"

	"headroom/model"
)

// A reporter hid the peer's address in angle brackets but kept the kernel's "/port" (g259,
// getlantern 3591): the record is real, and the SYN queue's own settings come first.
func TestFix65aSynDropRedactedAddress(t *testing.T) {
	const rec = "Feb 17 13:53:03 fp-doams3-20160127-001 kernel: [1255873.483233] net_ratelimit: 2193 callbacks suppressed\n" +
		"Feb 17 13:53:03 fp-doams3-20160127-001 kernel: [1255873.483244] TCP: drop open request from <ip elided>/16417\n"
	f := mustFire(t, run(t, "listen-overflow", parseText19b(t, rec)), Warning)
	if !evidenceHas(f, "SYNs dropped", "drop open request from") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if len(f.Changes) == 0 || f.Changes[0].Key != "net.ipv4.tcp_syncookies" {
		t.Errorf("first change is not the SYN queue's own: %+v", f.Changes)
	}
	for name, text := range map[string]string{
		"placeholder in brackets, no port": h17aSyslog + "TCP: drop open request from <ip>\n",
		"port placeholder":                 h17aSyslog + "TCP: drop open request from <ip>/<port>\n",
		"unclosed":                         h17aSyslog + "TCP: drop open request from <ip elided/16417\n",
	} {
		if res := run(t, "listen-overflow", parseText19b(t, text)); len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings[0].Evidence)
		}
	}
}

// g259 (SELinux 220): a slabtop table whose caches no shrinker frees hold 44 GiB, the memory
// size unknown, beside the author's "killed due to OOM" with no report: the leak is the
// root. Counter-cases: a small table keeps the stated OOM the root; a cgroup's kill is not
// the host's memory.
func TestFix65cSlabTableFillsStatedOOM(t *testing.T) {
	const table = `# slabtop --sort c -o
 Active / Total Objects (% used)    : 739390584 / 740008326 (99.9%)
 Active / Total Size (% used)       : 47121380.33K / 47376581.93K (99.5%)

  OBJS ACTIVE  USE OBJ SIZE  SLABS OBJ/SLAB CACHE SIZE NAME
734506368 734506368 100%    0.06K 11476662       64  45906648K ebitmap_node
328160  80830  24%    0.50K  10255       32    164080K kmalloc-512
 69442  36292  52%    2.00K   4341       16    138912K kmalloc-2048
 13148  12571  95%    7.50K   3287        4    105184K task_struct
`
	const stated = "Recently, I found my vms constantly being killed due to OOM, and the kernel is leaking memory.\n\n"
	d, root := rootOf(t, stated+table)
	if root != "slab-unreclaimable-growth" {
		t.Errorf("root %q, want slab-unreclaimable-growth; findings %v", root, ids(d))
	}
	small := strings.Replace(table, "45906648K ebitmap_node", "    45906K ebitmap_node", 1)
	if _, root := rootOf(t, stated+small); root == "slab-unreclaimable-growth" {
		t.Errorf("a 0.4 GiB table is the root of a stated OOM")
	}
	if _, ok := slabLeakFills(&Finding{Facts: Facts{UnreclaimableKB: 40 << 20}}, &Finding{ID: "oom-kill", Facts: Facts{OOM: OOMCgroup}}); ok {
		t.Errorf("a cgroup's kill explained by the host's slab")
	}
	if _, ok := slabLeakFills(&Finding{Facts: Facts{UnreclaimableKB: 40 << 20}}, &Finding{ID: "oom-kill", Facts: Facts{OOM: OOMHost}}); ok {
		t.Errorf("a host OOM report explained by a slab table without the memory size")
	}
}

// g259: a slab held mostly by one cache the network stack does not allocate from leaves no
// socket-memory cause open; a kmalloc-held slab still does.
func TestFix65fSlabOwnerRulesOutTCP(t *testing.T) {
	opensTCP := func(f Finding) bool {
		for _, u := range Tell([]Finding{f}).Undecided {
			if strings.Contains(u, "tcp-mem-oversized") {
				return true
			}
		}
		return false
	}
	if opensTCP(Finding{ID: "slab-unreclaimable-growth", Severity: Warning, Facts: Facts{SlabOwner: "ebitmap_node"}}) {
		t.Error("ebitmap_node's slab left tcp-mem-oversized open")
	}
	if !opensTCP(Finding{ID: "slab-unreclaimable-growth", Severity: Warning}) {
		t.Error("a slab of unnamed caches no longer leaves tcp-mem-oversized open")
	}
	caches := []model.SlabCache{{Name: "ebitmap_node", SizeKB: 900}, {Name: "kmalloc-512", SizeKB: 100}}
	if got := slabOwner(caches, 1000); got != "ebitmap_node" {
		t.Errorf("slabOwner = %q", got)
	}
	for _, c := range [][]model.SlabCache{
		{{Name: "kmalloc-512", SizeKB: 900}, {Name: "x", SizeKB: 100}},
		{{Name: "skbuff_head_cache", SizeKB: 900}, {Name: "x", SizeKB: 100}},
		{{Name: "ebitmap_node", SizeKB: 400}, {Name: "x", SizeKB: 600}},
	} {
		if got := slabOwner(c, 1000); got != "" {
			t.Errorf("slabOwner(%v) = %q, want none", c, got)
		}
	}
}

// g256, g261: a __GFP_DMA request's failure with no dump is the restricted zone's, whatever
// its order (a kdump kernel's atomic pool at order 5, ISA sound buffers); an atomic one of
// order 4 or more stays its caller's (high-order-atomic); GFP_KERNEL and GFP_DMA32 requests
// are not judged by it.
func TestFix65jDMAWithoutDump(t *testing.T) {
	class := func(text string) []string {
		d, _ := rootOf(t, text)
		var out []string
		for _, f := range d.Findings {
			if strings.HasPrefix(f.ID, "alloc-fail-") {
				out = append(out, f.ID)
			}
		}
		return out
	}
	has := func(ids []string, id string) bool { return slices.Contains(ids, id) }
	kdump := "swapper/0: page allocation failure: order:5, mode:0xcc1(GFP_KERNEL|GFP_DMA), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"CPU: 0 PID: 1 Comm: swapper/0 Not tainted 5.13.0-0.rc5.fc35.x86_64 #1\n"
	if ids := class(kdump); !has(ids, "alloc-fail-zone-restricted") {
		t.Errorf("GFP_KERNEL|GFP_DMA order 5: %v", ids)
	}
	oss := "Linux version 2.6.0 (root@host) (gcc version 3.3.2) #1\n" +
		"mplayer: page allocation failure. order:1, mode:0x21\n" +
		"esd: page allocation failure. order:4, mode:0x21\n"
	if ids := class(oss); !has(ids, "alloc-fail-zone-restricted") || !has(ids, "alloc-fail-high-order-atomic") {
		t.Errorf("GFP_ATOMIC|GFP_DMA orders 1 and 4: %v", ids)
	}
	for name, text := range map[string]string{
		"GFP_KERNEL": "x: page allocation failure: order:5, mode:0xcc0(GFP_KERNEL), nodemask=(null)\nCPU: 0 PID: 1 Comm: x Not tainted 5.13.0 #1\n",
		"GFP_DMA32":  "x: page allocation failure: order:5, mode:0xcc4(GFP_KERNEL|GFP_DMA32), nodemask=(null)\nCPU: 0 PID: 1 Comm: x Not tainted 5.13.0 #1\n",
	} {
		if ids := class(text); has(ids, "alloc-fail-zone-restricted") {
			t.Errorf("%s judged zone-restricted: %v", name, ids)
		}
	}
}

// g256 (linux-mm, Rientjes/Hocko): two Normal zone lines of a show_mem dump quoted in a mail,
// the page size unknown, free far below min: the zone's reserve is judged in kB. Above its
// band the zone is healthy; a failure report's own dump stays that failure's.
func TestFix65kDumpZoneReserve(t *testing.T) {
	const below = "> Node 0 Normal free:87356kB min:221984kB low:416984kB high:611984kB active_anon:123009936kB inactive_anon:67647652kB active_file:429612kB inactive_file:209980kB unevictable:112348kB writepending:260kB present:198180864kB managed:195027624kB mlocked:81756kB kernel_stack:24040kB pagetables:11460kB bounce:0kB free_pcp:940kB local_pcp:96kB free_cma:0kB\n" +
		"> lowmem_reserve[]: 0 0 0 0\n" +
		"> Node 1 Normal free:105616kB min:225568kB low:423716kB high:621864kB active_anon:122124196kB inactive_anon:74112696kB active_file:39172kB inactive_file:103696kB unevictable:204480kB writepending:180kB present:201326592kB managed:198174372kB mlocked:204480kB kernel_stack:11328kB pagetables:3680kB bounce:0kB free_pcp:1140kB local_pcp:0kB free_cma:0kB\n" +
		"> lowmem_reserve[]: 0 0 0 0\n"
	d, _ := rootOf(t, below)
	if f := findingOf(d, "zone-reserve-low"); f == nil || f.Severity != Critical {
		t.Fatalf("zone-reserve-low: %+v", f)
	}
	above := strings.ReplaceAll(strings.ReplaceAll(below, "free:87356kB", "free:987356kB"), "free:105616kB", "free:905616kB")
	d, _ = rootOf(t, above)
	if f := findingOf(d, "zone-reserve-low"); f != nil {
		t.Errorf("a zone above its band fired: %+v", f)
	}
	withHeader := "kworker/0:1: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC), nodemask=(null)\n" + below
	d, _ = rootOf(t, withHeader)
	if f := findingOf(d, "zone-reserve-low"); f != nil {
		t.Errorf("a failure's own dump judged as a stand-alone reading: %+v", f.Title)
	}
}

// corpus 706's shape: an OOM report whose header was cut keeps only its "Kill process" line
// (the pid elided as "xxxx"), a stack and a timestamped Mem-Info whose Normal zone is wrapped;
// that dump is the OOM's, not a stand-alone reading, so zone-reserve-low is not its root.
func TestFix65kDumpOfAnOOMKill(t *testing.T) {
	dump := "[34708.856674] Mem-Info:\n" +
		"[34708.859042] active_anon:11241 inactive_anon:6 isolated_anon:0\n" +
		"[34708.859042]  active_file:200 inactive_file:202 isolated_file:0\n" +
		"[34708.859042]  slab_reclaimable:174 slab_unreclaimable:1265\n" +
		"[34708.859042]  free:238 free_pcp:2 free_cma:0\n" +
		"[34708.891842] Normal free:952kB min:984kB low:1228kB high:1476kB\n" +
		"active_anon:44964kB inactive_anon:24kB active_file:800kB\n" +
		"inactive_file:808kB unevictable:0kB\n" +
		"[34708.936909] lowmem_reserve[]: 0 0\n" +
		"[34708.940362] Normal: 32*4kB (UEMR) 5*8kB (UR) 3*16kB (UR) 1*32kB (R) 1*64kB (R) 1*128kB (R) 0*256kB 1*512kB (R) 0*1024kB 0*2048kB 0*4096kB = 952kB\n" +
		"[34708.966940] Free swap  = 0kB\n"
	kill := "Out of memory: Kill process xxxx(juci-eventd) score 673 or sacrifice child\n\n" +
		"[34708.818711] [<80154380>] squashfs_readpage+0x584/0x674\n" +
		"[34708.830145] [<800cf2e4>] filemap_fault+0x1c4/0x438\n"
	d, root := rootOf(t, kill+dump)
	if findingOf(d, "oom-kill") == nil {
		t.Fatalf("the kill line is no OOM kill: %v", ids(d))
	}
	if root == "zone-reserve-low" {
		t.Errorf("the OOM's own dump made zone-reserve-low the root: %v", ids(d))
	}
	// The counter-case: the same dump alone is a stand-alone reading, judged in kB.
	d, _ = rootOf(t, dump)
	if findingOf(d, "zone-reserve-low") == nil {
		t.Errorf("the dump alone is not judged: %v", ids(d))
	}
}

// g256 (linux-mm, 5423): a Mem-Info block quoted without its report's header, no memory size
// and no page size: 1817501 unreclaimable slab pages are at least 6.9 GiB, named (info); a
// few hundred MiB is not judged.
func TestFix65nMemInfoDumpSlab(t *testing.T) {
	const dump = "[18907.592206] Mem-Info:\n" +
		"[18907.592209] active_anon:110314 inactive_anon:295 isolated_anon:0\n" +
		"                active_file:27534 inactive_file:819673 isolated_file:160\n" +
		"                unevictable:13001 dirty:167859 writeback:651864 unstable:0\n" +
		"                slab_reclaimable:177477 slab_unreclaimable:1817501\n" +
		"                mapped:934 shmem:588 pagetables:7109 bounce:0\n" +
		"                free:49928 free_pcp:45 free_cma:0\n"
	d, _ := rootOf(t, dump)
	f := findingOf(d, "slab-unreclaimable-growth")
	if f == nil || f.Severity != Info || !evidenceHas(*f, "slab_unreclaimable", "at least 6.9 GiB") {
		t.Fatalf("slab finding: %+v", f)
	}
	small := strings.Replace(dump, "slab_unreclaimable:1817501", "slab_unreclaimable:51750", 1)
	d, _ = rootOf(t, small)
	if f := findingOf(d, "slab-unreclaimable-growth"); f != nil {
		t.Errorf("202 MiB of slab named: %+v", f.Title)
	}
}
