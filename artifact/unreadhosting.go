package artifact

// Web hosting control panels' and their servers' own notices (pre-round 15, h15d): ConfigServer
// Firewall's lfd alert mails, cPanel's chkservd service monitor, LiteSpeed's LSAPI process
// manager. Each is a program's own threshold or check, not the kernel's: lfd compares the
// load average and a process's size with its own settings (csf.conf LF_LOAD, PT_USERMEM) and
// may kill the process itself; chkservd says a service failed its check; LSAPI says a site's
// PHP pool reached its own process count. None is the host's memory or network measured by
// the kernel, none is an OOM kill; a paste of only such lines held nothing headroom read
// (exit 3) or was read as a sentence's figures.
//
// Gated with webAppForms (webAppOwnLine: one IndexAny of webAppGate's bytes, then
// strings.Index per form): every form holds one of them ('h' "High"/"The", 'x' "max",
// "Excess", "Exceeded").
var hostingForms = []ownLineForm{
	// lfd's load alert mail (csf loadalert.txt): "Subject: lfd on HOST: High 5 minute load
	// average alert - 12.34", with "1 Min Load Avg:" and the rest in the body.
	{"minute load average alert - ", "", false, "ConfigServer Firewall's lfd alert (loadalert: \"lfd on HOST: High N minute load average alert - L\"): the load average passed lfd's own threshold (csf.conf LF_LOAD, PT_LOAD_LEVEL): runnable and uninterruptible tasks (CPU, or tasks in D state waiting on disk or reclaim), not a memory or network figure of the kernel's; vmstat's r, b, si/so and wa would say which"},
	// lfd's process tracking mail (csf resalert.txt): "Excessive resource usage: USER (PID
	// (Parent PID:PPID))", and in the body "Resource: Virtual Memory Size", "Exceeded: A > B
	// (MB)", "Killed: Yes|No".
	{"Excessive resource usage: ", "", false, "ConfigServer Firewall's lfd process tracking (resalert: \"Excessive resource usage: USER (PID ...)\"): a process passed lfd's own per-process threshold (csf.conf PT_USERMEM for Virtual Memory Size, PT_USERTIME for time, PT_USERPROC for processes); lfd kills it itself when PT_USERKILL is set (\"Killed: Yes\"), no kill by the kernel's OOM killer and no statement about the host's free memory"},
	{"Exceeded:", " > ", false, "ConfigServer Firewall's lfd process tracking (resalert's \"Exceeded: A > B (MB)\"): the process's size or time A against lfd's own threshold B (PT_USERMEM compares virtual size, which counts mapped but unused memory, not resident memory): lfd's limit, not the host's memory"},
	// cPanel chkservd (under tailwatchd): "The service \"mysql\" appears to be down." in its
	// log and its notification mail; it then tries to restart the service.
	{"The service ", " appears to be down", false, "cPanel's chkservd service monitor (tailwatchd: \"The service NAME appears to be down\"): the service failed chkservd's check (its process, its TCP port or its own test), and chkservd restarts it; why it went down (a crash, an OOM kill, a full disk) is in the service's own log or the kernel's, not in this notice"},
	// LiteSpeed Web Server's LSAPI process manager: "Reached max children process limit: %d,
	// extra: %d, current: %d, busy: %d, please increase LSAPI_CHILDREN."
	{"Reached max children process limit: ", "", false, "LiteSpeed's LSAPI process manager (\"Reached max children process limit: N, extra: E, current: C, busy: B, please increase LSAPI_CHILDREN\"): the site's PHP pool used every child it may start (LSAPI_CHILDREN, the external app's Max Connections); requests wait in LiteSpeed's queue: the pool's own limit, not memory or the kernel's network"},
}

// isHostingTag: these programs' syslog tags.
func isHostingTag(tag string) bool {
	switch tag {
	case "lfd", "tailwatchd", "chkservd", "lshttpd", "litespeed", "lsws", "openlitespeed":
		return true
	}
	return false
}
