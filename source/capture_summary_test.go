package source_test

// An external test package: report imports record, which imports source, so a test that
// compares through report.Summarize cannot live in package source.

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/kernel"
	"headroom/model"
	"headroom/report"
	"headroom/source"
)

// staticSummary keeps the parts of a summary that do not move between two reads a second
// apart: facts, watermarks, limits, interface properties.
type staticSummary struct {
	Host   model.Host
	Zones  [][4]any
	NICs   []report.NICSummary
	TCPMem []int64
}

func static(tl *model.Timeline) staticSummary {
	s := report.Summarize(tl)
	h := tl.Host
	h.Sysctls, h.SysctlSource = nil, nil
	st := staticSummary{Host: h, NICs: s.NICs}
	for _, z := range s.Zones {
		st.Zones = append(st.Zones, [4]any{z.Node, z.Zone, z.MinKB, z.HighKB})
	}
	if s.TCPMem != nil {
		st.TCPMem = s.TCPMem.Limits
	}
	return st
}

// A capture of this host read back gives the same host summary as the live host.
func TestCaptureRoundTripMatchesLive(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	ctx := context.Background()
	var buf bytes.Buffer
	if _, err := source.Capture(kernel.HostRoot(), &buf); err != nil {
		t.Fatal(err)
	}
	live, err := source.Collect(ctx, kernel.HostRoot(), source.CollectOptions{Options: source.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(buf.Bytes())
	captured, err := source.Collect(ctx, kernel.TxtarRoot(a, "h.txtar"), source.CollectOptions{Options: source.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if captured.Source.Kind != model.SourceCapture || live.Source.Kind != model.SourceLive {
		t.Errorf("source kinds %q %q", captured.Source.Kind, live.Source.Kind)
	}
	ls, cs := static(live), static(captured)
	if !reflect.DeepEqual(ls, cs) {
		t.Errorf("captured summary differs from live:\nlive     %+v\ncaptured %+v", ls, cs)
	}
	if cs.Host.Kernel == "" || cs.Host.PageSize == 0 || cs.Host.MemTotalKB == 0 || len(cs.Zones) == 0 {
		t.Errorf("captured summary is missing basics: %+v", cs)
	}
	// The sysctls rules read come through, value for value.
	for k, v := range live.Host.Sysctls {
		if k == "net.netfilter.nf_conntrack_count" {
			continue // moves by itself
		}
		if got := captured.Host.Sysctls[k]; got != v {
			t.Errorf("sysctl %s: captured %q, live %q", k, got, v)
		}
	}
	// The socket dump round-trips through the capture's own file.
	if live.Last().Sockets != nil && captured.Last().Sockets == nil {
		t.Error("live host had a socket dump, the capture has none")
	}
}
