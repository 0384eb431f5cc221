package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// bsdMarkers are words only a BSD-derived system prints or takes: its sysctl namespaces
// (FreeBSD's kern.ipc.*, net.inet.*; Linux has net.ipv4.*, net.core.*) and netstat's BSD-only
// options (-p PROTO with -s, -L for listen queues: Linux netstat has neither form).
//
// netstat -s's udp section on the BSDs and macOS prints sentences Linux's net-tools never
// does (FreeBSD/NetBSD/OpenBSD usr.bin/netstat/inet.c udp_stats: "%ju dropped due to full
// socket buffers", "%ju dropped due to no socket", "%ju with bad data length field", "%ju not
// for hashed pcb"; Linux prints "receive buffer errors" and "packets to unknown port
// received", net-tools statistics.c).
//
// fix32c: FreeBSD's kernel record of a full listen queue, "sonewconn: pcb 0x...
// (0.0.0.0:443 (proto 6)): Listen queue overflow: 1 already in queue awaiting acceptance (4
// occurrences)" (sys/kern/uipc_socket.c sonewconn; Linux counts the same drop silently in
// TcpExt ListenOverflows and logs nothing), and netstat -aL (-L is BSD-only, as in -Lan).
var bsdMarkers = []string{"kern.ipc.", "net.inet.tcp.", "net.inet.udp.", "netstat -sp ", "netstat -Lan", "netstat -Ln", "netstat -aL", "vm.kmem_size", "hw.physmem",
	"dropped due to full socket buffers", "dropped due to no socket", "with bad data length field", "not for hashed pcb", "sonewconn: pcb ",
	// netstat -s's tcp section on the BSDs and macOS (tcp_stats, fix56a_bsdtcp.go): Linux's
	// net-tools prints "segments retransmitted", never a byte count before "retransmitted".
	"bytes) retransmitted"}

// otherOS names the system a text is from when it carries output or settings only a BSD
// has ("kern.ipc.somaxconn: 12288", "netstat -sp tcp"), with the marker seen: "FreeBSD (seen:
// kern.ipc.)". A text that merely names FreeBSD beside Linux output is not another OS's; the
// caller asks only when no Linux kernel release was read. "" when nothing says so.
func otherOS(text string) string {
	seen := ""
	for _, m := range bsdMarkers {
		if bsdMarkerIn(text, m) {
			seen = strings.TrimRight(m, ". ")
			break
		}
	}
	if seen == "" {
		if n := nuttxOS(text); n != "" {
			return n
		}
		if n := sockbufRefusedOS(text); n != "" {
			return n
		}
		if n := smartOSDockerInfo(text); n != "" {
			return n // docker info from Triton's sdc-docker (hostfactsdockerinfo.go)
		}
		return esxiOS(text)
	}
	name := bsdNamed(text)
	if name == "" {
		name = "a BSD"
	}
	return name + " (seen: " + seen + ")"
}

// bsdNamed: the BSD-derived system the text names, "" when none.
func bsdNamed(text string) string {
	for _, n := range []string{"FreeBSD", "OpenBSD", "NetBSD", "DragonFly", "macOS", "Mac OS X", "OS X", "OSX", "Darwin"} {
		if strings.Contains(text, n) {
			return n
		}
	}
	return ""
}

// A socket buffer's size refused with ENOBUFS (fix33a, corpus 2835: massdns's "Failed to
// adjust socket send buffer size.: No buffer space available" on OS X): the BSDs' and macOS's
// sosetopt returns ENOBUFS when sbreserve refuses an SO_SNDBUF or SO_RCVBUF above
// kern.ipc.maxsockbuf; Linux's sock_setsockopt caps the size at net.core.wmem_max or
// rmem_max and never returns it. Named only in a text that names the BSD or macOS: the line
// alone does not say which system printed it, and a UDP send refused with ENOBUFS
// ("sendto: No buffer space available") is Linux's as well.
const sockbufENOBUFS = "No buffer space available"

