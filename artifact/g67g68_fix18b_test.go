package artifact

import (
	"strings"
	"testing"
)

// Round 13's g67/g68 (load balancers, log servers), fix18b.

// A kernel message retyped without the space after its comma (and its prefix's colon) is
// the message: the record holds it as the kernel prints it.
func TestFix18bUnspacedMessage(t *testing.T) {
	for _, text := range []string{
		"The error message is \"nf_conntrack:table full,dropping packet.\"\n",
		"nf_conntrack: table full,dropping packet\n",
		"kern.log keeps printing nf_conntrack:table full,dropping packet\n",
	} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") {
			t.Errorf("%q: %d records, want the conntrack-full message", text, tl.Log.Len())
		}
	}
	// Counter-cases: a possibility, the words in a sentence with
	// other words after the quotation, other words with a comma.
	for _, text := range []string{
		"If the table fills you may see table full,dropping packet in dmesg\n",
		"The message \"nf_conntrack:table full,dropping packet\" means the table is at its max\n",
		"the table was full,dropping packets is what we expected from the test plan\n",
	} {
		if tl := ParseString(text, "p", Options{}); tl.Log.Len() != 0 {
			t.Errorf("%q: %d records, want none", text, tl.Log.Len())
		}
	}
}

// ipvsadm -L -c -n's rows are the tool's form, listed as read (no reader, no finding); the
// DPVS "IPVS: NAME: no memory ..." line is a user-space pool's.
func TestFix18bLoadBalancerLines(t *testing.T) {
	table := "# ipvsadm -L -c -n\nIPVS connection entries\npro expire state       source             virtual            destination\n" +
		"TCP 133:35 ESTABLISHED 10.142.81.39:49715 10.40.25.43:18000  10.40.25.16:18000\n" +
		"TCP 43:28  ESTABLISHED 10.40.25.18:50868  10.40.25.43:18000  10.40.25.16:18000\n" +
		"UDP 04:59  UDP         10.0.0.5:5353      10.40.25.43:53     10.40.25.28:53\n"
	tl := ParseString(table, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != ipvsConnWhy || tl.Unparsed[0].LastLine-tl.Unparsed[0].FirstLine != 2 {
		t.Errorf("ipvsadm -L -c rows: %+v", tl.Unparsed)
	}
	for _, text := range []string{
		"IPVS: dp_vs_conn_alloc: no memory for connection\n",
		"# IPVS: dp_vs_conn_alloc: no memory for connection\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != userLBPoolWhy || tl.Log.Len() != 0 {
			t.Errorf("%q: %+v, %d records", text, tl.Unparsed, tl.Log.Len())
		}
	}
	// Counter-cases: the kernel's IPVS message (its own reason), netstat's and conntrack's
	// rows, a sentence naming the words.
	if tl := ParseString("IPVS: ip_vs_conn_new(): no memory\n", "p", Options{}); len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != ipvsNoMemoryWhy {
		t.Errorf("kernel IPVS line: %+v", tl.Unparsed)
	}
	for _, s := range []string{
		"tcp        0      0 10.0.0.1:22             10.0.0.2:5555           ESTABLISHED",
		"tcp      6 431999 ESTABLISHED src=10.0.0.1 dst=10.0.0.2 sport=22 dport=5555",
		"TCP 133:35 is how long the entry has left before it expires on the director",
		"the IPVS: dp_vs_conn_alloc: no memory for connection message means the pool is too small",
	} {
		if ipvsConnRow(s) {
			t.Errorf("%q read as an ipvsadm row", s)
		}
		if _, ok := userLBPoolLine(s); ok && !strings.HasPrefix(s, "the IPVS: ") {
			// (a sentence quoting the message is listed with it, as the kernel's IPVS
			// lines are: harmless, no rule reads it)
			t.Errorf("%q read as a user-space pool line", s)
		}
	}
}

// A single-valued setting stated in prose with thousands separators is the whole number; a
// key that holds several numbers or a list keeps its numbers apart.
func TestFix18bGroupedProseValue(t *testing.T) {
	for text, want := range map[string]string{
		"The param net.netfilter.nf_conntrack_max is 655,360.\n":      "655360",
		"we set net.core.netdev_max_backlog to 1,000,000 last week\n": "1000000",
		"net.ipv4.tcp_max_orphans was 262,144 on this node\n":         "262144",
		"net.netfilter.nf_conntrack_max is 65536.\n":                  "65536",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Settings) != 1 || tl.Settings[0].Value != want {
			t.Errorf("%q: %+v, want %s", text, tl.Settings, want)
		}
	}
	// Counter-cases: a list key, a comma that separates two numbers (not groups of three),
	// a decimal comma.
	for text, want := range map[string]string{
		"net.ipv4.tcp_mem is 188,250,376 here\n":                  "188",
		"net.netfilter.nf_conntrack_max is 65536, 131072 later\n": "65536",
		"net.netfilter.nf_conntrack_max is 65,5 percent\n":        "65",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.Settings) != 1 || tl.Settings[0].Value != want {
			t.Errorf("%q: %+v, want %s", text, tl.Settings, want)
		}
	}
}
