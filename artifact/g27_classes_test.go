package artifact

import (
	"slices"
	"testing"

	"headroom/model"
)

// The classes the held-out batches g27 and g28 found (corpus 829-866), each on a minimal
// snippet written for the class (not the case's words); every test failed before its change.

// A sysctl read-out whose numeric value carries the author's remark in parentheses
// ("= 1024	2048	4096 (pages, the triplet)"): the kernel prints integers only, so the
// remark is not part of the value (corpus 831 was refused as "value 4 is not a number").
// Counter-cases: a value quoted as written (sysctl.conf keeps quotes, and the kernel refuses
// them), a word before the parenthesis, a value that goes on after the ")".
func TestSysctlReadoutRemarkNotValue(t *testing.T) {
	setting := func(text string) SettingData {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		as := artifactsOf(tl, KindSysctl)
		if len(as) == 0 {
			t.Fatalf("no sysctl block in %q", text)
		}
		return as[0].Data.(SysctlBlock).Settings[0]
	}
	for _, tc := range []struct {
		text, value string
		numbers     []int64
	}{
		{"net.ipv4.udp_mem = 1024\t2048\t4096 (pages, the triplet)\n", "1024 2048 4096", []int64{1024, 2048, 4096}},
		{"  net.ipv4.tcp_mem    =   1024   2048   4096   (system-wide)\n", "1024 2048 4096", []int64{1024, 2048, 4096}},
		{"net.core.netdev_max_backlog = 1000 (default)\n", "1000", []int64{1000}},
		// Counter-cases: left as written.
		{"net.ipv4.tcp_rmem = \"4096 87380 4194304\"\n", "\"4096 87380 4194304\"", []int64{4096, 87380, 4194304}},
		{"net.core.somaxconn = auto (from the distro)\n", "auto (from the distro)", nil},
		{"net.ipv4.tcp_mem = 1024 (a) 2048\n", "1024 (a) 2048", nil},
	} {
		sd := setting(tc.text)
		if sd.Value != tc.value || !slices.Equal(sd.Numbers, tc.numbers) {
			t.Errorf("%q: value %q numbers %v, want %q %v", tc.text, sd.Value, sd.Numbers, tc.value, tc.numbers)
		}
	}
}

// A shell command line that searches the log names what it searches for ("grep -iE
// 'oom|killed process'"): the words are a pattern, never a statement that an OOM kill
// happened (corpus 862 gained oom-kill from a drill's `journalctl -k | egrep -i 'out of
// memory|killed process'`). Counter-cases: a sentence that says it, a sentence that starts
// with a tool's name, the output line of a search.
func TestSearchCommandIsNotAStatement(t *testing.T) {
	for _, text := range []string{
		"Check the log:\n\n$ grep -iE \"oom|killed process\" /var/log/syslog\n",
		"Check the log:\n\njournalctl -k --since \"30 min ago\" \\\n  | egrep -i 'out of memory|killed process' \\\n  | tail -n 50\n",
		"Then:\n\nsudo journalctl -k | grep -i oom\nsudo journalctl -k | grep -i \"killed process\"\n",
		"Run it:\n\nroot@lab:~# dmesg | grep -i 'oom-killer' | grep killed\n",
	} {
		if statesOOM(text) {
			t.Errorf("a search command read as a stated OOM:\n%s", text)
		}
	}
	for _, text := range []string{
		"Last night the OOM killer killed mysqld twice.\n",
		"dmesg shows the OOM killer killed mysqld at 03:12.\n",
	} {
		if !statesOOM(text) {
			t.Errorf("a stated OOM kill lost:\n%s", text)
		}
	}
}

// Udp's receive-buffer counter by /proc/net/snmp's bare name, as a list of the counter's
// change over windows ("DELTA RcvbufErrors=0" in a quiet one, "=749" in a busy one): the
// worst window is read (corpus 830 exited 3). Counter-cases: bare InErrors (also Ip's and
// Icmp's), a threshold in advice, a hypothetical.
func TestBareUDPCounterDeltas(t *testing.T) {
	rcvbuf := func(text string) (int64, bool) {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			if v, ok := s.NetStat.Get("Udp", "RcvbufErrors"); ok {
				return v, true
			}
		}
		return 0, false
	}
	text := "Quiet minute:\n\n- `DELTA RcvbufErrors=0`\n- `DELTA NoPorts=0`\n\nBusy minute:\n\n- `DELTA InDatagrams=85857`\n- `DELTA RcvbufErrors=749`\n"
	if v, ok := rcvbuf(text); !ok || v != 749 {
		t.Errorf("RcvbufErrors = %d (%v), want 749", v, ok)
	}
	// A change over a stated window is a rate: 749 in 60 s is 12.5/s, not a count since boot.
	rate := func(text string) float64 {
		for _, s := range ParseString(text, "p", Options{}).Samples {
			if r := s.Rates[model.RateStatedUDPRcvbufPerSec]; r > 0 {
				return r
			}
		}
		return 0
	}
	windowed := "Quiet, 60s:\n\n- `DELTA RcvbufErrors=0`\n\nBusy, 60s:\n\n- `DELTA InDatagrams=85857`\n- `DELTA RcvbufErrors=749`\n"
	if r := rate(windowed); r < 12.4 || r > 12.5 {
		t.Errorf("rate %.2f/s, want 749/60", r)
	}
	if v, ok := rcvbuf(windowed); ok {
		t.Errorf("a windowed change read as a count since boot: %d", v)
	}
	for _, text := range []string{
		"- `DELTA InErrors=749`\n",
		"Alert when RcvbufErrors is above 100 per minute.\n",
		"If RcvbufErrors = 500 we would raise rmem_max.\n",
	} {
		if v, ok := rcvbuf(text); ok && v > 0 {
			t.Errorf("%q: read RcvbufErrors %d", text, v)
		}
	}
}

