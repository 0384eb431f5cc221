package artifact

import "strings"

// nginxChildKilled: nginx's master reaping a child killed by SIGKILL (src/os/unix/
// ngx_process.c ngx_process_get_status: "%s %P exited on signal %d%s", the child's name
// "worker process", "cache manager process" or "cache loader process", alert level; OpenResty
// and Kong print the same, corpus case 1594). nginx itself sends SIGKILL only while stopping
// (ngx_master_process_cycle, to workers that outlive a fast stop's wait); otherwise the kernel's OOM killer or a memory cgroup's sends it, and so does any kill -9 (a
// supervisor, a liveness probe's restart). The kernel's own kill line would say which and is
// not this line. Another signal (11 a crash, 6 an abort) is no kill and is not read here.
func nginxChildKilled(t string) (string, bool) {
	const sig = " exited on signal 9"
	k := strings.Index(t, sig)
	if k < 0 {
		return "", false
	}
	if rest := t[k+len(sig):]; startsWithDigit(rest) {
		return "", false // signal 90-something: no signal 9
	}
	head := strings.TrimRight(t[:k], "0123456789")
	if len(head) == len(t[:k]) || !strings.HasSuffix(head, " process ") {
		return "", false // "%s %P": a pid right after the child's name
	}
	name := head[:len(head)-len(" process ")]
	if !strings.HasSuffix(name, "worker") && !strings.HasSuffix(name, "cache manager") && !strings.HasSuffix(name, "cache loader") {
		return "", false
	}
	return "nginx's master reaped a child killed by SIGKILL (src/os/unix/ngx_process.c: \"worker process N exited on signal 9\"; it starts a new one): outside a stop, nginx does not kill its own workers (ngx_master_process_cycle sends SIGKILL only to workers that outlive a fast stop); the kernel's OOM killer or a memory cgroup's sends it (the usual cause in a container), and so does any kill -9; the kernel's own kill line (\"Out of memory: Killed process\" or \"Memory cgroup out of memory\") would say which and is not in the text; headroom has no reader for nginx's error log", true
}
