package artifact

import (
	"strings"
	"testing"
)

// h24c: Mosquitto's own connection lines (net.c net__socket_accept's EMFILE/ENFILE, its
// max_connections, loop.c's keepalive) in the forms users paste them: the bare broker log
// ("TS: "), a syslog line under its tag, docker compose's "name | ". Before, a paste of
// only such a line exited 3. None reaches a rule (descriptor and broker limits, a client's
// silence): each is named, never a kernel OOM.
func TestH24cMosquittoConnectionLines(t *testing.T) {
	h12aNamed(t, "1764472364: Unable to accept new connection, system socket count has been exceeded. Try increasing \"ulimit -n\" or equivalent.\n",
		map[int]string{1: "EMFILE or ENFILE"})
	h12aNamed(t, "Nov 30 03:12:44 pi mosquitto[812]: 1764472364: Unable to accept new connection, system socket count has been exceeded. Try increasing \"ulimit -n\" or equivalent.\n",
		map[int]string{1: "RLIMIT_NOFILE"})
	h12aNamed(t, "mosquitto  | 2026-11-30T03:12:44: Client connection from 10.0.0.12 denied: max_connections exceeded.\n",
		map[int]string{1: "its own max_connections"})
	h12aNamed(t, "1764472366: Client DVES_12AB34 has exceeded timeout, disconnecting.\n",
		map[int]string{1: "keepalive"})
}

// Counter-cases: a condition, a recommendation, a sentence that goes on after the words.
func TestH24cMosquittoCounterCases(t *testing.T) {
	for _, text := range []string{
		"If mosquitto logs \"Unable to accept new connection, system socket count has been exceeded\", raise LimitNOFILE in its unit.\n",
		"When you see Client connection from X denied: max_connections exceeded, raise max_connections.\n",
		"Set max_connections to 1000 in mosquitto.conf, otherwise clients are denied: max_connections exceeded is what you'd read.\n",
		"Our Client app has exceeded timeout, disconnecting users after 30 s.\n",
	} {
		h24cNotNamed(t, text, "Mosquitto")
	}
}

// h24c: Python's OSError as it prints itself, "[Errno %d] %s" (Home Assistant's, zeroconf's,
// a Zigbee bridge's traceback tail): the errno is named (ENOBUFS, ENOMEM, EMFILE).
func TestH24cPythonErrno(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"OSError: [Errno 105] No buffer space available\n", "ENOBUFS"},
		{"2026-11-30 03:12:45.001 WARNING (MainThread) [zeroconf._core] Error sending through socket 18: [Errno 105] No buffer space available\n", "ENOBUFS"},
		{"OSError: [Errno 12] Cannot allocate memory\n", "ENOMEM"},
		{"OSError: [Errno 24] Too many open files: '/config/home-assistant_v2.db'\n", "EMFILE"},
	} {
		if why, ok := errnoLogLine(strings.TrimSuffix(tc.line, "\n")); !ok || !strings.Contains(why, tc.want) {
			t.Errorf("%q: %q %v, want %s", tc.line, why, ok, tc.want)
		}
		h12aNamed(t, tc.line, map[int]string{1: tc.want})
	}
	// Counter-cases: a sentence that goes on, a condition, another number's brackets.
	for _, line := range []string{
		"The Python error [Errno 105] No buffer space available usually means the multicast table is full",
		"If you get [Errno 105] No buffer space available, raise igmp_max_memberships",
		"see issue [12345] No buffer space available",
	} {
		if why, ok := errnoLogLine(line); ok {
			t.Errorf("%q named: %s", line, why)
		}
	}
}

// h24c: Tomcat's connector at maxThreads (AbstractEndpoint, JBoss Web id 3008): named as the
// server's own thread limit; a recommendation naming it stays prose.
func TestH24cTomcatMaxThreads(t *testing.T) {
	h12aNamed(t, "30-Nov-2026 03:12:45.001 INFO [http-nio-8080-exec-200] org.apache.tomcat.util.threads.ThreadPoolExecutor Maximum number of threads (200) created for connector with address null and port 8080\n",
		map[int]string{1: "maxThreads"})
	h12aNamed(t, "Jun 20, 2016 7:04:10 AM org.apache.tomcat.util.net.JIoEndpoint createWorkerThread\nINFO: Maximum number of threads (2048) created for connector with address null and port 80\n",
		map[int]string{2: "maxThreads"})
	h24cNotNamed(t, "If you see Maximum number of threads (200) created for connector with address null and port 8080, raise maxThreads.\n", "Tomcat")
}

// h24c: SQLite's SQLITE_NOMEM through Python's sqlite3 (Home Assistant's recorder under
// SQLAlchemy): the library's own allocation, named, never a kernel OOM (h12aNamed checks).
func TestH24cSQLiteNoMem(t *testing.T) {
	h12aNamed(t, "2026-11-30 03:12:46.001 ERROR (SyncWorker_3) [homeassistant.components.recorder.core] Error executing query: (sqlite3.OperationalError) out of memory\n",
		map[int]string{1: "SQLITE_NOMEM"})
	h12aNamed(t, "sqlite3.OperationalError: out of memory\n", map[int]string{1: "SQLITE_NOMEM"})
	h24cNotNamed(t, "sqlite3.OperationalError: database is locked\n", "SQLITE_NOMEM")
}

// h24cNotNamed: no line of text is named with words (a counter-case stays what it was).
func h24cNotNamed(t *testing.T, text, words string) {
	t.Helper()
	for _, u := range ParseString(text, "t", Options{}).Unparsed {
		if strings.Contains(u.Why, words) {
			t.Errorf("%q named with %q: %s", text, words, u.Why)
		}
	}
}
