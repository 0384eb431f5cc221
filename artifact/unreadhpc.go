package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix50d: round 45's exits 3 on texts of HPC clusters' and servers' own lines (corpus 4201,
// 4205-4208, 4224), by class, each form checked in the program's source:
//
//   - Open MPI's output prefix (mpirun --timestamp-output --tag-output; orte/mca/iof: ctime()
//     without its newline, then "[JOBID,RANK]<stdout>:" or "<stderr>:") before a line the
//     rank printed: mpirunOutputTail cuts it, so UCX's own line behind it is UCX's
//     (rdmaOwnLine). UCX pads the pid of its "[host:pid:thread]" field ("[%s:%-5d:%d]",
//     ucs/debug/log.c UCS_LOG_PROC_DATA_FMT): "[clx-orion-049:8972 :0]" (reUCXLine).
//   - UCX's UCS_ERR_NO_MEMORY ("Out of memory", ucs_status_string), e.g. ucs/datastruct
//     mpool.c's "Failed to allocate memory pool chunk: %s" when a pool's grow step failed:
//     the library's own allocation, named with what it proves (ucxNoMemory).
//   - PBS Pro/OpenPBS's and Torque's daemon log record ("MM/DD/YYYY HH:MM:SS[.mmm];EVENT;
//     DAEMON[.PID];CLASS;OBJECT;MESSAGE", liblog log_record/log_event: the event type in hex,
//     the daemon's name padded in Torque's): the batch system's message about a job, a hook or
//     a node (pbsLogRecord).
//   - ejabberd's overload watchdog (src/ejabberd_system_monitor.erl, ?ERROR_MSG("Killed ~B
//     process(es) consuming more than ~B message(s) each")): Erlang processes killed inside
//     the BEAM, not Linux processes (ejabberdOverloadKill).
//   - A log viewer's table rows flattened to text, "DATE TIME | HOST | SERVICE | MESSAGE"
//     (Intel Manager for Lustre's log page, its columns Date, Host, Service, Message):
//     stripViewerRow reads the message as a syslog line of that host and tag, so a kernel
//     row is the kernel's log (a Lustre server's LustreError lines, barekernel.go).
//
// The three line forms are named only when nothing else was read (statedFiguresUnread's
// lists): a batch system's memory-limit kill (batchmemkill.go) and any log a reader takes
// stay theirs.

var (
	// reMpirunTag: Open MPI's --timestamp-output (ctime, 24 bytes) and --tag-output prefix.
	reMpirunTag = lazyre.New(`^\s*(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})?\[\d{1,10},\d{1,9}\]<std(?:out|err|diag)>: ?`)
	// rePBSLogRecord: PBS's and Torque's log record up to the message.
	rePBSLogRecord = lazyre.New(`^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d(?:\.\d{1,6})?;[0-9a-fA-F]{2,4}; *[A-Za-z][\w.-]{0,63};[A-Za-z]{2,16};[^;]{0,256};`)
	// reEjabberdOverload: ejabberd_system_monitor's kill line (the next record may be glued
	// after "each": error_logger's reports run together in a paste).
	reEjabberdOverload = lazyre.New(`^\s*Killed \d{1,9} process\(es\) consuming more than \d{1,12} message\(s\) each`)
	// reViewerRow: a flattened log viewer row, date and time, host, service, message.
	reViewerRow = lazyre.New(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ?\| ?([^\s|]{1,64}) ?\| ?([A-Za-z][\w.-]{0,31}) ?\| ?(\S.*)$`)
)

const (
	ucxNoMemoryWhy      = "UCX's own error UCS_ERR_NO_MEMORY (\"Out of memory\", ucs_status_string), e.g. a memory pool that could not grow (ucs/datastruct/mpool.c: \"Failed to allocate memory pool chunk\"): the library's allocation in the process failed (malloc or mmap of the chunk, or its registration with the HCA: RLIMIT_MEMLOCK, the device's tables); no kill by the kernel's OOM killer and no figure of the host's memory: no rule applies"
	pbsLogRecordWhy     = "a PBS Pro/OpenPBS or Torque daemon's own log record (liblog: \"DATE TIME;EVENT;DAEMON;CLASS;OBJECT;MESSAGE\", pbs_mom's, pbs_server's or pbs_python's): the batch system's message about a job, a hook or a node (a hook's Python error, a cgroup file it could not open, a symbol it could not load), not the kernel's log; no memory figure and no kill by the kernel's OOM killer"
	ejabberdOverloadWhy = "ejabberd's own overload watchdog (ejabberd_system_monitor: \"Killed N process(es) consuming more than M message(s) each\"): Erlang processes with long message queues killed inside the BEAM VM, not Linux processes; no kill by the kernel's OOM killer and no figure of the host's memory"
)

// mpirunOutputTail: t after Open MPI's output prefix, or t.
func mpirunOutputTail(t string) string {
	if strings.Contains(t, "]<std") {
		if loc := reMpirunTag.FindStringIndex(t); loc != nil {
			return t[loc[1]:]
		}
	}
	return t
}

// ucxNoMemory: a UCX line (reUCXLine matched) whose message ends in UCS_ERR_NO_MEMORY's
// string.
func ucxNoMemory(t string) bool {
	return strings.Contains(t, "ERROR") && strings.HasSuffix(strings.TrimRight(t, " \t"), ": Out of memory")
}

// pbsLogRecord: line t is a PBS or Torque daemon's log record.
func pbsLogRecord(t string) bool {
	return len(t) > 30 && t[2] == '/' && rePBSLogRecord.MatchString(t)
}

// ejabberdOverloadKill: line t is ejabberd's watchdog's kill line.
func ejabberdOverloadKill(t string) bool {
	return strings.Contains(t, " process(es) consuming ") && reEjabberdOverload.MatchString(t)
}

// stripViewerRow reads "DATE TIME | HOST | SERVICE | MESSAGE" as SERVICE's syslog line from
// HOST, its stamp the date and time.
func stripViewerRow(s string, l *Line) (string, bool) {
	if len(s) < 30 || s[4] != '-' || s[19] != ' ' && s[19] != '|' || strings.Count(s, "|") < 3 {
		return s, false
	}
	m := reViewerRow.FindStringSubmatch(s)
	if m == nil {
		return s, false
	}
	return syslogTag(m[3]+": "+m[4], m[1], strings.TrimRight(m[2], "."), l)
}
