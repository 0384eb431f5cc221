package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// idleHost is issue 27's reproduction, built as a Timeline: this project's 24 GiB machine with
// its own boot defaults (tcp_rmem max 32 MiB, tcp_wmem max 4 MiB, tcp_mem 287898 383867
// 575796 pages = 2.2 GiB) carrying n established connections. holding of them hold memBytes
// each (skmem's rmem_alloc + wmem_queued + fwd_alloc); sockstat counts TCP's pages.
func idleHost(n, holding int, memBytes int64) *model.Timeline {
	tl := timeline(1)
	host64(tl)
	tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 131072 33554432"
	tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
	tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
	st := kernel.SocketStateTotal{Count: int64(n), MemBytes: int64(holding) * memBytes, Holding: int64(holding)}
	tl.Samples[0].Sockets = &kernel.SocketSummary{Total: int64(n) + 1, ByState: map[string]kernel.SocketStateTotal{
		"ESTABLISHED": st, "LISTEN": {Count: 1}}}
	tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", n+1, "mem", int(int64(holding)*memBytes/4096))}
	return tl
}

// 800 idle loopback connections on a healthy host: TCP holds 0 pages and tcp_mem caps it at
// 2.2 GiB of 24 GiB, so connections × maxima (28.1 GiB) is no exposure at all. Before the
// model of issue 27 this was critical ("more than all of MemTotal") and doctor exited 2.
func TestTCPBuffersIdleSocketsAreNoExposure(t *testing.T) {
	tl := idleHost(800, 0, 0)
	for _, f := range run(t, "tcp-buffers-exceed-budget", tl).Findings {
		t.Errorf("%s: %s", f.Severity, f.Title)
	}
	for _, f := range Run(tl, nil).Findings {
		if f.Severity >= Warning && strings.HasPrefix(f.ID, "tcp-") {
			t.Errorf("whole run: %s %s: %s", f.Severity, f.ID, f.Title)
		}
	}
}

// The same 800 connections all moving data (64 KiB held each): at their maxima they would
// pass tcp_mem's pressure threshold, which is a note (they would throttle each other), not a
// risk to the host: tcp_mem fits the memory.
func TestTCPBuffersBusyFlowsOverPressureAreANote(t *testing.T) {
	tl := idleHost(800, 800, 64<<10)
	f := mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Info)
	if !strings.Contains(f.Title, "800 busy connections") || !evidenceHas(f, "exposure", "2.2 GiB") || !evidenceHas(f, "TCP memory now", "12800 pages") {
		t.Errorf("%s: %+v", f.Title, f.Evidence)
	}
	// Two busy flows of the 800 (2 × 36 MiB) stay within pressure: healthy, and it says why.
	mustBeHealthyNaming(t, run(t, "tcp-buffers-exceed-budget", idleHost(800, 2, 64<<10)), "800 connections, 2 busy")
}
