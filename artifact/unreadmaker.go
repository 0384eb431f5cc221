package artifact

import "strings"

// fix50c: a maker host's and a radio/TV appliance's own lines, in a text where nothing else
// was read (round 45, corpus 4165, 4194, 4195). Each is a line the program printed on this
// host; each proves something about the host that no rule of headroom judges, so it is named
// unread with what it proves, and no finding is made from it:
//
//   - Klipper's micro-controller shutdown, "MCU 'mcu' shutdown: Timer too close" (klippy/mcu.py:
//     the MCU's "shutdown" response is reported as "MCU '%s' shutdown: %s" with the MCU's
//     name and its reason, then Klipper's own help text for the reason; the firmware's
//     scheduler says "Timer too close" when a timer was asked for a moment already past,
//     src/sched.c). The timing reasons mean the host's commands reached the MCU late; the help
//     text that follows ("This often indicates the host computer is overloaded. Check for ...
//     high swap usage ...") is Klipper's advice for every such shutdown, no measurement;
//   - csdr's "through" meter, "through: 4800058 bytes/s 168111040" (csdr.c's through command
//     prints the rate of samples passing the pipe and a running count): the DSP chain's own
//     data rate, an SDR's sample rate times its sample size, not a network or memory figure;
//   - OpenWebRX's status message to its web clients, "MSG cpu_usage=51 clients=6"
//     (openwebrx.py's broadcast of the host's CPU use in percent and the clients connected);
//   - MythTV's recorder giving up on a tuner's signal lock, "TuningSignalCheck: taking more than
//     10000 ms to get a lock. marking this recording as 'Failing'." and "TuningSignalCheck:
//     Hit pre-fail timeout" (libs/libmythtv/tv_rec.cpp, logged through mythlogging as "E
//     TVRecEvent tv_rec.cpp:3950 (TuningSignalCheck) TVRec[21]: ..."): the DVB card or its
//     driver did not lock on the signal, a device fault, not memory or the network.
//
// A sentence that names them ("fewer \"Timer too close\" shutdowns", "What does MCU 'mcu'
// shutdown mean?", "if you see through: ... bytes/s") lacks the program's form or is a
// question or a condition, and stays prose.

const (
	whyKlipperMCUShutdown = "Klipper's report that a micro-controller shut the printer down, with the MCU's name and the reason (klippy/mcu.py's \"MCU '%s' shutdown: %s\"): the timing reasons (\"Timer too close\", \"Rescheduled timer in the past\", \"Missed scheduling of next ...\") mean the host's commands reached the MCU late, which Klipper's own help text puts down to an overloaded host (CPU, swap, disk, heat, voltage) without a measurement; the line holds no figure of the host's memory or network and no rule is decided from it"
	whyCsdrThrough        = "csdr's through meter (\"through: N bytes/s ...\"): the rate of samples passing the SDR's DSP pipe, its sample rate times the sample size; the program's own data rate, not a network transfer, a drop or a memory figure; no rule is decided from it"
	whyOpenWebRXStatus    = "OpenWebRX's status message to its web clients (\"MSG cpu_usage=N clients=N\"): the host's CPU use in percent and the clients connected; no memory or network figure and no rule is decided from it"
	whyMythTVTuningLock   = "MythTV's recorder gave up waiting for a tuner's signal lock (tv_rec.cpp TuningSignalCheck: \"taking more than N ms to get a lock\" or \"Hit pre-fail timeout\", the recording marked Failing): the DVB card, its driver or the signal failed, not the host's memory or network; no rule is decided from it"
)

// notHostRecord: the words before a program's message on its line make it a question, a
// condition or an example, not this host's record.
func notHostRecord(t string, k int) bool {
	return conditionLead(t[:k]) || strings.Contains(t, "?")
}

// klipperMCUShutdownLine: "MCU 'NAME' shutdown: REASON" at the line's start, or behind the
// prefixes Klipper's own log and its front ends give it ("Transition to shutdown state: ",
// Mainsail's and OctoPrint's "!! ", OctoPrint's "Recv: ").
func klipperMCUShutdownLine(t string) bool {
	const w = "MCU '"
	k := strings.Index(t, w)
	if k < 0 || len(t) > 400 {
		return false
	}
	for _, p := range strings.Fields(t[:k]) {
		switch p {
		case "!!", "//", "Recv:", "Transition", "to", "shutdown", "state:":
		default:
			return false
		}
	}
	rest := t[k+len(w):]
	q := strings.IndexByte(rest, '\'')
	if q <= 0 || strings.ContainsAny(rest[:q], " \t") || !strings.HasPrefix(rest[q:], "' shutdown: ") {
		return false
	}
	reason := strings.TrimSpace(rest[q+len("' shutdown: "):])
	return reason != "" && !strings.Contains(reason, "?")
}

// csdrThroughLine: "through: N bytes/s" then csdr's count (" M" or ", buffer #M"), the whole
// line.
func csdrThroughLine(t string) bool {
	const w = "through: "
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, w) {
		return false
	}
	f := strings.Fields(t[len(w):])
	if len(f) < 3 || !allDigits(f[0]) || f[1] != "bytes/s" && f[1] != "bytes/s," {
		return false
	}
	switch {
	case len(f) == 3:
		return allDigits(f[2])
	case len(f) == 4 && f[2] == "buffer":
		return strings.HasPrefix(f[3], "#") && allDigits(f[3][1:])
	}
	return false
}

// openWebRXStatusLine: "MSG cpu_usage=N clients=N", alone or as a dumped attribute's value
// ("bcastmsg = MSG cpu_usage=51 clients=6").
func openWebRXStatusLine(t string) bool {
	const w = "MSG cpu_usage="
	k := strings.Index(t, w)
	if k < 0 {
		return false
	}
	if head := strings.TrimSpace(t[:k]); head != "" && !strings.HasSuffix(head, "=") {
		return false
	}
	f := strings.Fields(t[k+len(w):])
	return len(f) >= 2 && allDigits(f[0]) && strings.HasPrefix(f[1], "clients=") && allDigits(f[1][len("clients="):])
}

// mythTVTuningLockLine: tv_rec.cpp's TuningSignalCheck timeout in mythlogging's form, the
// source file and line and "(TuningSignalCheck)" before the message.
func mythTVTuningLockLine(t string) bool {
	k := strings.Index(t, "tv_rec.cpp:")
	if k < 0 || notHostRecord(t, k) {
		return false
	}
	rest := t[k:]
	if !strings.Contains(rest, " (TuningSignalCheck) ") {
		return false
	}
	if m := strings.Index(rest, "TuningSignalCheck: taking more than "); m > 0 {
		f := strings.Fields(rest[m+len("TuningSignalCheck: taking more than "):])
		return len(f) >= 2 && allDigits(f[0]) && f[1] == "ms"
	}
	return strings.Contains(rest, "TuningSignalCheck: Hit pre-fail timeout")
}

func init() {
	forms := []figureForm{
		{klipperMCUShutdownLine, whyKlipperMCUShutdown},
		{csdrThroughLine, whyCsdrThrough},
		{openWebRXStatusLine, whyOpenWebRXStatus},
		{mythTVTuningLockLine, whyMythTVTuningLock},
	}
	otherLineForms = append(otherLineForms, forms...)
	proseLineForms = append(proseLineForms, forms...)
}

// percentWord: a share's unit spelled as its own word, "83 percent of my pi's memory" (fix50c,
// corpus 4175): a unit figure as "83%" is, so a domain word anywhere on the line makes it a
// stated figure; before, the bare number had to stand within figureReach words of it.
func percentWord(w string) bool {
	return w == "percent" || w == "pct"
}
