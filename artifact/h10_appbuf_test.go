package artifact

import (
	"strings"
	"testing"
)

// Before round 10 (issue 29, h10): the messages DNS, QUIC, media servers print about the
// socket buffers the kernel granted them, or the packets they lost in their own buffers, are
// named as unread evidence (unreadappbuf.go): no exit 3, nothing diagnosed from them. Each
// snippet is written from the program's format string (cited per case).
func TestAppBufferMessagesNamedUnread(t *testing.T) {
	cases := []struct {
		name, text, why string
	}{
		// quic-go sys_conn.go: "failed to sufficiently increase receive buffer size (was: %d
		// kiB, wanted: %d kiB, got: %d kiB)", printed by Go's log package.
		{name: "quic-go receive", why: "quic-go",
			text: "2026/01/02 03:04:05 failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n"},
		{name: "quic-go send", why: "net.core.wmem_max",
			text: "failed to sufficiently increase send buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.\n"},
		// Unbound services/listen_dnsport.c create_udp_sock, in its own log format
		// "[time] unbound[pid:thread] warning: ...".
		{name: "unbound so-rcvbuf", why: "Unbound (so-rcvbuf)",
			text: "[1700000000] unbound[4321:0] warning: so-rcvbuf 8388608 was not granted. Got 425984. To fix: start with root permissions(linux) or sysctl bigger net.core.rmem_max(linux) or kern.ipc.maxsockbuf(bsd) values.\n"},
		// The same in a syslog, under unbound's tag (isAppBufTag).
		{name: "unbound syslog so-sndbuf", why: "Unbound (so-sndbuf)",
			text: "Jan  2 03:04:05 resolver unbound: [4321:0] warning: so-sndbuf 8388608 was not granted. Got 425984. To fix: start with root permissions(linux) or sysctl bigger net.core.wmem_max(linux) or kern.ipc.maxsockbuf(bsd) values.\n"},
		// FFmpeg libavformat/udp.c udp_open (av_log context "[udp @ %p]").
		{name: "ffmpeg rcvbuf", why: "FFmpeg's UDP input",
			text: "[udp @ 0x5600aa00] attempted to set receive buffer to size 4194304 but it only ended up set as 425984\n"},
		// FFmpeg libavformat/udp.c circular_buffer_task.
		{name: "ffmpeg fifo overrun", why: "fifo_size",
			text: "[udp @ 0x5600aa00] Circular buffer overrun. To avoid, increase fifo_size URL option. To survive in such case, use overrun_nonfatal option\n"},
		// GStreamer gst/udp/gstudpsrc.c gst_udpsrc_open, in GST_DEBUG's format.
		{name: "gstreamer udpsrc", why: "GStreamer udpsrc",
			text: "0:00:00.101 4242 0x5600bb00 WARN udpsrc gstudpsrc.c:1701:gst_udpsrc_open:<udpsrc0> have udp buffer of 425984 bytes while 4194304 were requested\n"},
		{name: "gstreamer force refused", why: "SO_RCVBUFFORCE",
			text: "WARNING: from element /GstPipeline:pipeline0/GstUDPSrc:udpsrc0: Could not create a buffer of requested 4194304 bytes (Operation not permitted). Need net.admin privilege?\n"},
		// LiveKit pkg/rtc checkUDPReadBuffer (logger.Warnw, zap's JSON form).
		{name: "livekit", why: "LiveKit",
			text: `{"level":"warn","ts":1767323045.678,"logger":"livekit","caller":"rtc/config.go:40","msg":"UDP receive buffer is too small for a production set-up","current":425984,"suggested":5000000}` + "\n"},
		// BIND 9 ns/client.c, the send's isc_result (ISC_R_NORESOURCES) under named's tag.
		{name: "bind", why: "ISC_R_NORESOURCES",
			text: "Jan  2 03:04:05 ns1 named[812]: client @0x7f00aa 192.0.2.7#53000 (example.org): error sending response: not enough free resources\n"},
		// PowerDNS pdns/misc.cc setSocketBuffer.
		{name: "pdns", why: "PowerDNS",
			text: "Jan  2 03:04:05 ns1 pdns_recursor[812]: Unable to raise socket buffer size to 4194304: Operation not permitted\n"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%s: unread %+v, want one naming %q", c.name, tl.Unparsed, c.why)
		}
		// h42c: quic-go's "got" is twice this host's rmem_max/wmem_max and is read as that
		// setting (unreadwebrtc.go quicBufferMax); its "wanted" stays no host setting.
		if len(tl.Samples) != 0 || len(tl.Settings) != 0 && !strings.HasPrefix(c.name, "quic-go") {
			t.Errorf("%s: samples %+v settings %+v, want none (a program's request is no host setting)", c.name, tl.Samples, tl.Settings)
		}
		if tl.Host.OtherOS != "" {
			t.Errorf("%s: other OS %q: Unbound's hint names kern.ipc.maxsockbuf(bsd) on Linux too", c.name, tl.Host.OtherOS)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: a guide's recommendation, a configuration line, the healthy forms of
	// the same messages, a guide's example of the warning introduced as one.
	for _, text := range []string{
		"It is recommended to increase the maximum buffer size by running: sysctl -w net.core.rmem_max=7500000\n",
		"    so-rcvbuf: 8m\n",
		"0:00:00.101 4242 0x5600bb00 INFO udpsrc gstudpsrc.c:1704:gst_udpsrc_open:<udpsrc0> have udp buffer of 8388608 bytes\n",
		"2026/01/02 03:04:05 Increased receive buffer size to 7168 kiB\n",
		"You may see this warning in unbound logs:\n\n```\nso-rcvbuf 1048576 was not granted. Got 425984. To fix: start with root permissions(linux)\n```\n",
		"Raise fifo_size when FFmpeg reports a circular buffer overrun.\n",
	} {
		// A healthy message's buffer size is still a figure stated in a text with nothing
		// else (unreadprose.go), never the program's buffer problem.
		tl := ParseString(text, "t", Options{})
		// Unbound's configuration line is named as its own setting (fix32a), never as a buffer
		// problem.
		for _, u := range tl.Unparsed {
			if u.Why != whyStatedFigure && u.Why != whyUnboundConfSize {
				t.Errorf("%q: unread %+v, want none but a stated figure or Unbound's setting", text, u)
			}
		}
	}
	// A BSD's own setting still names a BSD.
	if tl := ParseString("kern.ipc.maxsockbuf: 2097152\n", "t", Options{}); tl.Host.OtherOS == "" {
		t.Errorf("kern.ipc.maxsockbuf: 2097152: no other OS, want a BSD")
	}
}

// Agave's validator reports the host's sysctl values it read from /proc/sys
// (core/src/system_monitor_service.rs linux_report_network_limits: "  {key}:
// recommended={r}, current={c} too small"): current is the host's setting, read as one;
// recommended is Agave's constant, never read; current=-1 is a key it could not read.
func TestAgaveNetworkLimitsReadAsSettings(t *testing.T) {
	cases := []struct{ text, key, value string }{
		{"[2026-01-02T03:04:05.000000000Z WARN  solana_core::system_monitor_service]   net.core.rmem_max: recommended=134217728, current=212992 too small\n", "net.core.rmem_max", "212992"},
		{"[2026-01-02T03:04:05.000000000Z INFO  solana_core::system_monitor_service]   net.core.wmem_max: recommended=134217728 current=134217728\n", "net.core.wmem_max", "134217728"},
		{"[2026-01-02T03:04:05.000000000Z INFO  solana_core::system_monitor_service]   net.core.netdev_max_backlog: report-only --  current=1000\n", "net.core.netdev_max_backlog", "1000"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Settings) != 1 || tl.Settings[0].Key != c.key || tl.Settings[0].Value != c.value || tl.Settings[0].Subject != "" {
			t.Errorf("%q: settings %+v, want the host's %s = %s", c.text, tl.Settings, c.key, c.value)
		}
		if v, _, ok := tl.Sysctl(c.key); !ok || v != c.value {
			t.Errorf("%q: host sysctl %s = %q (%v), want %s", c.text, c.key, v, ok, c.value)
		}
		checkAccount(t, tl)
	}
	// current=-1: Agave could not read the key; the recommendation is no value of the host.
	tl := ParseString("[2026-01-02T03:04:05.000000000Z WARN  solana_core::system_monitor_service]   net.core.rmem_max: recommended=134217728, current=-1 too small\n", "t", Options{})
	for _, s := range tl.Settings {
		if s.Value != "" && s.Subject == "" {
			t.Errorf("current=-1: setting %+v read as the host's", s)
		}
	}
	if v, _, ok := tl.Sysctl("net.core.rmem_max"); ok {
		t.Errorf("current=-1: host sysctl net.core.rmem_max = %q, want none", v)
	}
}
