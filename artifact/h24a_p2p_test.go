package artifact

import (
	"strings"
	"testing"
)

// Before round 24 (issue 29, h24a, blind): peer-to-peer and download daemons' own lines
// about buffers, descriptors and their own limits, from their format strings (cited per
// case), bare and in the forms users paste them. Each is named as read with no rule (no
// exit 3, nothing diagnosed, no setting taken from a program's advice).
func TestH24aP2PLinesNamed(t *testing.T) {
	const qbURL = ". More info: https://libtorrent.org/reference-Alerts.html#enum-performance-warning-t"
	cases := []struct {
		name, text, why string
	}{
		// libtransmission/tr-udp.c: tr_logAddNamedError("UDP", "Failed to set receive
		// buffer: requested %d, got %d"), its log's "[stamp] " and " (file:line)".
		{"transmission rcv bare", "[2020-11-09 07:55:27.304] UDP Failed to set receive buffer: requested 4194304, got 425984 (tr-udp.c:84)\n", "Transmission (libtransmission/tr-udp.c): the kernel granted a smaller UDP receive buffer"},
		{"transmission snd journal", "Jul 06 13:50:44 seedbox transmission-daemon[29663]: [2018-07-06 13:50:44.430] UDP Failed to set send buffer: requested 1048576, got 425984 (tr-udp.c:95)\n", "net.core.wmem_max"},
		{"transmission fenced", "```\nUDP Failed to set receive buffer: requested 4194304, got 425984 (tr-udp.c:84)\n```\n", "Transmission"},
		{"transmission quoted", "> UDP Failed to set receive buffer: requested 4194304, got 212992 (tr-udp.c:84)\n", "Transmission"},
		// tr-udp.c's advice on Linux: "Please add the line \"net.core.rmem_max = %d\" to /etc/sysctl.conf".
		{"transmission advice", "Jul 06 13:50:44 seedbox transmission-daemon[29663]: [2018-07-06 13:50:44.429] UDP Please add the line \"net.core.rmem_max = 4194304\" to /etc/sysctl.conf (tr-udp.c:89)\n", "a recommendation, not this host's setting"},
		// Transmission 4.x tr-udp.cc: "Couldn't set receive buffer: requested {}, got {}" and
		// "Please add the line 'net.core.rmem_max = {}' to /etc/sysctl.conf" (tr_logAddDebug).
		{"transmission 4 rcv", "[2023-05-01 10:00:00.123] DBG tr-udp.cc:120 Couldn't set receive buffer: requested 4194304, got 425984\n", "Transmission"},
		{"transmission 4 advice", "[2023-05-01 10:00:00.123] DBG tr-udp.cc:122 Please add the line 'net.core.rmem_max = 4194304' to /etc/sysctl.conf\n", "a recommendation"},
		{"transmission 4.0 advice", "[2023-05-01 10:00:00.123] INF tr-udp.cc:122 Please add the line `net.core.wmem_max = 1048576` to /etc/sysctl.conf\n", "a recommendation"},
		// libtorrent alert.cpp performance_alert::message through qBittorrent's
		// TorrentImpl::handlePerformanceAlert "Performance alert: %1. More info: %2".
		{"qbittorrent fd", "(I) 2023-05-01T10:00:00 - Performance alert: ubuntu.iso: performance warning: too few file descriptors are allowed for this process. connection limit lowered" + qbURL + "\n", "RLIMIT_NOFILE"},
		{"qbittorrent watermark", "(I) 2023-05-01T10:00:01 - Performance alert: ubuntu.iso: performance warning: send buffer watermark too low (upload rate will suffer)" + qbURL + "\n", "send_buffer_watermark"},
		{"qbittorrent compose", "qbittorrent  | (I) 2023-05-01T10:00:00 - Performance alert: debian.iso: performance warning: outstanding disk buffer limit reached" + qbURL + "\n", "libtorrent's own settings"},
		{"qbittorrent journal", "May 01 10:00:00 nas qbittorrent-nox[1234]: (I) 2023-05-01T10:00:00 - Performance alert: debian.iso: performance warning: download limit too low (upload rate will suffer)" + qbURL + "\n", "libtorrent's own settings"},
		// Deluge torrentmanager.py on_alert_performance: log.warning("on_alert_performance: %s, %s", message, code).
		{"deluge", "18:00:01 [WARNING ][deluge.core.torrentmanager     :1620] on_alert_performance: ubuntu.iso: performance warning: too few file descriptors are allowed for this process. connection limit lowered, 10\n", "RLIMIT_NOFILE"},
		// kubo core/node/libp2p/rcmgr_logging.go, zap's tab-separated console form.
		{"kubo rcmgr exceeded", "2023-05-01T10:05:00.000Z\tERROR\tresourcemanager\tlibp2p/rcmgr_logging.go:53\tResource limits were exceeded 261 times with error \"system: cannot reserve inbound connection: resource limit exceeded\".\n", "go-libp2p's resource manager"},
		{"kubo rcmgr advice", "2023-05-01T10:05:00.000Z\tERROR\tresourcemanager\tlibp2p/rcmgr_logging.go:57\tConsider inspecting logs and raising the resource manager limits. Documentation: https://github.com/ipfs/kubo/blob/master/docs/libp2p-resource-management.md\n", "go-libp2p's resource manager"},
		{"kubo rcmgr journal", "May  1 10:05:00 node ipfs[812]: 2023-05-01T10:05:00.000Z\tERROR\tresourcemanager\tlibp2p/rcmgr_logging.go:53\tResource limits were exceeded 12 times with error \"transient: cannot reserve stream: resource limit exceeded\".\n", "go-libp2p's resource manager"},
		// Syncthing's folder watcher (lib/fs basicfs_watch.go, its model's warning).
		{"syncthing inotify", "syncthing  | [ABCDE] 2023/05/01 10:00:01 WARNING: Failed to start filesystem watcher for folder \"Default Folder\" (default): failed to setup inotify handler. Please increase inotify limits, see https://docs.syncthing.net/users/faq.html#inotify-limits\n", "fs.inotify.max_user_watches"},
		// Python's OSError str "[Errno %d] %s" (SABnzbd's newsunpack).
		{"sabnzbd enomem", "2023-05-01 10:00:00,123::ERROR::[newsunpack:1234] Error \"[Errno 12] Cannot allocate memory\" while running rar_unpack on /downloads/x\n", "ENOMEM"},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, c.why) {
			t.Errorf("%s: unread %+v, want one naming %q", c.name, tl.Unparsed, c.why)
		}
		if len(tl.Samples) != 0 || len(tl.Settings) != 0 {
			t.Errorf("%s: samples %+v settings %+v, want none (a program's own line or advice is no host setting)", c.name, tl.Samples, tl.Settings)
		}
	}
}

