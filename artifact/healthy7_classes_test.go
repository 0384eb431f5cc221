package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Healthy texts on first contact (issue 29): reference pages (man pages, kernel
// Documentation) describe mechanisms and name versions and keys; none of it is a host's
// state. Each test below holds the minimal snippet of the page that raised the false alarm,
// and a counter-case of the same shape that a report states and must still be read.

// statedRate is the largest value of a stated rate key the text gives any sample.
func statedRate(t *testing.T, text, key string) float64 {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	v := 0.0
	for _, s := range tl.Samples {
		v = max(v, s.Rates[key])
	}
	return v
}

// proc(5) describes what the OOM killer does: "select which process should be killed in an
// out-of-memory (OOM) situation", "the likelihood of this process being killed by the
// OOM-killer" (hyphenated across lines by man), "the risk of getting a process "OOM-killed"",
// "produced when the kernel performs an OOM-killing", and a SysRq table whose rows "(term,
// kill, oom-kill)" and "Allow reboot/poweroff" are two items. Before: oom-kill warned.
func TestOOMMechanismNotStated(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"This file can be used to adjust the score used to  select  which\n       process  should  be  killed in an out-of-memory (OOM) situation.\n", 0},
		{"A positive score increases the like‐\n       lihood of this process being killed by the OOM-killer;  a  nega‐\n       tive score decreases the likelihood.\n", 0},
		{"and  the default check is very weak, leading to the risk of get‐\n       ting a process \"OOM-killed\".\n", 0},
		{"plus the special value -17, which disables OOM-killing  al‐\n       together for this process.\n", 0},
		{"Enables a system-wide task dump (excluding kernel threads) to be\n       produced  when the kernel performs an OOM-killing.\n", 0},
		{"Bit mask of allowed sysrq functions, as follows:\n         32  Enable remount read-only\n         64  Enable signaling of processes (term, kill, oom-kill)\n        128  Allow reboot/poweroff\n", 0},
		// Counter-cases: an out-of-memory that happened is still stated, also when its
		// sentence runs over a hyphenated line end.
		{"Last night the OOM killer killed mysqld on our database server.\n", 1},
		{"Our java process got OOM killed twice yesterday.\n", 1},
		{"Yesterday the OOM killer kil‐\n  led our postgres backend.\n", 1},
		{"When the OOM killer killed the backup job, the host rebooted.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// tcp(7) on tcp_wmem's default field: "... from the generic global /proc/sys/net/core/wmem_default
// ... The default value is 16 kB." Before: net.core.wmem_default = 16, refused by the kernel
// (sysctl-out-of-range). A size in kB is no count the key holds; a bare number still is.
func TestStatedValueWithUnitNotSetting(t *testing.T) {
	value := func(text string) string {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		for _, m := range tl.Settings {
			if m.Key == "net.core.wmem_default" && m.Value != "" {
				return m.Value
			}
		}
		return ""
	}
	doc := "This value overwrites the initial default buffer size\n       from the generic  global  /proc/sys/net/core/wmem_default\n       defined  for  all protocols.  The default value is 16 kB.\n"
	if v := value(doc); v != "" {
		t.Errorf("tcp(7): wmem_default = %q, want no value (16 kB is a size, not the key's number)", v)
	}
	post := "I looked at /proc/sys/net/core/wmem_default on the box.\nIts value was 212992 there.\n"
	if v := value(post); v != "212992" {
		t.Errorf("post: wmem_default = %q, want 212992", v)
	}
}

// man(1) hyphenates a /proc/sys path where the line ends ("/proc/sys/vm/nr_overcom‐" /
// "mit_hugepages."): the key is the two parts joined, not "vm.nr_overcom-" (before: no kernel
// has this key). A misspelt key that is joined is still the misspelt key.
func TestHyphenatedProcPathJoined(t *testing.T) {
	keys := func(text string) map[string]bool {
		tl := ParseString(text, "p", Options{})
		out := map[string]bool{}
		for _, m := range tl.Settings {
			out[m.Key] = true
		}
		return out
	}
	k := keys("The maximum number of surplus\n       huge  pages  is  controlled  by  /proc/sys/vm/nr_overcom‐\n       mit_hugepages.\n")
	if !k["vm.nr_overcommit_hugepages"] || k["vm.nr_overcom-"] {
		t.Errorf("hyphenated path: keys %v, want vm.nr_overcommit_hugepages", k)
	}
	k = keys("I set /proc/sys/vm/min_kbytes_fr-\nee to 20248 on the NAS.\n")
	if !k["vm.min_kbytes_free"] {
		t.Errorf("hyphenated misspelt path: keys %v, want vm.min_kbytes_free (still the author's key)", k)
	}
}

// A version a reference page gives for a feature ("tcp_abc (Integer; default: 0; Linux 2.6.15
// to Linux 3.8)", "(since Linux 2.6.11)", "Linux 2.4.27/2.6.6 to 2.6.13") is not the host's
// kernel. Before: kernel 2.6.15, and historical keys were called "not in kernel 2.6.15".
func TestFeatureVersionNotHostKernel(t *testing.T) {
	for _, text := range []string{
		"tcp_abc (Integer; default: 0; Linux 2.6.15 to Linux 3.8)\n       Control the Appropriate Byte Count (ABC).\n",
		"/proc/[pid]/oom_adj (since Linux 2.6.11)\n       This file can be used to adjust the score.\n",
		"tcp_bic (Boolean; default: disabled; Linux 2.4.27/2.6.6 to 2.6.13)\n       Enable BIC TCP.\n",
		"This key was removed in Linux 4.12.\n",
		"Available in kernels before 2.6.13 only.\n",
		"The /proc/slabinfo file first appeared in Linux 2.1.23.\n",
		"tcp_bic_fast_convergence (Boolean; default: enabled; Linux 2.4.27/2.6.6\n",
		"protocol module in Linux 2.0 and 2.2.\n",
		"This was the default up to and including Linux 2.6.30.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Host.Kernel != "" {
			t.Errorf("%q: kernel %q, want none (a feature's version)", text, tl.Host.Kernel)
		}
	}
	// Counter-cases: the host's release stated as such is still read.
	for text, want := range map[string]string{
		"Our server runs Linux 2.6.32 on a Xeon.\n":       "2.6.32",
		"I upgraded to Linux 5.4 and it still happens.\n": "5.4",
		"The box has kernel 3.10.0-957 from CentOS 7.\n":  "3.10.0-957",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Host.Kernel != want {
			t.Errorf("%q: kernel %q, want %q", text, tl.Host.Kernel, want)
		}
	}
}

// /proc/net/softnet_stat whose first CPU's row holds no hex letter ("00049279 00000000
// 00000001 ..."; node_exporter's fixture) was read as a decimal table's row under the
// "softnet_stat" label, then the other CPUs' rows as a second sample: four CPUs became two
// samples and their difference drops and squeezes "while sampled" (before: softnet-squeeze
// critical). Zero-padded eight-digit columns are the file's hex; a tool's decimal rows
// still read as decimal.
func TestSoftnetHexRowWithoutLettersOneSnapshot(t *testing.T) {
	text := "$ cat /proc/net/softnet_stat\n" +
		"00049279 00000000 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n" +
		"000dfb82 00000029 0000000a 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n" +
		"00551c3f 00000000 00000055 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].Softnet) != 3 {
		t.Fatalf("samples %d, want one of 3 CPUs", len(tl.Samples))
	}
	if c := tl.Samples[0].Softnet[0]; c.Processed != 0x49279 || c.TimeSqueeze != 1 {
		t.Errorf("cpu0: processed %d squeeze %d, want %d, 1 (hex)", c.Processed, c.TimeSqueeze, 0x49279)
	}
	// Counter-case: a tool's decimal rows under the label stay decimal.
	dec := "$ cat /proc/net/softnet_stat\n192058677  18862  0  0  0  0  0  0  0  0  1\n192058999  18862  5  0  0  0  0  0  0  0  1\n"
	tl = ParseString(dec, "p", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].Softnet) != 2 || tl.Samples[0].Softnet[0].Processed != 192058677 {
		t.Errorf("decimal rows: %+v, want one sample, cpu0 processed 192058677", tl.Samples)
	}
}

