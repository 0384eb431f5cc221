package artifact

import "testing"

// fix41b: round 36's healthy texts that exited 3 with figures of their own (corpus 3455,
// 3460, 3468, 3471, 3477, 3480, and 3500), by class.

func fix41bPsTables(text string) []*PsTasks {
	var out []*PsTasks
	for _, a := range ParseString(text, "p", Options{}).Artifacts {
		if a.Kind == KindPsTasks {
			out = append(out, a.Data.(*PsTasks))
		}
	}
	return out
}

// ps aux's rows under the command as a code block shows it, no prompt, the pipe glued to
// the options (gobgp#404): both rows read with their VSZ and RSS in KiB.
func TestFix41bPsAuxUnderBareCommand(t *testing.T) {
	text := "```bash\nps aux|grep gobgp\n" +
		"root       226  0.0  0.1 1979544 3832 ?        Sl   Oct06   0:24 /opt/gobgp_1_0_0/gobgpd -f /etc/gobgpd.conf\n" +
		"root     25668  0.0  0.0  11064   888 pts/1    S+   18:57   0:00 grep gobgp\n```\n"
	pts := fix41bPsTables(text)
	if len(pts) != 1 || len(pts[0].Rows) != 2 {
		t.Fatalf("ps tables %+v", pts)
	}
	r := pts[0].Rows[0]
	if r.PID != 226 || r.VSZKB != 1979544 || r.RSSKB != 3832 || r.MemPct != 0.1 || r.Command != "/opt/gobgp_1_0_0/gobgpd -f /etc/gobgpd.conf" {
		t.Errorf("row %+v", r)
	}
	if pts[0].MemTotalKBFromRSS != 0 {
		t.Errorf("MemTotal from a 0.1%% row: %d", pts[0].MemTotalKBFromRSS)
	}
	// Under a prompt with the pipe glued, as before with it spaced.
	if pts := fix41bPsTables("$ ps auxww|grep bgp\nroot     22091  0.0  0.0 145140 10800 pts/1    Sl+  18:48   0:00 /opt/gobgp_1_0_0/gobgpd\n"); len(pts) != 1 || pts[0].Rows[0].RSSKB != 10800 {
		t.Errorf("prompt, glued pipe: %+v", pts)
	}
	for _, text := range []string{
		"ps aux|grep gobgp shows nothing odd\nthe daemon runs fine\n",                                  // a sentence, no row under it
		"ps -ef|grep gobgp\nroot       226     1  0 Oct06 ?        00:00:24 /opt/gobgp_1_0_0/gobgpd\n", // System V format, no 'u'
		"ps axl|grep gobgp\nroot       226  0.0  0.1 1979544 3832 ?        Sl   Oct06   0:24 gobgpd\n", // 'l' is not the u format
		"pstree -p|grep gobgp\nroot       226  0.0  0.1 1979544 3832 ?        Sl   Oct06   0:24 gobgpd\n",
	} {
		if pts := fix41bPsTables(text); len(pts) != 0 {
			t.Errorf("%q read as ps aux: %+v", text, pts[0])
		}
	}
}