// Counter-cases: the words in a question, the advice followed by the host's own sysctl
// output (read as the host's, the advice not), kubo's healthy descriptor line, libtorrent's
// alert of another kind, a Python errno of another number.
func TestH24aP2PCounterCases(t *testing.T) {
	// The host's values are read; Transmission's advice (4194304) is not taken as one.
	mix := "$ sysctl net.core.rmem_max\nnet.core.rmem_max = 212992\n" +
		"Jul 06 13:50:44 seedbox transmission-daemon[29663]: [2018-07-06 13:50:44.429] UDP Please add the line \"net.core.rmem_max = 4194304\" to /etc/sysctl.conf (tr-udp.c:89)\n"
	tl := ParseString(mix, "t", Options{})
	host := false
	for _, s := range tl.Settings {
		if s.Key == "net.core.rmem_max" && s.Value != "" && s.Value != "212992" {
			t.Errorf("mix: setting %+v, want only the host's 212992", s)
		}
		host = host || s.Key == "net.core.rmem_max" && s.Value == "212992"
	}
	if !host {
		t.Errorf("mix: settings %+v, want the host's net.core.rmem_max 212992", tl.Settings)
	}
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "recommendation") {
		t.Errorf("mix: unread %+v, want the advice named", tl.Unparsed)
	}
	for name, text := range map[string]string{
		"question":        "Does anybody know what the performance warning in qBittorrent means? It says the send buffer watermark is too low.\n",
		"kubo fd healthy": "Initializing daemon...\nSuccessfully raised file descriptor limit to 2048.\nDaemon is ready\n",
		"other alert":     "(I) 2023-05-01T10:00:00 - Performance alert: ubuntu.iso: performance warning: bittyrant with no uplimit" + ".\n",
		"guide advice":    "Please add the line net.core.rmem_max = 4194304 to /etc/sysctl.conf and reboot.\n",
		"other errno":     "2023-05-01 10:00:00,123::ERROR::[misc:12] Error \"[Errno 2] No such file or directory\" while moving x\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.Unparsed) != 0 {
			t.Errorf("%s: unread %+v, want none (not one of the classes)", name, tl.Unparsed)
		}
	}
}