// A guide's example of what the kernel logs is no line of this host's log: a block of log
// lines after "You will typically see one or more of these lines via dmesg or journalctl
// -k:", a title "Linux Error Guide: 'TCP: out of memory -- consider tuning tcp_mem' ...",
// a sentence "... and logs" wrapped before the message (devopsaitoolkit.com's error guide;
// before: tcp-memory-pressure and orphan-send-queues critical). The author's own log after
// "I see these lines in dmesg:" or "as you can see below:", and a title that is the message
// alone, are still the host's.
func TestGuideExampleMessagesNotHostLog(t *testing.T) {
	records := func(text string) int {
		t.Helper()
		return ParseString(text, "p", Options{}).Log.Len()
	}
	for _, text := range []string{
		"When the kernel TCP stack exhausts its global memory pool, it logs warnings to the kernel ring buffer. You will typically see one or more of these lines via dmesg or journalctl -k:\nkernel: TCP: out of memory -- consider tuning tcp_mem\nkernel: TCP: too many orphaned sockets\nkernel: Out of socket memory\nThese messages are rate-limited.\n",
		"Linux Error Guide: 'TCP: out of memory -- consider tuning tcp_mem' Socket Memory Pressure\n\nFix the Linux 'TCP: out of memory' errors.\n",
		"- high watermark — the hard ceiling. When total TCP memory crosses this, the kernel refuses to allocate more buffer space, drops queued data, and logs\nTCP: out of memory -- consider tuning tcp_mem.\n",
		"The output will look like this:\n\n```\nnf_conntrack: table full, dropping packet\n```\n",
	} {
		if n := records(text); n != 0 {
			t.Errorf("%q: %d log records, want 0 (a guide's example)", text, n)
		}
	}
	for _, text := range []string{
		"I see these lines in dmesg:\nkernel: TCP: out of memory -- consider tuning tcp_mem\nkernel: TCP: too many orphaned sockets\n",
		"As you can see below:\n[4486500.513856] TCP: out of memory -- consider tuning tcp_mem\n",
		"TCP: out of memory -- consider tuning tcp_mem\n\nOur proxy fell over last night.\n",
		"the kernel keeps printing\nTCP: too many orphaned sockets\n",
	} {
		if n := records(text); n == 0 {
			t.Errorf("%q: no log record, want the host's line", text)
		}
	}
}

