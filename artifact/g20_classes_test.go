package artifact

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The classes the held-out batches g20 and g21 found (corpus 693-728), each on a minimal
// snippet written for the class (not the case's words); every test failed before its change.

func statedOverrun(text string) bool {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if s.Rates[model.RateStatedRxOverrun] > 0 {
			return true
		}
	}
	return false
}

// A table's header row that names an overrun counter ("RX errors: length crc frame fifo
// overrun" of `ip -s -s link`) over a row of its values states no overrun (corpus 700:
// before, the header row was read as the author stating RX overruns).
func TestOverrunColumnHeaderStatesNone(t *testing.T) {
	for _, text := range []string{
		"Link counters on the box:\n    RX errors:  length  crc  frame  fifo overrun\n                 0     0      0     0      0\n",
		"    ring overrun  rx fifo\n    12  0  7  1\n",
	} {
		if statedOverrun(text) {
			t.Errorf("a header row read as a stated overrun:\n%s", text)
		}
	}
	// Counter-cases: prose that states overruns, even above a row of numbers, still does.
	for _, text := range []string{
		"Since the upgrade we see RX overruns on eth1 every night.\n",
		"We get fifo overrun errors all the time:\n    0 0 0 0 0\n",
	} {
		if !statedOverrun(text) {
			t.Errorf("a stated overrun lost:\n%s", text)
		}
	}
}

func settingKeys(text string) []string {
	tl := ParseString(text, "p", Options{})
	var keys []string
	for _, m := range tl.Settings {
		keys = append(keys, m.Key)
	}
	return keys
}

// A sysctl key cut where the line ends, the beginning of a known key, names no key
// (corpus 723: "vi /etc/sysctl.conf net.ipv4.netfilter.ip_c" at the page's end was taken
// for a misspelt key).
func TestSysctlKeyCutAtLineEnd(t *testing.T) {
	for _, text := range []string{
		"Then edit it: # vi /etc/sysctl.conf net.ipv4.tcp_rm\n",
		"and add net.netfilter.nf_conntrack_m",
	} {
		if keys := settingKeys(text); len(keys) != 0 {
			t.Errorf("a cut key read as a setting: %v in %q", keys, text)
		}
	}
	// Counter-cases: a misspelt key that ends the line is still one (no known key begins
	// with it), and a known key at the end of a line is read.
	for text, want := range map[string]string{
		"I ran sysctl on vm.min_kbytes_free\n":   "vm.min_kbytes_free",
		"the limit lives in net.ipv4.tcp_rmem\n": "net.ipv4.tcp_rmem",
	} {
		if keys := settingKeys(text); len(keys) != 1 || keys[0] != want {
			t.Errorf("%q: keys %v, want %s", text, keys, want)
		}
	}
}

// PSI records printed as structured fields by a program that parsed /proc/pressure (a Rust
// Debug print, JSON), under a label naming the resource (corpus 701: before, the text was
// "nothing headroom reads", exit 3).
func TestPSIRecordsAsFields(t *testing.T) {
	for _, text := range []string{
		"io pressure: Ok(\n    IoPressure {\n        some: PressureRecord {\n            avg10: 1.5,\n            avg60: 0.5,\n            avg300: 0.25,\n            total: 1234,\n        },\n        full: PressureRecord {\n            avg10: 0.75,\n            avg60: 0.0,\n            avg300: 0.0,\n            total: 99,\n        },\n    },\n)\n",
		"\"io\": {\n  \"some\": {\n    \"avg10\": 1.5,\n    \"avg60\": 0.5,\n    \"avg300\": 0.25,\n    \"total\": 1234\n  },\n  \"full\": {\n    \"avg10\": 0.75,\n    \"avg60\": 0,\n    \"avg300\": 0,\n    \"total\": 99\n  }\n}\n",
	} {
		tl := ParseString("The io stall pressure of the box:\n"+text, "p", Options{})
		var got []kernel.Pressure
		for _, s := range tl.Samples {
			got = append(got, s.PSI...)
		}
		if len(got) != 1 || got[0].Resource != "io" || got[0].Some == nil || got[0].Some.Avg10 != 1.5 || got[0].Full == nil || got[0].Full.Avg10 != 0.75 {
			t.Errorf("records not read: %+v\n%s", got, text)
		}
	}
	// Counter-cases: a record without the resource named is not read as one; fields that
	// are not the four are none.
	tl := ParseString("Here:\n    some: Record {\n        avg10: 1.5,\n        avg60: 0.5,\n        avg300: 0.25,\n    },\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.PSI) > 0 {
			t.Errorf("a record of no resource read: %+v", s.PSI)
		}
	}
	tl = ParseString("memory pressure:\n    some: Stats {\n        min: 1.5,\n        max: 0.5,\n    },\n", "p", Options{})
	for _, s := range tl.Samples {
		if len(s.PSI) > 0 {
			t.Errorf("other fields read as PSI: %+v", s.PSI)
		}
	}
}

