package artifact

import (
	"encoding/json"
	"strings"
	"testing"
)

// fix54e: command output a page ran onto one line (fix54e_flat.go). Snippets are written
// from the programs' formats (procps vmstat and free, fs/proc/meminfo.c, ethtool's
// dump_ring, OpenVZ's /proc/user_beancounters, a syslog'd OOM report); none is a case's text.

// artifactOn returns the data, as JSON, of the first artifact of kind on line no.
func artifactOn(text, kind string, no int) string {
	tl := ParseString(text, "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == kind && a.FirstLine <= no && no <= a.LastLine {
			b, _ := json.Marshal(a.Data)
			return string(b)
		}
	}
	return ""
}

// readsAll: got (an artifact's JSON) holds every one of want.
func readsAll(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("lacks %s: %s", w, got)
		}
	}
}

// notReadAsFlat: no text's line 1 gives an artifact of kind.
func notReadAsFlat(t *testing.T, kind string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if got := artifactOn(s, kind, 1); got != "" {
			t.Errorf("%q read as %s: %s", s, kind, got)
		}
	}
}

func TestFix54eFlatVmstat(t *testing.T) {
	const text = "Voici la sortie :\n# vmstat 5 2 procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- r b swpd free buff cache si so bi bo in cs us sy id wa st 1 0 1200 51000 300 90000 0 0 4 8 70 120 2 1 97 0 0 0 0 1200 50800 300 90010 0 0 0 0 80 150 1 1 98 0 0\nEt voilà.\n"
	got := artifactOn(text, KindVMStat, 2)
	if !strings.Contains(got, "[1,0,1200,51000,300,90000,") || !strings.Contains(got, "[0,0,1200,50800,300,90010,") {
		t.Errorf("flattened vmstat: %s", got)
	}
	// A row the page cut short is dropped, the whole rows kept.
	cut := "procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu---- r b swpd free buff cache si so bi bo in cs us sy id wa 2 0 100 9700 7000 107000 0 0 6 10 120 24 10 2 89 0 3 0 11\n"
	if got := artifactOn(cut, KindVMStat, 1); !strings.Contains(got, "[2,0,100,9700,") || strings.Contains(got, "[3,0,11") {
		t.Errorf("cut row: %s", got)
	}
	// Counter-cases: prose naming vmstat's columns, or the header without a whole row.
	notReadAsFlat(t, KindVMStat,
		"In vmstat, the r b swpd free buff cache columns tell you 3 things: 1 queue, 2 memory and 4 swap.\n",
		"procs -----------memory---------- r b swpd free buff cache si so bi bo in cs us sy id wa 1 0 5\n")
}

func TestFix54eFlatMeminfo(t *testing.T) {
	const text = "# cat /proc/meminfo MemTotal: 2000000 kB MemFree: 1300000 kB MemAvailable: 1500000 kB Buffers: 2100 kB Cached: 290000 kB HugePages_Total: 0 Hugepagesize: 2048 kB Campos siguientes\n"
	readsAll(t, artifactOn(text, KindMemInfo, 1), `"MemTotal":2000000`, `"MemAvailable":1500000`, `"Cached":290000`, `"Hugepagesize":2048`)
	// Counter-case: a sentence naming two fields with one number is no meminfo.
	notReadAsFlat(t, KindMemInfo, "Compare MemTotal: with MemFree: 1300000 kB on your box.\n")
}

func TestFix54eFlatFree(t *testing.T) {
	const text = " total used free shared buffers cached Mem: 255000 246000 9000 0 6400 111000 -/+ buffers/cache: 128700 126300 Swap: 530000 111300 418700 \n"
	readsAll(t, artifactOn(text, KindFree, 1), "255000", "126300", "418700")
	// procps-ng 3.3.10+ layout, the prose after it its own.
	ng := "$ free total used free shared buff/cache available Mem: 8000000 2000000 4000000 10000 2000000 5700000 Swap: 2000000 0 2000000 so most is free\n"
	readsAll(t, artifactOn(ng, KindFree, 1), "5700000")
	// Counter-cases: the words in a sentence, a Mem: row short of the header's columns.
	notReadAsFlat(t, KindFree,
		"The total used free columns differ: Mem: is RAM and Swap: is the swap area.\n",
		"total used free shared buffers cached Mem: 255000 246000 Swap: 530000 111300 418700\n")
}

func TestFix54eFlatEthtoolRing(t *testing.T) {
	const text = "Ring parameters for eth1: Pre-set maximums: RX: 4096 RX Mini: 0 RX Jumbo: 0 TX: 4096 Current hardware settings: RX: 512 RX Mini: 0 RX Jumbo: 0 TX: 256 We can raise both.\n"
	readsAll(t, artifactOn(text, KindEthtoolG, 1), `"rx_max":4096`, `"rx":512`, `"tx":256`)
	// Counter-case: the title alone (the sizes below it or missing) is not cut.
	if ls := unflattenEthtoolRing("Ring parameters for eth0:"); ls != nil {
		t.Errorf("title alone cut: %q", ls)
	}
}

func TestFix54eFlatBeancountersAfterCommand(t *testing.T) {
	const text = "[root@vps]# cat /proc/user_beancounters Version: 2.5 uid resource held maxheld barrier limit failcnt 101: kmemsize 3000000 4400000 2147483646 2147483646 0 numproc 30 50 999999 999999 0 tcprcvbuf 3500000 6700000 104857600 286883840 0\n"
	got := artifactOn(text, KindBeancounters, 1)
	if !strings.Contains(got, `"held":3000000`) || !strings.Contains(got, `"maxheld":6700000`) {
		t.Errorf("flattened beancounters after the command: %s", got)
	}
	// Counter-case: the file named in prose, no header after it.
	if ls := unflattenBeancounters("Run cat /proc/user_beancounters and look at failcnt 0 or 1."); ls != nil {
		t.Errorf("prose cut: %q", ls)
	}
}

func TestFix54eFlatKernelLog(t *testing.T) {
	const text = "Nel syslog si legge:\nkernel: httpd invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0 kernel: Mem-Info: kernel: active_anon:31000 inactive_anon:3800000 isolated_anon:0 kernel: slab_reclaimable:8700 slab_unreclaimable:23300 kernel: free:33000 free_pcp:900 free_cma:0\n"
	tl := ParseString(text, "t", Options{})
	js, _ := json.Marshal(tl.Artifacts)
	readsAll(t, string(js), "3800000", "23300", "33000")
	// Counter-case: one "kernel: " record is no flattened log.
	if ls := unflattenTables("kernel: eth0: link up, see kernel: docs"); ls != nil {
		t.Errorf("two mentions cut: %q", ls)
	}
}
