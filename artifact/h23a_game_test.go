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
