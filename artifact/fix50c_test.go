package artifact

import "testing"

// fix50c: round 45's first-run exits 3 on texts holding a host's evidence, by class:
// syslogd's console broadcast of a kernel record (corpus 4174), Klipper's MCU shutdown
// (4165), csdr's through meter and OpenWebRX's status message (4194), MythTV's tuner lock
// timeout (4195), a share of memory with its unit spelled "percent" (4175).

func TestFix50cSyslogdWallKernelRecord(t *testing.T) {
	// corpus 4174: rsyslog's omusrmsg broadcast, the header line, then " kernel:[...]" with
	// no blank between the tag and the kernel's stamp.
	const text = "pi@octopi:~/.octoprint/logs $ \n" +
		"Message from syslogd@octopi at Feb 24 20:17:46 ...\n" +
		" kernel:[80845.809634] Internal error: Oops: 17 [#1] ARM\n\n" +
		"Message from syslogd@octopi at Feb 24 20:17:46 ...\n" +
		" kernel:[80845.941658] Process swapper (pid: 0, stack limit = 0xc07c8188)\n"
	tl := ParseString(text, "t", Options{})
	if NothingRead(tl) {
		t.Fatal("the broadcast kernel records were not read (exit 3)")
	}
	if tl.Lines == nil || tl.Lines.Read != 2 {
		t.Errorf("lines read: %+v, want the two kernel records", tl.Lines)
	}
	// An Oops in the idle task is the kernel's fault, not memory: no event, no OOM.
	if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("an Oops in swapper (pid 0) read as an event: %+v %+v", tl.Events, tl.RuntimeOOMs)
	}
	var l Line
	if got := stripOtherPrefixes(" kernel:[80845.809634] Internal error: Oops: 17 [#1] ARM", &l); got != "[80845.809634] Internal error: Oops: 17 [#1] ARM" || !l.Kernel || l.Tag != "kernel" {
		t.Errorf("stripOtherPrefixes = %q (kernel %v, tag %q)", got, l.Kernel, l.Tag)
	}
	for _, s := range []string{
		"kernel:[80845.809634] Internal error: Oops: 17 [#1] ARM",
		"kernel:[    5.000100] usb 1-1: new high-speed USB device",
	} {
		if !wallKernelRecord(s) {
			t.Errorf("%q: not taken as the kernel's broadcast record", s)
		}
	}
	// Not the kernel's tag glued to a stamp: abrt's and a form's "kernel:" field, a stamp
	// never closed, an integer in brackets, a message with nothing after the stamp.
	for _, s := range []string{
		"kernel: 5.10.0-8-amd64",
		"kernel:[5.10.0-8-amd64] x",
		"kernel:[80845.809634 Internal error",
		"kernel:[12] Internal error",
		"kernel:[80845.809634]",
		"kernel:[abc.def] x",
	} {
		if wallKernelRecord(s) {
			t.Errorf("%q: taken as the kernel's broadcast record", s)
		}
	}
}

func TestFix50cKlipperMCUShutdown(t *testing.T) {
	// corpus 4165: Mainsail's console, newest first, a stamp line above each message;
	// Klipper's help text under the shutdown line.
	const text = "17:53:48\nMCU 'mcu' shutdown: Timer too close\n" +
		"This often indicates the host computer is overloaded. Check\n" +
		"for other processes consuming excessive CPU time, high swap\n" +
		"usage, disk errors, overheating, unstable voltage, or\n" +
		"similar system problems on the host computer.\nPrinter is shutdown\n"
	if why := unreadWhyAt(text, 2); why != whyKlipperMCUShutdown {
		t.Fatalf("line 2 named %q, want Klipper's MCU shutdown", why)
	}
	// The help text is Klipper's advice, not a swap measurement.
	for no := 3; no <= 7; no++ {
		if why := unreadWhyAt(text, no); why != "" {
			t.Errorf("help text line %d named %q", no, why)
		}
	}
	namedNotDiagnosed(t, text, "an MCU shutdown")
	for _, s := range []string{
		"MCU 'mcu' shutdown: Timer too close",
		"!! MCU 'mcu' shutdown: Timer too close",
		"Recv: !! MCU 'rpi' shutdown: Rescheduled timer in the past",
		"Transition to shutdown state: MCU 'mcu' shutdown: Missed scheduling of next digital out event",
	} {
		if !klipperMCUShutdownLine(s) {
			t.Errorf("%q: not Klipper's MCU shutdown", s)
		}
	}
	// Prose naming the shutdown (corpus 4172's "reduction of \"Timer too close\"
	// shutdowns"), a question, a condition, a name with a blank, no reason.
	for _, s := range []string{
		`it provides a significant boost to responsiveness / reduction of "Timer too close" shutdowns.`,
		"What does MCU 'mcu' shutdown: Timer too close mean?",
		"If you get MCU 'mcu' shutdown: Timer too close, check the host.",
		"MCU 'my mcu' shutdown: Timer too close",
		"MCU 'mcu' shutdown: ",
		"MCU 'mcu' shutdown: Timer too close?",
	} {
		if klipperMCUShutdownLine(s) {
			t.Errorf("%q: taken as Klipper's MCU shutdown", s)
		}
	}
}

