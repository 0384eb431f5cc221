package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix23b: an OOM kill told without the word OOM ("the OS always killed MySQL to regain its
// memory", corpus 2063), and a conditional description of an OOM kill that the next
// sentences say happened to the author (corpus 2061). Counter-cases: the same words as a
// prediction, a condition with no such statement, advice, a question, a kill that was not
// for memory, a hope.
func TestFix23bStatedOOMKill(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		// corpus 2063's summary, and the class's other forms.
		{"I had problems running MySQL and Apache on a small Linux server (1 GB of memory). Apache kept demanding more memory, and as a consquence, the OS always killed MySQL to regain its memory. The solution was to replace Apache with Lighttpd.\n", 1},
		{"Last night the kernel killed mysqld to free up memory.\n", 1},
		{"Our java process was killed by the system due to low memory.\n", 1},
		// corpus 2061: the condition, then the author's hour of waiting for the kill.
		{"So if a process keeps allocating without limit, everything becomes unresponsive, till that process is killed by the OOM-killer. My laptop seems to be especially sensible and reacts extremely badly. I just spent an ENTIRE HOUR waiting for the process termination during which not even the mouse cursor could be moved.\n", 1},
		{"If a build eats all RAM, the box freezes until the process is killed by the OOM killer. It happened again today.\n", 1},
		// Counter-cases.
		{"So if a process keeps allocating without limit, everything becomes unresponsive, till that process is killed by the OOM-killer. How can this be avoided?\n", 0},
		{"If a build eats all RAM, the box freezes until the process is killed by the OOM killer. Has this happened to you?\n", 0},
		{"If a build eats all RAM, the box freezes until the process is killed by the OOM killer. I hope it never happened to me.\n", 0},
		{"The OOM killer will kill the biggest process.\n", 0},
		{"If the OS kills mysqld to free memory, raise the swap.\n", 0},
		{"To avoid the OS killing MySQL to regain memory, set innodb_buffer_pool_size lower.\n", 0},
		{"The OS killed the process? No, it exited on its own.\n", 0},
		{"The OS killed the process to regain its memory?\n", 0},
		{"The OS killed mysqld because it was told to by systemd.\n", 0},
		{"Linux would kill a process to regain its memory when RAM runs out.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}

// fix23b (corpus 2062): the JDK's WSAENOBUFS text on connect is read as what it is (its
// Windows winsock table's "No buffer space available (maximum connections reached?)", a
// client out of ports or connections), listed, never a memory finding. Counter-cases: the
// text without the call (a sentence), the plain strerror text keeps its own reading.
func TestFix23bJDKWinsockENOBUFS(t *testing.T) {
	for _, l := range []string{
		`Caused by: org.springframework.web.client.ResourceAccessException: I/O error on POST request for "http://localhost:8080/myservice":No buffer space available (maximum connections reached?): connect; nested exception is java.net.SocketException: No buffer space available (maximum connections reached?): connect`,
		`java.net.SocketException: No buffer space available (maximum connections reached?): connect`,
		`Caused by: java.net.SocketException: No buffer space available (maximum connections reached?): bind`,
	} {
		why, ok := errnoLogLine(l)
		if !ok || !strings.Contains(why, "WSAENOBUFS") || !strings.Contains(why, "EADDRNOTAVAIL") {
			t.Errorf("not read as the JDK's WSAENOBUFS: %q: %q", l, why)
		}
	}
	for _, l := range []string{
		"I keep getting No buffer space available (maximum connections reached?) from the client",
		"No buffer space available (maximum connections reached?): Connection pool is full",
	} {
		if why, ok := errnoLogLine(l); ok && strings.Contains(why, "WSAENOBUFS") {
			t.Errorf("read as the JDK's record: %q", l)
		}
	}
	// The plain Linux strerror text keeps the ENOBUFS reading.
	if why, ok := errnoLogLine("sendto failed on socket 8: No buffer space available"); !ok || strings.Contains(why, "WSAENOBUFS") {
		t.Errorf("plain ENOBUFS misread: %q", why)
	}
	// The whole text runs and raises no finding of memory or network.
	text := "When I make a lot of these requests, I am getting the following exception:\n\njava.net.SocketException: No buffer space available (maximum connections reached?): connect\n\nThis is caused by connections not being closed and hanging in TIME_WAIT state.\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) == 0 {
		t.Fatalf("the line is not listed")
	}
	for _, s := range tl.Samples {
		if len(s.Rates) > 0 {
			t.Errorf("rates read from the JDK's line: %v", s.Rates)
		}
	}
}
