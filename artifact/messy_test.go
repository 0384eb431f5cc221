package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

func onlyAlloc(t *testing.T, tl *model.Timeline) *model.AllocFailure {
	t.Helper()
	afs := artifactsOf(tl, KindAllocFailure)
	if len(afs) != 1 {
		t.Fatalf("%d alloc failures, want 1; artifacts %+v unparsed %+v", len(afs), tl.Artifacts, tl.Unparsed)
	}
	return afs[0].Data.(*allocArtifact).AllocFailure
}

func TestMessySyslogPrefixes(t *testing.T) {
	text := "Aug  4 17:42:34 web1 kernel: java: page allocation failure. order:1, mode:0x20\n" +
		"Aug  4 17:42:34 web1 sshd[312]: Accepted publickey for root\n" + // another program, mid-report
		"Aug  4 17:42:34 web1 kernel:  [<c01403a2>] __alloc_pages+0x2d2/0x3f0\n" +
		"Aug  4 17:42:34 web1 kernel:  [<c02d1f88>] __alloc_skb+0x58/0x120\n" +
		"2024-03-01T10:00:00.123456+00:00 web1 kernel: [ 1234.567890] e1000: eth0: NIC Link is Up\n"
	tl := ParseString(text, "syslog", Options{Kernel: "2.6.18"})
	af := onlyAlloc(t, tl)
	if af.Process != "java" || strings.Join(af.CallTrace, " ") != "__alloc_pages __alloc_skb" {
		t.Errorf("report across another program's line: %s %v", af.Process, af.CallTrace)
	}
	if tl.Host.Hostname != "web1" || tl.Host.Kernel != "2.6.18" || af.KernelSource != "--kernel" {
		t.Errorf("host %+v source %q", tl.Host, af.KernelSource)
	}
	last := tl.Log.At(tl.Log.Len() - 1)
	if last.UptimeUsec != 1234567890 || last.Message != "e1000: eth0: NIC Link is Up" || last.Time().IsZero() {
		t.Errorf("RFC 3339 + dmesg stamp: %+v", last)
	}
	for _, r := range tl.Log.All() {
		if strings.Contains(r.Message, "Accepted") {
			t.Error("a non-kernel syslog line went into the kernel log")
		}
	}
}

func TestMessyMailQuoting(t *testing.T) {
	text := "On Mon, Bob wrote:\n" +
		"> here is vmstat:\n" +
		"> procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n" +
		">  r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n" +
		">  1  0      0 123456   1000  20000    0    0     0     0  100  200  1  2 97  0\n" +
		">>  2  0      0 123400   1000  20000    0    0     0     0  110  210  3  4 93  0\n" +
		"> \n" +
		">> afpd: page allocation failure. order:2, mode:0x20\n"
	tl := ParseString(text, "mail", Options{})
	vs := artifactsOf(tl, KindVMStat)
	if len(vs) != 1 || len(vs[0].Data.(*VMStatTable).Rows) != 2 {
		t.Fatalf("quoted vmstat: %+v", tl.Artifacts)
	}
	if af := onlyAlloc(t, tl); af.Process != "afpd" || af.Order != 2 {
		t.Errorf("quoted header %+v", af)
	}
}

func TestMessyHardWrapAndElision(t *testing.T) {
	// A show_mem dump re-wrapped at 72 columns by a mail client, with an elided trace.
	text := "java: page allocation failure. order:0, mode:0x20\n" +
		"...\n" +
		"Normal free:12248kB min:32768kB low:40960kB high:49152kB\n" +
		"active:144176kB inactive:144684kB present:901120kB pages_scanned:0\n" +
		"all_unreclaimable? no\n" +
		"lowmem_reserve[]: 0 0 64512\n" +
		"Normal: 0*4kB 1*8kB 1*16kB 0*32kB 1*64kB 1*128kB 1*256kB 3*512kB\n" +
		"2*1024kB 2*2048kB 1*4096kB = 12248kB\n"
	tl := ParseString(text, "wrapped", Options{})
	af := onlyAlloc(t, tl)
	if len(af.Zones) != 1 {
		t.Fatalf("zones %+v", af.Zones)
	}
	z := af.Zones[0]
	if z.PresentKB != 901120 || z.AllUnreclaimable == nil || *z.AllUnreclaimable || fmtInts(z.FreeBlocks) != "[0 1 1 0 1 1 1 3 2 2 1]" {
		t.Errorf("wrapped zone %+v blocks %v", z, z.FreeBlocks)
	}
	notes := artifactsOf(tl, KindAllocFailure)[0].Data.(*allocArtifact).Notes
	if len(notes) == 0 || !strings.Contains(notes[0], "elides") {
		t.Errorf("elision not noted: %v", notes)
	}
}

func TestMessyRsyslogEscapes(t *testing.T) {
	text := "Mar  1 10:00:00 nas kernel: afpd: page allocation failure. order:2, mode:0x20#012[<c002a7c8>] (dump_backtrace+0x0/0x11c) from [<c02b7b8c>] (dump_stack+0x18/0x1c)#012Mem-info:#012DMA free:5988kB min:1996kB low:2492kB high:2992kB present:520192kB#011pages_scanned:0\n"
	tl := ParseString(text, "rsyslog", Options{})
	af := onlyAlloc(t, tl)
	if strings.Join(af.CallTrace, " ") != "dump_backtrace dump_stack" || len(af.Zones) != 1 || af.Zones[0].PresentKB != 520192 {
		t.Errorf("#012 split: trace %v zones %+v", af.CallTrace, af.Zones)
	}
	if v, _ := af.Zones[0].Fields.Get("pages_scanned"); v != 0 || !af.Zones[0].Fields.Has("pages_scanned") {
		t.Error("#011 (tab) not undone")
	}
}

