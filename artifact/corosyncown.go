package artifact

import "strings"

// Corosync's and kronosnet's own lines of the cluster network (fix31b, corpus 2682, 2683), and
// ZoneMinder's analysis daemon's shared-memory error (2652). Each form is written from the
// program's format string; each is named with what it proves, as unread evidence, so a paste
// of them no longer exits 3 as if it held nothing, and no rule is fired by them:
//
//   - corosync exec/totemsrp.c: "Token has not been received in %d ms " (the totem token's
//     own timer, token: in corosync.conf, scaled by token_coefficient per node), "Retransmit
//     List: %x ..." (totem message sequence numbers in hex, not a TCP counter), "A new
//     membership (%d.%x) was formed": the cluster's membership protocol over UDP/knet.
//   - kronosnet (libknet) as corosync logs it, subsystem then message: threads_heartbeat.c /
//     links.c "host: %u link: %u is down" (KNET_SUB_LINK, printed "link: host: N link: L is
//     down"), threads_rx.c "host: %u link: %u is up" ("rx: ..."), host.c _host_dstcache_
//     update_sync "host: %u has no active links" and "host: %u (passive) best link: %u (pri:
//     %u)" ("host: host: ..."): knet's own heartbeat (ping/pong past pong_count) and its
//     choice of link; no kernel counter, no NIC or socket statistic of the host's.
//   - ZoneMinder src/zm_monitor.cpp: Error("Shared data not initialised by capture daemon for
//     monitor %s"): zma found the monitor's mmap'ed segment in /dev/shm (zm.mmap.N) not set up
//     by zmc: zmc not running or unable to create or size it (a full /dev/shm tmpfs: ring
//     buffer images times resolution); a tmpfs's size= limit, not the kernel's free memory.
//     Its web console's header shows that tmpfs's use as "/dev/shm: N%" (a figure, named too).
//
// Counter-cases (not matched): the words in a sentence without the figure ("link: # is down",
// "the token has not been received"), the kernel's "eth0: Link is Down" (no "host: N"),
// TCP's retransmissions, a ZoneMinder line naming another error.
//
// Gated: one strings.Contains per family's rare needle ("been received in ", " link: ",
// " active links", "best link: ", "Retransmit List: ", "new membership (", "Shared data not
// initialised"), behind a first IndexAny of ":TAS"; no regexp.

const (
	totemTokenWhy   = "corosync's totem token timer (exec/totemsrp.c: \"Token has not been received in N ms\"): the membership token did not come round within token (corosync.conf, scaled by token_coefficient per node), because a node left, stopped or was isolated; corosync's own protocol timer over UDP/knet, not a TCP retransmission timeout nor a kernel counter; no rule applies"
	totemRetransWhy = "corosync's totem retransmit list (exec/totemsrp.c: \"Retransmit List: SEQ ...\"): sequence numbers (hex) of totem messages a node asked to be sent again; the membership protocol's own recovery, not TCP's retransmissions nor a kernel counter; no rule applies"
	totemMemberWhy  = "corosync's membership change (exec/totemsrp.c: \"A new membership (RING.SEQ) was formed\"): the cluster's node list was rebuilt after a node joined or left; cluster state, no memory or kernel network figure"
	knetLinkWhy     = "kronosnet's link state as corosync logs it (libknet: \"host: N link: L is down\" / \"is up\", subsystem link or rx first): knet's own heartbeat to a peer node (pings unanswered past pong_count, or answered again); a cluster link's state, not the NIC's carrier, a kernel drop counter or a socket statistic of this host; no rule applies"
	knetHostWhy     = "kronosnet's choice of link for a peer (libknet host.c: \"host: N has no active links\", \"host: N (passive) best link: L (pri: P)\"): the peer has no link knet counts as connected with a valid MTU, or which link it now uses; knet's own state, not a kernel counter; no rule applies"
	zmShmUseWhy     = "ZoneMinder's header figure of its shared memory (the web console's \"/dev/shm: N%\", the use of the /dev/shm tmpfs that holds each monitor's image ring, zm.mmap.N): a RAM-backed file system at its size= limit (half the RAM by default), not the kernel's free memory; when full, zmc cannot make a monitor's segment and zma reports \"Shared data not initialised\"; no rule reads a tmpfs's use"
	zmSharedDataWhy = "ZoneMinder's analysis daemon could not use the monitor's shared memory (src/zm_monitor.cpp: \"Shared data not initialised by capture daemon for monitor M\"): the capture daemon zmc had not set up the monitor's mmap'ed segment in /dev/shm (zmc not running, or unable to create or size it when the /dev/shm tmpfs is full: buffered images times resolution); a tmpfs's size= limit (a RAM-backed file system), not the kernel's free memory, no allocation failure and no OOM kill"
)

