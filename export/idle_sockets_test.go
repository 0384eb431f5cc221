package export

import (
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/internal/testkit"
	"headroom/kernel"
	"headroom/model"
)

// serve exports what doctor finds (issue 27): 800 idle connections on a 24 GiB host with its
// boot tcp_mem (2.2 GiB) and 0 pages of TCP memory give no tcp-buffers-exceed-budget finding
// (it used to be critical: "800 connections × 36 MiB of buffer maxima = 28.1 GiB"), and the
// same connections all busy give a note, never a warning or a critical the alert rules fire
// on.
func TestIdleSocketsExportNoBufferFinding(t *testing.T) {
	build := func(holding int64) *model.Timeline {
		tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceLive, Name: "test"}}
		tl.Host.SetPageSize(4096)
		tl.Host.Arch, tl.Host.WordBits, tl.Host.Kernel, tl.Host.MemTotalKB = "x86_64", 64, "6.18.44", 24684084
		tl.Host.Sysctls = map[string]string{"net.ipv4.tcp_rmem": "4096 131072 33554432", "net.ipv4.tcp_wmem": "4096 16384 4194304",
			"net.ipv4.tcp_mem": "287898 383867 575796"}
		s := model.Sample{Time: time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC), Source: "/proc"}
		s.Sockets = &kernel.SocketSummary{Total: 801, ByState: map[string]kernel.SocketStateTotal{
			"ESTABLISHED": {Count: 800, Holding: holding, MemBytes: holding * 65536}, "LISTEN": {Count: 1}}}
		s.SockStat = kernel.Groups{{Name: "TCP", Counters: *testkit.Counters("inuse", 801, "mem", int(holding*16))}}
		tl.Samples = []model.Sample{s}
		return tl
	}
	severity := func(tl *model.Timeline) (string, bool) {
		b := &pointBuf{labels: &labelCache{}}
		findingMetrics(b, diagnose.Run(tl, nil))
		for _, p := range b.out {
			if p.d == mFinding && p.ls.values[0] == "tcp-buffers-exceed-budget" {
				return p.ls.values[1], true
			}
		}
		return "", false
	}
	if sev, ok := severity(build(0)); ok {
		t.Errorf("800 idle connections: headroom_finding{id=\"tcp-buffers-exceed-budget\"} exported as %s", sev)
	}
	if sev, ok := severity(build(800)); !ok || sev != "info" {
		t.Errorf("800 busy connections: exported %q (%v), want info", sev, ok)
	}
}
