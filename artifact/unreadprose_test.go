package artifact

import (
	"strings"
	"testing"
)

// Issue 29 item 4: a text whose only evidence is prose stating memory or network figures
// (lines from corpus 1464, 1504, 1519, 1042, 1480 and 959, as their reporters wrote them)
// lists those lines as unread, so doctor runs and says "nothing could be checked" instead of
// exiting 3. Before: nothing listed, exit 3 ("nothing ... is evidence").
func TestStatedFiguresListedWhenNothingElseRead(t *testing.T) {
	for _, c := range []struct {
		text  string
		lines [][2]int
	}{
		{"valheim_1  | Mar 26 15:45:02 /supervisord: valheim-updater DEBUG - [28] - Memory total/free/available: 2036172/73636/41152\n", [][2]int{{1, 1}}},
		{"Thanks for the logs.\n\nYou were right! Increasing available memory to 4gb solved the issue.\n", [][2]int{{3, 3}}},
		{"(2) 700 Mbps is a limit of RPi4, loopback UDP communication. So, 10 MB x 10 Hz looks a too high goal\nto RPi4 in my setting.\n", [][2]int{{1, 1}}},
		{"When I use OS1-64 alone, I get :\n- /os_node/lidar_packet\t**76650 msgs** by minute\n- /os_node/lidar_imu\t5988 msgs by minute\n", [][2]int{{2, 3}}},
		{"Pulse currently displays TrueNAS Scale's memory usage as 95% consumed and 5% free.\n", [][2]int{{1, 1}}},
		{"Specs:\nCentos 7, Kernel 5.13 with fs-filemax already increased to 65543\n", [][2]int{{2, 2}}},
		{"  그렇게 큰 메모리를 할당하는 경우는 거의 없지만 4MB 를 넘으면 실패한다.\n", [][2]int{{1, 1}}},
		{"Der Server hat 16 GB Arbeitsspeicher und verliert trotzdem Pakete.\n", [][2]int{{1, 1}}},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) != len(c.lines) {
			t.Errorf("%q: unread %+v, want lines %v", c.text, tl.Unparsed, c.lines)
			continue
		}
		for k, u := range tl.Unparsed {
			if u.FirstLine != c.lines[k][0] || u.LastLine != c.lines[k][1] || u.Why != whyStatedFigure {
				t.Errorf("%q: unread %+v, want lines %v for %q", c.text, u, c.lines[k], whyStatedFigure)
			}
		}
		checkAccount(t, tl)
	}
}

// Counter-cases: prose with no figure, numbers that are not of the domain (a team, a df row,
// dates, times, versions, issue numbers), and a text in which something else was read (the
// prose around evidence is the story, not unread lines).
func TestStatedFiguresCounterCases(t *testing.T) {
	for _, text := range []string{
		"My server is slow since Monday.\nAny idea what to look at?\n",
		"The socket is closed with too many open files.\n",
		"Our team of 12 moved 3 offices in 2021, and 250 people now work on 4 floors.\n",
		"Upgraded the kernel 5.15 to fix the driver; see issue #272 from 2021-03-26 at 15:45:02.\n",
		"k6 version: `k6 v0.31.1 (2021-03-17T13:23:23+0000/e9d8349, go1.15.8, linux/amd64)`\n",
		"The memory of that meeting stays with me.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.Unparsed) != 0 {
			t.Errorf("%q: unread %+v, want none", text, tl.Unparsed)
		}
	}
	// Evidence read: the prose figure beside it is not listed.
	tl := ParseString("The box has 16 GB of memory and drops packets.\nMemTotal:       16384000 kB\nMemFree:          102400 kB\nMemAvailable:     204800 kB\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if u.Why == whyStatedFigure {
			t.Errorf("prose beside read evidence listed as unread: %+v", u)
		}
	}
	if NothingRead(tl) {
		t.Fatalf("meminfo not read: the counter-case tests nothing")
	}
}

// The bound: a long text of figure sentences adds at most maxUnreadEntries entries.
func TestStatedFiguresBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3*maxUnreadEntries; i++ {
		b.WriteString("The host lost 12 packets.\nThen it recovered.\n")
	}
	tl := ParseString(b.String(), "t", Options{})
	if n := len(tl.Unparsed); n != maxUnreadEntries {
		t.Errorf("%d unread entries, want %d", n, maxUnreadEntries)
	}
	checkAccount(t, tl)
}