// Rust's io::Error form with the errno's text lower-cased (spin#2119's title): held to the
// errno's own number.
func TestFix41bRustOSErrorLowerCase(t *testing.T) {
	enomem := errnoReasons[len(errnoReasons)-1]
	if enomem.name != "ENOMEM" {
		t.Fatalf("last errno %s", enomem.name)
	}
	text := "spinframework/spin · issue #2119 · closed · Rust\nlabels: bug\n# On arm64, I get \"cannot allocate memory (os error 12)\" on executing spin up command\n"
	if w := fix40bWhys(text); w[enomem.why] != [2]int{3, 3} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{
		"Error: too many open files (os error 24)",
		"failed to bind: cannot assign requested address (os error 99)",
	} {
		if _, ok := errnoLogLine(s); !ok {
			t.Errorf("%q not named", s)
		}
	}
	for _, s := range []string{
		"# I get \"cannot allocate memory (os error 2)\" on spin up",   // another errno's number
		"# I get \"cannot allocate memory (os error 12\" on spin up",   // cut, no number's end
		"# cannot allocate memory on arm64 with spin 2.1",              // the words alone
		"# I get \"too many open files (os error 12)\" on spin up 1.2", // EMFILE's text, ENOMEM's number
	} {
		if why, ok := errnoLogLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

// An errno's text quoted in a statement as the error a program hit (actix-net#351).
func TestFix41bQuotedErrno(t *testing.T) {
	text := "I've been using 1.x version of actix-web for months, had to restart my app every now and then since there are a lot of `ESTABLISHED` connections left there hanging, eventually causing `too many open files` error (I've increased the limit drastically).\n\nThe service itself gets around 500-1000 requests per second in production currently.\n"
	why, ok := quotedErrnoWhy(text[:len(text)-1])
	if !ok || why != quotedErrnoPrefix+errnoWhyByName("EMFILE") {
		t.Fatalf("why %q", why)
	}
	if w := fix40bWhys(text); w[why] != [2]int{1, 1} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	for _, s := range []string{
		"If you get `too many open files`, raise the ulimit.",          // a condition
		"Does \"Cannot allocate memory\" mean the host is out of RAM?", // a question
		"We never saw \"too many open files\" on this box.",            // a negation
		"You should check for `too many open files` in the log.",       // advice
		"it failed with too many open files",                           // not quoted: another form's
		"the error was `too many open files in the pool` somewhere",    // not the text whole
		"we got \"Connection reset by peer\" all day",                  // the peer's errno, not this domain's
	} {
		if why, ok := quotedErrnoWhy(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

func errnoWhyByName(name string) string {
	for _, e := range errnoReasons {
		if e.name == name {
			return e.why
		}
	}
	return ""
}

// A range whose upper end carries the unit ("1-3G RAM") is a figure; a bare range or a date
// is not (longhorn#2297).
func TestFix41bRangeFigure(t *testing.T) {
	text := "ElisaMeng · comment · 2021-03-11\nI see longhorn manager consume 1-3G RAM, is that normally? while it needs so much memory?\n\n```\nlab4node0 [~]$ mount | grep shm | wc -l\n32781\n\n```\n"
	if w := fix40bWhys(text); w[whyStatedFigure] != [2]int{2, 2} || len(w) != 1 {
		t.Errorf("unread: %v", w)
	}
	for w, k := range map[string]figureKindT{"1-3g": unitFigure, "30-89%": unitFigure, "1.5-2gb": unitFigure, "5-10": noFigure, "2021-03-26": noFigure, "2021-03": noFigure, "1-": noFigure, "3-x": noFigure} {
		if got := figureKind(w); got != k {
			t.Errorf("figureKind(%q) = %d, want %d", w, got, k)
		}
	}
	for _, s := range []string{
		"we run 2-4 nodes with RAM to spare",        // a bare range counting nodes
		"on 2021-03-11 the memory was fine",         // a date
		"mount | grep shm | wc -l gives 32781",      // a count of mounts, no domain word
		"the release notes list 1-3 changes to RAM", // a bare range
	} {
		if statesDomainFigure(s) {
			t.Errorf("%q named as a domain figure", s)
		}
	}
}

// FRR's watchdog and a BGP session's hold-timer expiry, as the daemons log them; a daemon's
// CPU share in a sentence, wrapped over two lines of a mail.
func TestFix41bRoutingDaemonStall(t *testing.T) {
	frr := "**After run on around 15 minutes:**\n```\n" +
		"Apr 30 03:49:08 cbr-six-rtr watchfrr[86662]: [T58XM-TP956][EC 268435457] bgpd state -> unresponsive : no response yet to ping sent 90 seconds ago\n" +
		"Apr 30 03:49:08 cbr-six-rtr watchfrr[86662]: [YFT0P-5Q5YX] Forked background command [pid 87025]: /usr/lib/frr/watchfrr.sh restart bgpd\n" +
		"Apr 30 03:49:10 cbr-six-rtr bgpd[86684]: [ZW1GY-R46JE] Terminating on signal\n```\n"
	if w := fix40bWhys(frr); w[whyWatchfrrRestart] != [2]int{3, 4} || len(w) != 1 {
		t.Errorf("watchfrr unread: %v", w)
	}
	bird := "Here is the output taken from our log during the event:<br>\n" +
		"      Sep 18 10:40:51 rs2 bird: R0_69: Received: Hold timer expired<br>\n" +
		"      Sep 18 10:40:51 rs2 bird: R0_69: BGP session closed<br>\n"
	if w := fix40bWhys(bird); w[whyBGPHoldTimer] != [2]int{2, 2} || len(w) != 1 {
		t.Errorf("bird unread: %v", w)
	}
	mail := "> >birdc worked fine and bird cpu load lowered(before, bird load cpu about\n> >30-89%).\n> >What can i do in such situtation in future for birdc normal work?\n"
	if w := fix40bWhys(mail); w[whyStatedCPUShare] != [2]int{1, 2} || len(w) != 1 {
		t.Errorf("cpu unread: %v", w)
	}
	if !statedCPUShare("BIRD was at 100% CPU for 5 minutes") || !statedCPUShare("bird took 100% of one cpu core") {
		t.Error("CPU share not named")
	}
	for _, s := range []string{
		"Apr 30 03:49:30 rtr watchfrr[86662]: bgpd state -> up : connect succeeded", // the daemon back
		"some peers hit hold timer expired after the peak",                          // a sentence naming the words
		"Error: Hold timer expired",                                                 // no stamp or pid: a quote of the message
	} {
		if watchfrrRestartLine(s) || bgpHoldTimerLine(s) {
			t.Errorf("%q named", s)
		}
	}
	for _, s := range []string{
		"Why does bird use 100% cpu?",                        // a question
		"if cpu goes above 90% the sessions flap",            // a condition
		"the box has 4 cpu cores and 16GB",                   // no percentage
		"you should keep cpu below 80%",                      // advice
		"cpu governor set, 95% of the prefixes are filtered", // a share of another thing
	} {
		if statedCPUShare(s) {
			t.Errorf("%q named as a CPU share", s)
		}
	}
}
