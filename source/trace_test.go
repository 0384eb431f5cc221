package source

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Stalls pair per task in time order, whatever CPU each event was read from; an end
// without its begin (begun before the window) is not a stall, a begin without its end is
// open.
func TestPairStalls(t *testing.T) {
	ms := uint64(time.Millisecond)
	evs := []traceStallEvent{
		{ts: 50 * ms, pid: 7, kind: 'r', begin: true},
		{ts: 10 * ms, pid: 9, kind: 'r', begin: false}, // began before the window
		{ts: 20 * ms, pid: 7, kind: 'r', begin: true},
		{ts: 30 * ms, pid: 7, kind: 'r', begin: false}, // read from another CPU, later
		{ts: 90 * ms, pid: 7, kind: 'r', begin: false},
		{ts: 40 * ms, pid: 8, kind: 'r', begin: true},
		{ts: 45 * ms, pid: 8, kind: 'c', begin: true},
		{ts: 46 * ms, pid: 8, kind: 'c', begin: false},
		{ts: 95 * ms, pid: 11, kind: 'r', begin: true}, // still stalled at the end
	}
	names := map[int]string{7: "java", 8: "nginx"}
	s, open := pairStalls(evs, 'r', func(p int) string { return names[p] })
	if s.Count != 2 || s.Total != 50*time.Millisecond || s.Max != 40*time.Millisecond || s.Open != 2 {
		t.Errorf("reclaim %+v", s)
	}
	if len(s.Tasks) != 1 || s.Tasks[0].Comm != "java" || s.Tasks[0].Count != 2 {
		t.Errorf("tasks %+v", s.Tasks)
	}
	// The open begins carry to the next part of a recording, where their ends are.
	next, _ := pairStalls(append(open, traceStallEvent{ts: 120 * ms, pid: 11, kind: 'r'}), 'r', func(int) string { return "" })
	if next.Count != 1 || next.Total != 25*time.Millisecond || next.Open != 1 {
		t.Errorf("next part %+v (open %+v)", next, open)
	}
	c, _ := pairStalls(evs, 'c', func(p int) string { return names[p] })
	if c.Count != 1 || c.Total != time.Millisecond || c.Tasks[0].Comm != "nginx" {
		t.Errorf("compaction %+v", c)
	}
}

// The text mechanism reads trace_pipe's lines as the kernel prints them.
func TestDecodeText(t *testing.T) {
	tr := &Tracer{}
	a := &traceAgg{byName: map[string]uint64{}, byLocName: map[[2]string]uint64{}}
	for _, l := range []string{
		"          <idle>-0       [001] ..s2.  9504.277436: kfree_skb: skbaddr=00000000a5b1c1d4 rx_sk=0000000000000000 protocol=2048 location=udp_queue_rcv_one_skb+0x437/0x4f0 reason: SOCKET_RCVBUFF",
		"   hr-flood-1234    [000] b..1.  9504.277500: kfree_skb: skbaddr=00000000a5b1c1d5 rx_sk=0000000000000000 protocol=2048 location=udp_queue_rcv_one_skb+0x437/0x4f0 reason: SOCKET_RCVBUFF",
		"            java-4242    [000] .....  9504.300000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE",
		"            java-4242    [001] .....  9504.312500: mm_vmscan_direct_reclaim_end: nr_reclaimed=32",
		"            java-4242    [001] .....  9504.312600: mm_page_alloc_extfrag: page=000000003a7d4a1b pfn=0x12345 alloc_order=0 fallback_order=9",
		"garbage",
	} {
		tr.decodeText(a, []byte(l))
	}
	if a.drops != 2 || a.byName["SOCKET_RCVBUFF"] != 2 || a.byLocName[[2]string{"SOCKET_RCVBUFF", "udp_queue_rcv_one_skb+0x437"}] != 2 || a.extfrag != 1 {
		t.Errorf("drops %d by reason %v by location %v extfrag %d", a.drops, a.byName, a.byLocName, a.extfrag)
	}
	s, _ := pairStalls(a.stalls, 'r', func(int) string { return "" })
	if s.Count != 1 || s.Max.Round(time.Microsecond) != 12500*time.Microsecond || s.Tasks[0].PID != 4242 {
		t.Errorf("stalls %+v", s)
	}
}

// A kernel before 5.17: skb:kfree_skb without its reason, and no vmscan or compaction
// events here. The window is still traced (drops by location), and what is missing is
// named with what it needs, never an error.
func TestReadFormatsBeforeReasons(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("../kernel/testdata/tracefs/header_page", filepath.Join(dir, "events/header_page"))
	copyFile("../kernel/testdata/tracefs/kfree_skb-5.10.format", filepath.Join(dir, "events/skb/kfree_skb/format"))
	tr := &Tracer{mount: dir, agg: newTraceAgg()}
	if err := tr.readFormats(); err != nil {
		t.Fatal(err)
	}
	if tr.kfree == nil || tr.kfree.reasons != nil || tr.kfree.id != 1310 {
		t.Fatalf("kfree_skb %+v", tr.kfree)
	}
	var why []string
	for _, u := range tr.notTrace {
		why = append(why, u.What+": "+u.Why)
	}
	got := strings.Join(why, "\n")
	for _, want := range []string{"skb drop reasons: skb:kfree_skb has no reason field (needs Linux 5.17+)", "vmscan:mm_vmscan_direct_reclaim_begin: not in this kernel (needs", "compaction:mm_compaction_end: not in this kernel"} {
		if !strings.Contains(got, want) {
			t.Errorf("not traced:\n%s\nwant %q", got, want)
		}
	}
	// A drop decoded with the 5.10 layout counts by location only.
	rec := make([]byte, 32)
	binary.NativeEndian.PutUint16(rec, 1310)
	binary.NativeEndian.PutUint64(rec[16:], 0xffffffff81a00137)
	tr.decode(&tr.agg, 1, rec)
	w, _ := tr.window(time.Second, 0)
	if w.Reasons || w.DropsTotal != 1 || len(w.Drops) != 0 || len(w.Locations) != 1 || w.Reclaim != nil || w.Extfrag != nil {
		t.Errorf("window %+v", w)
	}
	// Nothing at all: not available, with what it needs.
	tr = &Tracer{mount: t.TempDir()}
	var na *TraceUnavailable
	if err := tr.readFormats(); !errors.As(err, &na) || !strings.Contains(na.Why, "needs root") {
		t.Errorf("no header_page: %v", err)
	}
}
