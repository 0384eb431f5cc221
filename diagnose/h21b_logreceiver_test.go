package diagnose

import (
	"strings"
	"testing"
)

// h21b: a log receiver's own word about its UDP socket buffer (artifact/rcvbufcapped.go):
// Logstash's UDP input and syslog-ng's afsocket stating the kernel capped SO_RCVBUF below
// their request, rsyslog's omfwd failing a UDP send with ENOBUFS (error 105).
func TestH21bLogReceiverUDPBuffer(t *testing.T) {
	const ls = "[2026-11-30T09:12:01,123][WARN ][logstash.inputs.udp      ][main][3f2a] Unable to set receive_buffer_bytes to desired size. Requested 33554432 but obtained 212992 bytes.\n"
	const sng = "Nov 30 09:12:01 loghost syslog-ng[812]: The kernel refused to set the receive buffer (SO_RCVBUF) to the requested size, you probably need to adjust buffer related kernel parameters; so_rcvbuf='33554432', so_rcvbuf_set='425984'\n"
	const omfwd = "Nov 30 09:12:02 loghost rsyslogd: omfwd: socket 12: error 105 sending via udp: No buffer space available [v8.2102.0 try https://www.rsyslog.com/e/2354 ]\n"
	for _, c := range []struct{ text, want string }{
		{ls, "obtained 208 KiB"},
		{"logstash-1  | " + ls, "requested 32 MiB"},
		{sng, "obtained 416 KiB"},
		{"> " + sng, "requested 32 MiB"},
		{omfwd, "SndbufErrors"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "udp-rcvbuf-errors")
		if f == nil {
			t.Errorf("%q: no udp-rcvbuf-errors", c.text)
			continue
		}
		if s := evidenceText(f); !strings.Contains(s, c.want) {
			t.Errorf("%q: evidence %q lacks %q", c.text, s, c.want)
		}
	}
	// Counter-cases: the kernel's doubling of a request under the cap (Logstash warns on
	// any difference), Logstash's start-up line, the words in advice, omfwd's other errno,
	// impstats with zero drops.
	for _, text := range []string{
		"[2026-11-30T09:12:01,123][WARN ][logstash.inputs.udp      ][main][3f2a] Unable to set receive_buffer_bytes to desired size. Requested 1048576 but obtained 2097152 bytes.\n",
		"[2026-11-30T09:12:01,130][INFO ][logstash.inputs.udp      ][main][3f2a] UDP listener started {:address=>\"0.0.0.0:5514\", :receive_buffer_bytes=>\"33554432\", :queue_size=>\"2000\"}\n",
		"If you see \"Unable to set receive_buffer_bytes to desired size\", raise net.core.rmem_max.\n",
		"Nov 30 09:12:02 loghost rsyslogd: omfwd: socket 12: error 101 sending via udp: Network is unreachable [v8.2102.0 try https://www.rsyslog.com/e/2354 ]\n",
		"[2026/11/30 09:12:01] [ warn] [input] syslog.0 paused (mem buf overlimit)\n",
		"Nov 30 09:12:01 loghost rsyslogd-pstats: imudp(*:514): origin=imudp called.recvmmsg=48211 called.recvmsg=0 msgs.received=912334\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "udp-rcvbuf-errors") != nil || findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: udp-rcvbuf-errors or oom-kill fired", text)
		}
	}
}
