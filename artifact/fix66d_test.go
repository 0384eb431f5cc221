package artifact

import (
	"fmt"
	"strings"
	"testing"
)

// An arrow the paster drew to the right of a counter's line is cut; dashes that are not an
// arrow stay (g266's 5828).
func TestFix66dStripArrowAnnotation(t *testing.T) {
	for in, want := range map[string]string{
		"62678 times the listen queue of a socket overflowed    ---- >accept queue": "62678 times the listen queue of a socket overflowed",
		"65640 SYNs to LISTEN sockets dropped  ----> half-open queue full":          "65640 SYNs to LISTEN sockets dropped",
		"120 packets pruned from receive queue --> see below":                       "120 packets pruned from receive queue",
		"120 packets pruned from receive queue -- see below":                        "120 packets pruned from receive queue -- see below",
		"TCPBacklogDrop: 3 --- 4":                                                   "TCPBacklogDrop: 3 --- 4",
	} {
		if got := stripAnnotation(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// g266 (5826): numactl --show's CPU list on a 16-CPU host is 16 numbers after a name and a
// colon, like a /proc/net/dev row without its header; its packets outnumber its bytes.
func TestFix66fNumactlIsNoNetDevRow(t *testing.T) {
	if isNetDevBareRow("physcpubind: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15  ") {
		t.Error("numactl's physcpubind read as /proc/net/dev")
	}
	if !isNetDevBareRow("  eth0: 1234567 8910 0 0 4 0 0 0 7654321 6543 0 0 0 0 0 0") {
		t.Error("a real row refused")
	}
	if !isNetDevBareRow("  lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0") {
		t.Error("an idle interface refused")
	}
}

// g272 (bcc's and perf-tools' tcpretrans examples): one retransmit a line under the tool's
// header, in either layout; the lines are counted, the peer with most named, and a line of
// another shape ends the run.
func TestFix66jTCPRetrans(t *testing.T) {
	for name, c := range map[string]struct {
		text         string
		retx, probes int
		peer         string
	}{
		"bcc -l": {"TIME     PID    IP LADDR:LPORT          T> RADDR:RPORT          STATE\n" +
			"01:55:45 0      4  10.153.223.157:22    R> 69.53.245.40:51601   ESTABLISHED\n" +
			"01:55:46 0      4  10.153.223.157:22    L> 69.53.245.40:51601   ESTABLISHED\n" +
			"01:55:47 0      4  10.153.223.157:22    R> 10.1.1.1:51602       ESTABLISHED\n^C\n", 2, 1, "69.53.245.40"},
		"perf-tools": {"TIME     PID    LADDR:LPORT          -- RADDR:RPORT          STATE\n" +
			"05:16:44 3375   10.150.18.225:53874  R> 10.105.152.3:6001    ESTABLISHED\n" +
			"05:16:54 4028   10.150.18.225:6002   R> 10.150.30.249:1710   ESTABLISHED\n" +
			"05:16:54 4028   10.150.18.225:6002   R> 10.150.30.249:1710   ESTABLISHED\n" +
			"Ending tracing...\n", 3, 0, "10.150.30.249"},
	} {
		tl, err := Parse(strings.NewReader(c.text), "t.txt", Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got *TCPRetransTrace
		for _, a := range tl.Artifacts {
			if a.Kind == KindTCPRetrans {
				got, _ = a.Data.(*TCPRetransTrace)
			}
		}
		if got == nil || got.Retransmits != c.retx || got.LossProbes != c.probes || got.TopPeer != c.peer {
			t.Errorf("%s: %+v", name, got)
		}
	}
	tl, _ := Parse(strings.NewReader("TIME     PID    LADDR:LPORT          -- RADDR:RPORT          STATE\nthe server retransmits a lot\n"), "t.txt", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindTCPRetrans {
			t.Errorf("a header over prose read: %+v", a.Data)
		}
	}
}

// g274 (6145, LKML 2004): 2.4's header in syslog, a mail wrapped before "(gfp=...)" and the
// syslog record's wrapped piece joined back without a space: the header is read whole.
func TestFix66l24HeaderWrappedInSyslog(t *testing.T) {
	text := "Feb  5 11:09:39 server1 kernel: __alloc_pages: 1-order allocation failed\n(gfp=0x1f0/0)\n" +
		"Feb  5 11:10:36 server1 kernel: __alloc_pages: 0-order allocation failed\n(gfp=0x1d2/0)\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, e := range tl.Events {
		if e.AllocFailure != nil {
			modes = append(modes, fmt.Sprintf("%d %s", e.AllocFailure.Order, e.AllocFailure.Mode))
		}
	}
	if strings.Join(modes, ",") != "1 0x1f0,0 0x1d2" {
		t.Errorf("headers: %v", modes)
	}
	if _, ok := parseAllocHeader("__alloc_pages: 1-order allocation failedgfp=0x1f0/0"); ok {
		t.Error("a header without its parenthesis read")
	}
}

// g268's 5906 under the bullets form: busybox logread's "host kern.emerg kernel: ..." lines
// as a Markdown list are the kernel's records, as they are at a line's start.
func TestFix66mBulletedLogread(t *testing.T) {
	for _, raw := range []string{
		"- Jan 10 17:19:47 openipc-hi3516ev300 kern.emerg kernel: Normal free:624kB min:656kB low:820kB high:984kB",
		"Jan 10 17:19:47 openipc-hi3516ev300 kern.emerg kernel: Normal free:624kB min:656kB low:820kB high:984kB",
	} {
		l, _, _ := parseLine(1, raw)
		if !l.Kernel || !strings.HasPrefix(l.Text, "Normal free:624kB") {
			t.Errorf("%q: kernel %v, text %q", raw, l.Kernel, l.Text)
		}
	}
	// Another facility's record stays its program's; a kern. word that is no priority is
	// no facility.
	l, _, _ := parseLine(1, "- Jan 10 17:19:47 cam user.err majestic: no memory for encoder")
	if l.Kernel {
		t.Errorf("a program's record read as the kernel's: %q", l.Text)
	}
	l, _, _ = parseLine(1, "- Jan 10 17:19:47 cam kern.foo kernel: Normal free:624kB min:656kB")
	if l.Kernel && strings.HasPrefix(l.Text, "Normal") {
		t.Errorf("kern.foo taken for a facility: %q", l.Text)
	}
}
