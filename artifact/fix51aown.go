package artifact

import "strings"

// fix51a (round 46, corpus 4292, 4302, 4314, 4282): a program's own statistics or log line
// that names a loss, an allocation failure or a kill of its own, not the host's network,
// memory or the kernel's OOM killer. Each was prose (exit 3); each is named unread with what
// it proves, and nothing is diagnosed from it.

// mavlink-router's endpoint statistics (src/mavlink-router/endpoint.cpp
// Endpoint::print_statistics, printed on SIGUSR1 or with its report_stats option):
// "Endpoint NAME [FD] {", "Received messages {", then "CRC error: N P% NKBytes",
// "Sequence lost: N P%", "Handled: N NKBytes", "Total: N". "Sequence lost" counts MAVLink
// messages whose 8-bit sequence number skipped (lost or corrupted on the link to the
// autopilot: a UART's bytes, a radio's frames, a UDP peer's datagrams), counted by the
// router from the messages' own header, not by any kernel counter.
const mavlinkSeqLostWhy = "mavlink-router's endpoint statistics (src/mavlink-router/endpoint.cpp Endpoint::print_statistics: \"Sequence lost: N P%\", \"CRC error: N P% NKBytes\"): MAVLink messages whose sequence number skipped or whose checksum failed on the link to the vehicle (a UART's bytes lost to its FIFO or flow control, a radio's frames), counted by the router from the messages' headers; no NIC, socket or memory counter of the host; headroom has no reader for MAVLink link statistics"

// mavlinkStatLine reports why t is one of those two rows: the row's words at the start of
// the trimmed line, a count, a share "N%" and, for CRC errors, the "NKBytes" after it.
func mavlinkStatLine(t string) (string, bool) {
	s := strings.TrimSpace(t)
	var rest string
	crc := false
	if r, ok := strings.CutPrefix(s, "Sequence lost: "); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(s, "CRC error: "); ok {
		rest, crc = r, true
	} else {
		return "", false
	}
	n := len(leadingDigits(rest))
	if n == 0 || len(rest) == n || rest[n] != ' ' {
		return "", false
	}
	rest = rest[n+1:]
	p := len(leadingDigits(rest))
	if p == 0 || !strings.HasPrefix(rest[p:], "%") {
		return "", false
	}
	rest = rest[p+1:]
	if crc {
		r, ok := strings.CutPrefix(rest, " ")
		if b := len(leadingDigits(r)); !ok || b == 0 || r[b:] != "KBytes" {
			return "", false
		}
	} else if rest != "" {
		return "", false
	}
	return mavlinkSeqLostWhy, true
}

// Dovecot's processes log the signal that ended them with its sender (src/master/main.c
// sig_die and src/lib-master/master-service.c sig_die: i_warning("Killed with signal %d
// (by pid=%s uid=%s code=%s)"), from the siginfo of a caught signal. A caught signal is
// never SIGKILL (it cannot be caught): SIGTERM or SIGINT from the named pid, a supervisor's
// or an init's stop.
const dovecotSigDieWhy = "a Dovecot process logged the signal that stopped it and its sender (src/master/main.c / lib-master/master-service.c sig_die: \"Killed with signal S (by pid=P uid=U code=kill)\"): a caught signal, so never SIGKILL: SIGTERM or SIGINT from the named process (pid 1 in a container is its init or supervisor), a stop; no kill by the kernel's OOM killer and no statement about memory; headroom has no reader for this log"

// dovecotSigDie reports why t holds that warning: the words, a signal number, then
// " (by pid=" and a pid.
func dovecotSigDie(t string) (string, bool) {
	k := strings.Index(t, "Killed with signal ")
	if k < 0 {
		return "", false
	}
	rest := t[k+len("Killed with signal "):]
	n := len(leadingDigits(rest))
	if n == 0 {
		return "", false
	}
	r, ok := strings.CutPrefix(rest[n:], " (by pid=")
	if !ok || leadingDigits(r) == "" {
		return "", false
	}
	return dovecotSigDieWhy, true
}

// libclamav's loader failing on a database for want of memory (libclamav/readdb.c, the
// loader beside "cli_load: unknown extension - skipping %s": "Can't load %s: %s\n" with
// cl_strerror's text for CL_EMEM, printed "LibClamAV Error: Can't load PATH: Can't allocate
// memory"): its own allocations while parsing the signatures failed.
const clamLoadMemWhy = "libclamav could not load a signature database for want of memory (libclamav/readdb.c: \"LibClamAV Error: Can't load PATH: Can't allocate memory\", cl_strerror(CL_EMEM)): the loader's own allocation failed (a process limit, RLIMIT_AS, or a library build or version mismatch)" + ownAllocTail

// clamLoadMem reports why t is that error: "LibClamAV" before ": Can't load ", and the
// errno's text the whole rest of the line.
func clamLoadMem(t string) (string, bool) {
	k := strings.Index(t, ": Can't load ")
	if k < 0 || !strings.Contains(t[:k], "LibClamAV") {
		return "", false
	}
	s := strings.TrimRight(t, " `")
	if !strings.HasSuffix(s, ": Can't allocate memory") {
		return "", false
	}
	return clamLoadMemWhy, true
}

// ROS 2's launcher `ros2 run` reports its child's end (ros2run/api/__init__.py
// run_executable: a negative returncode -N is printed "[ros2run]: " + signal.strsignal(N),
// "[ros2run]: Killed" for SIGKILL; else "[ros2run]: Process exited with failure N"). Only
// the SIGKILL form is a kill the kernel's OOM killer may have sent.
const ros2runKilledWhy = "ROS 2's `ros2 run` reported that its node died by SIGKILL (ros2run/api/__init__.py run_executable: \"[ros2run]: \" + strsignal of the child's signal, \"Killed\")" + sigkillWhyTail

// ros2runKilled reports why t is that notice: the prefix, then strsignal(SIGKILL)'s text
// and nothing after it.
func ros2runKilled(t string) (string, bool) {
	k := strings.Index(t, "[ros2run]: ")
	if k < 0 {
		return "", false
	}
	if s := strings.TrimRight(t[k+len("[ros2run]: "):], " "); killedWordAt(s) != s || s == "" {
		return "", false
	}
	return ros2runKilledWhy, true
}
