package artifact

import (
	"testing"

	"headroom/model"
)

// Udp's buffer counters stated in prose by their nstat names, the count before or after
// the name and thousands separated (corpus 743: "accumulated 3,205 `UdpRcvbufErrors`";
// before, the text was "nothing headroom reads"). A TcpExt counter takes separators too.
func TestStatedUDPCounter(t *testing.T) {
	read := func(text, group, name string) (int64, bool) {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			if v, ok := s.NetStat.Get(group, name); ok {
				return v, true
			}
		}
		return 0, false
	}
	for _, c := range []struct {
		text, group, name string
		want              int64
	}{
		{"On our relay the sockets accumulated 3,205 `UdpRcvbufErrors` in an hour.\n", "Udp", "RcvbufErrors", 3205},
		{"nstat shows UdpRcvbufErrors = 12 since boot.\n", "Udp", "RcvbufErrors", 12},
		{"Meanwhile `UdpSndbufErrors` remained zero.\n", "Udp", "SndbufErrors", 0},
		{"The box had 1,024 Udp6RcvbufErrors after the test.\n", "Udp6", "Udp6RcvbufErrors", 1024},
		{"Our proxy: TcpExt: ListenOverflows = 12,345 after the peak.\n", "TcpExt", "ListenOverflows", 12345},
	} {
		if v, ok := read(c.text, c.group, c.name); !ok || v != c.want {
			t.Errorf("%q: %s %s = %d %v, want %d", c.text, c.group, c.name, v, ok, c.want)
		}
	}
	// Counter-cases: a bound, a possibility, advice, another machine's and a name alone.
	for _, text := range []string{
		"Alert when there are more than 100 UdpRcvbufErrors per minute.\n",
		"If UdpRcvbufErrors = 50 shows up, raise rmem_max.\n",
		"You should keep UdpRcvbufErrors at 0 by raising the buffer.\n",
		"After the change you should see UdpRcvbufErrors = 0.\n",
		"> On my test machine I saw 3,205 UdpRcvbufErrors.\n",
		"Watch UdpRcvbufErrors in nstat.\n",
	} {
		if v, ok := read(text, "Udp", "RcvbufErrors"); ok {
			t.Errorf("%q read as Udp RcvbufErrors %d", text, v)
		}
	}
}

// A title that names an out-of-memory as what happened is the author's statement of it,
// as a title names a kernel message (corpus 741 "Sui oom-kill", 742 "... OOM out of memory
// errors ..."; before, nothing stated the OOM and oom-kill was missed).
func TestTitleNamesOOM(t *testing.T) {
	stated := statesOOM
	body := "\nNode 0 Normal: 924*4kB (UME) 814*8kB (UME) 585*16kB (UME) = 19384kB\n"
	for _, title := range []string{
		"Validator oom-kill",
		"api/worker OOM out of memory errors, hardware checks passed",
		"## Out of memory on the build host",
	} {
		if !stated(title + "\n" + body) {
			t.Errorf("title %q: no stated OOM", title)
		}
	}
	// Counter-cases: a question, a possibility, a negation, a piece of work, a title with
	// no blank line below it, and the words in the body rather than the title.
	for _, text := range []string{
		"How does the OOM killer choose its victim?\n" + body,
		"Worker may hit OOM under load\n" + body,
		"No OOM kill since the upgrade\n" + body,
		"Add an option to adjust the OOM score\n" + body,
		"Expose oom_kill as a metric\n" + body,
		"Page allocation failure - Am I running out of memory\n" + body,
		"Validator oom-kill\nNode 0 Normal: 924*4kB (UME) 814*8kB (UME) = 10208kB\n",
		"Buddy lists of the worker\n\nThe host shows OOM.\n\nOut of memory errors\n",
	} {
		if stated(text) {
			t.Errorf("%q: read as a stated OOM", text)
		}
	}
}

// statesOOM: the text gives a stated out-of-memory (model.RateStatedOOM).
func statesOOM(text string) bool {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if s.Rates[model.RateStatedOOM] > 0 {
			return true
		}
	}
	return false
}