// "net.ipv4.tcp_mem = low pressure high" explains the key's fields; it sets nothing (before:
// sysctl-out-of-range, "low" is not a number). A word that is no field's name is still a
// value the kernel refuses.
func TestSysctlTemplateLineNotSetting(t *testing.T) {
	value := func(text string) (string, bool) {
		for _, m := range ParseString(text, "p", Options{}).Settings {
			if m.Key == "net.ipv4.tcp_mem" {
				return m.Value, true
			}
		}
		return "", false
	}
	for _, text := range []string{
		"net.ipv4.tcp_mem = low pressure high\n",
		"net.ipv4.tcp_rmem = min default max\nnet.ipv4.tcp_mem = <min> <pressure> <max>\n",
	} {
		if v, ok := value(text); ok {
			t.Errorf("%q: tcp_mem = %q, want no setting (a template)", text, v)
		}
	}
	if v, ok := value("net.ipv4.tcp_mem = auto\n"); !ok || v != "auto" {
		t.Errorf("tcp_mem = auto: %q %v, want the value kept for the range check", v, ok)
	}
}

// "Out of memory: Kill process ... (memory used: X.XGB, process memory: X.XGB, process
// oom_score_adj: X) in dmesg" names the message's form with placeholders (before: oom-kill
// warned, "ran 1×"). A victim redacted by hand keeps the kernel's other fields and is a kill.
func TestOOMKillPlaceholderNotKill(t *testing.T) {
	kills := func(text string) int {
		n := 0
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.Kind == model.EventOOMKill {
				n++
			}
		}
		return n
	}
	for _, text := range []string{
		"This error, often seen as System error: 12 (Cannot allocate memory) in application logs or Out of memory: Kill process ... (memory used: X.XGB, process memory: X.XGB, process oom_score_adj: X) in dmesg, means the kernel ran out of RAM.\n",
		"Out of memory: Killed process <pid> (<comm>)\n",
	} {
		if n := kills(text); n != 0 {
			t.Errorf("%q: %d OOM kills, want 0 (a placeholder)", text, n)
		}
	}
	for _, text := range []string{
		"Out of memory: Kill process xxxx(juci-eventd) score 673 or sacrifice child\n",
		"[4379596.425124] Out of memory: Kill process 27085 (mysqld) score 978 or sacrifice child\n",
	} {
		if n := kills(text); n != 1 {
			t.Errorf("%q: %d OOM kills, want 1", text, n)
		}
	}
}

