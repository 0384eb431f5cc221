package artifact

import (
	"testing"

	"headroom/model"
)

// Pre-round 6 hardening (errno9): failures in subsystems' words, each class on a minimal
// snippet written for it (not any case's words); each test failed before its change.

// allocOrders: the orders of the allocation-failure events ParseString read from text.
func allocOrders(text string) []int {
	var out []int
	for _, e := range ParseString(text, "p", Options{}).Events {
		if e.Kind == model.EventAllocFailure && e.AllocFailure != nil {
			out = append(out, e.AllocFailure.Order)
		}
	}
	return out
}

// Class a: a subsystem's line that states the order it asked for (iwlwifi pcie/rx.c
// iwl_pcie_rxq_alloc_rbs "alloc_pages failed, order: %d") or the bytes it asked a
// contiguous allocator for ("kmalloc of 8388608 bytes failed": get_order, order 11) is an
// allocation failure of that order. Counter-cases: a line with neither (its order is
// unknown: only the rules' "not checked" reads it), a request that fits a kmalloc cache,
// a patch mail whose diff adds the driver's message, and the message quoted in a
// sentence.
func TestSubsystemAllocLineWithOrder(t *testing.T) {
	for text, want := range map[string]int{
		"[  10.000001] iwlwifi 0000:03:00.0: alloc_pages failed, order: 1\n[  10.000002] iwlwifi 0000:03:00.0: Failed to alloc_pages with GFP_ATOMIC. Only 0 free buffers remaining.\n": 1,
		"Nov 29 10:00:00 node1 kernel: mydrv 0000:01:00.0: kmalloc of 8388608 bytes failed\n":                                                                                           11,
		"[   5.100000] brcmfmac: brcmf_sdio_rxglom: glom alloc failed, order 2\n":                                                                                                       2,
	} {
		if got := allocOrders(text); len(got) != 1 || got[0] != want {
			t.Errorf("%q: orders %v, want [%d]", text, got, want)
		}
	}
	for _, text := range []string{
		"[  10.000001] ath10k_pci 0000:02:00.0: failed to refill rx ring: -12\n",
		"[  10.000001] mydrv 0000:01:00.0: kmalloc of 2048 bytes failed\n",
		"Subject: [PATCH] iwlwifi: pcie: print the order\n\n--- a/drivers/net/wireless/intel/iwlwifi/pcie/rx.c\n+++ b/drivers/net/wireless/intel/iwlwifi/pcie/rx.c\n@@ -1,3 +1,3 @@\n-\t\tIWL_DEBUG_INFO(trans, \"alloc_pages failed\\n\");\n+\t\tIWL_DEBUG_INFO(trans, \"alloc_pages failed, order: %d\\n\", order);\n",
		"The driver prints \"alloc_pages failed, order: 1\" when the RX allocator runs dry, which we have never seen.\n",
	} {
		if got := allocOrders(text); len(got) != 0 {
			t.Errorf("%q: orders %v, want none", text, got)
		}
	}
}

// Class c: a failed request stated by its size in a text about a kernel allocator is a
// failure of get_order(size) (kmalloc_large): "kmalloc of 8 MB fails" is order 11, above the
// largest buddy order; "allocation of 4194304 bytes failed" beside kzalloc is order 10.
// Counter-cases: advice ("if a kmalloc of 8 MB fails"), a denial, another machine's, a
// program's malloc (no kernel allocator named), a man page's sentence on ENOMEM, a config
// line, and a size that fits a kmalloc cache.
func TestStatedAllocFailureBySize(t *testing.T) {
	for text, want := range map[string]int{
		"On our ARM board the driver does a kmalloc of 8 MB at probe and it fails every time.\n":                    11,
		"Our module logs that the allocation of 4194304 bytes failed after kzalloc() with GFP_KERNEL on boot.\n":    10,
		"Since the upgrade our camera driver cannot allocate 2 MB with dma_alloc_coherent and the capture stops.\n": 9,
	} {
		if got := allocOrders(text); len(got) != 1 || got[0] != want {
			t.Errorf("%q: orders %v, want [%d]", text, got, want)
		}
	}
	for _, text := range []string{
		"If a kmalloc of 8 MB fails, use vmalloc instead.\n",
		"We never saw a kmalloc of 8 MB fail on this board.\n",
		"With his test machine a kmalloc of 8 MB fails at probe.\n",
		"The allocation of 4194304 bytes failed in our Java service; the heap was full.\n",
		"ENOMEM Cannot allocate memory: a kmalloc of more than 4 MB fails with GFP_KERNEL on kernels built with MAX_ORDER 11 (see kmalloc(9)).\n",
		"CONFIG_FORCE_MAX_ZONEORDER=11 # kmalloc of 8 MB fails otherwise\n",
		"Our driver's kmalloc of 512 bytes failed once at boot.\n",
	} {
		if got := allocOrders(text); len(got) != 0 {
			t.Errorf("%q: orders %v, want none", text, got)
		}
	}
}