func TestFix50cSDRServerLines(t *testing.T) {
	// corpus 4194: OpenWebRX's dumped client objects, then csdr's through meter.
	const text = "\tip = 192.168.1.9\n\tclosed = [False]\n\tbcastmsg = MSG cpu_usage=51 clients=6\n\tloopstat = 10\n" +
		"through: 4800058 bytes/s 168111040\nthrough: 4800058 bytes/s 168112256\n^CSignal caught, exiting!\n"
	if why := unreadWhyAt(text, 3); why != whyOpenWebRXStatus {
		t.Errorf("line 3 named %q, want OpenWebRX's status message", why)
	}
	if why := unreadWhyAt(text, 5); why != whyCsdrThrough {
		t.Errorf("line 5 named %q, want csdr's through meter", why)
	}
	namedNotDiagnosed(t, text, "an SDR's data rate")
	for _, s := range []string{
		"through: 4800058 bytes/s 168111040",
		"through: 9600000 bytes/s, buffer #12",
		"MSG cpu_usage=51 clients=6",
	} {
		if !csdrThroughLine(s) && !openWebRXStatusLine(s) {
			t.Errorf("%q: not read", s)
		}
	}
	// Not csdr's meter nor OpenWebRX's message: a sentence, another unit, a rate without
	// its count, an example in prose, a field of some other program.
	for _, s := range []string{
		"The data goes through: 4800058 bytes/s is what I see",
		"through: 4800058 kbit/s 168111040",
		"through: 4800058 bytes/s",
		"I see MSG cpu_usage=51 clients=6 in the log",
		"status MSG cpu_usage=high clients=6",
	} {
		if csdrThroughLine(s) || openWebRXStatusLine(s) {
			t.Errorf("%q: read as an SDR server's line", s)
		}
	}
}

func TestFix50cMythTVTuningLock(t *testing.T) {
	// corpus 4195: mythbackend's syslog lines.
	const text = "The above started well before a scheduled recording, and continues as I get in the mythtv-backend log:\n\n" +
		"Mar 27 14:59:07 samson mythbackend: mythbackend[17515]: E TVRecEvent tv_rec.cpp:3950 (TuningSignalCheck) TVRec[21]: TuningSignalCheck: Hit pre-fail timeout\n" +
		"Mar 27 14:59:10 samson mythbackend: mythbackend[17515]: W TVRecEvent tv_rec.cpp:3981 (TuningSignalCheck) TVRec[21]: TuningSignalCheck: taking more than 10000 ms to get a lock. marking this recording as 'Failing'.\n"
	for _, no := range []int{3, 4} {
		if why := unreadWhyAt(text, no); why != whyMythTVTuningLock {
			t.Errorf("line %d named %q, want MythTV's tuning lock timeout", no, why)
		}
	}
	namedNotDiagnosed(t, text, "a tuner's lock timeout")
	// Without mythlogging's file and function, asked, or another function's line.
	for _, s := range []string{
		"TuningSignalCheck: taking more than 10000 ms to get a lock.",
		"Why does tv_rec.cpp:3981 (TuningSignalCheck) say TuningSignalCheck: taking more than 10000 ms to get a lock?",
		"mythbackend[1]: I TVRecEvent tv_rec.cpp:1200 (HandleTuning) TVRec[21]: HandleTuning Request: Program(yes)",
		"mythbackend[1]: W TVRecEvent tv_rec.cpp:3981 (TuningSignalCheck) TVRec[21]: TuningSignalCheck: taking more than many ms to get a lock.",
	} {
		if mythTVTuningLockLine(s) {
			t.Errorf("%q: read as MythTV's tuning lock timeout", s)
		}
	}
}

func TestFix50cPercentSpelledOut(t *testing.T) {
	// corpus 4175: the share's unit a word of its own, five words from "memory".
	const line = "So, my 6 hour print just failed and come top find out that mobileraker's companion was taking 83 percent of my pi's memory and caused it to crash twice."
	if !statesDomainFigure(line) {
		t.Error("the companion's 83 percent of the memory not read as a stated figure")
	}
	if why := unreadWhyAt(line+"\n", 1); why != whyStatedFigure {
		t.Errorf("named %q, want a stated figure", why)
	}
	namedNotDiagnosed(t, line+"\n", "a process's share of memory")
	// A percentage of something else with no domain word, a bare number before "per".
	for _, s := range []string{
		"About 83 percent of our users print with PLA.",
		"the print was 50 percent done when it failed",
	} {
		if statesDomainFigure(s) {
			t.Errorf("%q: read as a memory or network figure", s)
		}
	}
	if !percentWord("percent") || !percentWord("pct") || percentWord("per") || percentWord("percentage") {
		t.Error("percentWord")
	}
}