// An OOM kill negated ("No OOM-killer or "killed process" lines found") or joined across a
// Markdown table's cells ("| OOM killer messages in logs | System killing processes |") is
// not a statement that one happened (corpus 862). Counter-case: a table row that says it.
func TestOOMKillNegatedOrAcrossCells(t *testing.T) {
	for _, text := range []string{
		"Result:\n✅ **No OOM-killer or \"killed process\" lines found**\n",
		"| Symptom | Severity |\n|---|---|\n| OOM killer messages in logs | System killing processes |\n",
	} {
		if statesOOM(text) {
			t.Errorf("read as a stated OOM kill:\n%s", text)
		}
	}
	if !statesOOM("| host | what happened |\n|---|---|\n| db1 | the OOM killer killed mysqld |\n") {
		t.Error("a table cell that states an OOM kill lost")
	}
}

// An interface's counters as a summary one a line ("RX packets: 71,880,459", "RX dropped:
// 135,158 packets"), thousands separated, under a label that names the interface
// ("Container interface statistics (eth0):"): read as that interface's reading (corpus 854:
// the drops were prose). Counter-cases: the same block under a label naming no interface
// or two gives no reading; a sentence "RX dropped: see below" is not a counter.
func TestIfaceSummaryCountersUnderLabel(t *testing.T) {
	dropped := func(text string) (string, int64) {
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			for _, nd := range s.NetDev {
				if v, ok := nd.Counters.Get("rx_dropped"); ok {
					return nd.Name, v
				}
			}
		}
		return "", -1
	}
	body := "```\nRX packets: 71,880,459\nRX bytes:   79,192,110,208 (73.7 GiB)\nRX dropped: 135,158 packets\nRX errors:  0\nTX packets: 28,623,507\nTX dropped: 0 (none)\n```\n"
	if name, v := dropped("**Container interface statistics** (eth0):\n" + body); name != "eth0" || v != 135158 {
		t.Errorf("got %q rx_dropped %d, want eth0 135158", name, v)
	}
	for _, label := range []string{"**Interface statistics:**\n", "Compare eth0 with eth1:\n"} {
		if name, v := dropped(label + body); v >= 0 {
			t.Errorf("%q: read %q rx_dropped %d from a block of no named interface", label, name, v)
		}
	}
	if name, v := dropped("eth0 counters:\nRX dropped: see below\nRX packets: many\n"); v >= 0 {
		t.Errorf("prose read as counters: %q %d", name, v)
	}
}

// A Mem-Info excerpt whose head (Mem-Info: and the global summary) the paste cut begins at
// the per-node line ("Node 0 active_anon:768kB … all_unreclaimable? yes"), which only
// show_mem prints: the node's counters are read with the zones below it (corpus 833 lost
// them). Counter-case: a sentence naming a node's active_anon is not a dump.
func TestMemInfoCutBeforeNodeLine(t *testing.T) {
	const text = "kernel: [7276107.1] Node 0 active_anon:768kB inactive_anon:6902680kB active_file:604kB inactive_file:564kB unevictable:23000kB mapped:8360kB shmem:816kB kernel_stack:3344kB pagetables:17068kB all_unreclaimable? yes\n" +
		"kernel: [7276107.1] Node 0 DMA32 free:44576kB min:26412kB low:33012kB high:39612kB present:3129216kB managed:3063704kB\n" +
		"kernel: [7276107.1] lowmem_reserve[]: 0 0 4641 4641 4641\n"
	tl := ParseString(text, "p", Options{})
	as := artifactsOf(tl, KindShowMem)
	if len(as) == 0 {
		t.Fatalf("no show_mem artifact; unparsed %+v", tl.Unparsed)
	}
	sm := as[0].Data.(ShowMem)
	if len(sm.Nodes) != 1 {
		t.Fatalf("nodes %+v", sm.Nodes)
	}
	get(t, sm.Nodes[0].Fields, "inactive_anon_kb", 6902680)
	if sm.Nodes[0].AllUnreclaimable == nil || !*sm.Nodes[0].AllUnreclaimable {
		t.Errorf("all_unreclaimable %v", sm.Nodes[0].AllUnreclaimable)
	}
	if as := artifactsOf(ParseString("On our box Node 0 active_anon:768kB was low.\n", "p", Options{}), KindShowMem); len(as) != 0 {
		t.Errorf("a sentence read as a dump: %+v", as)
	}
}
