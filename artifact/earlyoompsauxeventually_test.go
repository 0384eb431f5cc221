package artifact

import (
	"fmt"
	"strings"
	"testing"

	"headroom/model"
)

// fix33a (corpus 2853): "eventually" in a past clause ("was eventually killed by the kernel
// OOM killer") states an event, no prediction. Counter-cases: the future, a condition, a
// modal.
func TestFix33aPastEventually(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"`cosmic-launcher` grew to **~17 GB RSS / ~32 GB virtual** over a normal workday session and was eventually killed by the kernel OOM killer.\n", 1},
		{"The launcher grew to ~17 GB RSS and eventually got killed by the OOM killer.\n", 1},
		// Counter-cases.
		{"Our worker will eventually be killed by the OOM killer.\n", 0},
		{"If it was eventually killed by the OOM killer, dmesg shows it.\n", 0},
		{"It would be eventually killed by the OOM killer.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}

// fix33a (corpora 2841, 2845): earlyoom 1.0-1.2's start-up and status lines, the kill line's
// badness and VmRSS, and a log line whose host and tag the paste cut ("Jun 12 06:39:16:
// ..."). Counter-cases: the reporter's sketch of wished-for output, another program's
// "mem total" words, a sentence.
func TestFix33aEarlyoomOldForms(t *testing.T) {
	in := "earlyoom v1.1-5-g74a364b-dirty\n" +
		"mem total: 7836 MiB, min: 783 MiB (10 %)\n" +
		"swap total: 0 MiB, min: 0 MiB (10 %)\n" +
		"mem avail: 712 MiB (9 %), swap free: 0 MiB (0 %)\n" +
		"Killing process: tail, pid: 5476, badness: 367, VmRSS: 719 MiB\n" +
		"Jun 12 06:39:16: mem avail:    19 of   950 MiB ( 2.10%), swap free:  153 of 1023 MiB (14.96%)\n" +
		"Jun 12 06:39:16: sending SIGTERM to process 696 uid 1001 \"ipfs\": badness 757, VmRSS 637 MiB\n"
	tl := ParseString(in, "t", Options{})
	var got []string
	for _, a := range tl.Artifacts {
		switch v := a.Data.(type) {
		case EarlyoomTotal:
			got = append(got, fmt.Sprintf("%s total %d min %d", v.Of, v.TotalMiB, v.MinMiB))
		case EarlyoomAvail:
			got = append(got, fmt.Sprintf("avail %d swap %d", v.MemAvailMiB, v.SwapFreeMiB))
		case EarlyoomStatus:
			got = append(got, fmt.Sprintf("status %d/%d", v.MemAvailMiB, v.MemTotalMiB))
		}
	}
	for _, o := range tl.RuntimeOOMs {
		b := -1
		if o.Badness != nil {
			b = *o.Badness
		}
		got = append(got, fmt.Sprintf("kill %s %d %d", o.Victim, b, o.VmRSSMiB))
	}
	want := "mem total 7836 min 783|swap total 0 min 0|avail 712 swap 0|status 19/950|kill tail 367 719|kill ipfs 757 637"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	for _, counter := range []string{
		"mem avail: 0 MiB < min: 587 MiB\nswap free: 500 MiB < min: 587 MiB\n",
		"The mem total: 7836 MiB is what free shows.\n",
		"Jun 12 06:39:16: the server stopped answering\n",
	} {
		tl := ParseString(counter, "t", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindEarlyoom {
				t.Errorf("%q read as earlyoom's: %+v", counter, a.Data)
			}
		}
	}
}

// fix33a (corpus 2817): ps aux's rows under the command that printed them, the header cut by
// grep. Counter-cases: the same rows under no ps command, ps -ef's rows, a sentence naming
// ps aux.
func TestFix33aPsAuxUnderCommand(t *testing.T) {
	rows := "root      1559  0.0  0.0      0     0 ?        S    Jul20  40:15 [nfsd]\n" +
		"root      1560  0.0  0.0      0     0 ?        S    Jul20  40:11 [nfsd]\n" +
		"root     18615  0.0  0.0 112644   968 pts/1    S+   12:40   0:00 grep --color=auto nfs\n"
	count := func(in string) int {
		n := 0
		for _, a := range ParseString(in, "t", Options{}).Artifacts {
			if pt, ok := a.Data.(*PsTasks); ok && a.Kind == KindPsTasks {
				n += len(pt.Rows)
			}
		}
		return n
	}
	for _, c := range []struct {
		in   string
		want int
	}{
		{"# ps aux | grep nfs.\n\n" + rows, 3},
		{"$ ps -aux | grep nfsd\n" + rows, 3},
		{"[root@nas ~]# ps auxww | grep nfs\n" + rows, 3},
		// Counter-cases.
		{rows, 0},
		{"You can see the number of threads with ps aux.\n" + rows, 0},
		{"$ ps -ef | grep nfs\nroot      1559     2  0 Jul20 ?        00:40:15 [nfsd]\n", 0},
		{"$ ps aux | grep nfs\nnothing here\n", 0},
	} {
		if got := count(c.in); got != c.want {
			t.Errorf("%d rows, want %d, in\n%s", got, c.want, c.in)
		}
	}
}

// fix33a (corpus 2835): a socket buffer's size refused with ENOBUFS in a text that names
// macOS or a BSD is that system's (sosetopt's sbreserve; Linux caps the size instead).
// Counter-cases: the same line with no such system named, a UDP send refused with ENOBUFS
// on macOS, a sentence naming macOS with no error.
func TestFix33aSockbufENOBUFSOtherOS(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"When I ran massdns in mac OSX EI Capitan, I got the error:\n\nFailed to adjust socket send buffer size.: No buffer space available\n", true},
		{"On FreeBSD 13: setsockopt(SO_RCVBUF): No buffer space available\n", true},
		// Counter-cases.
		{"Failed to adjust socket send buffer size.: No buffer space available\n", false},
		{"On macOS the tool prints sendto failed: No buffer space available\n", false},
		{"It works on macOS but the socket buffer size is too small on my server.\n", false},
	} {
		tl := ParseString(c.in, "t", Options{})
		if got := tl.Host.OtherOS != ""; got != c.want {
			t.Errorf("other OS %q, want named %v, in\n%s", tl.Host.OtherOS, c.want, c.in)
		}
	}
}
