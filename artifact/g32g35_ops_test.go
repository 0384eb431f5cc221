package artifact

import (
	"strings"
	"testing"
)

// A title that says what a monitoring check reports ("check_conntrack says the conntrack
// table is full ...") is the check's verdict at its threshold, not the kernel's record
// (corpus 969). The same title without a check, or a check that only names the table in the
// body, keeps the title's reading.
func TestTitleOfACheckNotLogged(t *testing.T) {
	for _, text := range []string{
		"check_nf_table reports conntrack table is full while most entries are unreplied\n\nthe plugin counts every entry\n",
		"Zabbix alerts that conntrack table full on idle firewall\n\nsee graph\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Log) != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
	// The same in a sentence of the body: what the check says, not a stated event.
	if tl := ParseString("Hello\n\nOur check_ct plugin reports that the conntrack table is full whenever unreplied entries pile up.\n", "p", Options{}); len(artifactsOf(tl, KindStated)) != 0 {
		t.Errorf("check's report stated: %+v", artifactsOf(tl, KindStated))
	}
	if tl := ParseString("Hello\n\nLast night the conntrack table was full and the plugin went red.\n", "p", Options{}); len(artifactsOf(tl, KindStated)) == 0 {
		t.Errorf("host's event not stated")
	}
	for _, text := range []string{
		"conntrack table is full on our edge router\n\nnew flows are dropped since Monday\n",
		"# nf_conntrack table full\n\nnagios caught it first\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Log) != 1 || !strings.Contains(tl.Log[0].Message, "table full, dropping packet") {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
}

// The conntrack-full message in the short form people quote ("nf_conntrack: table full") in
// a sentence that says the author met it is the host's record (corpus 998). Unquoted, asked
// about, or said as a possibility, it is not.
func TestQuotedShortConntrackFullStated(t *testing.T) {
	for _, text := range []string{
		"Hi,\n\nWe encountered a 'nf_conntrack: table full' message on our NAT box after the upgrade.\n",
		"Hello\n\nI'm hitting \"ip_conntrack: table full\" on 5.10 under a port scan.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Log) != 1 || !strings.Contains(tl.Log[0].Message, "table full, dropping packet") {
			t.Errorf("%q: log %+v", text, tl.Log)
		}
	}
	for _, text := range []string{
		"Hi,\n\nWhy do I get \"nf_conntrack: table full\" on an idle box?\n",
		"Hi,\n\nIf you hit \"nf_conntrack: table full\", raise nf_conntrack_max.\n",
		"Hi,\n\nWe encountered the nf_conntrack: table full thing in the docs only.\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.Log) != 0 {
			t.Errorf("%q read as logged: %+v", text, tl.Log)
		}
	}
}

// A Nagios plugin's status line with performance data ("SERVICE STATE - text|label=value
// [UOM];warn;crit;min;max"): a conntrack check's count and maximum become the host's
// nf_conntrack_count and nf_conntrack_max, check_swap's free and total swap its SwapFree and
// SwapTotal. Before: prose (exit 3 when nothing else was read). The state word is not read;
// another plugin's perfdata is kept but not taken as a kernel reading; a sentence with a pipe
// is no status line.
func TestNagiosPerfdataRead(t *testing.T) {
	tl := ParseString("$ ./check_nf -w 75 -c 90\nNF OK - 12% of table (3900/32768)|entries=3900;24576;29491;0;32768\n", "p", Options{})
	if c, _, ok := tl.Sysctl("net.netfilter.nf_conntrack_count"); ok {
		t.Errorf("a table check that does not name conntrack read as conntrack: %q", c)
	}
	tl = ParseString("# check_conntrack -w 75 -c 90\nCT WARNING: 80% used (26214/32768)|count=26214;24576;29491;0;32768\n", "p", Options{})
	if c, _, _ := tl.Sysctl("net.netfilter.nf_conntrack_count"); c != "26214" {
		t.Errorf("count %q", c)
	}
	if m, _, _ := tl.Sysctl("net.netfilter.nf_conntrack_max"); m != "32768" {
		t.Errorf("max %q", m)
	}
	tl = ParseString("SWAP WARNING - 25% free (512 MB out of 2048 MB) |swap=512MB;1024;256;0;2048\n", "p", Options{})
	var total, free int64
	var got bool
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			total, _ = s.MemInfo.Get("SwapTotal")
			free, got = s.MemInfo.Get("SwapFree")
		}
	}
	if !got || total != 2048*1024 || free != 512*1024 {
		t.Errorf("swap total %d free %d (%v)", total, free, got)
	}
	tl = ParseString("DISK OK - free space: / 3326 MB (56%);| /=2643MB;5948;5958;0;5968\n", "p", Options{})
	if n := len(artifactsOf(tl, KindNagios)); n != 1 {
		t.Errorf("disk check: %d nagios artifacts", n)
	}
	for _, s := range tl.Samples {
		if s.MemInfo != nil {
			t.Errorf("disk check read as memory: %+v", s.MemInfo)
		}
	}
	if tl := ParseString("Hello\n\nThe OK button | the cancel=x one\n", "p", Options{}); len(artifactsOf(tl, KindNagios)) != 0 {
		t.Errorf("prose read as a status line")
	}
}
