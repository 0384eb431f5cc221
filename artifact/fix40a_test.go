package artifact

import (
	"encoding/json"
	"strings"
	"testing"

	"headroom/model"
)

// fix40a (corpus 3364): cPanel SSP's digest of the kernel's OOM kills (ssp check_for_oom):
// each row under its heading is one kill line rewritten, read as an OOM kill reported at
// second hand with its victim, pid and SSP's vm/rss/swap columns; an LVE ID makes it a
// container's (cgroup) kill. The "\_" loses its backslash to the paste's unescaping.
func TestFix40aSSPOOMDigest(t *testing.T) {
	text := "[WARN] * Last 3 processes killed by Linux Out of memory killer (grep \"Out of memory\" /var/log/messages):\n" +
		"\t \\_ [Sep  3 02:14:27] [pid: 1750] [cmd: mysqld] [vm: 456120 kB] [rss: 410876 kB] [swap: 0 kB]\n" +
		"\t _ [Sep  3 02:14:26] [pid: 1689] [cmd: mysqld] [vm: 3168032 kB] [rss: 432076 kB] [swap: 0 kB]\n" +
		"\t \\_ [Feb  6 08:52:43] [pid: 22541] [cmd: php] [LVE ID: 0] [vm: 357304 kB] [rss: 77080 kB] [swap: 11116 kB]\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.RuntimeOOMs) != 3 {
		t.Fatalf("runtime OOMs %+v, want 3", tl.RuntimeOOMs)
	}
	o := tl.RuntimeOOMs[0]
	if o.Victim != "mysqld" || o.PID != 1750 || o.Scope != "" || o.Count != 1 || !strings.Contains(o.Reporter, "SSP") {
		t.Errorf("first kill %+v", o)
	}
	if o := tl.RuntimeOOMs[2]; o.Scope != model.OOMScopeCgroup || o.Container != "LVE 0" || o.PID != 22541 {
		t.Errorf("LVE kill %+v", o)
	}
	arts := artifactsOf(tl, KindSSPOOMKill)
	if len(arts) != 3 {
		t.Fatalf("artifacts %d, want 3", len(arts))
	}
	b, _ := json.Marshal(arts[1].Data)
	for _, want := range []string{`"pid":1689`, `"comm":"mysqld"`, `"vm_kb":3168032`, `"rss_kb":432076`, `"swap_kb":0`, `"time":"Sep  3 02:14:26"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("artifact %s lacks %s", b, want)
		}
	}
	// Counter-cases: SSP's own source (the message with its Perl variable), a row without
	// its heading, the heading alone, a sentence naming the message: no kill.
	for _, c := range []string{
		"            print_warn(\"Last $count processes killed by Linux Out of memory killer (grep -i \\\"Out of memory\\\" /var/log/messages):\\n\");\n",
		"\t \\_ [Sep  3 02:14:27] [pid: 1750] [cmd: mysqld] [vm: 456120 kB] [rss: 410876 kB] [swap: 0 kB]\n",
		"[WARN] * Last 3 processes killed by Linux Out of memory killer (grep \"Out of memory\" /var/log/messages):\n\nnothing else printed\n",
		"If SSP prints Last 3 processes killed by Linux Out of memory killer, check MySQL's buffers.\n",
	} {
		tl := ParseString(c, "p", Options{})
		if len(tl.RuntimeOOMs) != 0 || len(artifactsOf(tl, KindSSPOOMKill)) != 0 {
			t.Errorf("%q: read as a kill %+v", c, tl.RuntimeOOMs)
		}
	}
}

// fix40a (corpus 3433): an ifconfig block pasted without its interface line, net-tools'
// "RX packets:N errors:N dropped:N overruns:N frame:N" with its TX line, is one interface's
// since-boot reading: a sample under an "(interface not named)" name, its drops and
// overruns read. A block without the drop column, and counter lines of a loop (a kind of
// line twice), give no sample.
func TestFix40aIfconfigBlockWithoutName(t *testing.T) {
	text := "I have noticed the following on ifconfig:\n\n" +
		"RX packets: 1613 errors:0 dropped:1074 overruns:0 frame:0\n" +
		"TX packets:146 errors:0 dropped:0 overruns:0 carrier:0\n"
	tl := ParseString(text, "p", Options{})
	var got bool
	for _, s := range tl.Samples {
		for _, nd := range s.NetDev {
			if nd.Name != unnamedIface {
				continue
			}
			got = true
			if v, _ := nd.Counters.Get("rx_dropped"); v != 1074 {
				t.Errorf("rx_dropped %d", v)
			}
			if v, _ := nd.Counters.Get("rx_packets"); v != 1613 {
				t.Errorf("rx_packets %d", v)
			}
			if v, ok := nd.Counters.Get("rx_fifo_errors"); !ok || v != 0 {
				t.Errorf("overruns %d %v", v, ok)
			}
		}
	}
	if !got {
		t.Fatalf("no sample of the unnamed interface: %+v", tl.Samples)
	}
	for _, c := range []string{
		// no drop column: packets and errors only
		"RX packets: 1613 errors:0\nTX packets:146 errors:0\n",
		// a loop's readings: the same kind of line twice
		"RX packets:1613 errors:0 dropped:1074 overruns:0 frame:0\nRX packets:1700 errors:0 dropped:1100 overruns:0 frame:0\n",
	} {
		tl := ParseString(c, "p", Options{})
		for _, s := range tl.Samples {
			for _, nd := range s.NetDev {
				if nd.Name == unnamedIface {
					t.Errorf("%q: read as a sample %+v", c, nd)
				}
			}
		}
	}
}

// fix40a (corpus 3405): a program that filled memory and then the swap, told with the two
// named together, states this host's swap consumed (RateStatedSwapping). Advice, a condition
// and a use without an amount state nothing.
func TestFix40aStatedFilledRAMAndSwap(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"After a reboot i realized that the immich-microservices filled the RAM and the Swap.\n", 1},
		{"The importer ate all the memory and swap before the box froze.\n", 1},
		{"It consumed the RAM and then the swap within an hour.\n", 1},
		// counter-cases
		{"The service uses RAM and swap like any other program.\n", 0},
		{"If it fills the RAM and the swap, add more memory.\n", 0},
		{"To avoid filling the RAM and swap, set a memory limit.\n", 0},
		{"Does it fill the RAM and the swap on your machine?\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedSwapping); got != c.want {
			t.Errorf("%q: stated swapping %v, want %v", c.text, got, c.want)
		}
	}
}
