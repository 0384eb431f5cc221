package diagnose

import (
	"strings"
	"testing"
)

// fix38a (round 33's misses): Celery's SIGKILL notice under docker's or kubectl's RFC 3339
// stamp, and gunicorn 20's "Worker with pid N was terminated due to signal S", kept as
// SIGKILL notices (never an OOM kill by themselves).

func TestFix38aStampedCelerySigkill(t *testing.T) {
	text := "2022-10-19T22:31:02.250717044Z Process 'ForkPoolWorker-3' pid:33 exited with 'signal 9 (SIGKILL)'\n2022-10-19T22:31:26.652960735Z Process 'ForkPoolWorker-5' pid:38 exited with 'signal 9 (SIGKILL)'\n"
	tl := pasteTimeline(t, text)
	got := 0
	for _, k := range tl.SigkillNotices {
		got += k.Count
	}
	if len(tl.RuntimeOOMs) > 0 || got != 2 || !h23cNamed(tl, "Celery's worker pool") {
		t.Errorf("ooms %+v notices %+v unparsed %+v", tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
	}
	if res := run(t, "oom-kill", tl); len(res.Findings) > 0 {
		t.Errorf("%+v", res)
	}
	for _, s := range []string{
		"2022-10-19T22:31:02.250717044Z Process 'ForkPoolWorker-3' pid:33 exited with 'signal 15 (SIGTERM)'\n",
		"2022-10-19T22:31:02.250717044Z host1 celery: I saw Process 'ForkPoolWorker-3' pid:33 exited with 'signal 9 (SIGKILL)' yesterday\n",
	} {
		if tl := pasteTimeline(t, s); len(tl.SigkillNotices) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%q: %+v %+v", s, tl.SigkillNotices, tl.RuntimeOOMs)
		}
	}
}

func TestFix38aGunicornTerminatedBySignal(t *testing.T) {
	for name, c := range map[string]struct {
		text string
		n    int
	}{
		"arbiter":     {"[2023-05-11 18:13:57 +0000] [7] [WARNING] Worker with pid 14824 was terminated due to signal 9\n[2023-05-11 18:13:57 +0000] [14852] [INFO] Booting worker with pid: 14852\n[2023-05-11 18:14:42 +0000] [7] [WARNING] Worker with pid 14838 was terminated due to signal 9\n", 2},
		"k9s box":     {"│ [2023-05-11 18:13:57 +0000] [7] [WARNING] Worker with pid 14824 was terminated due to signal 9      \n", 1},
		"in backtick": {"An example log that would pop up is `[WARNING] Worker with pid 55 was terminated due to signal 9`.\n", 1},
	} {
		tl := pasteTimeline(t, c.text)
		got := 0
		for _, k := range tl.SigkillNotices {
			got += k.Count
			if !strings.Contains(k.Reporter, "gunicorn") || !strings.Contains(k.Reporter, "signal 9") {
				t.Errorf("%s: reporter %q", name, k.Reporter)
			}
		}
		if len(tl.RuntimeOOMs) > 0 || got != c.n {
			t.Errorf("%s: ooms %+v notices %+v unparsed %+v", name, tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 {
			t.Errorf("%s: %+v", name, res)
		}
	}
	for _, s := range []string{
		"[2023-05-11 18:13:57 +0000] [7] [WARNING] Worker with pid 14824 was terminated due to signal 15\n",
		"If you see Worker with pid 14824 was terminated due to signal 9, raise the memory.\n",
		"My Worker with pid 12 was terminated due to signal 9 and I do not know why\n",
		"[2023-05-11 18:13:57 +0000] [7] [WARNING] Worker with pid 14824 was terminated due to signal 9 because of a test\n",
	} {
		if tl := pasteTimeline(t, s); len(tl.SigkillNotices) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%q: %+v %+v", s, tl.SigkillNotices, tl.RuntimeOOMs)
		}
	}
}

func TestFix38aSynFloodRedactedPort(t *testing.T) {
	// A reporter's dmesg line with the port replaced by a letter: the 4.4+ slab name says it
	// was copied from a log, not typed from a KB's list of the message's forms.
	for _, text := range []string{
		"dmesg shows this message\n\n`TCP: request_sock_TCP: Possible SYN flooding on port X. Sending cookies. Check SNMP counters. `\n\nfor the web ui port.\n",
		"[12345.678901] TCP: request_sock_TCP: Possible SYN flooding on port X. Sending cookies.  Check SNMP counters.\n",
	} {
		res := run(t, "listen-overflow", pasteTimeline(t, text))
		if len(res.Findings) != 1 {
			t.Errorf("%q: %+v", text, res)
		}
	}
	// A KB's list of forms (no slab name) stays a template; a real port is a record as before.
	for _, text := range []string{
		"kernel: possible SYN flooding on port X. Sending cookies.\nkernel: Possible SYN flooding on port X. Check SNMP counters.\nkernel: TCPv6: Possible SYN flooding on port X.\n",
		"[12345.678901] TCP: Possible SYN flooding on port X. Sending cookies.  Check SNMP counters.\n",
		"If you see `possible SYN flooding on port <port>` raise the backlog.\n",
	} {
		if res := run(t, "listen-overflow", pasteTimeline(t, text)); len(res.Findings) != 0 {
			t.Errorf("%q: %+v", text, res)
		}
	}
}
