package kernel

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"
)

func readTraceFormat(t *testing.T, name string) TraceFormat {
	t.Helper()
	f, err := os.Open("testdata/tracefs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fm, err := ParseTraceFormat(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return fm
}

// The reason names come from the format file's __print_symbolic table (6.18 here), never a
// table of ours: SOCKET_RCVBUFF is 6 on 6.18.
func TestParseTraceFormatKfreeSkb(t *testing.T) {
	fm := readTraceFormat(t, "kfree_skb.format")
	if fm.Name != "kfree_skb" || fm.ID != 2310 {
		t.Errorf("name %q ID %d", fm.Name, fm.ID)
	}
	loc, ok := fm.Field("location")
	if !ok || loc.Offset != 16 || loc.Size != 8 || loc.Type != "void *" {
		t.Errorf("location field %+v %v", loc, ok)
	}
	r, ok := fm.Field("reason")
	if !ok || r.Offset != 36 || r.Size != 4 || r.Type != "enum skb_drop_reason" {
		t.Errorf("reason field %+v %v", r, ok)
	}
	names := fm.Symbolic["reason"]
	for v, want := range map[uint64]string{2: "NOT_SPECIFIED", 6: "SOCKET_RCVBUFF", 20: "PROTO_MEM", 71: "CPU_BACKLOG", 80: "FULL_RING", 81: "NOMEM", 123: "PFMEMALLOC", 128: "MAX"} {
		if names[v] != want {
			t.Errorf("reason %d = %q, want %q", v, names[v], want)
		}
	}
	if len(names) != 127 {
		t.Errorf("%d reason names, want 127 (2..128)", len(names))
	}
	ce := readTraceFormat(t, "mm_compaction_end.format")
	if ce.Symbolic["status"][8] != "success" || len(ce.Symbolic["status"]) != 9 {
		t.Errorf("compaction status names %v", ce.Symbolic["status"])
	}
	// A __print_flags table (gfp_flags) is not a symbolic one.
	rb := readTraceFormat(t, "mm_vmscan_direct_reclaim_begin.format")
	if len(rb.Symbolic) != 0 {
		t.Errorf("direct_reclaim_begin symbolic tables %v", rb.Symbolic)
	}
}

// Before 5.17 skb:kfree_skb had no reason (include/trace/events/skb.h, 5.10).
func TestParseTraceFormatKfreeSkbBeforeReasons(t *testing.T) {
	fm := readTraceFormat(t, "kfree_skb-5.10.format")
	if _, ok := fm.Field("reason"); ok {
		t.Error("a reason field in 5.10's format")
	}
	if l, ok := fm.Field("location"); !ok || l.Offset != 16 {
		t.Errorf("location %+v", l)
	}
}

func TestParseTraceFormatBad(t *testing.T) {
	for _, in := range []string{
		"",
		"name: x\nformat:\n",
		"name: x\nID: 70000\n",
		"name: x\nID: 1\n\tfield:int a;\toffset:x;\tsize:4;\n",
		"name: x\nID: 1\n\tfield:int a;\tsize:4;\n",
	} {
		if _, err := ParseTraceFormat(strings.NewReader(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// A page read from trace_pipe_raw on 6.18 after 40 UDP datagrams to a closed loopback port:
// every one freed as NO_SOCKET.
func TestParseTracePageReal(t *testing.T) {
	hf, err := os.Open("testdata/tracefs/header_page")
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseTracePageHeader(hf)
	hf.Close()
	if err != nil {
		t.Fatal(err)
	}
	if h.CommitOffset != 8 || h.CommitSize != 8 || h.DataOffset != 16 {
		t.Fatalf("header %+v", h)
	}
	page, err := os.ReadFile("testdata/tracefs/kfree_skb-page.bin")
	if err != nil {
		t.Fatal(err)
	}
	fm := readTraceFormat(t, "kfree_skb.format")
	rf, _ := fm.Field("reason")
	count := map[string]int{}
	var last uint64
	n := 0
	p, err := ParseTracePage(h, page, func(ts uint64, rec []byte) {
		n++
		if ts < last {
			t.Errorf("time went back: %d after %d", ts, last)
		}
		last = ts
		if binary.NativeEndian.Uint16(rec) != fm.ID {
			return
		}
		r, _ := rf.Uint(rec)
		count[fm.Symbolic["reason"][r]]++
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Missed {
		t.Error("missed events on the fixture page")
	}
	if count["NO_SOCKET"] < 40 {
		t.Errorf("reasons %v in %d events, want 40 NO_SOCKET", count, n)
	}
}

// Hand-made pages: each event type, the missed flags, and pages cut short.
func TestParseTracePageTypes(t *testing.T) {
	h := TracePageHeader{TimestampSize: 8, CommitOffset: 8, CommitSize: 8, DataOffset: 16}
	var d bytes.Buffer
	w32 := func(v uint32) { binary.Write(&d, binary.NativeEndian, v) }
	hdr := func(typeLen, delta uint32) uint32 {
		if hostBigEndian {
			return typeLen<<27 | delta
		}
		return delta<<5 | typeLen
	}
	w32(hdr(2, 10)) // 8 bytes of data at +10
	w32(0xAAAA)
	w32(0xBBBB)
	w32(hdr(30, 1)) // time extend: +1 + 2<<27
	w32(2)
	w32(hdr(0, 5)) // long event: length in array[0] (4 + 8 of data)
	w32(12)
	w32(0xCCCC)
	w32(0xDDDD)
	w32(hdr(29, 3)) // discarded event of 4 bytes
	w32(4)
	w32(hdr(1, 7)) // 4 bytes
	w32(0xEEEE)
	w32(hdr(29, 0)) // rest of the page is padding
	w32(0xFFFF)
	data := d.Bytes()
	page := make([]byte, 16+len(data)+8)
	binary.NativeEndian.PutUint64(page, 1000)
	binary.NativeEndian.PutUint64(page[8:], uint64(len(data))|rbMissedEvents|rbMissedStored)
	copy(page[16:], data)
	binary.NativeEndian.PutUint64(page[16+len(data):], 17)
	type ev struct {
		ts  uint64
		len int
	}
	var got []ev
	p, err := ParseTracePage(h, page, func(ts uint64, rec []byte) { got = append(got, ev{ts, len(rec)}) })
	if err != nil {
		t.Fatal(err)
	}
	want := []ev{{1010, 8}, {1010 + 1 + 2<<27 + 5, 8}, {1010 + 1 + 2<<27 + 5 + 7, 4}}
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: %v, want %v", i, got[i], want[i])
		}
	}
	if !p.Missed || p.MissedCount != 17 {
		t.Errorf("missed %v %d, want true 17", p.Missed, p.MissedCount)
	}
	// Cut short: an event that runs past the page is an error, never a panic.
	binary.NativeEndian.PutUint64(page[8:], 6)
	if _, err := ParseTracePage(h, page[:22], func(uint64, []byte) {}); err == nil {
		t.Error("an event past the page: no error")
	}
	if _, err := ParseTracePage(h, page[:10], func(uint64, []byte) {}); err == nil {
		t.Error("a page shorter than its header: no error")
	}
}

func FuzzParseTracePage(f *testing.F) {
	page, _ := os.ReadFile("testdata/tracefs/kfree_skb-page.bin")
	f.Add(page)
	f.Add([]byte{})
	h := TracePageHeader{TimestampSize: 8, CommitOffset: 8, CommitSize: 8, DataOffset: 16}
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseTracePage(h, b, func(uint64, []byte) {})
	})
}

func TestKallsyms(t *testing.T) {
	in := "ffffffff81000000 T _text\n" +
		"ffffffff81a00000 t udp_queue_rcv_one_skb\n" +
		"ffffffff81a00400 T udp_queue_rcv_skb\n" +
		"ffffffff82000000 D some_data\n" +
		"ffffffffc0000000 t mlx5e_poll_rx_cq\t[mlx5_core]\n"
	k, err := ParseKallsyms(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[uint64]string{
		0xffffffff81a00137: "udp_queue_rcv_one_skb+0x137",
		0xffffffff81a00400: "udp_queue_rcv_skb+0x0",
		0xffffffffc0000010: "mlx5e_poll_rx_cq+0x10",
		0xffffffff80000000: "",
	} {
		if got := k.Name(addr); got != want {
			t.Errorf("%x: %q, want %q", addr, got, want)
		}
	}
	// Hidden addresses (kptr_restrict, not root) name nothing.
	k, _ = ParseKallsyms(strings.NewReader("0000000000000000 T _text\n0000000000000000 t foo\n"))
	if k.Len() != 0 || k.Name(0x1234) != "" {
		t.Errorf("hidden kallsyms gave %d symbols", k.Len())
	}
}