func TestMessyCRLFTabsLookalikes(t *testing.T) {
	text := "afpd: page allocation failure. order:2, mode:0\u00d720\r\n\r\n" +
		"r\tb\tswpd\tfree\tbuff\tcache\tsi\tso\tbi\tbo\tin\tcs\tus\tsy\tid\twa\r\n" +
		"53\t0\t1734720\t675968\t1652\t4832860\t0\t0\t0\t0\t360\t1083196\t10\t90\t0\t0\r\n"
	tl := ParseString(text, "crlf", Options{Kernel: "2.6.30"})
	af := onlyAlloc(t, tl)
	if af.Mode != "0x20" || af.ModeValue != 0x20 || strings.Join(af.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("0×20: %+v", af)
	}
	if len(tl.Samples) != 1 || tl.Samples[0].Rates[model.RateCtxtPerSec] != 1083196 {
		t.Errorf("tab/CRLF vmstat: %+v", tl.Samples)
	}
}

func TestMessyInterleavedCPUs(t *testing.T) {
	// CONFIG_PRINTK_CALLER: two CPUs report at once; the caller id keeps them apart.
	text := "[  100.000001][    C0] swapper/0: page allocation failure: order:0, mode:0xa20(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"[  100.000002][    C1] swapper/1: page allocation failure: order:2, mode:0xa20(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"[  100.000003][    C0] Call Trace:\n" +
		"[  100.000004][    C1] Call Trace:\n" +
		"[  100.000005][    C0]  e1000_alloc_rx_buffers+0x1a2/0x2c0 [e1000]\n" +
		"[  100.000006][    C1]  mlx5e_post_rx_wqes+0x11/0x20 [mlx5_core]\n" +
		"[  100.000007][    C0]  net_rx_action+0x6c/0x110\n" +
		"[  100.000008][    C1]  __napi_poll+0x2b/0x160\n"
	tl := ParseString(text, "smp", Options{})
	afs := artifactsOf(tl, KindAllocFailure)
	if len(afs) != 2 {
		t.Fatalf("%d reports, want 2", len(afs))
	}
	a := afs[0].Data.(*allocArtifact).AllocFailure
	b := afs[1].Data.(*allocArtifact).AllocFailure
	if strings.Join(a.CallTrace, " ") != "e1000_alloc_rx_buffers net_rx_action" || a.Order != 0 {
		t.Errorf("CPU0: %v", a.CallTrace)
	}
	if strings.Join(b.CallTrace, " ") != "mlx5e_post_rx_wqes __napi_poll" || b.Order != 2 {
		t.Errorf("CPU1: %v", b.CallTrace)
	}
}

func TestMessyUnparsedIsReported(t *testing.T) {
	text := "procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n" +
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa\n" +
		" 1  0      0 123456   1000  20000    0    0     0     0  100  200  1  2 97  0\n" +
		" 1  0      0 123456   1000  20000    0    0     0\n" +
		"kworker/0:1: page allocation failure: order:x, mode:0x20\n"
	tl := ParseString(text, "bad", Options{})
	if len(tl.Unparsed) != 2 {
		t.Fatalf("unparsed %+v", tl.Unparsed)
	}
	if tl.Unparsed[0].FirstLine != 4 || !strings.Contains(tl.Unparsed[0].Why, "columns") {
		t.Errorf("short vmstat row: %+v", tl.Unparsed[0])
	}
	if tl.Unparsed[1].FirstLine != 5 {
		t.Errorf("unreadable header: %+v", tl.Unparsed[1])
	}
	if len(tl.Samples) != 1 {
		t.Errorf("%d samples, want the one good row", len(tl.Samples))
	}
}

func TestParseKernelLog(t *testing.T) {
	recs := []model.LogRecord{
		model.LogRecord{UptimeUsec: 1, Priority: 4, Message: "swapper/0: page allocation failure: order:0, mode:0x480020(GFP_ATOMIC), nodemask=(null)"}.WithSource("/dev/kmsg seq 10"),
		model.LogRecord{UptimeUsec: 2, Priority: 4, Message: "Call Trace:"}.WithSource("/dev/kmsg seq 11"),
		model.LogRecord{UptimeUsec: 3, Priority: 4, Message: " <IRQ>"}.WithSource("/dev/kmsg seq 12"),
		model.LogRecord{UptimeUsec: 4, Priority: 4, Message: " igb_alloc_rx_buffers+0x1a/0x200 [igb]"}.WithSource("/dev/kmsg seq 13"),
		model.LogRecord{UptimeUsec: 5, Priority: 6, Message: "e1000e: eth0 NIC Link is Up"}.WithSource("/dev/kmsg seq 14"),
		model.LogRecord{UptimeUsec: 6, Priority: 3, Message: "SLUB: Unable to allocate memory on node -1, gfp=0x480020(GFP_ATOMIC)"}.WithSource("/dev/kmsg seq 15"),
	}
	evs := ParseKernelLog(recs, "4.19.0")
	if len(evs) != 2 {
		t.Fatalf("%d events: %+v", len(evs), evs)
	}
	af := evs[0].AllocFailure
	if af == nil || !af.InInterrupt || af.CallTrace[0] != "igb_alloc_rx_buffers" || *af.Atomic != true || evs[0].Source != "/dev/kmsg seq 10 to /dev/kmsg seq 13" {
		t.Errorf("alloc event %+v %+v", evs[0], af)
	}
	if evs[1].SlabFailure == nil || strings.Join(evs[1].SlabFailure.GFPFlags, "|") != "GFP_ATOMIC" {
		t.Errorf("slab event %+v", evs[1])
	}
}
