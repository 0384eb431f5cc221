package diagnose

import (
	"strings"
	"testing"
)

// h28c: desktop memory daemons' own lines, from their sources (hakavlad/nohang src/nohang,
// systemd src/oom/oomd-util.c and oomd-manager.c), in the forms users paste them.

// h28cForms puts text bare, in a markdown fence and quoted in a mail.
func h28cForms(text string) map[string]string {
	return map[string]string{
		"bare":  text,
		"fence": "```\n" + text + "```\n",
		"mail":  h17aPrefix(text, "> "),
	}
}

// h28cFires: text in each of its forms fires rule id as a warning with the evidence named.
func h28cFires(t *testing.T, id, text, what, value string) {
	t.Helper()
	for name, form := range h28cForms(text) {
		if f := mustFire(t, run(t, id, parseText19b(t, form)), Warning); !evidenceHas(f, what, value) {
			t.Errorf("%s: %+v", name, f.Evidence)
		}
	}
}

// h28cNone: none of the texts fires rule id; with unread, none is even checked by it.
func h28cNone(t *testing.T, id string, unread bool, cases map[string]string) {
	t.Helper()
	for name, text := range cases {
		res := run(t, id, parseText19b(t, text))
		if len(res.Findings) > 0 || unread && res.NotChecked == "" {
			t.Errorf("%s: %s checked (%s), findings %+v", name, id, res.Checked, res.Findings)
		}
	}
}

// nohang's kill (implement_corrective_action) is a kill for low memory by a userspace
// killer: oom-kill, the victim from the "Victim status" block before it.
func TestH28cNohangKill(t *testing.T) {
	journal := `Nov 30 11:02:03 desk nohang[901]: Memory status that requires corrective actions:
Nov 30 11:02:03 desk nohang[901]:   MemAvailable [88 MiB, 1.1 %] <= soft_threshold_min_mem [794 MiB, 10.0 %]
Nov 30 11:02:03 desk nohang[901]:   SwapFree [0 MiB, 0.0 %] <= soft_threshold_min_swap [0 MiB, 0 %]
Nov 30 11:02:03 desk nohang[901]: Victim status (found in 12ms):
Nov 30 11:02:03 desk nohang[901]:   PID:       4321, name: chromium, state: R (running), EUID: 1000, SID: 1200 (bash), lifetime: 2h 3min
Nov 30 11:02:03 desk nohang[901]:   badness:   900, oom_score:  900, oom_score_adj:  0
Nov 30 11:02:03 desk nohang[901]: Implementing a corrective action:
Nov 30 11:02:03 desk nohang[901]:   Sending SIGTERM to the victim
Nov 30 11:02:03 desk nohang[901]: OK; total response time: 34ms
`
	f := mustFire(t, run(t, "oom-kill", parseText19b(t, journal)), Warning)
	if !evidenceHas(f, "nohang (SIGTERM)", "chromium (pid 4321)") {
		t.Errorf("journal: %+v", f.Evidence)
	}
	old := "  Finding the process with the highest badness\n  Victim is java, pid: 2211, badness: 1020, VmRSS: 11520 MiB, VmSwap: 0 MiB\n  Sending SIGKILL to the victim; OK; response time: 21 ms\n"
	h28cFires(t, "oom-kill", old, "nohang (SIGKILL)", "java (pid 2211)")
	// Counter-cases: the words in a sentence, a question, another program's syslog line.
	h28cNone(t, "oom-kill", false, map[string]string{
		"sentence": "nohang docs say it logs Sending SIGTERM to the victim when it acts; mine never did.\nMemAvailable: 7.1 GiB\n",
		"question": "Why is nohang sending SIGTERM to the victim so early?\nfree shows 7.1Gi available\n",
		"other":    "Nov 30 11:02:03 desk myapp[77]: Sending SIGTERM to the victim\n",
	})
}

// nohang's PSI trigger of later releases, and the threshold under any PSI setting's name:
// direct-reclaim-stalls (judged as "some"), with MemAvailable at 90%.
func TestH28cNohangPSITrigger(t *testing.T) {
	for _, text := range []string{
		"Memory status that requires corrective actions:\n  MemAvailable [7012 MiB, 90.6 %] <= soft_threshold_min_mem [7740 MiB, 100.0 %]\n  Current PSI metric value (85.81) >= soft_threshold_max_psi (60)\n  PSI metric value exceeded psi_excess_duration (60.0s) for 61.2s\n",
		"Memory status that requires corrective actions:\n  PSI avg (85.81) > soft_max_psi (60)\nMemAvailable: 90.6%\n",
	} {
		h28cFires(t, "direct-reclaim-stalls", text, "OOM daemon", "peak 85.81%")
	}
	// Counter-cases: a setting, a recommendation, a sentence; none is a measured value.
	h28cNone(t, "direct-reclaim-stalls", true, map[string]string{
		"setting":   "    soft_threshold_max_psi:   60\n",
		"advice":    "Set soft_threshold_max_psi (60) higher if nohang acts too early.\n",
		"sentence":  "The PSI avg (85) was above the limit, nohang said.\n",
		"other tag": "Nov 30 11:02:03 desk myapp[77]: Current PSI metric value (85.81) >= soft_threshold_max_psi (60)\n",
	})
}

