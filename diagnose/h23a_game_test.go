package diagnose

import (
	"strings"
	"testing"
)

// Game servers on small VPS hosts (h23a). Pterodactyl Wings' crash notice ("Exit code: N" /
// "Out of memory: %t", docker's State.OOMKilled) reaches oom-kill when true and never when
// false; free -h's swap nearly used up while RAM is short reaches swap-under-load.
func TestH23aWingsCrashNotice(t *testing.T) {
	const head = "[Pterodactyl Daemon]: ---------- Detected server process in a crashed state! ----------\n"
	for name, text := range map[string]string{
		"prefixed": head + "[Pterodactyl Daemon]: Exit code: 137\n[Pterodactyl Daemon]: Out of memory: true\n" +
			"[Pterodactyl Daemon]: Aborting automatic restart, last crash occurred less than 60 seconds ago.\n",
		"bare, fenced": "console:\n```\nExit code: 137\nOut of memory: true\n```\n",
		"quoted mail":  "> [Pterodactyl Daemon]: Exit code: 137\n> [Pterodactyl Daemon]: Out of memory: true\n",
	} {
		f := mustFire(t, run(t, "oom-kill", parseText19b(t, text)), Warning)
		if len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].What, "Pterodactyl Wings' crash notice") {
			t.Errorf("%s: %+v", name, f)
		}
	}
	quiet := map[string]string{
		"false, 137": head + "[Pterodactyl Daemon]: Exit code: 137\n[Pterodactyl Daemon]: Out of memory: false\n",
		"false, 1":   head + "[Pterodactyl Daemon]: Exit code: 1\n[Pterodactyl Daemon]: Out of memory: false\n",
		"sentence":   "The console says Out of memory: true but the VPS has 8 GB free, why?\n",
		"no code":    "[Pterodactyl Daemon]: Out of memory: true\n",
		"code apart": "[Pterodactyl Daemon]: Exit code: 137\nthen after a while\n[Pterodactyl Daemon]: Out of memory: true\n",
	}
	for name, text := range quiet {
		if res := run(t, "oom-kill", parseText19b(t, text)); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning {
			t.Errorf("%s: fired %+v", name, res.Findings[0])
		}
	}
}

func TestH23aFreeSwapWithMemoryShort(t *testing.T) {
	const hdr = "$ free -h\n               total        used        free      shared  buff/cache   available\n"
	f := mustFire(t, run(t, "swap-under-load", parseText19b(t, hdr+
		"Mem:           3.8Gi       3.6Gi        92Mi       1.0Mi       145Mi        78Mi\n"+
		"Swap:          2.0Gi       1.9Gi        84Mi\n")), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "1992294 of 2097152 kB (95%) while 79872 of 3984589 kB RAM (2%) is available") {
		t.Errorf("free -h: %+v", f)
	}
	f = mustFire(t, run(t, "swap-under-load", parseText19b(t, hdr+
		"Mem:           7.7Gi       7.3Gi       120Mi       3.0Mi       280Mi       210Mi\n"+
		"Swap:          4.0Gi       2.6Gi       1.4Gi\n")), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "is available: the working set exceeds RAM") {
		t.Errorf("65%% swap, memory short: %+v", f)
	}
	f = mustFire(t, run(t, "swap-under-load", parseText19b(t, "Memory\nMem:       total  used   free  cached  available\n"+
		"Physical:  3.8GB  3.6GB  78MB  145MB   78MB\nSwap:      2.0GB  1.9GB  84MB\n")), Warning)
	if !evidenceHas(f, "swap used (one snapshot)", "1992294 of 2097152 kB (95%) while 79872 of 3984589 kB RAM (2%) is available") {
		t.Errorf("LinuxGSM details: %+v", f)
	}
	quiet := map[string]string{
		"LinuxGSM healthy": "Memory\nMem:       total  used   free   cached  available\nPhysical:  15GB   2.1GB  12GB   3.1GB   12GB\nSwap:      4.0GB  0B     4.0GB\n",
		"giga healthy": "$ free --giga\n               total        used        free      shared  buff/cache   available\n" +
			"Mem:              16           3           9           0           3          12\nSwap:              4           0           4\n",
		"swap parked, memory available": hdr + "Mem:           7.7Gi       2.1Gi       1.9Gi       3.0Mi       3.7Gi       5.3Gi\n" +
			"Swap:          4.0Gi       3.1Gi       0.9Gi\n",
		"memory short, swap little used": hdr + "Mem:           3.8Gi       3.6Gi        92Mi       1.0Mi       145Mi        78Mi\n" +
			"Swap:          2.0Gi       600Mi       1.4Gi\n",
		"recommendation": "Set swap to 2.0Gi and keep at least 1.9Gi used by the JVM heap, with 78Mi available is fine.\n",
	}
	for name, text := range quiet {
		if res := run(t, "swap-under-load", parseText19b(t, text)); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning {
			t.Errorf("%s: fired %+v", name, res.Findings[0])
		}
	}
}
