package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix51a (round 46, corpus 4292, 4302, 4314, 4282): a program's own statistics or log line
// named unread (fix51aown.go), and the lines that must stay prose.

// fix51aNamed parses text and fails unless a line is listed unread with why and the text
// holds no kernel event (exit 3 would have followed from no unread line).
func fix51aNamed(t *testing.T, text, why string) *model.Timeline {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	if tl.Lines == nil || tl.Lines.Unparsed == 0 {
		t.Fatalf("nothing named unread (exit 3): %+v", tl.Lines)
	}
	named := false
	for _, u := range tl.Unparsed {
		named = named || u.Why == why
	}
	if !named {
		t.Errorf("unread %+v, want %.60q…", tl.Unparsed, why)
	}
	if len(tl.Events) != 0 {
		t.Errorf("a program's own line read as the kernel's event: %+v", tl.Events)
	}
	return tl
}

// fix51aNotNamed fails for each line the reader takes.
func fix51aNotNamed(t *testing.T, read func(string) (string, bool), lines ...string) {
	t.Helper()
	for _, s := range lines {
		if _, ok := read(s); ok {
			t.Errorf("%q: named", s)
		}
	}
}

func TestFix51aMavlinkRouterStatistics(t *testing.T) {
	// corpus 4292: mavlink-router's print_statistics, tab-indented.
	tl := fix51aNamed(t, "here is the status from mavlink-router you requested, at 921600, which isn't very good.\n```\n"+
		"Endpoint UART [7] {\n\tReceived messages {\n\t\tCRC error: 333 0% 62KBytes\n\t\tSequence lost: 45050 14%\n"+
		"\t\tHandled: 276083 31344KBytes\n\t\tTotal: 321466\n\t}\n}\n```\n", mavlinkSeqLostWhy)
	if len(tl.Samples) != 0 {
		t.Errorf("MAVLink counts read as the host's samples: %d", len(tl.Samples))
	}
	for _, s := range []string{"\t\tSequence lost: 45050 14%", "        CRC error: 16 0% 2KBytes", "Sequence lost: 1579 5%"} {
		if _, ok := mavlinkStatLine(s); !ok {
			t.Errorf("%q: not named", s)
		}
	}
	// Not the router's rows: a sentence, a count without its share, a CRC row without bytes,
	// words after the share, another row of the block.
	fix51aNotNamed(t, mavlinkStatLine, "Sequence lost: a lot of messages", "Sequence lost: 45050", "CRC error: 333 0%",
		"Sequence lost: 45050 14% of all messages", "I see Sequence lost: 45050 14% in the stats", "Handled: 276083 31344KBytes")
}

func TestFix51aDovecotSigDie(t *testing.T) {
	// corpus 4314: the warning quoted inline in prose.
	fix51aNamed(t, "When I check the mail logs, I will find this in mail.warn:\n\n"+
		"`mail dovecot: master: Warning: Killed with signal 15 (by pid=1 uid=0 code=kill)`\n\nAnd that's it.\n", dovecotSigDieWhy)
	if _, oom, ok := mailOwnLine("Oct 17 10:00:00 mail dovecot: master: Warning: Killed with signal 2 (by pid=812 uid=0 code=kill)"); !ok || oom {
		t.Errorf("syslog form: ok %v oom %v, want named, no program OOM", ok, oom)
	}
	fix51aNotNamed(t, dovecotSigDie, "dovecot got killed with signal 15 yesterday", "Killed with signal 15",
		"Killed with signal 15 (by pid=", "Killed with signal SIGTERM (by pid=1 uid=0 code=kill)")
}

func TestFix51aLibClamAVLoadNoMemory(t *testing.T) {
	// corpus 4302: cyr_virusscan linked with libclamav.
	fix51aNamed(t, "When I run cyr_virusscan, there is the following error message:\n\n```\n$ cyr_virusscan user/a0620\n"+
		"Using ClamAV virus scanner\nLibClamAV Error: Can't load /var/lib/clamav/daily.cvd: Can't allocate memory\n"+
		"fatal error: Can't allocate memory\n\n```\n", clamLoadMemWhy)
	// Not this form: another error of the loader, no LibClamAV, a question about the message.
	fix51aNotNamed(t, clamLoadMem, "LibClamAV Error: Can't load /var/lib/clamav/daily.cvd: Malformed database",
		"Can't load /var/lib/clamav/daily.cvd: Can't allocate memory",
		"Why does LibClamAV say Can't load daily.cvd: Can't allocate memory on a 64 GB host?")
}

func TestFix51aRos2RunKilled(t *testing.T) {
	// corpus 4282: ros2 run's notice in a container's shell.
	fix51aNamed(t, "```docker\n# Terminal 1\nroot@a6a6b4d3c0fb:/# echo $ROS_DISTRO\nhumble\n"+
		"root@a6a6b4d3c0fb:/# ros2 run demo_nodes_cpp listener\n[ros2run]: Killed\n```\n", ros2runKilledWhy)
	if !strings.Contains(ros2runKilledWhy, "oom-kill is not checked") {
		t.Error("the reason does not say oom-kill is left unchecked")
	}
	// Other ends of the child: a SIGTERM, an exit status, the word in a sentence.
	fix51aNotNamed(t, ros2runKilled, "[ros2run]: Terminated", "[ros2run]: Process exited with failure 1",
		"[ros2run]: Killed by the user", "the [ros2run]: prefix shows Killed when the node dies")
}
