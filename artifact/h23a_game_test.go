package artifact

import (
	"strings"
	"testing"
)

// Wings' crash notice with "Out of memory: false" is a terminated state (exit code 137:
// SIGKILL), no runtime OOM; game engines' own allocation lines are explained, not read as a
// kernel report (h23a).
func TestH23aWingsNoOOM(t *testing.T) {
	tl := ParseString("[Pterodactyl Daemon]: Exit code: 137\n[Pterodactyl Daemon]: Out of memory: false\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 0 {
		t.Fatalf("Out of memory: false read as an OOM: %+v", tl.RuntimeOOMs)
	}
	if s := terminatedIn(tl); s == nil || s.ExitCode == nil || *s.ExitCode != 137 || s.Signal == "" || s.Reason != "" {
		t.Fatalf("terminated state %+v", s)
	}
	tl = ParseString("[Pterodactyl Daemon]: Exit code: 137\n[Pterodactyl Daemon]: Out of memory: true\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 1 || !strings.HasPrefix(tl.RuntimeOOMs[0].Reporter, "Pterodactyl Wings") {
		t.Fatalf("Out of memory: true: %+v", tl.RuntimeOOMs)
	}
}

func TestH23aGameEngineOwnLines(t *testing.T) {
	for line, want := range map[string]string{
		"Could not allocate memory: System out of memory!":                 "Unity's",
		"Mem_Alloc: out of memory (alloc at ../engine/common/model.c:120)": "a Quake-family engine's (Xash3D",
		"Z_Malloc: failed on allocation of 1048576 bytes":                  "a Quake-family engine's zone",
		"Hunk_Alloc: failed on 4194304 bytes":                              "a Quake-family engine's hunk",
		"malloc(): memory corruption":                                      "glibc's heap check",
		"double free or corruption (!prev)":                                "glibc's heap check",
		"[2026-11-30 10:02:11] malloc(): corrupted top size":               "glibc's heap check",
	} {
		why, _, ok := webAppOwnLine(line)
		if !ok || !strings.HasPrefix(why, want) {
			t.Errorf("%q: %v %q", line, ok, why)
		}
	}
	for _, line := range []string{
		"Out of memory: Killed process 2233 (java) total-vm:7340032kB",
		"System out of memory on the host",
		"free(): the C library call",
	} {
		if why, _, ok := webAppOwnLine(line); ok && strings.Contains(why, "Unity") || ok && strings.Contains(why, "glibc") {
			t.Errorf("%q read as %q", line, why)
		}
	}
}

// LinuxGSM's details Memory block: the header row named "Mem:", the memory row "Physical:",
// numfmt's "3.8GB" (GiB). Its "free" column (MemAvailable or MemFree by version) is not read
// as MemFree. Counter-cases: top's "Mem:" summary stays top's; a "Physical:" row under free's
// own header is no row of free's.
func TestH23aLinuxGSMMemory(t *testing.T) {
	tl := ParseString("Memory\nMem:       total  used   free  cached  available\nPhysical:  3.8GB  3.6GB  78MB  145MB   78MB\nSwap:      2.0GB  1.9GB  84MB\n", "t", Options{})
	var s *FreeTable
	for _, a := range tl.Artifacts {
		if a.Kind == KindFree {
			s = a.Data.(*FreeTable)
		}
	}
	if s == nil || len(tl.Samples) != 1 {
		t.Fatalf("not read: %+v unparsed %+v", tl.Artifacts, tl.Unparsed)
	}
	m := tl.Samples[0]
	for k, want := range map[string]int64{"MemTotal": 3984589, "MemAvailable": 79872, "SwapTotal": 2097152, "SwapUsed": 1992294} {
		if v, ok := m.Mem(k); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", k, v, ok, want)
		}
	}
	if _, ok := m.Mem("MemFree"); ok {
		t.Errorf("LinuxGSM's free column read as MemFree")
	}
	tl = ParseString("top - 10:01:02 up 3 days,  1 user,  load average: 0.10, 0.20, 0.30\nMem:   4046236k total,  3960000k used,    86236k free,    10000k buffers\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindFree {
			t.Errorf("top's Mem: line read as LinuxGSM's: %+v", a)
		}
	}
	tl = ParseString("               total        used        free      shared  buff/cache   available\nPhysical:       3.8Gi       3.6Gi        92Mi       1.0Mi       145Mi        78Mi\n", "t", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("a Physical: row under free's header read: %+v", tl.Samples)
	}
}

// HotSpot's start-up refusals of -Xmx: the JVM's own, never a kernel OOM (h23a).
func TestH23aJVMHeapReserve(t *testing.T) {
	for line, oomWant := range map[string]bool{
		"Could not reserve enough space for 6291456KB object heap": true,
		"Invalid maximum heap size: -Xmx8G":                        false,
	} {
		why, oom, ok := jvmClusterLine(line)
		if !ok || oom != oomWant || !strings.HasPrefix(why, "HotSpot") {
			t.Errorf("%q: %v %v %q", line, ok, oom, why)
		}
	}
	if _, _, ok := jvmClusterLine("If you see Could not reserve enough space for the object heap, lower -Xmx"); ok {
		t.Errorf("advice read as the JVM's line")
	}
}