// Output a guide shows as what a reader would see, or on a machine named only by its kind, is
// no host's state: PSI after "Example output of /proc/pressure/memory on a loaded system:",
// vmstat after "... will look like this:", buddyinfo after "Here is what /proc/buddyinfo
// looks like on a fragmented system:", an allocation failure after "If you see something
// like the following in dmesg, ...:" (before: direct-reclaim-stalls critical,
// swap-under-load, memory-fragmented and alloc-fail-fragmented warnings). Their sources are
// marked as another machine's. A blog's own output after "Example output of netstat -su:"
// or "The following is a typical out of memory kernel output message:" (corpus 763, 644,
// labelled as the host's) and "My buddyinfo looks like this:" stay the host's.
func TestGuideExampleOutputForeign(t *testing.T) {
	foreign := func(text string) (marked, total int) {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		for _, s := range tl.Samples {
			total++
			if strings.Contains(s.Source, model.ForeignMark) {
				marked++
			}
		}
		for _, e := range tl.Events {
			total++
			if strings.Contains(e.Source, model.ForeignMark) {
				marked++
			}
		}
		return marked, total
	}
	buddy := "Node 0, zone      DMA      1      1      1      0      2      1      1      0      1      1      3\n" +
		"Node 0, zone   Normal  49217  10337    412      2      0      0      0      0      0      0      0\n"
	for _, text := range []string{
		"Memory pressure stall information. Example output of /proc/pressure/memory on a loaded system:\n\nsome avg10=22.15 avg60=18.30 avg300=9.51 total=1835624915\nfull avg10=15.42 avg60=11.05 avg300=6.02 total=1234567890\n",
		"vmstat 1 on a system that is swapping heavily will look like this:\n\nprocs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n 3  5 2097148  45332   1220  98024 2840 5120  3100  5300 4100 8200 10 30  5 55  0\n 2  6 2097148  41220   1180  97010 3012 4988  3300  5100 4000 8100  9 31  4 56  0\n",
		"Here is what /proc/buddyinfo looks like on a fragmented system:\n\n" + buddy,
		"If you see something like the following in dmesg, your system ran out of memory for atomic allocations:\n\n[ 1234.567890] swapper/0: page allocation failure: order:2, mode:0x4020\n[ 1234.567900] Call Trace:\n[ 1234.567910]  [<ffffffff8113f1a5>] warn_alloc_failed+0xf5/0x140\n",
	} {
		if m, n := foreign(text); n == 0 || m != n {
			t.Errorf("%q: %d of %d samples and events marked another machine's, want all", text, m, n)
		}
	}
	for _, text := range []string{
		"My buddyinfo looks like this:\n\n" + buddy,
		"The following is a typical out of memory kernel output message:\n[12345.342532] systemd-journal invoked oom-killer: gfp_mask=0x800d0, order=0, oom_score_adj=0\n",
		"Here is /proc/pressure/memory on our database server:\n\nsome avg10=22.15 avg60=18.30 avg300=9.51 total=1835624915\nfull avg10=15.42 avg60=11.05 avg300=6.02 total=1234567890\n",
	} {
		if m, n := foreign(text); n == 0 || m != 0 {
			t.Errorf("%q: %d of %d marked another machine's, want none", text, m, n)
		}
	}
}

// "kswapd0 at 100% CPU means the kernel is constantly reclaiming" defines what a reading
// would mean; it states no reading (before: kswapd-saturated warned, "stated in the text").
// "kswapd0 is at 100% CPU on our box" still states one.
func TestDefinedFigureNotStated(t *testing.T) {
	if v := statedRate(t, "kswapd0 at 100% CPU means the kernel is constantly reclaiming.\n", model.RateKswapdCPUPct); v != 0 {
		t.Errorf("definition: kswapd CPU %v, want 0", v)
	}
	if v := statedRate(t, "kswapd0 is at 100% CPU on our box since the upgrade.\n", model.RateKswapdCPUPct); v != 100 {
		t.Errorf("statement: kswapd CPU %v, want 100", v)
	}
}

