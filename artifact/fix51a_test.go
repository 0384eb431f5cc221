package artifact

import (
	"strings"
	"testing"
)

// fix51a (round 46, corpus 4292, 4302, 4314, 4282): a program's own statistics or log line
// named unread (fix51aown.go), and the lines that must stay prose.

// fix51aWhys parses text and returns the reasons its unread lines were listed with.
func fix51aWhys(t *testing.T, text string) []string {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	var whys []string
	for _, u := range tl.Unparsed {
		whys = append(whys, u.Why)
	}
	return whys
}

func fix51aHas(whys []string, want string) bool {
	for _, w := range whys {
		if w == want {
			return true
		}
	}
	return false
}

func TestFix51aMavlinkRouterStatistics(t *testing.T) {
	// corpus 4292: mavlink-router's print_statistics, tab-indented.
	const text = "here is the status from mavlink-router you requested, at 921600, which isn't very good.\n```\n" +
		"Endpoint UART [7] {\n\tReceived messages {\n\t\tCRC error: 333 0% 62KBytes\n\t\tSequence lost: 45050 14%\n" +
		"\t\tHandled: 276083 31344KBytes\n\t\tTotal: 321466\n\t}\n}\n```\n"
	tl := ParseString(text, "t", Options{})
	if tl.Lines == nil || tl.Lines.Unparsed == 0 {
		t.Fatal("mavlink-router's statistics held nothing (exit 3)")
	}
	if !fix51aHas(fix51aWhys(t, text), mavlinkSeqLostWhy) {
		t.Errorf("unread: %+v, want the MAVLink statistics named", tl.Unparsed)
	}
	if len(tl.Events) != 0 || len(tl.Samples) != 0 {
		t.Errorf("MAVLink counts read as the host's: events %+v samples %d", tl.Events, len(tl.Samples))
	}
	for _, s := range []string{"\t\tSequence lost: 45050 14%", "        CRC error: 16 0% 2KBytes", "Sequence lost: 1579 5%"} {
		if _, ok := mavlinkStatLine(s); !ok {
			t.Errorf("%q: not named", s)
		}
	}
	// Not the router's rows: a sentence, a count without its share, a CRC row without bytes,
	// words after the share.
	for _, s := range []string{
		"Sequence lost: a lot of messages",
		"Sequence lost: 45050",
		"CRC error: 333 0%",
		"Sequence lost: 45050 14% of all messages",
		"I see Sequence lost: 45050 14% in the stats",
		"Handled: 276083 31344KBytes",
	} {
		if _, ok := mavlinkStatLine(s); ok {
			t.Errorf("%q: named as mavlink-router's row", s)
		}
	}
}

func TestFix51aDovecotSigDie(t *testing.T) {
	// corpus 4314: the warning quoted inline in prose.
	const text = "When I check the mail logs, I will find this in mail.warn:\n\n" +
		"`mail dovecot: master: Warning: Killed with signal 15 (by pid=1 uid=0 code=kill)`\n\nAnd that's it.\n"
	if !fix51aHas(fix51aWhys(t, text), dovecotSigDieWhy) {
		t.Error("Dovecot's sig_die warning not named")
	}
	if _, oom, ok := mailOwnLine("Oct 17 10:00:00 mail dovecot: master: Warning: Killed with signal 2 (by pid=812 uid=0 code=kill)"); !ok || oom {
		t.Errorf("syslog form: ok %v oom %v, want named, no program OOM", ok, oom)
	}
	for _, s := range []string{
		"dovecot got killed with signal 15 yesterday",
		"Killed with signal 15",
		"Killed with signal 15 (by pid=",
		"Killed with signal SIGTERM (by pid=1 uid=0 code=kill)",
	} {
		if _, ok := dovecotSigDie(s); ok {
			t.Errorf("%q: named as Dovecot's sig_die warning", s)
		}
	}
}

func TestFix51aLibClamAVLoadNoMemory(t *testing.T) {
	// corpus 4302: cyr_virusscan linked with libclamav.
	const text = "When I run cyr_virusscan, there is the following error message:\n\n```\n$ cyr_virusscan user/a0620\n" +
		"Using ClamAV virus scanner\nLibClamAV Error: Can't load /var/lib/clamav/daily.cvd: Can't allocate memory\n" +
		"fatal error: Can't allocate memory\n\n```\n"
	tl := ParseString(text, "t", Options{})
	if tl.Lines == nil || tl.Lines.Unparsed == 0 {
		t.Fatal("libclamav's load error held nothing (exit 3)")
	}
	if !fix51aHas(fix51aWhys(t, text), clamLoadMemWhy) {
		t.Errorf("unread %+v, want libclamav's load error named", tl.Unparsed)
	}
	if len(tl.Events) != 0 {
		t.Errorf("libclamav's own allocation read as a kernel event: %+v", tl.Events)
	}
	// Not this form: another error of the loader, no LibClamAV, a question about the message.
	for _, s := range []string{
		"LibClamAV Error: Can't load /var/lib/clamav/daily.cvd: Malformed database",
		"Can't load /var/lib/clamav/daily.cvd: Can't allocate memory",
		"Why does LibClamAV say Can't load daily.cvd: Can't allocate memory on a 64 GB host?",
	} {
		if _, ok := clamLoadMem(s); ok {
			t.Errorf("%q: named as libclamav's load error", s)
		}
	}
}

func TestFix51aRos2RunKilled(t *testing.T) {
	// corpus 4282: ros2 run's notice in a container's shell.
	const text = "```docker\n# Terminal 1\nroot@a6a6b4d3c0fb:/# echo $ROS_DISTRO\nhumble\n" +
		"root@a6a6b4d3c0fb:/# ros2 run demo_nodes_cpp listener\n[ros2run]: Killed\n```\n"
	tl := ParseString(text, "t", Options{})
	if tl.Lines == nil || tl.Lines.Unparsed == 0 {
		t.Fatal("ros2 run's SIGKILL notice held nothing (exit 3)")
	}
	if !fix51aHas(fix51aWhys(t, text), ros2runKilledWhy) {
		t.Errorf("unread %+v, want ros2 run's notice named", tl.Unparsed)
	}
	if !strings.Contains(ros2runKilledWhy, "oom-kill is not checked") {
		t.Error("the reason does not say oom-kill is left unchecked")
	}
	// Other ends of the child: a SIGTERM, an exit status, the word in a sentence.
	for _, s := range []string{
		"[ros2run]: Terminated",
		"[ros2run]: Process exited with failure 1",
		"[ros2run]: Killed by the user",
		"the [ros2run]: prefix shows Killed when the node dies",
	} {
		if _, ok := ros2runKilled(s); ok {
			t.Errorf("%q: named as ros2 run's SIGKILL notice", s)
		}
	}
}