func sockbufRefusedOS(text string) string {
	if !strings.Contains(text, sockbufENOBUFS) {
		return ""
	}
	name := bsdNamed(text)
	if name == "" {
		return ""
	}
	for rest := text; ; {
		k := strings.Index(rest, sockbufENOBUFS)
		if k < 0 {
			return ""
		}
		line := rest[strings.LastIndexByte(rest[:k], '\n')+1 : k]
		rest = rest[k+len(sockbufENOBUFS):]
		if strings.Contains(line, "buffer size") || strings.Contains(line, "SO_SNDBUF") || strings.Contains(line, "SO_RCVBUF") {
			return name + " (seen: a socket buffer's size refused with ENOBUFS, as only a BSD's setsockopt does)"
		}
	}
}

// setOtherOS names the other system a text is from, after the whole text is read. Only a
// text with no Linux evidence is another system's: a Linux post that quotes FreeBSD's
// kern.ipc.somaxconn beside its own counters is still judged as Linux.
//
// A BSD's netstat -s udp section is read (netstat_bsd.go: its full-buffers count is the
// RcvbufErrors of that stack) and still names the system: with no Linux kernel read, the
// text is that BSD's, so no Linux setting is the fix.
func setOtherOS(tl *model.Timeline, text string) {
	if tl.Host.Kernel == "" && (NothingRead(tl) || bsdNetstatRead(tl) || bsdListenLogOnly(tl)) {
		tl.Host.OtherOS = otherOS(text)
	}
}

func bsdNetstatRead(tl *model.Timeline) bool {
	for _, a := range tl.Artifacts {
		if ns, ok := a.Data.(*NetstatS); ok && ns.Layout != "" {
			return true
		}
	}
	return false
}

// bsdMarkerIn: m occurs in text other than in a Linux program's hint that names BSD's
// equivalent setting: Unbound's warning (services/listen_dnsport.c create_udp_sock) ends "or
// sysctl bigger net.core.rmem_max(linux) or kern.ipc.maxsockbuf(bsd) values." on Linux too.
func bsdMarkerIn(text, m string) bool {
	for rest := text; ; {
		k := strings.Index(rest, m)
		if k < 0 {
			return false
		}
		rest = rest[k+len(m):]
		if !strings.HasPrefix(rest, "maxsockbuf(bsd)") {
			return true
		}
	}
}

// A flight controller's figures: PX4 on a Pixhawk runs NuttX, not Linux. Its uORB topics and
// fields (PX4-Autopilot msg/MavlinkStatus.msg tx_buffer_overruns, the mavlink module's own
// serial TX buffer with no room; msg/Cpuload.msg load, a fraction of one MCU) and NuttX's
// shell prompt "nsh>" are no Linux kernel counter. PX4 also runs on Linux (SITL, companion
// boards), so a topic name alone is not enough: NuttX named, its prompt, or a Pixhawk board
// named beside a uORB topic.
var (
	nuttxMarkers = []string{"NuttX", "nsh> "}
	px4Topics    = []string{"mavlink_status", "tx_buffer_overruns", "cpuload"}
)

// nuttxOS names NuttX (PX4's flight controller) when the text carries its marks, "" if not.
func nuttxOS(text string) string {
	for _, m := range nuttxMarkers {
		if strings.Contains(text, m) {
			return "NuttX, a flight controller's RTOS (seen: " + strings.TrimSpace(m) + ")"
		}
	}
	if !strings.Contains(text, "Pixhawk") {
		return ""
	}
	for _, m := range px4Topics {
		if strings.Contains(text, m) {
			return "NuttX on a Pixhawk flight controller (PX4; seen: " + m + ")"
		}
	}
	return ""
}

// VMware ESXi's own logs (fix22c): the vmkernel writes "In(182) vmkernel: cpu85:19435559)..."
// in /var/run/log/vmkernel.log (a level and a number, the tag, then "cpu<N>:<world id>)"),
// and its purple diagnostic screen "@BlueScreen: #PF Exception 14 in world ..." with frames
// "Vmxnet3VMKDev_AsyncTx@vmkernel#nover+0x1d". ESXi is no Linux kernel: its memory is
// reserved by admission control ("requires 2048 KB ... 0 KB available"), and a vmxnet3 name
// in it is the hypervisor's side of the NIC, not a Linux guest's driver. A Linux guest's
// text that only names ESXi ("a VM on ESXi 6.7") carries none of these forms.
var esxiMarkers = []string{"vmkernel: cpu", "vmkwarning: cpu", "@BlueScreen:", "@vmkernel#nover"}

