package artifact

import (
	"strconv"
	"strings"
)

// h42c: WebRTC media servers' own lines about their workers and allocations (pre-round 42,
// from the programs' sources). Each is named unread with what it proves, with its figures
// as a program_limit artifact; none is this host's memory failing by itself:
//
//   - mediasoup's Node.js side on its C++ worker subprocess's exit (node/src/Worker.ts, the
//     child's 'exit' handler: logger.error("worker process died unexpectedly [pid:%s,
//     code:%s, signal:%s]"), then the Worker emits 'died'). signal:SIGKILL is the signal
//     the kernel's OOM killer and a memory cgroup send, and also anyone's kill -9: kept as a
//     server's notice of a child killed by SIGKILL (Timeline.SigkillNotices), which oom-kill
//     names when it is not checked; another signal (SIGSEGV, SIGABRT) or an exit code is
//     the worker's own crash or exit.
//   - the applications' handler of that 'died' event, as mediasoup's demo and most servers
//     built on it print it: "mediasoup worker died, exiting in 2 seconds... [pid:N]": the
//     application's own exit, the cause is on the line mediasoup logged before it.
//   - Janus's own allocation failing (every plugin's and core's calloc/g_malloc0 checks:
//     JANUS_LOG(LOG_FATAL, "Memory error!\n"), printed after the "[FATAL] " level prefix
//     and, with log prefixes, the "[file:function:line] " context): the program's own
//     malloc returned NULL; no kill by the kernel's OOM killer.
//
// A sentence that names them ("what does 'worker process died unexpectedly' mean?", "if the
// worker dies, restart it") carries neither the bracketed pid nor Janus's level prefix and
// stays prose; a guide's example block is skipped by the callers (exampleLog).
//
// Gated: "died" or "Memory error!" with strings.Index; no regexp.

const (
	mediasoupDiedNeedle = "worker process died unexpectedly [pid:"
	mediasoupAppNeedle  = "worker died, exiting in "
	janusMemNeedle      = "Memory error!"

	whyMediasoupKilled = "mediasoup's notice that its C++ worker subprocess died by SIGKILL (node/src/Worker.ts: \"worker process died unexpectedly [pid:N, code:null, signal:SIGKILL]\"): the kernel's OOM killer and a memory cgroup's send SIGKILL, and so does any kill -9 or a supervisor's stop; the kernel's own kill line (\"Out of memory: Killed process N (mediasoup-worker)\") would say which and is not this line; headroom has no reader for this log"
	whyMediasoupDied   = "mediasoup's notice that its C++ worker subprocess exited (node/src/Worker.ts: \"worker process died unexpectedly [pid:N, code:C, signal:S]\"): a signal other than SIGKILL (SIGSEGV, SIGABRT) or an exit code is the worker's own crash or exit, not a kill by the kernel's OOM killer and no statement about the host's memory; headroom has no reader for this log"
	whyMediasoupAppDie = "an application's handler of mediasoup's 'died' event (mediasoup's demo and the servers built on it: \"mediasoup worker died, exiting in 2 seconds... [pid:N]\"): the application exits because its worker died; the cause (a signal, an exit code) is on mediasoup's own line before it, or the kernel's log; this line names none; headroom has no reader for this log"
	whyJanusMemory     = "Janus's own allocation failed (its core's and plugins' calloc/g_malloc0 checks: JANUS_LOG(LOG_FATAL, \"Memory error!\"), printed as \"[FATAL] [file:function:line] Memory error!\"): the program's malloc returned NULL (its address space, RLIMIT_AS, overcommit or a cgroup's limit); the request is refused, no kill by the kernel's OOM killer and no statement about the host's free memory; headroom has no reader for this log"
)

// mediasoupWorkerDied reads mediasoup's worker-exit line: the pid, the exit code (-1 for
// "null") and the signal ("null" when none). ok only with the bracketed fields in order.
func mediasoupWorkerDied(t string) (pid, code int64, signal string, ok bool) {
	k := strings.Index(t, mediasoupDiedNeedle)
	if k < 0 {
		return 0, 0, "", false
	}
	rest := t[k+len(mediasoupDiedNeedle):]
	p, rest, found := strings.Cut(rest, ", code:")
	if !found {
		return 0, 0, "", false
	}
	c, rest, found := strings.Cut(rest, ", signal:")
	if !found {
		return 0, 0, "", false
	}
	s, _, found := strings.Cut(rest, "]")
	if !found || s == "" || len(s) > 12 {
		return 0, 0, "", false
	}
	pid, err := strconv.ParseInt(p, 10, 64)
	if err != nil || pid <= 0 {
		return 0, 0, "", false
	}
	code = -1
	if c != "null" && c != "undefined" {
		if code, err = strconv.ParseInt(c, 10, 64); err != nil {
			return 0, 0, "", false
		}
	}
	return pid, code, s, true
}

// mediasoupAppDied reads an application's "mediasoup worker died, exiting in N seconds...
// [pid:N]": the pid, or 0 when the line prints none.
func mediasoupAppDied(t string) (pid int64, ok bool) {
	k := strings.Index(t, mediasoupAppNeedle)
	if k < 0 || !strings.Contains(strings.ToLower(t[:k]), "mediasoup") {
		return 0, false
	}
	rest := t[k+len(mediasoupAppNeedle):]
	if !strings.Contains(rest, "second") {
		return 0, false
	}
	if _, after, found := strings.Cut(rest, "[pid:"); found {
		if d := leadingDigits(after); d != "" && len(d) < 10 {
			pid, _ = strconv.ParseInt(d, 10, 64)
		}
	}
	return pid, true
}