// corosyncOwnLine says why t is one of corosync's, kronosnet's or ZoneMinder's zma lines above.
func corosyncOwnLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if strings.IndexAny(t, ":TAS") < 0 { // ':' "host: ", "List: "; 'T' "Token"; 'A' "A new"; 'S' "Shared"
		return "", false
	}
	if k := strings.Index(t, "Token has not been received in "); k >= 0 {
		if rest := t[k+len("Token has not been received in "):]; startsWithDigit(rest) && strings.Contains(rest, " ms") {
			return totemTokenWhy, true
		}
		return "", false
	}
	if k := strings.Index(t, "Retransmit List: "); k >= 0 {
		if rest := t[k+len("Retransmit List: "):]; rest != "" && isHexDigit(rest[0]) {
			return totemRetransWhy, true
		}
		return "", false
	}
	if k := strings.Index(t, "A new membership ("); k >= 0 && strings.Contains(t[k:], ") was formed") {
		return totemMemberWhy, true
	}
	if strings.Contains(t, "Shared data not initialised by capture daemon for monitor ") {
		return zmSharedDataWhy, true
	}
	if k := strings.Index(t, "/dev/shm: "); k >= 0 {
		r := t[k+len("/dev/shm: "):]
		if n := len(leadingDigits(r)); n > 0 && n <= 3 && strings.HasPrefix(r[n:], "%") {
			return zmShmUseWhy, true
		}
	}
	if k := strings.Index(t, "host: "); k >= 0 {
		rest := t[k+len("host: "):]
		if strings.HasPrefix(rest, "host: ") { // corosync's "host: " subsystem before knet's own "host: %u"
			rest = rest[len("host: "):]
		}
		n := len(leadingDigits(rest))
		if n == 0 {
			return "", false
		}
		rest = rest[n:]
		switch {
		case strings.HasPrefix(rest, " link: "):
			r := rest[len(" link: "):]
			m := len(leadingDigits(r))
			if m > 0 && (r[m:] == " is down" || r[m:] == " is up" || strings.HasPrefix(r[m:], " is down ") || strings.HasPrefix(r[m:], " is up ")) {
				return knetLinkWhy, true
			}
		case rest == " has no active links" || strings.HasPrefix(rest, " has no active links "),
			strings.HasPrefix(rest, " (passive) best link: "), strings.HasPrefix(rest, " (active) best link: "):
			return knetHostWhy, true
		}
	}
	return "", false
}

// corosyncSubsystemHost: a line of corosync's own log file or of a retyped journal excerpt
// ("Jan 07 03:14:33 [KNET] rx: host: 2 link: 1 is up"), whose bracketed subsystem (corosync
// exec/logsys.c's [TOTEM ], [KNET  ], [QUORUM], ...) the syslog reader took for the host.
func corosyncSubsystemHost(l *Line) bool {
	h := l.Host
	if len(h) < 4 || h[0] != '[' || h[len(h)-1] != ']' {
		return false
	}
	switch strings.TrimSpace(h[1 : len(h)-1]) {
	case "TOTEM", "KNET", "QUORUM", "MAIN", "CFG", "CPG", "SERV", "QB", "VOTEQ", "CMAP", "MON", "WD":
		return true
	}
	return false
}
