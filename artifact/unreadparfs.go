package artifact

import "strings"

// A distributed file system's daemons' own start-up lines (round 16, fix21b; each format
// string checked in the program's source). MooseFS's and LizardFS's daemons (mfsmaster,
// mfschunkserver, mfsmetalogger, mfsmount; mfscommon/main.c) write -1000 to
// /proc/self/oom_score_adj (-17 to oom_adj on old kernels) at start and log "out of memory
// killer disabled" ("can't disable out of memory killer" when the write failed), and log
// the descriptor limit they set with setrlimit(RLIMIT_NOFILE): "open files limit has been
// set to: %u". A journal of such a start-up held nothing headroom read (exit 3), and its
// "out of memory killer" words are a protection the daemon took, not an OOM event.
//
// Gated: only syslog lines under the daemons' own tags (isParFSTag: "mfs" and one switch),
// then one strings.Index per form.

var parFSForms = []ownLineForm{
	{"out of memory killer disabled", "", true, "a MooseFS/LizardFS daemon's start-up notice that it exempted itself from the kernel's OOM killer (mfscommon/main.c: oom_score_adj set to -1000, OOM_DISABLE): a protection the daemon took, not an OOM event; no memory figure"},
	{"can't disable out of memory killer", "", true, "a MooseFS/LizardFS daemon could not write its oom_score_adj at start (mfscommon/main.c): it stays a candidate of the kernel's OOM killer; not an OOM event and no memory figure"},
	{"open files limit has been set to: ", "", false, "a MooseFS/LizardFS daemon's descriptor limit, set at start with setrlimit(RLIMIT_NOFILE) (mfscommon/main.c: \"open files limit has been set to: N\"): the process's own file limit, not memory"},
}

// isParFSTag: the MooseFS/LizardFS daemons' syslog tags.
func isParFSTag(tag string) bool {
	if !strings.HasPrefix(tag, "mfs") {
		return false
	}
	switch tag {
	case "mfsmaster", "mfschunkserver", "mfsmetalogger", "mfsmount", "mfscgiserv", "mfssupervisor":
		return true
	}
	return false
}

// parFSOwnLine says why t, a line under one of the daemons' tags, is one of parFSForms.
func parFSOwnLine(t string) (why string, oom, ok bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false, false
	}
	for k := range parFSForms {
		if why, ok := parFSForms[k].match(t); ok {
			return why, parFSForms[k].oom, true
		}
	}
	return "", false, false
}