// systemd-oomd's pressure: the kill's "being P% > L%" and a dump's "Pressure: Avg10: ..."
// (oomctl, a kill's candidates; commas after the figures in later releases).
func TestH28cOomdPressure(t *testing.T) {
	kill := "Nov 30 12:00:01 ws systemd-oomd[650]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-1234.scope due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 57.42% > 50.00% for > 20s with reclaim activity\n"
	tl := parseText19b(t, kill)
	mustFire(t, run(t, "oom-kill", tl), Warning)
	if f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning); !evidenceHas(f, "OOM daemon", "peak 57.42%") {
		t.Errorf("kill: %+v", f.Evidence)
	}
	oomctl := "Dry Run: no\nSwap Used Limit: 90.00%\nDefault Memory Pressure Limit: 60.00%\nDefault Memory Pressure Duration: 20s\nSystem Context:\n\tMemory: Used: 7.4G Total: 7.6G\n\tSwap: Used: 3.9G Total: 3.9G\nSwap Monitored CGroups:\nMemory Pressure Monitored CGroups:\n\tPath: /user.slice/user-1000.slice/user@1000.service\n\t\tMemory Pressure Limit: 50.00%\n\t\tPressure: Avg10: %s Avg60: 40.33 Avg300: 12.80 Total: 1min 2s\n\t\tCurrent Memory Usage: 6.8G\n\t\tMemory Min: 0B\n\t\tMemory Low: 0B\n\t\tPgscan: 9876543\n\t\tLast Pgscan: 9800000\n"
	h28cFires(t, "direct-reclaim-stalls", strings.Replace(oomctl, "%s", "64.12", 1), "OOM daemon", "peak 64.12%")
	f := mustFire(t, run(t, "direct-reclaim-stalls", parseText19b(t, "Pressure: Avg10: 71.20, Avg60: 23.08, Avg300: 5.40, Total: 56s\n")), Warning)
	if !evidenceHas(f, "OOM daemon", "peak 71.20%") {
		t.Errorf("commas: %+v", f.Evidence)
	}
	// A healthy dump stays healthy; its full swap without a rate is no swap-under-load.
	healthy := parseText19b(t, strings.Replace(oomctl, "%s", "0.00", 1))
	mustBeHealthy(t, run(t, "direct-reclaim-stalls", healthy))
	if res := run(t, "swap-under-load", healthy); len(res.Findings) > 0 {
		t.Errorf("healthy oomctl: swap-under-load %+v", res.Findings)
	}
	// Counter-case: the words in a sentence are not oomd's line.
	h28cNone(t, "direct-reclaim-stalls", true, map[string]string{"sentence": "oomctl shows the Pressure: Avg10: 64.12 for my session\n"})
}

// swapon --show (util-linux show_table): its rows' sums are the swap's size and use. An
// exhausted swap fires swap-under-load without a rate (fix19b's snapshot rule); a swap
// merely occupied does not, nor does lsblk's or zramctl's table under "NAME".
func TestH28cSwaponShow(t *testing.T) {
	full := "$ swapon --show\nNAME       TYPE      SIZE  USED PRIO\n/dev/zram0 partition 7.7G  7.6G  100\n/dev/sda3  partition   8G  7.9G   -2\n"
	h28cFires(t, "swap-under-load", full, "swap used", "(99%)")
	h28cNone(t, "swap-under-load", false, map[string]string{
		"occupied": "$ swapon --show\nNAME      TYPE SIZE  USED PRIO\n/swapfile file   8G  5.9G   -2\n",
		"bytes":    "$ swapon --show --bytes\nNAME      TYPE       SIZE       USED PRIO\n/swapfile file 8589934592 1073741824   -2\n",
		"lsblk":    "NAME   MAJ:MIN RM  SIZE RO TYPE MOUNTPOINTS\nzram0  252:0    0  7.7G  0 disk [SWAP]\n",
		"zramctl":  "NAME       ALGORITHM DISKSIZE   DATA  COMPR  TOTAL STREAMS MOUNTPOINT\n/dev/zram0 zstd          7.7G   7.6G 301.5M 312.8M       8 [SWAP]\n",
	})
	// The size is read: a swap used to 12% of 8 GiB in bytes.
	tl := parseText19b(t, "NAME      TYPE       SIZE       USED PRIO\n/swapfile file 8589934592 1073741824   -2\n")
	if len(tl.Samples) == 0 || tl.Samples[0].MemInfo == nil {
		t.Fatalf("swapon --show --bytes not read")
	}
	if v, _ := tl.Samples[0].MemInfo.Get("SwapTotal"); v != 8388608 {
		t.Errorf("SwapTotal %d kB, want 8388608", v)
	}
}
