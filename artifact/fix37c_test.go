package artifact

import (
	"strings"
	"testing"
)

// fix37c: Icecast's own error.log lines (round 32 cases 3184-3186) and nginx's worker
// crash (signal 11, case 3199): named with their figures, no OOM and no kill asserted.
func TestIcecastOwnLines(t *testing.T) {
	for _, c := range []struct {
		text, word string
		no         int
		key        string
		val        int64
	}{
		{"[2018-09-17  12:40:48] WARN slave/slave_startup process has 65536 max file descriptor limit\n", "descriptor limit", 1, "fd_limit", 65536},
		{"WARN slave/slave_startup process has 1048576 max file descriptor limit\n", "descriptor limit", 1, "fd_limit", 1048576},
		{"[2018-09-17  12:30:27] WARN client/worker_wait worker 0x8a7940 has been stuck for 5856 ms\n", "worker thread", 1, "stuck_ms", 5856},
		{"[2024-06-04  10:35:40] WARN source/_source_read Nothing received on /player for 3 seconds\n", "went quiet", 1, "", 0},
		{"[2018-09-17  12:30:10] WARN source/source_read Nothing received on /pionerfm for 3 seconds\n", "went quiet", 1, "", 0},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, c.word) || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v: want line %d named %q, no OOM", c.text, tl.Unparsed, c.no, c.word)
		}
		checkAccount(t, tl)
		if c.key == "" {
			continue
		}
		found := false
		for _, a := range tl.Artifacts {
			if m, ok := a.Data.(map[string]any); ok && a.Kind == KindProgramLimit && m[c.key] == c.val {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: %s=%d not read: %+v", c.text, c.key, c.val, tl.Artifacts)
		}
	}
	// Counters: a sentence with the same words, the message without its component, another
	// component, no level word, a recommendation.
	for _, s := range []string{
		"my icecast process has 65536 max file descriptor limit but still fails",
		"[2018-09-17  12:40:48] WARN process has 65536 max file descriptor limit",
		"[2018-09-17  12:40:48] WARN admin/command_stats process has 65536 max file descriptor limit",
		"see slave/slave_startup process has 65536 max file descriptor limit in the log",
		"the worker_wait worker has been stuck for 5856 ms, raise the limit",
		"Nothing received on /live for 3 seconds, says source_read",
	} {
		if why, ok := icecastOwnLine(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}

func TestNginxWorkerCrash(t *testing.T) {
	text := "2014/09/15 11:34:24 [alert] 27#0: worker process 28 exited on signal 11\n2014/09/15 11:44:28 [alert] 27#0: worker process 21539 exited on signal 11\n"
	tl := ParseString(text, "t", Options{})
	if !h12bUnreadLine(tl, 1, "SIGSEGV") || !h12bUnreadLine(tl, 2, "SIGSEGV") || h12bUnreadLine(tl, 1, "killed by SIGKILL") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Errorf("unparsed %+v: want a crash named, no kill", tl.Unparsed)
	}
	checkAccount(t, tl)
	found := false
	for _, a := range tl.Artifacts {
		if m, ok := a.Data.(map[string]any); ok && a.Kind == KindProgramLimit && m["child_pid"] == int64(21539) {
			found = true
		}
	}
	if !found {
		t.Errorf("child pid not read: %+v", tl.Artifacts)
	}
	// php-fpm's own child line with signal 11 is not nginx's.
	if why, ok := nginxChildKilled("WARNING: [pool www] child 1234 exited on signal 11 (SIGSEGV) after 1.5 seconds from start"); ok && strings.Contains(why, "nginx") {
		t.Errorf("php-fpm's line named as nginx's: %s", why)
	}
}
