package artifact

import (
	"strings"
	"testing"
)

// Round 15's classes fixed by fix20a (issue 29); each snippet failed before its change.

func unparsedWhy(text string) []string {
	tl := ParseString(text, "p", Options{})
	var out []string
	for _, u := range tl.Unparsed {
		out = append(out, u.Why)
	}
	return out
}

func anyHas(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// OpenVPN's own drop message, printed without a figure (corpus 1777): listed as unread, not
// exit 3. Counter-case: a sentence about output saturation in general is prose.
func TestOpenVPNOutputSaturationUnread(t *testing.T) {
	if w := unparsedWhy("> > MULTI: packet dropped due to output saturation (multi_add_mbuf)\n"); !anyHas(w, "OpenVPN") {
		t.Errorf("OpenVPN's line: unparsed %q", w)
	}
	if w := unparsedWhy("The link dropped packets due to output saturation on the switch.\n"); anyHas(w, "OpenVPN") {
		t.Errorf("prose: unparsed %q", w)
	}
}

// A sentence saying the host logged page allocation failures, in words (corpus 1768). Counter-
// cases: the possibility ("you may see page allocation failures") and a question naming them.
func TestAllocFailuresLoggedInWords(t *testing.T) {
	if w := unparsedWhy(`I left it overnight. VM quickly started emitting "page allocation errors" in the system log.` + "\n"); !anyHas(w, "page allocation failures, in words") {
		t.Errorf("stated: unparsed %q", w)
	}
	for _, s := range []string{
		"Under load you may see page allocation failures in dmesg.\n",
		"What causes page allocation failures on a guest?\n",
	} {
		if w := unparsedWhy(s); anyHas(w, "page allocation failures, in words") {
			t.Errorf("%q: unparsed %q", s, w)
		}
	}
}

// A libvirt domain XML's memory elements (corpus 1767, mail-encoded quotes): listed as the
// guest's configured memory. Counter-case: prose naming the element.
func TestLibvirtMemoryElementUnread(t *testing.T) {
	xml := "  <domain type=3D'kvm'>\n    <name>winxp</name>\n    <memory unit=3D'KiB'>8388608</memory>\n    <currentMemory unit='KiB'>8388608</currentMemory>\n  </domain>\n"
	if w := unparsedWhy(xml); !anyHas(w, "libvirt domain XML") {
		t.Errorf("xml: unparsed %q", w)
	}
	if w := unparsedWhy("Set <memory> to 8388608 KiB in the domain if you need more.\n"); anyHas(w, "libvirt domain XML") {
		t.Errorf("prose: unparsed %q", w)
	}
	if libvirtMemoryLine("<currentMemory") || libvirtMemoryLine("<memory>") {
		t.Error("a bare tag is no element")
	}
}

// netperf's UDP_STREAM table (corpus 1766): both rows read, the loss share computed.
// Counter-case: a "Socket" line of prose.
func TestNetperfUDPStream(t *testing.T) {
	text := "Socket  Message  Elapsed      Messages                =\n\nSize    Size     Time         Okay Errors   Throughput\nbytes   bytes    secs            #      #   10^6bits/sec\n\n212992   65507   10.00      144710      0    7583.56\n212992           10.00          32              1.68\n"
	tl := ParseString(text, "p", Options{})
	var got *NetperfUDPStream
	for _, a := range tl.Artifacts {
		if a.Kind == KindNetperf {
			got = a.Data.(*NetperfUDPStream)
		}
	}
	if got == nil || got.Sent != 144710 || got.MessageBytes != 65507 || got.SendMbps != 7583.56 || got.Received == nil || *got.Received != 32 || got.LostShare == nil || *got.LostShare < 0.99 {
		t.Fatalf("netperf: %+v, unparsed %+v", got, tl.Unparsed)
	}
	if tl.Lines.Unparsed != 0 {
		t.Errorf("lines %+v", tl.Lines)
	}
	tl = ParseString("Socket Message Elapsed Messages are the columns netperf prints.\n", "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindNetperf {
			t.Errorf("prose read as netperf: %+v", a)
		}
	}
}

// wrk's summary (corpus 1794, 1795): its figures read, Socket errors by kind. Counter-case:
// a sentence with "threads and connections" and no summary under it.
func TestWrkSummary(t *testing.T) {
	text := "Running 30s test @ http://10.0.0.1:8080/\n  12 threads and 300 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency    91.56ms   31.46ms 342.61ms   70.65%\n    Req/Sec   223.39     40.76   464.00     80.14%\n  78773 requests in 30.07s, 279.31MB read\n  Socket errors: connect 252, read 0, write 0, timeout 0\nRequests/sec:   2619.58\nTransfer/sec:      9.29MB\n"
	tl := ParseString(text, "p", Options{})
	var got *WrkRun
	for _, a := range tl.Artifacts {
		if a.Kind == KindWrk {
			got = a.Data.(*WrkRun)
		}
	}
	if got == nil || got.Threads != 12 || got.Connections != 300 || got.SocketErrors["connect"] != 252 || got.Requests == nil || *got.Requests != 78773 ||
		got.RequestsPerSec == nil || *got.RequestsPerSec != 2619.58 || got.LatencyMaxMs == nil || *got.LatencyMaxMs != 342.61 {
		t.Fatalf("wrk: %+v", got)
	}
	tl = ParseString("We ran 12 threads and 300 connections against it.\n12 threads and 300 connections\nthen it failed.\n", "p", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindWrk {
			t.Errorf("prose read as wrk: %+v", a)
		}
	}
}