// A TcpExt drop counter stated in prose by its /proc/net/netstat name and value (corpus
// 711: "`ListenOverflows=0` inside the pod"; before, the text was "nothing headroom reads").
func TestStatedTcpExtCounter(t *testing.T) {
	read := func(text string) (int64, bool) {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			if v, ok := s.NetStat.Get("TcpExt", "ListenOverflows"); ok {
				return v, true
			}
		}
		return 0, false
	}
	for text, want := range map[string]int64{
		"The accept queue was fine: `ListenOverflows=0` on the node.\n": 0,
		"After the burst TcpExt: ListenOverflows = 312 on our proxy.\n": 312,
	} {
		if v, ok := read(text); !ok || v != want {
			t.Errorf("%q: %d %v, want %d", text, v, ok, want)
		}
	}
	// Counter-cases: a threshold, a possibility, and a name without a value are none.
	for _, text := range []string{
		"Alert when ListenOverflows > 100 per minute.\n",
		"If ListenOverflows=5 shows up, raise somaxconn.\n",
		"Watch ListenOverflows in nstat.\n",
	} {
		if v, ok := read(text); ok {
			t.Errorf("%q read as ListenOverflows %d", text, v)
		}
	}
}

// A memory cgroup's counter line of an OOM report whose header the paste left out
// ("memory: usage N kB, limit N kB, failcnt N"): only the OOM report prints it, so a memcg
// OOM happened (corpus 695: before, no event).
func TestMemcgOOMCountersWithoutHeader(t *testing.T) {
	oom := func(text string) *model.OOMKill {
		tl := ParseString(text, "p", Options{})
		for _, e := range tl.Events {
			if e.OOMKill != nil {
				return e.OOMKill
			}
		}
		return nil
	}
	text := "Mar  3 01:02:03 node7 kernel:  </TASK>\n" +
		"Mar  3 01:02:03 node7 kernel: memory: usage 524288kB, limit 524288kB, failcnt 9\n" +
		"Mar  3 01:02:03 node7 kernel: swap: usage 0kB, limit 0kB, failcnt 0\n"
	o := oom(text)
	if o == nil || o.Constraint != "CONSTRAINT_MEMCG" || len(o.MemcgCounters) == 0 || o.MemcgCounters[0].Failcnt != 9 {
		t.Fatalf("memcg OOM not read: %+v", o)
	}
	// Counter-cases: a full report is one event, not two; a cgroup v1 file listing is no
	// kernel line of the form.
	full := "[ 10.0] bash invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n" +
		"[ 10.0] memory: usage 524288kB, limit 524288kB, failcnt 9\n" +
		"[ 10.0] Memory cgroup out of memory: Killed process 12 (bash) total-vm:1000kB, anon-rss:900kB, file-rss:0kB, shmem-rss:0kB\n"
	tl := ParseString(full, "p", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a full memcg report read as %d OOM events", n)
	}
	if o := oom("memory.usage_in_bytes: 524288\nmemory.limit_in_bytes: 524288\n"); o != nil {
		t.Errorf("cgroup files read as an OOM: %+v", o)
	}
}

// An out-of-memory kill stated as an event in Japanese: the OOM killer "started"
// (起動し、) or "force-killed" a process (強制終了した/されて) (corpus 725).
func TestStatedOOMJapanese(t *testing.T) {
	stated := statesOOM
	for _, text := range []string{
		"昨夜、OOM キラーが起動し、データベースのプロセスが止まりました。\n",
		"バッチの実行中に OOM killer によって java が強制終了されました。\n",
	} {
		if !stated(text) {
			t.Errorf("not read as an OOM: %s", text)
		}
	}
	// Counter-cases: a conditional, a negation, and a prevention are none.
	for _, text := range []string{
		"メモリが足りないと OOM キラーが起動すると聞きました。\n",
		"OOM キラーが起動しない設定にしてあります。\n",
		"キャッシュを先に解放すれば、OOM によってプロセスが強制終了されることはなく、正常に動きます。\n",
	} {
		if stated(text) {
			t.Errorf("read as an OOM: %s", text)
		}
	}
}
