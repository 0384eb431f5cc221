package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// h29c: remote desktop and game streaming hosts' own lines, from the programs' format strings
// (Sunshine src/logging.cpp and src/platform/linux/misc.cpp, moonlight-qt
// app/streaming/video/ffmpeg.cpp stringifyVideoStats, xrdp common/log.c and
// sesman/sesexec/session.c). Sunshine's UDP send refused with Linux's ENOBUFS reaches the send
// side of udp-rcvbuf-errors; the rest is named as the programs' own account, no finding.

const h29cSunshineSend = "[2025-03-14 21:03:11.482]: Info: CLIENT CONNECTED\n" +
	"[2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105\n" +
	"[2025-03-14 21:03:11.503]: Warning: sendmmsg() failed: 105\n"

func TestH29cSunshineUDPSendENOBUFS(t *testing.T) {
	for _, c := range []struct {
		name, text, records string
	}{
		{"bare", h29cSunshineSend, "2 records"},
		{"fenced", "```\n" + h29cSunshineSend + "```\n", "2 records"},
		{"quoted", "> " + strings.ReplaceAll(strings.TrimSuffix(h29cSunshineSend, "\n"), "\n", "\n> ") + "\n", "2 records"},
		{"journal", "Mar 14 21:03:11 htpc sunshine[2211]: [2025-03-14 21:03:11.500]: Warning: sendmsg() failed: 105\n" +
			"Mar 14 21:03:12 htpc sunshine[2211]: [2025-03-14 21:03:12.500]: Warning: sendmmsg() failed: 105\n", "2 records"},
		{"rfc3339 journal", "2025-03-14T21:03:11.500123+01:00 htpc sunshine[2211]: [2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105\n", "1 record"},
		{"compose", "sunshine-1  | [2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105\n", "1 record"},
		{"old stamp", "[2023:05:01:20:11:03]: Info: Streaming bitrate is 20000000\n[2023:05:01:20:11:04]: Warning: sendmmsg() failed: 105\n", "1 record"},
		{"verbose GSO", "[2025-03-14 21:03:11.500]: Verbose: sendmsg() failed: 105\n", "1 record"},
		{"flattened", "Here is my log: [2025-03-14 21:03:11.482]: Info: CLIENT CONNECTED [2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105 [2025-03-14 21:03:11.503]: Warning: sendmmsg() failed: 105 [2025-03-14 21:03:12.100]: Info: CLIENT DISCONNECTED\n", "2 records"},
	} {
		d := Run(parseText19b(t, c.text), nil)
		f := findingOf(d, "udp-rcvbuf-errors")
		if f == nil {
			t.Errorf("%s: Sunshine's UDP send ENOBUFS reached no udp-rcvbuf-errors", c.name)
			continue
		}
		if !strings.Contains(f.Title, "ENOBUFS") || !strings.Contains(fmt.Sprint(f.Evidence), c.records) {
			t.Errorf("%s: title %q evidence %+v: want ENOBUFS and %q", c.name, f.Title, f.Evidence, c.records)
		}
		if findingOf(d, "oom-kill") != nil {
			t.Errorf("%s: oom-kill fired", c.name)
		}
	}
}