// Class b: kills for memory by other killers are read as such, apart from the kernel's OOM
// killer (Timeline.RuntimeOOMs of scope model.OOMScopeLowMemKiller): Android's in-kernel
// lowmemorykiller (lowmem_scan), lmkd through logcat (kill_one_process, tag
// lowmemorykiller), systemd-oomd (oomd-manager.c) and earlyoom (kill.c) in a syslog.
// Counter-cases: a man page's description of the message, a patch whose diff adds it, a
// configuration line, and a sentence quoting it.
func TestLowMemKillersAreKillsOfTheirOwn(t *testing.T) {
	type kill struct {
		reporter, victim string
		pid, adj         int
	}
	kills := func(text string) []kill {
		var out []kill
		for _, o := range ParseString(text, "p", Options{}).RuntimeOOMs {
			if o.Scope != model.OOMScopeLowMemKiller {
				continue
			}
			k := kill{o.Reporter, o.Victim, o.PID, -1}
			if o.OOMScoreAdj != nil {
				k.adj = *o.OOMScoreAdj
			}
			out = append(out, k)
		}
		return out
	}
	for text, want := range map[string]kill{
		"<6>[ 2345.678901] lowmemorykiller: Killing 'com.android.chrome' (12345), adj 900,\n<6>[ 2345.678901]    to free 123456kB on behalf of 'kswapd0' (123) because\n":                                                             {"Android's in-kernel lowmemorykiller", "com.android.chrome", 12345, 900},
		"11-29 10:00:00.000   345   345 I lowmemorykiller: Kill 'com.example.app' (4321), uid 10123, oom_score_adj 200 to free 98765kB rss, 1234kB swap; reason: low watermark is breached\n":                                         {"Android's lmkd", "com.example.app", 4321, 200},
		"Nov 29 10:00:00 host systemd-oomd[612]: Killed /user.slice/user-1000.slice/app.slice/app-firefox.scope due to memory pressure for /user.slice/user-1000.slice being 73.21% > 50.00% for > 20s with reclaim activity\n":       {"systemd-oomd (memory pressure)", "/user.slice/user-1000.slice/app.slice/app-firefox.scope", 0, -1},
		"Nov 29 10:00:00 host earlyoom[700]: low memory! at or below SIGTERM limits: mem 10.00%, swap 10.00%\nNov 29 10:00:00 host earlyoom[700]: sending SIGTERM to process 4242 uid 1000 \"chrome\": badness 900, VmRSS 2345 MiB\n": {"earlyoom (SIGTERM)", "chrome", 4242, -1},
	} {
		if got := kills(text); len(got) != 1 || got[0] != want {
			t.Errorf("%q: kills %+v, want [%+v]", text, got, want)
		}
	}
	for _, text := range []string{
		"SYSTEMD-OOMD(8)\n\nWhen a unit is killed, systemd-oomd logs a line such as \"Killed /system.slice/foo.service due to memory pressure\" to the journal.\n",
		"--- a/lmkd.cpp\n+++ b/lmkd.cpp\n@@ -1,2 +1,2 @@\n-    ALOGI(\"Kill '%s' (%d), uid %d, oom_adj %d to free %ldkB\",\n+    ALOGI(\"Kill '%s' (%d), uid %d, oom_score_adj %d to free %ldkB rss\",\n",
		"EARLYOOM_ARGS=\"-m 10 -s 10 --avoid '(^|/)(init|sshd)$'\"\n",
		"If earlyoom prints sending SIGTERM to process 1 uid 0 \"init\": badness 0, something is wrong.\n",
	} {
		if got := kills(text); len(got) != 0 {
			t.Errorf("%q: kills %+v, want none", text, got)
		}
	}
}
