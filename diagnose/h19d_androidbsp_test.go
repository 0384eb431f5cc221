package diagnose

import (
	"strings"
	"testing"
)

// h19d: Android kernels and embedded BSPs. The in-kernel lowmemorykiller's kill behind a
// vendor caller block (MediaTek's "(2)[67:kswapd0]", "(CPU:2-pid:67:kswapd0) ", printk_cpuid's
// "[ T67@C2]") reaches oom-kill as a kill by Android's killer, not the kernel's OOM killer; a
// page allocation failure's dump behind MediaTek's block is read (not "inferred"); busy
// contiguous ranges without cma_alloc's failure line leave alloc-fail-cma not checked.
func TestH19dAndroidVendorPrefixes(t *testing.T) {
	kill := []string{
		"lowmemorykiller: Killing 'com.tencent.mm' (5555), adj 100,",
		"   to free 153600kB on behalf of 'kswapd0' (67) because",
		"   cache 61440kB is below limit 69120kB for oom_score_adj 100",
		"   Free memory is 2048kB above reserved",
	}
	for _, prefix := range []string{"[  700.123456] (2)[67:kswapd0]", "[  700.123456] (CPU:2-pid:67:kswapd0) ", "<6>[  700.123456][ T67@C2] "} {
		text := prefix + strings.Join(kill, "\n"+prefix) + "\n"
		f := mustFire(t, run(t, "oom-kill", parseText19b(t, text)), Warning)
		if !strings.Contains(f.Title, "lowmemorykiller") || !strings.Contains(f.Title, "not the kernel's OOM killer") ||
			!evidenceHas(f, "lowmemorykiller", "com.tencent.mm (pid 5555), oom_score_adj 100") {
			t.Errorf("%q: %s %+v", prefix, f.Title, f.Evidence)
		}
	}

	// lmkd's kill in the kernel log under its tag (a dmesg or logcat -b kernel paste): a kill
	// by lmkd, named so, with its oom_score_adj.
	lmkd := "[ 1240.000000] lowmemorykiller: Kill 'com.foo' (4400), uid 10124, oom_score_adj 200 to free 98304kB rss, 0kB swap; reason: critical pressure\n" +
		"[ 1241.000000] lowmemorykiller: Killing 'com.bar' (4500), uid 10125, adj 100\n[ 1241.000000]    to free 87000kB because system is under medium memory pressure oom_adj 0\n"
	f := mustFire(t, run(t, "oom-kill", parseText19b(t, lmkd)), Warning)
	if !strings.Contains(f.Title, "lmkd killed 2") || !evidenceHas(f, "lmkd", "com.foo (pid 4400), oom_score_adj 200") || !evidenceHas(f, "lmkd", "com.bar (pid 4500), oom_score_adj 100") {
		t.Errorf("lmkd in the kernel log: %s %+v", f.Title, f.Evidence)
	}

	mtk := "(1)[1234:kworker/u16:2]"
	report := []string{
		"kworker/u16:2: page allocation failure: order:3, mode:0x4020(GFP_ATOMIC|__GFP_COMP), nodemask=(null)",
		"CPU: 1 PID: 1234 Comm: kworker/u16:2 Tainted: G        W  O    4.14.186 #1",
		"Mem-Info:",
		"Normal free:18640kB min:5412kB low:28148kB high:30260kB active_anon:49380kB inactive_anon:9380kB present:3932160kB managed:3801088kB free_cma:1024kB",
		"lowmem_reserve[]: 0 0 0",
		"Normal: 2660*4kB (UMEC) 990*8kB (UMEC) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 18560kB",
	}
	var b strings.Builder
	for i, l := range report {
		b.WriteString("[ 3456.10" + string(rune('0'+i)) + "000] " + mtk + l + "\n")
	}
	f = mustFire(t, run(t, "alloc-fail-fragmented", parseText19b(t, b.String())), Critical)
	if strings.Contains(f.Title, "inferred") || !evidenceHas(f, "zone Normal", "free 18640 kB") {
		t.Errorf("MediaTek-prefixed dump: %s %+v", f.Title, f.Evidence)
	}

	busy := "[   88.100000] alloc_contig_range: [6a800, 6b000) PFNs busy\n[   88.100100] alloc_contig_range: [6ac00, 6b400) PFNs busy\n"
	if r := run(t, "alloc-fail-cma", parseText19b(t, busy)); !strings.Contains(r.NotChecked, "PFNs busy") || len(r.Findings) > 0 {
		t.Errorf("PFNs busy alone: %+v", r)
	}
	// 32-bit ARM's atomic DMA coherent pool (arch/arm/mm/dma-mapping.c, 3.6-3.15) is a
	// dedicated pool's exhaustion; its source format string quoted is not.
	arm := "[ 4711.000000] ERROR: 256 KiB atomic DMA coherent pool is too small!\n[ 4711.000000] Please increase it with coherent_pool= kernel parameter!\n"
	if r := run(t, "alloc-fail-cma", parseText19b(t, arm)); !strings.Contains(r.NotChecked, "1× atomic DMA coherent pool") {
		t.Errorf("ARM atomic pool: %+v", r)
	}
	src := "pr_err_once(\"ERROR: %u KiB atomic DMA coherent pool is too small!\\n\"\n"
	if r := run(t, "alloc-fail-cma", parseText19b(t, src)); strings.Contains(r.NotChecked, "atomic DMA coherent pool;") {
		t.Errorf("source quoted: %+v", r)
	}
	cma := "[ 1021.445566] cma: cma_alloc: reserved: alloc failed, req-size: 2025 pages, ret: -16\n"
	if r := run(t, "alloc-fail-cma", parseText19b(t, busy+cma)); !strings.Contains(r.NotChecked, "CMA area") {
		t.Errorf("cma_alloc failure: %+v", r)
	}
}

// Counter-cases: a healthy Android boot (CMA reserved, the boot's "Memory:" line, lmkd's
// connection), lmkd's start-up notices, and a sentence that names lowmemorykiller are no kill
// and no allocation failure.
func TestH19dAndroidCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"boot": "<6>[    0.000000] Reserved memory: created CMA memory pool at 0x00000000f8800000, size 120 MiB\n" +
			"<6>[    0.000000] OF: reserved mem: initialized node linux,cma, compatible id shared-dma-pool\n" +
			"<6>[    0.000000] (0)[0:swapper]Memory: 3676284K/3985408K available (18428K kernel code, 2268K rwdata, 8104K rodata, 4544K init, 6552K bss, 186720K reserved, 122404K cma-reserved)\n" +
			"<6>[    5.678901] (3)[612:lmkd]lowmemorykiller: lmkd data connection established\n",
		"lmkd": "11-29 09:59:58.000   612   612 I lowmemorykiller: Using psi monitors for memory pressure detection\n" +
			"11-29 09:59:58.002   612   612 I lowmemorykiller: Process polling is supported\n",
		"prose": "The lowmemorykiller: Killing 'x' (1), adj 0 line is what we expect to see when the cache is low.\n",
	} {
		tl := parseText19b(t, text)
		for _, id := range []string{"oom-kill", "alloc-fail-cma", "alloc-fail-fragmented"} {
			if r := run(t, id, tl); len(r.Findings) > 0 {
				t.Errorf("%s: %s fired: %+v", name, id, r.Findings[0])
			}
		}
	}
}
