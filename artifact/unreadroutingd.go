package artifact

import "strings"

// Routing daemons' own evidence of a stall (fix41b, corpus 3471, 3477, 3480; round 36's
// switch and routing family). A BGP daemon that is CPU-bound (a route server pushing a full
// table, a 4000-line configuration parsed at start) shows it in three forms, none of which a
// reader takes; with nothing else read such a text exited 3, as if it held no evidence:
//
//   - FRR's watchdog on the daemon (watchfrr/watchfrr.c; doc/manpages/watchfrr.rst: it
//     connects to each daemon's VTY socket and sends echo commands, and restarts a daemon
//     that stops answering): "bgpd state -> unresponsive : no response yet to ping sent 90
//     seconds ago", then "Forked background command [pid N]: /usr/lib/frr/watchfrr.sh
//     restart bgpd". The daemon busy or hung, and stopped by watchfrr's restart (the
//     daemon's "Terminating on signal" after it is that stop), not by the kernel's OOM
//     killer, which sends SIGKILL and logs in the kernel's log.
//   - A BGP session closed on hold-timer expiry, as the daemon logs it after a ": " (BIRD's
//     "R0_69: Received: Hold timer expired" when the peer's NOTIFICATION says so, "Error:
//     Hold timer expired" when its own timer ran out; FRR's "Hold Timer Expired"): no
//     KEEPALIVE or UPDATE within the hold time (RFC 4271 §6.5), from loss on the path or from
//     a daemon too busy to send or read them; no drop, buffer or memory counter.
//   - A daemon's CPU share stated in a sentence ("bird load cpu about 30-89%"), the sentence
//     often wrapped over two lines of a mail: processor time, no figure of memory or the
//     network.
//
// Each is named unread with what it proves; no rule fires from them (statedFiguresUnread:
// only when nothing else was read). Counter-cases (fix41b_test.go): a sentence naming the
// words ("peers hit hold timer expired"), watchfrr's "state -> up", a question about CPU
// load, a CPU count ("4 cpu cores"), a condition ("if cpu goes above 90%").

const whyWatchfrrRestart = "FRR's watchdog on one of its daemons (watchfrr.c: it sends echo commands over the daemon's VTY socket): the daemon did not answer for the seconds shown (busy or hung), and watchfrr restarts it through its restart command (watchfrr.sh restart, which stops the daemon with a signal: its \"Terminating on signal\" follows); a stall of the daemon, not a kill by the kernel's OOM killer (SIGKILL, logged in the kernel's log); headroom has no reader for this log"

const whyBGPHoldTimer = "a BGP daemon's session closed on hold-timer expiry (RFC 4271 §6.5: no KEEPALIVE or UPDATE within the hold time; BIRD's \"Received: Hold timer expired\" is the peer's NOTIFICATION, \"Error: Hold timer expired\" its own timer): keepalives lost on the path, or not sent or read in time by a daemon busy on its CPU; no drop, buffer or memory counter is given; headroom has no reader for this log"

const whyStatedCPUShare = "a sentence states a process's or the host's CPU share in words: processor time, not memory or the network; a daemon busy at a full CPU is late with its sockets and timers, but no drop, buffer or memory figure is given, and no rule of headroom decides from a CPU share"

// watchfrrRestartLine: watchfrr's "DAEMON state -> unresponsive : no response yet to ping
// sent N seconds ago" or its "Forked background command [pid N]: ... restart DAEMON".
func watchfrrRestartLine(t string) bool {
	if k := strings.Index(t, " state -> unresponsive : no response yet to ping sent "); k > 0 {
		return strings.Contains(t[k:], " seconds ago")
	}
	if k := strings.Index(t, "Forked background command [pid "); k >= 0 {
		return strings.Contains(t[k:], " restart ")
	}
	return false
}

// bgpHoldTimerLine: a log record (it holds a digit: a stamp, a pid) whose message, after a
// ": ", is the hold timer's expiry ("Received: Hold timer expired", "Error: Hold Timer
// Expired"); a sentence that names the words has no ": " before them.
func bgpHoldTimerLine(t string) bool {
	k := strings.Index(strings.ToLower(t), ": hold timer expired")
	return k > 0 && hasDigit(t[:k])
}

// statedCPUShare: a sentence, not a question, a condition or advice, with the word "cpu"
// within figureReach words of a percentage ("bird load cpu about 30-89%", "CPU at 100%");
// a table's row ("CPU util.  |  31.02% |", TRex's stats) is no sentence.
//
// A line that holds a paragraph (fix49e, corpus 4095: "... the majority of CPU power. How
// much? Well, yesterday at least, the top three server processes were all the index.php
// page of the wiki, using about, oh, 88% of the CPU of the server. I was kinda shocked")
// is judged a sentence at a time, each with its own end mark: a question or a condition in
// one sentence does not make another sentence's figure a question.
func statedCPUShare(t string) bool {
	if !strings.Contains(t, "%") {
		return false
	}
	start := 0
	for i := 0; i < len(t); i++ {
		if sentenceEnd(t, i) {
			if statedCPUShareIn(t[start : i+1]) {
				return true
			}
			start = i + 1
		}
	}
	return start < len(t) && statedCPUShareIn(t[start:])
}

// statedCPUShareIn is statedCPUShare for one sentence.
func statedCPUShareIn(t string) bool {
	l := strings.ToLower(t)
	if !strings.Contains(l, "cpu") || !strings.Contains(l, "%") || strings.Contains(l, "|") || reNotAStatement.MatchString(l) {
		return false
	}
	var cpus, pcts []int
	n := 0
	for rest := l; ; n++ {
		f, r, ok := nextField(rest)
		if !ok {
			break
		}
		rest = r
		w := strings.Trim(f, "*_`'\"()[]{},.;:!?<>~")
		if strings.HasPrefix(w, "cpu") && (len(w) == 3 || w == "cpu's" || w == "cpus") {
			cpus = append(cpus, n)
		}
		if strings.HasSuffix(w, "%") && figureKind(w) == unitFigure && !shareOfOther(rest) {
			pcts = append(pcts, n)
		}
	}
	for _, c := range cpus {
		for _, p := range pcts {
			if p-c <= figureReach && c-p <= figureReach {
				return true
			}
		}
	}
	return false
}

// shareOfOther: the words after a percentage make it a share of something else than a CPU
// ("95% of the prefixes"; "100% of one cpu" stays the CPU's).
func shareOfOther(rest string) bool {
	f, r, ok := nextField(rest)
	if !ok || f != "of" {
		return false
	}
	for i := 0; i < 3; i++ {
		if f, r, ok = nextField(r); !ok {
			break
		}
		if strings.HasPrefix(f, "cpu") || strings.HasPrefix(f, "core") {
			return false
		}
	}
	return true
}

// mailQuoteStripped: t without a mail's quote marks ("> >30-89%).") and indentation.
func mailQuoteStripped(t string) string {
	return strings.TrimLeft(t, "> \t")
}
