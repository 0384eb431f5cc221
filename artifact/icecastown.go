package artifact

import "strings"

// Icecast's own error.log lines (fix37c, round 32 cases 3184-3186): Icecast 2 and
// icecast-kh log "[YYYY-MM-DD  HH:MM:SS] LEVEL component/function message" (src/logging.c,
// the levels EROR, WARN, INFO, DBUG; the component/function is the C file and function
// that logged). Three messages are a streaming server's statements about itself, read so a
// paste of them runs, with nothing diagnosed: the descriptor limit it found at startup, a
// worker thread that fell behind, and a source whose feed went quiet. None is a figure of
// the host's memory or a kernel network counter.
//
// Gated: the message must follow its own component/function token (itself after a level
// word), so a sentence with the same words, or another program's line, is not taken.

// icecastForms: the component/function, the message's fixed words, and what it proves.
var icecastForms = []struct{ at, words, why string }{
	// icecast-kh src/slave.c slave_startup: getrlimit(RLIMIT_NOFILE) at every start:
	// "process has %d max file descriptor limit".
	{"slave/slave_startup ", " max file descriptor limit", "Icecast's startup note of its descriptor limit (icecast-kh src/slave.c slave_startup: \"process has N max file descriptor limit\", RLIMIT_NOFILE read at every start): informational, printed at each start or restart; one listener or source is one descriptor, so the limit caps the clients it can hold; the process's ulimit -n, not memory or a kernel network setting; headroom has no rule for a program's descriptor limit"},
	// icecast-kh src/client.c worker_wait: a worker thread's loop ran late: "worker %p has
	// been stuck for %d ms".
	{"client/worker_wait ", " has been stuck for ", "Icecast's worker thread ran late (icecast-kh src/client.c worker_wait: \"worker ADDR has been stuck for N ms\"): one pass over its clients took N ms (a blocking write or file read, a busy or starved CPU); the server's own latency, not memory or a kernel socket buffer; headroom has no reader for Icecast's log"},
	// Icecast src/source.c source_read (get_next_buffer in 2.4): no data from the source
	// client within its timeout's slice: "Nothing received on %s for %d seconds".
	{"source_read ", "Nothing received on ", "Icecast's source went quiet (src/source.c: \"Nothing received on MOUNT for N seconds\"): the encoder feeding the mount sent nothing for N seconds (it stopped or its link stalled); the source side's silence, then \"Disconnecting MOUNT due to socket timeout\" at source-timeout; no statement about the host's memory or network buffers; headroom has no reader for Icecast's log"},
}

// icecastOwnLine says why t is one of icecastForms' messages.
func icecastOwnLine(t string) (string, bool) {
	if strings.IndexByte(t, '/') < 0 {
		return "", false
	}
	for _, f := range icecastForms {
		a := strings.Index(t, f.at)
		if a < 0 {
			continue
		}
		if k := strings.Index(t[a+len(f.at):], f.words); k < 0 || !icecastLevelBefore(t[:a]) {
			continue
		}
		return f.why, true
	}
	return "", false
}

// icecastLevelBefore: head ends in a level word and its space, then nothing or the
// component's name ("WARN " before "slave/slave_startup", "WARN source/" before
// "_source_read" or "source_read").
func icecastLevelBefore(head string) bool {
	j := strings.LastIndexByte(head, ' ')
	if j < 0 {
		return false
	}
	// head[j+1:] is "" (the form names the whole token) or the component's "source/" (or
	// "source/_", icecast-kh's _source_read).
	if tok := strings.TrimSuffix(head[j+1:], "_"); tok != "" && !strings.HasSuffix(tok, "/") {
		return false
	}
	lv := head[:j]
	for _, l := range []string{"EROR", "WARN", "INFO", "DBUG"} {
		if strings.HasSuffix(lv, l) && (len(lv) == len(l) || lv[len(lv)-len(l)-1] == ' ') {
			return true
		}
	}
	return false
}
