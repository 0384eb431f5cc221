package diagnose

import (
	"strings"
	"testing"
)

// fix55a: a stated NIC overrun beside an interface whose counters the paste cut (an ifconfig
// block ending before its RX lines) is judged from the statement; counters that hold the
// overrun counter still decide. A SLUB failure without its cache line is told as such.

const fix55aIfconfigCut = "bond1     Link encap:Ethernet  HWaddr 24:4C:07:E3:C0:CE  \n" +
	"          inet addr:10.12.123.1  Bcast:10.12.123.63  Mask:255.255.255.192\n"

func TestFix55aStatedOverrunBesideCutCounters(t *testing.T) {
	text := "Under heavy monitoring traffic the box drops packets due to rx_missed_errors.\n\n" + fix55aIfconfigCut
	res := run(t, "nic-rx-overruns", parseText19b(t, text))
	if len(res.Findings) != 1 {
		t.Fatalf("not fired: %+v", res)
	}
	// Without the statement: not checked, as before.
	if res := run(t, "nic-rx-overruns", parseText19b(t, fix55aIfconfigCut)); len(res.Findings) != 0 || res.NotChecked == "" {
		t.Errorf("cut ifconfig alone: %+v", res)
	}
	// The counters read say no overrun: they decide, not the sentence.
	whole := "Under heavy monitoring traffic the box drops packets due to rx_missed_errors.\n\n" +
		"eth0      Link encap:Ethernet  HWaddr 24:4C:07:E3:C0:CE  \n" +
		"          inet addr:10.0.0.2  Bcast:10.0.0.255  Mask:255.255.255.0\n" +
		"          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n" +
		"          RX packets:123456 errors:0 dropped:0 overruns:0 frame:0\n" +
		"          TX packets:654321 errors:0 dropped:0 overruns:0 carrier:0\n"
	if res := run(t, "nic-rx-overruns", parseText19b(t, whole)); len(res.Findings) != 0 {
		t.Errorf("fired against counters that read 0: %+v", res.Findings)
	}
}

func TestFix55aSlubCutHeaderEvidence(t *testing.T) {
	res := run(t, "slab-alloc-failure", parseText19b(t, "[12.000000] SLUB: Unable to allocate memory on node -1\n"))
	if len(res.Findings) != 1 {
		t.Fatalf("not fired: %+v", res)
	}
	ev := res.Findings[0].Evidence
	if len(ev) != 1 || !strings.Contains(ev[0].Value, "cache line is not in the text") {
		t.Errorf("evidence %+v", ev)
	}
}
