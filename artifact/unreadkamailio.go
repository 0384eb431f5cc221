package artifact

import "strings"

// Kamailio's (and SER's, its ancestor's) own memory and socket lines (round 44, fix49d),
// beside telecomClasses' pool messages. Kamailio allocates from two pools of its own, fixed
// at start: the shared pool of -m MB (shm_malloc) and each process's private pool of -M MB
// (pkg_malloc), both carved by its own allocators (q_malloc.c, f_malloc.c, tlsf_malloc.c).
// A failure there is the program's pool, never the kernel's page allocator nor an OOM kill;
// its memory summary is the program's accounting. Its start-up probe of each UDP socket's
// receive buffer (core/udp_server.c probe_max_receive_buffer) prints what the kernel
// granted, not a drop. Each is named unread with what it proves (telecomOwnLine calls
// kamailioOwnLine), its figures kept, so a paste of them holds evidence and raises no
// kernel finding.
//
// The forms, from the sources: LM_ERR and LOG(L_ERR, ...) print "LEVEL: <core>
// [core/tcp_main.c:973]: tcpconn_new(): mem. allocation failure" (5.x: module or <core>,
// [file:line], the function) or "ERROR: tcpconn_new: mem. allocation failure" (SER, 1.x);
// modules write LM_ERR("no more shm\n"), ("no more pkg mem\n") in many spellings after the
// function; q_malloc.c qm_sums, f_malloc.c fm_status and tlsf_malloc.c tlsf_sums log
// " count=%6d size=%10lu bytes from %s: %s(%ld)"; udp_server.c logs "SO_RCVBUF is
// initially %d for fd %d" and "SO_RCVBUF is finally %d on fd %d" (older: "SO_RCVBUF is
// finally %d", "option SO_RCVBUF is finally %d"), probe_max_send_buffer the same for
// SO_SNDBUF.

const kamailioPoolWhy = ": Kamailio's own pool (the shared pool of -m/shm_mem_size MB or a process's private pool of -M/pkg_mem_size MB, both fixed at start and carved by its own allocator) had no free fragment for the request: a leak or an undersized pool inside the daemon, not the kernel's page allocator (no page allocation failure) and no OOM kill; `kamcmd core.shmmem` and `kamcmd pkg.stats` measure the pools; headroom has no rule for a program's own pool"

const kamailioSumsWhy = "Kamailio's memory summary (q_malloc.c qm_sums, f_malloc.c fm_status, tlsf_malloc.c tlsf_sums: \"count=N size=N bytes from file: function(line)\"): the fragments its own allocator holds in one pool, counted per allocating call site, the program's accounting of its -m or -M pool; not the kernel's memory (no meminfo, no slab) and no failure; headroom has no rule for a program's own pool"

const kamailioRcvbufWhy = "Kamailio's start-up probe of a UDP socket's buffer (core/udp_server.c probe_max_receive_buffer / probe_max_send_buffer: \"SO_RCVBUF is initially N\", then \"finally N\" read back with getsockopt): the kernel stores twice the size it granted and caps an unprivileged request at net.core.rmem_max (wmem_max for SO_SNDBUF), so \"finally\" is twice the cap when the probe asked for more (net/core/sock.c __sock_set_rcvbuf) and \"initially\" is net.core.rmem_default's size; a size the kernel granted, not a drop: udp-rcvbuf-errors reads the kernel's RcvbufErrors counter (`netstat -su`), which this line does not give"

// kamailioOwnLine says why t is one of Kamailio's own memory or socket-buffer lines; oom:
// its own pool ran out (programOOMNamed).
func kamailioOwnLine(t string) (why string, oom, ok bool) {
	if k := strings.Index(t, "mem. allocation failure"); k > 0 && kamailioLogPrefix(t[:k]) {
		return "Kamailio could not allocate from its own pool (\"mem. allocation failure\" after a shm_malloc or pkg_malloc that returned 0, e.g. tcp_main.c tcpconn_new for a new TCP connection)" + kamailioPoolWhy, true, true
	}
	for _, n := range []string{"no more shm", "no more pkg", "no more shared mem", "no more private mem"} {
		if k := strings.Index(t, n); k > 0 && kamailioLogPrefix(t[:k]) {
			return "Kamailio's module or core reported its pool empty (LM_ERR(\"" + n + "...\"))" + kamailioPoolWhy, true, true
		}
	}
	if k := strings.Index(t, " bytes from "); k > 0 && strings.Contains(t[:k], " count=") && strings.Contains(t[:k], " size=") &&
		(strings.Contains(t[:k], "qm_sums") || strings.Contains(t[:k], "fm_status") || strings.Contains(t[:k], "tlsf_sums")) {
		return kamailioSumsWhy, false, true
	}
	for _, n := range []string{"SO_RCVBUF is initially ", "SO_RCVBUF is finally ", "SO_SNDBUF is initially ", "SO_SNDBUF is finally "} {
		if k := strings.Index(t, n); k >= 0 {
			if rest := t[k+len(n):]; leadingDigits(rest) != "" && kamailioProbeForm(t[:k], rest[len(leadingDigits(rest)):]) {
				return kamailioRcvbufWhy, false, true
			}
		}
	}
	return "", false, false
}

// kamailioLogPrefix: the text before a message is Kamailio's log form: it ends in the
// function's name ("tcpconn_new(): ", 5.x) or an old "ERROR: name: " and names the level.
func kamailioLogPrefix(p string) bool {
	p = strings.TrimRight(p, " ")
	if !strings.Contains(p, "ERROR") && !strings.Contains(p, "CRITICAL") && !strings.Contains(p, "ALERT") {
		return false
	}
	return strings.HasSuffix(p, "():") || strings.HasSuffix(p, ":") && strings.Contains(p, "ERROR: ")
}

// kamailioProbeForm: the probe line's own frame: the function's name before the message
// (5.x "probe_max_receive_buffer(): ", SER's "udp_init: ", 3.x "option ") or the fd after
// it ("for fd N", "on fd N"), or nothing after the number (the line ends there).
func kamailioProbeForm(before, after string) bool {
	after = strings.TrimSpace(after)
	if strings.HasPrefix(after, "for fd ") || strings.HasPrefix(after, "on fd ") {
		return true
	}
	if after != "" {
		return false
	}
	return strings.HasSuffix(before, "probe_max_receive_buffer(): ") || strings.HasSuffix(before, "probe_max_send_buffer(): ") ||
		strings.HasSuffix(before, "udp_init: ") || strings.HasSuffix(before, "INFO: option ") || strings.HasSuffix(before, "INFO: ")
}
