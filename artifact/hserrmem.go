package artifact

import (
	"strconv"
	"strings"

	"headroom/model"
)

// HotSpot's line of the host's memory (h28d), written by os::print_memory_info
// (src/hotspot/os/linux/os_linux.cpp) into the crash file hs_err_pid<N>.log's SYSTEM
// section and, in JDK 8, at the top of every -Xloggc GC log:
//
//	Memory: 4k page, physical 16318160k(178928k free), swap 0k(0k free)
//
// "physical" is os::physical_memory() >> 10 (MemTotal, or a container's memory limit when
// the JVM runs under one), the figure in brackets os::available_memory() >> 10 (sysinfo's
// freeram in JDK 8, MemAvailable later: kept as MemFree, the lower of the two, so no
// shortage is made of it), swap the total and free swap. The host's memory when the JVM
// died, unlike the JVM's own limits (-Xmx, MaxDirectMemorySize) beside it. It proves no
// kill and no swapping under load (no rate). The same line of a JVM on Windows or macOS
// ("for windows-amd64", "for bsd-amd64" in the vm_info line just before it in a GC log) is
// another system's accounting and is not read.

// hsErrMemory: the figures of one such line, in kB; swap -1 when the line has none (macOS).
type hsErrMemory struct {
	PageKB, PhysicalKB, FreeKB, SwapKB, SwapFreeKB int64
}

// parseHsErrMemory reads t when it is the line. Cheap: the caller asked only lines whose
// first field is "Memory:".
func parseHsErrMemory(t string) (hsErrMemory, bool) {
	m := hsErrMemory{SwapKB: -1, SwapFreeKB: -1}
	k := strings.Index(t, "Memory: ")
	if k < 0 {
		return m, false
	}
	rest := t[k+len("Memory: "):]
	var ok bool
	if m.PageKB, rest, ok = hsErrKB(rest); !ok || !strings.HasPrefix(rest, " page, physical ") {
		return m, false
	}
	if m.PhysicalKB, rest, ok = hsErrKB(rest[len(" page, physical "):]); !ok || !strings.HasPrefix(rest, "(") {
		return m, false
	}
	if m.FreeKB, rest, ok = hsErrKB(rest[1:]); !ok || !strings.HasPrefix(rest, " free)") {
		return m, false
	}
	rest = rest[len(" free)"):]
	if s, found := strings.CutPrefix(rest, ", swap "); found {
		if m.SwapKB, rest, ok = hsErrKB(s); !ok || !strings.HasPrefix(rest, "(") {
			return m, false
		}
		if m.SwapFreeKB, rest, ok = hsErrKB(rest[1:]); !ok || !strings.HasPrefix(rest, " free)") {
			return m, false
		}
	}
	if m.PhysicalKB <= 0 || m.FreeKB > m.PhysicalKB || m.SwapFreeKB > m.SwapKB {
		return m, false
	}
	return m, true
}

// hsErrKB reads "<digits>k" at the start of s and returns the rest after the k.
func hsErrKB(s string) (int64, string, bool) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 15 || n >= len(s) || s[n] != 'k' {
		return 0, s, false
	}
	v, err := strconv.ParseInt(s[:n], 10, 64)
	return v, s[n+1:], err == nil
}

// hsErrOtherOS: the lines just before i name a HotSpot built for Windows or macOS.
func (d *doc) hsErrOtherOS(i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		t := d.ls[k].Text
		if strings.Contains(t, " for windows-") || strings.Contains(t, " for bsd-") || strings.Contains(t, " for macosx-") {
			return true
		}
	}
	return false
}

// isHsErrMemory: the registry's detect (formats.go).
func isHsErrMemory(_, t string) bool {
	return strings.Contains(t, "k page, physical ")
}

// tryHsErrMemory reads the line as free's Mem and Swap rows would be read (a KindFree
// table whose label names HotSpot): MemTotal, MemFree, SwapTotal, SwapFree.
func (d *doc) tryHsErrMemory(i int) int {
	m, ok := parseHsErrMemory(d.ls[i].Text)
	if !ok || d.hsErrOtherOS(i) {
		return 0
	}
	tb := &FreeTable{Columns: []string{"total", "free"}, Rows: map[string][]int64{"Mem": {m.PhysicalKB, m.FreeKB}}, Unit: "KiB",
		Label: "HotSpot hs_err_pid/GC log \"Memory: Nk page, physical ...\" (os::print_memory_info)",
		Note:  "the host's memory as the JVM saw it (a container's limit when it ran under one); the free figure is MemFree or MemAvailable by JDK version, kept as MemFree"}
	if m.SwapKB >= 0 {
		tb.Rows["Swap"] = []int64{m.SwapKB, m.SwapFreeKB}
	}
	first := d.ls[i].No
	d.segSeq++
	if d.keep.samples[KindMemInfo] > 0 {
		// hs_err's own /proc/meminfo section above it holds these and more (MemAvailable,
		// Committed_AS): the line is kept as the table, not as a second sample.
		d.addArtifact(KindFree, first, first, tb)
		return 1
	}
	mem := freeMemInfo(tb)
	d.addSamples(KindFree, tb.Label, first, first, []model.Sample{{Source: spanSource(first, first), MemInfo: mem}})
	d.host.memTotal(m.PhysicalKB, 2)
	d.addArtifact(KindFree, first, first, tb)
	return 1
}