// esxiOS names VMware ESXi when the text carries a vmkernel record or PSOD form, "" if not.
func esxiOS(text string) string {
	for _, m := range esxiMarkers {
		for rest := text; ; {
			k := strings.Index(rest, m)
			if k < 0 {
				break
			}
			rest = rest[k+len(m):]
			if strings.HasSuffix(m, "cpu") && (rest == "" || !isDigit(rest[0])) {
				continue // "vmkernel: cpu" must be a CPU number's prefix
			}
			return "VMware ESXi (seen: " + strings.TrimSpace(strings.TrimPrefix(m, "@")) + ")"
		}
	}
	return ""
}

const whyESXiRecord = "a VMware ESXi vmkernel record (admission control's memory figures, a PSOD): the hypervisor's own, no Linux counter or log line"

// esxiFiguresUnread lists a VMware ESXi text's vmkernel records that hold a figure (the
// admission failure's "requires 2048 KB ... 0 KB available", the PSOD's "@BlueScreen:" line)
// as unread, so the report shows how far it read: ESXi's evidence, named and kept, that no
// Linux rule judges.
func (d *doc) esxiFiguresUnread() {
	if !strings.HasPrefix(d.tl.Host.OtherOS, "VMware ESXi") || len(d.tl.Unparsed) > 0 {
		return
	}
	var hits []unreadHit
	for k, ls := range [][]proseLine{d.proseLines, d.otherLines} {
		for _, p := range ls {
			if hasDigit(p.text) && esxiOS(p.text) != "" {
				hits = append(hits, unreadHit{p.no, k == 1, whyESXiRecord})
			}
		}
	}
	d.markUnread(hits)
}

// whyBSDListenOverflow: FreeBSD's sonewconn record, listed unread on a text named as FreeBSD's.
const whyBSDListenOverflow = "FreeBSD's kernel record of a full listen queue (sonewconn, sys/kern/uipc_socket.c): another system's, no Linux counter or log line; on FreeBSD `netstat -Lan` shows each listener's qlen/incqlen/maxqlen, and the application's listen() backlog (capped by kern.ipc.soacceptqueue) is the queue's length"

// bsdListenRecordsUnread lists a BSD text's sonewconn records as unread, so the report
// shows the evidence it holds and why no Linux rule judges it (as esxiFiguresUnread does for
// ESXi's records).
func (d *doc) bsdListenRecordsUnread() {
	if d.tl.Host.OtherOS == "" || !strings.Contains(d.tl.Host.OtherOS, "seen: sonewconn") && !strings.Contains(d.tl.Host.OtherOS, "BSD") || len(d.tl.Unparsed) > 0 {
		return
	}
	var hits []unreadHit
	for k, ls := range [][]proseLine{d.proseLines, d.otherLines} {
		for _, p := range ls {
			if strings.Contains(p.text, "sonewconn: pcb ") {
				hits = append(hits, unreadHit{p.no, k == 1, whyBSDListenOverflow})
			}
		}
	}
	d.markUnread(hits)
}

// bsdListenLogOnly: the text's only evidence is FreeBSD's sonewconn records (fix55b), which
// listen-overflow reads (kernel.ParseBSDListenOverflow): the text is still that BSD's.
func bsdListenLogOnly(tl *model.Timeline) bool {
	if tl.Log.Len() == 0 || len(tl.Samples) > 0 || len(tl.Events) > 0 || len(tl.Settings) > 0 {
		return false
	}
	for _, a := range tl.Artifacts {
		if a.Kind != KindKernelLog {
			return false
		}
	}
	for _, r := range tl.Log.All() {
		if _, ok := kernel.ParseBSDListenOverflow(r.Message); !ok {
			return false
		}
	}
	return true
}