// Sentences in the voice of a reference page state how the kernel behaves, not what
// happened on a host: no first person, no past, and a mark of the general (a habitual adverb
// at the statement, a clause defining the subject by what it does, a condition on memory or
// the system, a victim named by kind). Before: each raised oom-kill, conntrack-full or
// kswapd-saturated "stated in the text". A host's event in the third person keeps its past,
// its first person, or a condition of its own ("When the backup runs"); an explanation of a
// host's bug with "usually" in a side clause (corpus 578) still states it.
func TestGenericStatementNotStated(t *testing.T) {
	rate := func(text string) float64 {
		t.Helper()
		text = "Notes on Linux memory\n\n" + text + "\n"
		v := 0.0
		for _, k := range []string{model.RateStatedOOM, model.RateStatedConntrackFull, model.RateStatedKswapdBusy, model.RateKswapdCPUPct} {
			v = max(v, statedRate(t, text, k))
		}
		return v
	}
	for _, text := range []string{
		"The OOM killer kills the process with the highest oom_score.",
		"Linux has an out-of-memory killer that kills processes to free memory.",
		"Containers that exceed their memory limit are OOM-killed by the kernel.",
		"Once the conntrack table is full, the kernel drops new connections.",
		"kswapd uses a lot of CPU when memory is low.",
		"Typically kswapd0 consumes 100% CPU when the system is thrashing.",
		"The OOM killer is the kernel's last resort: it kills a process.",
	} {
		if v := rate(text); v != 0 {
			t.Errorf("%q: stated %v, want nothing (a general statement)", text, v)
		}
	}
	for _, text := range []string{
		"When the backup runs, kswapd uses a lot of CPU.",
		"Last night the OOM killer killed mysqld on our database server.",
		"The conntrack table is full and new connections are dropped.",
		"The OOM killer keeps killing java on this box.",
		"It is impossible to free pages from the Normal zone, because whenever one is freed the next allocation takes it (because pages are usually allocated from the Normal zone first), and kswapd winds up in a continuous cycle of trying to free pages from the Normal zone forever.",
	} {
		if v := rate(text); v == 0 {
			t.Errorf("%q: nothing stated, want the host's event", text)
		}
	}
}

// A cgroup's memory.events shown under "A container that hit its limit shows:" and the
// command that prints it is a guide's example (before: oom-kill warned, "the OOM killer ran
// 12× inside it"); under "Our container that runs the API shows:" it is the host's.
func TestCgroupEventsExampleForeign(t *testing.T) {
	events := "\n$ cat /sys/fs/cgroup/memory.events\nlow 0\nhigh 0\nmax 1234\noom 12\noom_kill 12\n"
	for lead, want := range map[string]bool{
		"The memory cgroup reports its events. A container that hit its limit shows:": true,
		"Our container that runs the API shows:":                                      false,
	} {
		tl := ParseString(lead+"\n"+events, "p", Options{})
		if len(tl.CgroupMemory) != 1 {
			t.Fatalf("%q: %d cgroup files read, want 1", lead, len(tl.CgroupMemory))
		}
		if got := strings.Contains(tl.CgroupMemory[0].Source, model.ForeignMark); got != want {
			t.Errorf("%q: marked another machine's %v, want %v (source %q)", lead, got, want, tl.CgroupMemory[0].Source)
		}
	}
}

// netdata's definition of its UDP receive-buffer alarm (health.d/udp_errors.conf: "alarm:
// 1m_ipv4_udp_receive_buffer_errors" ... "warn: $this > (...)") configures the alarm; it
// did not fire (before: udp-rcvbuf-errors warned, "the alarm fired"). The alarm's line in a
// notification still states it (corpus 561, 744).
func TestNetdataAlarmDefinitionNotFired(t *testing.T) {
	def := "      alarm: 1m_ipv4_udp_receive_buffer_errors\n         on: ipv4.udperrors\n     lookup: average -1m unaligned absolute of RcvbufErrors\n      units: errors\n       warn: $this > (($status >= $WARNING) ? (0) : (10))\n       info: Average number of UDP receive buffer errors over the last minute\n"
	if v := statedRate(t, def, model.RateStatedUDPRcvbufAlarm); v != 0 {
		t.Errorf("definition: alarm %v, want none", v)
	}
	fired := "netdata says:\n\nipv4.udperrors: 1m_ipv4_udp_receive_buffer_errors = 12 errors\naverage number of UDP receive buffer errors over the last minute\n"
	if v := statedRate(t, fired, model.RateStatedUDPRcvbufAlarm); v == 0 {
		t.Errorf("notification: no alarm, want it stated")
	}
}