func TestH29cStreamerLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[2025-03-14 21:03:11.482]: Info: Found H.264 encoder: h264_vaapi [vaapi]\n[2025-03-14 21:03:11.482]: Info: Streaming bitrate is 20000000\n[2025-03-14 21:03:11.482]: Error: Failed to set video socket send buffer size (SO_SENDBUF)\n", "Sunshine's own log line"},
		{"[2023:05:01:20:11:03]: Info: Streaming bitrate is 20000000\n", "Sunshine's own log line"},
		{"[2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 111\n", "errno other than ENOBUFS"},
		{"[2025-03-14 21:03:11.500]: Warning: WSASendMsg() failed: 10055\n", "another system's code"},
		{"[2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 55\n", "another system's code"},
		{"Video stream: 1920x1080 59.94 FPS (Codec: H.264)\nIncoming frame rate from network: 59.94 FPS\nDecoding frame rate: 59.94 FPS\nRendering frame rate: 59.90 FPS\nAverage network latency: 3 ms (variance: 1 ms)\nAverage decoding time: 2.10 ms\n", "Moonlight's own stream statistics"},
		{"Frames dropped by your network connection: 12.34%\n", "Moonlight's own figure: 12.34% of frames lost"},
		{"Frames dropped due to network jitter: 0.52%\n", "Moonlight's own figure: 0.52% of frames dropped by the client's frame pacer"},
		{"Video stream: 1920x1080 59.94 FPS (Codec: H.264) Incoming frame rate from network: 59.94 FPS Decoding frame rate: 59.94 FPS Frames dropped by your network connection: 31.20% Frames dropped due to network jitter: 0.52% Average network latency: 3 ms (variance: 1 ms)\n", "Moonlight's own figure: 31.20% of frames lost"},
		{"[2024-02-11T10:14:02.331+0100] [INFO ] Socket 12: AF_INET6 connection received from ::ffff:192.168.1.20 port 50123\n[2024-02-11T10:14:03.001+0100] [ERROR] xrdp_wm_log_msg: Error connecting to user session\n", "xrdp's or xrdp-sesman's own log line"},
		{"[20200101-12:00:02] [ERROR] libipm_msg_in_parse: out of memory\n", "xrdp's own allocation failed"},
		{"[2024-02-11T10:14:03.002+0100] [WARN ] Window manager (pid 4412, display 10) exited with signal SIGKILL. This could indicate a window manager config problem\n", "the signal does not say which"},
		{"[2024-03-14 21:03:11.123456 +00:00] INFO [src/rendezvous_server.rs:1222] update_addr 1.2.3.4:21116\n[2024-03-14 21:03:12.223456 +00:00] INFO [src/relay_server.rs:400] Relayrequest 123 from 1.2.3.4:21117 got paired\n", "RustDesk's ID or relay server"},
		{"hbbs-1  | [2024-03-14 21:03:11.123456 +00:00] WARN [src/rendezvous_server.rs:1222] Failed to start\n", "RustDesk's ID or relay server"},
	} {
		namedNoNICFinding(t, c.text, c.want, "a streaming program's own line")
	}
	// Under the programs' journal tags.
	for _, c := range []struct{ text, want string }{
		{"Mar 14 21:03:11 htpc sunshine[2211]: [2025-03-14 21:03:11.500]: Info: CLIENT CONNECTED\n", "Sunshine's own log line"},
		{"Feb 11 10:14:03 host xrdp-sesman[790]: [ERROR] Out of memory allocating X server params\n", "xrdp's own allocation failed"},
		{"Feb 11 10:14:02 host xrdp[812]: [INFO ] Socket 12: AF_INET6 connection received\n", "xrdp's or xrdp-sesman's own log line"},
		{"Mar 14 21:03:11 gw guacd[1234]: Guacamole proxy daemon (guacd) version 1.5.3 started\nMar 14 21:03:12 gw guacd[1234]: Creating new client for protocol \"rdp\"\n", "Apache Guacamole's proxy daemon"},
		{"guacd[1234]: INFO:\tGuacamole proxy daemon (guacd) version 1.5.3 started\nguacd[1234]: ERROR:\tConnection did not succeed\n", "Apache Guacamole's proxy daemon"},
	} {
		namedNoNICFinding(t, c.text, c.want, "a streaming program's journal line")
	}
}

// The kernel's kill of the desktop beside xrdp's lines stays oom-kill with its victim; the
// Sunshine stamp of colon-separated digits is no vendor kernel's caller block.
func TestH29cStreamerCounterCases(t *testing.T) {
	text := "Feb 11 10:14:03 host xrdp-sesman[790]: [WARN ] Window manager (pid 4412, display 10) exited with signal SIGKILL. This could indicate a window manager config problem\n" +
		"Feb 11 10:14:04 host kernel: Out of memory: Killed process 4412 (Xorg) total-vm:1845678kB, anon-rss:1034567kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:3096kB oom_score_adj:0\n"
	f := findingOf(Run(parseText19b(t, text), nil), "oom-kill")
	if f == nil || !strings.Contains(fmt.Sprint(f.Evidence), "Xorg") {
		t.Errorf("the kernel's kill of Xorg beside xrdp's lines: %+v", f)
	}
	if tl := parseText19b(t, "[2023:05:01:20:11:03]: Info: Streaming bitrate is 20000000\n"); !h23cNamed(tl, "Sunshine's own log line") || len(tl.Unparsed) != 1 {
		t.Errorf("Sunshine's old stamp: unparsed %+v", tl.Unparsed)
	}
	for _, text := range []string{
		"I keep seeing sendmmsg() failed: 105 in the sunshine log, is that bad?\n",
		"Sunshine prints lines like \"[2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105\" when the buffer is full.\n",
		"Sunshine prints lines like [2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 105 when the buffer is full.\n",
		"[2025-03-14 21:03:11.500]: Warning: sendmmsg() failed: 1050\n",
		"[2025-03-14 21:03:11.500]: Warning: WSASendMsg() failed: 10055\n",
		"my Frames dropped by your network connection is huge, about 30%\nFrames dropped by your network connection: lots\n",
		"[2024-03-14 21:03:11.123456 +00:00] INFO [src/foo.rs:12] another Rust program's line\n",
	} {
		tl := parseText19b(t, text)
		if findingOf(Run(tl, nil), "udp-rcvbuf-errors") != nil {
			t.Errorf("%q: udp-rcvbuf-errors fired", text)
		}
		if h23cNamed(tl, "Moonlight's own figure") || h23cNamed(tl, "RustDesk's") {
			t.Errorf("%q: named as Moonlight's figure", text)
		}
	}
}