// RabbitMQ's status gives the memory the broker detected: vm_memory_limit ÷
// vm_memory_high_watermark (corpus 747; before, the text was "nothing headroom reads").
// Counter-cases: an absolute watermark, a limit without its fraction.
func TestRabbitMQStatusMemory(t *testing.T) {
	mem := func(text string) int64 { return ParseString(text, "p", Options{}).Host.MemTotalKB }
	erl := " {vm_memory_high_watermark,0.4},\n {vm_memory_limit,6871947673},\n {disk_free_limit,50000000},\n"
	if got, want := mem(erl), int64(16777215); got != want { // 6871947673 ÷ 0.4 B in kB
		t.Errorf("Erlang status: MemTotal %d kB, want %d", got, want)
	}
	txt := "Memory high watermark setting: 0.4 of available memory, computed to: 6.8719 gb\n"
	if got := mem(txt); got < 16_700_000 || got > 16_800_000 {
		t.Errorf("3.8+ status: MemTotal %d kB, want about 16.8e6", got)
	}
	for _, text := range []string{
		" {vm_memory_high_watermark,{absolute,\"2GB\"}},\n {vm_memory_limit,2000000000},\n",
		" {vm_memory_limit,6871947673},\n",
	} {
		if got := mem(text); got != 0 {
			t.Errorf("%q: MemTotal %d kB, want none", text, got)
		}
	}
}

// A driver's own "failed to allocate rx skb" lines, with the buffer's size stated beside a
// lack of contiguous memory, are allocation failures of the order that skb takes (corpus
// 736; before, no event and no finding). Counter-cases: no size, a size in advice or a
// possibility, no word of contiguous memory, and other driver lines.
func TestDriverRxSkbFailuresWithStatedSize(t *testing.T) {
	failures := func(text string) []*model.AllocFailure {
		var out []*model.AllocFailure
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.AllocFailure != nil {
				out = append(out, e.AllocFailure)
			}
		}
		return out
	}
	log := "[  10.100000] mt7601u 1-1:1.0: failed to allocate rx_skb 0\n[  10.200000] mt7601u 1-1:1.0: failed to allocate rx_skb 1\n\n"
	got := failures(log + "The receive buffer is 16 KiB and after a day there is not that much contiguous memory.\n")
	if len(got) != 1 || got[0].Order != 3 || got[0].Count != 2 {
		t.Fatalf("failures %+v, want one of order 3 (16 KiB + shared info) counting 2", got)
	}
	for _, text := range []string{
		log + "The device keeps dropping frames.\n",
		log + "You could try a 16 KiB buffer, since contiguous memory is scarce.\n",
		log + "If the buffer were 64 KiB it would need more contiguous memory.\n",
		log + "The receive buffer is 16 KiB.\n",
		"[  10.1] mt7601u 1-1:1.0: failed to get tx report\n\nThe buffer is 16 KiB and contiguous memory is short.\n",
	} {
		if got := failures(text); len(got) != 0 {
			t.Errorf("%q: failures %+v", text, got)
		}
	}
}

// RHEL 6's kill line puts the uid between pid and comm ("Killed process 16929, UID 0,
// (beam.smp) total-vm:..."); before, the victim and its sizes were not read (corpus 732).
// Counter-case: the line without the uid reads as before.
func TestKillLineRHEL6UID(t *testing.T) {
	for line, comm := range map[string]string{
		"Killed process 4242, UID 0, (worker) total-vm:7654944kB, anon-rss:4670604kB, file-rss:36kB\n": "worker",
		"Killed process 4242 (worker) total-vm:7654944kB, anon-rss:4670604kB, file-rss:36kB\n":         "worker",
	} {
		text := "Out of memory: Kill process 4242 (worker) score 580 or sacrifice child\n" + line
		var o *model.OOMKill
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.OOMKill != nil {
				o = e.OOMKill
			}
		}
		if o == nil || o.KilledComm != comm || o.AnonRSSKB != 4670604 || o.TotalVMKB != 7654944 || o.FileRSSKB != 36 {
			t.Errorf("%q: %+v", line, o)
		}
	}
}

// netdata's notification text gives the alarm's value after "=" ("... 1m ipv4 udp receive
// buffer errors = 12 errors"), as its table gives it after "|" (corpus 744: before, the
// alarm was read without its count). Counter-case: the alarm's name alone counts 1.
func TestNetdataUDPAlarmValueAfterEquals(t *testing.T) {
	alarm := func(text string) float64 {
		var v float64
		for _, s := range ParseString(text, "p", Options{}).Samples {
			v = max(v, s.Rates[model.RateStatedUDPRcvbufAlarm])
		}
		return v
	}
	if v := alarm("\"host needs attention, ipv4.udperrors (udp), 1m ipv4 udp receive buffer errors = 12 errors\"\n"); v != 12 {
		t.Errorf("alarm value %v, want 12", v)
	}
	if v := alarm("netdata raised its alarm on ipv4.udperrors for the host.\n"); v != 1 {
		t.Errorf("alarm without a value: %v, want 1", v)
	}
}
