package artifact

import "strings"

// nginxChildKilled: nginx's master reaping a child killed by SIGKILL (src/os/unix/
// ngx_process.c ngx_process_get_status: "%s %P exited on signal %d%s", the child's name
// "worker process", "cache manager process" or "cache loader process", alert level; OpenResty
// and Kong print the same, corpus case 1594). nginx itself sends SIGKILL only while stopping
// (ngx_master_process_cycle, to workers that outlive a fast stop's wait); otherwise the kernel's OOM killer or a memory cgroup's sends it, and so does any kill -9 (a
// supervisor, a liveness probe's restart). The kernel's own kill line would say which and is
// not this line. Another signal (11 a crash, 6 an abort) is no kill: nginxChildCrashed names it
// (fix37c, corpus case 3199) and asserts no OOM.
func nginxChildKilled(t string) (string, bool) {
	const sig = " exited on signal "
	k := strings.Index(t, sig)
	if k < 0 {
		return "", false
	}
	rest := t[k+len(sig):]
	n := 0
	for n < len(rest) && n < 3 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	signo := rest[:n]
	if n == 0 || n == 3 || len(signo) == 2 && signo > "64" {
		return "", false // no signal number, or past Linux's 64 signals
	}
	head := strings.TrimRight(t[:k], "0123456789")
	if len(head) == len(t[:k]) || !strings.HasSuffix(head, " process ") {
		return "", false // "%s %P": a pid right after the child's name
	}
	name := head[:len(head)-len(" process ")]
	if !strings.HasSuffix(name, "worker") && !strings.HasSuffix(name, "cache manager") && !strings.HasSuffix(name, "cache loader") {
		return "", false
	}
	if signo != "9" {
		return nginxChildCrashed(signo), true
	}
	return "nginx's master reaped a child killed by SIGKILL (src/os/unix/ngx_process.c: \"worker process N exited on signal 9\"; it starts a new one): outside a stop, nginx does not kill its own workers (ngx_master_process_cycle sends SIGKILL only to workers that outlive a fast stop); the kernel's OOM killer or a memory cgroup's sends it (the usual cause in a container), and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process\" or \"Memory cgroup out of memory\") would say which and is not in the text; headroom has no reader for nginx's error log", true
}

// nginxChildCrashed: the same reaping line with a signal other than SIGKILL: the worker
// died of its own fault (11 SIGSEGV, 7 SIGBUS: a bad memory access in nginx's or a third-party
// module's code; 6 SIGABRT: an abort or a failed assertion; 8 SIGFPE). The kernel's OOM
// killer sends only SIGKILL, so the line is no memory kill and names no figure of the host.
func nginxChildCrashed(signo string) string {
	name := "signal " + signo
	switch signo {
	case "11":
		name = "signal 11, SIGSEGV, a segmentation fault"
	case "6":
		name = "signal 6, SIGABRT, an abort"
	case "7":
		name = "signal 7, SIGBUS"
	case "8":
		name = "signal 8, SIGFPE"
	}
	return "nginx's master reaped a child that died of " + name + " (src/os/unix/ngx_process.c: \"worker process N exited on signal " + signo + "\"; it starts a new one): a crash in nginx's or a module's own code (a core dump or a backtrace names it), not a kill: the kernel's OOM killer sends only SIGKILL (signal 9); no statement about the host's memory or network; headroom has no reader for nginx's error log"
}