// janusMemoryError: Janus's "Memory error!" after its "[FATAL]" level prefix.
func janusMemoryError(t string) bool {
	k := strings.Index(t, janusMemNeedle)
	if k < 0 {
		return false
	}
	head := t[:k]
	f := strings.Index(head, "[FATAL] ")
	if f < 0 {
		return false
	}
	// What lies between the level and the message is Janus's "[file:function:line] " context
	// or nothing.
	mid := strings.TrimSpace(head[f+len("[FATAL] "):])
	return mid == "" || (strings.HasPrefix(mid, "[") && strings.HasSuffix(mid, "]") && strings.Count(mid, ":") >= 1)
}

// webrtcOwnLine: t is one of the lines above; why, and whether the program's own allocation
// failed (oom).
func webrtcOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false, false
	}
	if strings.Contains(t, " died") {
		if _, _, sig, found := mediasoupWorkerDied(t); found {
			if sig == "SIGKILL" {
				return whyMediasoupKilled, false, true
			}
			return whyMediasoupDied, false, true
		}
		if _, found := mediasoupAppDied(t); found {
			return whyMediasoupAppDie, false, true
		}
	}
	if janusMemoryError(t) {
		return whyJanusMemory, true, true
	}
	return "", false, false
}

// webrtcLine names line i when it is one of webrtcOwnLine's, with its figures: the
// worker's pid, exit code and signal (program_limit), and a SIGKILL as a server's notice of
// a child killed by SIGKILL.
func (d *doc) webrtcLine(i int, t string) bool {
	why, oom, ok := webrtcOwnLine(t)
	if !ok || d.exampleLog(i) {
		return false
	}
	d.programOOMNamed = d.programOOMNamed || oom
	d.unparsedUnread(i, why)
	no := d.ls[i].No
	if pid, code, sig, found := mediasoupWorkerDied(t); found {
		data := map[string]any{"program": "mediasoup", "worker_pid": pid, "signal": sig,
			"message": clip(strings.TrimSpace(t[strings.Index(t, mediasoupDiedNeedle):]), 120)}
		if code >= 0 {
			data["exit_code"] = code
		}
		d.addArtifact(KindProgramLimit, no, no, data)
		if sig == "SIGKILL" {
			d.addSigkillNotice(i, "mediasoup's Worker (\"worker process died unexpectedly [pid:N, code:null, signal:SIGKILL]\")")
		}
		return true
	}
	if pid, found := mediasoupAppDied(t); found && pid > 0 {
		d.addArtifact(KindProgramLimit, no, no, map[string]any{"program": "mediasoup", "worker_pid": pid,
			"message": clip(strings.TrimSpace(t[strings.Index(t, mediasoupAppNeedle):]), 120)})
	}
	return true
}

// quic-go's buffer warning as this host's rmem_max (wmem_max): quic-go (sys_conn.go
// setReceiveBuffer/setSendBuffer) asks SO_RCVBUF for its size, then SO_RCVBUFFORCE, reads
// the size back and warns "failed to sufficiently increase receive buffer size (was: A kiB,
// wanted: W kiB, got: G kiB)" only when G is still below W. An unprivileged SO_RCVBUF is
// capped at net.core.rmem_max and doubled (net/core/sock.c __sock_set_rcvbuf); the forced
// one is not capped and would have reached W. So G is twice the host's rmem_max (G = 416
// kiB on the default 212992), read as that setting of this host with the line as its
// source, unless the text already states the setting. "wanted" stays quic-go's own request
// (program_limit), never the host's. Used by the LiveKit server, Syncthing, kubo, Caddy,
// cloudflared and every other quic-go program alike.
var quicBufNeedles = []struct{ needle, key string }{
	{"increase receive buffer size (was: ", "net.core.rmem_max"},
	{"increase receive buffer size (wanted: ", "net.core.rmem_max"},
	{"increase send buffer size (was: ", "net.core.wmem_max"},
	{"increase send buffer size (wanted: ", "net.core.wmem_max"},
}

func (d *doc) quicBufferMax(i int, t string) {
	if !strings.Contains(t, "kiB") {
		return
	}
	for _, q := range quicBufNeedles {
		k := strings.Index(t, q.needle)
		if k < 0 || !strings.Contains(t[:k], "failed to ") {
			continue
		}
		_, after, found := strings.Cut(t[k:], "wanted: ")
		if !found {
			return
		}
		wanted, gotS, ok := cutKiB(after)
		if !ok {
			return
		}
		j := strings.Index(gotS, "got")
		if j < 0 || j > 4 {
			return
		}
		gotS = strings.TrimLeft(gotS[j+3:], ": ")
		got, _, ok := cutKiB(gotS)
		if !ok || got <= 0 || got >= wanted || got%2 != 0 {
			return
		}
		if _, set := d.tl.Host.Sysctls[q.key]; set {
			return
		}
		d.hostValue(q.key, strconv.FormatInt(got*1024/2, 10), i)
		return
	}
}

// cutKiB: "N kiB" at the start of s, and the rest after it.
func cutKiB(s string) (int64, string, bool) {
	n := leadingDigits(s)
	if n == "" || len(n) > 9 || !strings.HasPrefix(s[len(n):], " kiB") {
		return 0, s, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return v, s[len(n)+4:], err == nil
}
