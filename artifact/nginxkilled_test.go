package artifact

import (
	"strings"
	"testing"
)

// nginx's (OpenResty's, Kong's) master reaping a worker killed by SIGKILL (corpus case 1594):
// named with what it proves, its pid read, no OOM asserted.
func TestNginxChildKilled(t *testing.T) {
	for _, c := range []struct {
		text string
		no   int
	}{
		{"2022/10/25 12:39:41 [notice] 1#0: signal 17 (SIGCHLD) received from 31\n2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 9\n2022/10/25 12:39:41 [notice] 1#0: start worker process 33\n", 2},
		{"Nov 28 03:12:46 proxy1 nginx[901]: 2026/11/28 03:12:46 [alert] 901#901: cache manager process 9123 exited on signal 9\n", 1},
		{"kong-1  | 2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 9 (core dumped)\n", 1},
	} {
		tl := ParseString(c.text, "t", Options{})
		if !h12bUnreadLine(tl, c.no, "SIGKILL") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: unparsed %+v: want line %d named, no OOM", c.text, tl.Unparsed, c.no)
		}
		checkAccount(t, tl)
	}
	tl := ParseString("2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 9\n", "t", Options{})
	found := false
	for _, a := range tl.Artifacts {
		if a.Kind == KindProgramLimit {
			if m := a.Data.(map[string]any); m["child_pid"] == int64(31) {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("child pid not read: %+v", tl.Artifacts)
	}
	// Another signal (a crash, an abort) is named as a crash, never as SIGKILL (fix37c).
	for _, s := range []string{
		"2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 11 (core dumped)",
		"2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 6",
	} {
		if why, ok := nginxChildKilled(s); !ok || strings.Contains(why, "SIGKILL)") || !strings.Contains(why, "not a kill") {
			t.Errorf("%q: %v %s: want a crash named", s, ok, why)
		}
	}
	// Counters: no signal number, no pid, another program's child, a sentence about the words.
	for _, s := range []string{
		"2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 90",
		"2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal 123",
		"2022/10/25 12:39:41 [alert] 1#0: worker process 31 exited on signal SIGSEGV",
		"sometimes a worker process exited on signal 9 and we got a 502",
		"the backup process 31 exited on signal 9",
		"Child (31337) died signal=9 and gunicorn process 31 exited on signal 9",
	} {
		if why, ok := nginxChildKilled(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}
