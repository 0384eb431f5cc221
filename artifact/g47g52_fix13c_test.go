package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// g47–g52 fixed by class (fix13c): statements in prose and applications' own error lines.
// Every snippet is written for its class, not copied from a case.

func fix13cOOMKills(text string) int {
	tl := ParseString(text, "p", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill {
			n++
		}
	}
	return n
}

// A kill line whose victim is "[pid] [name]" is the pattern a reader searched for, not a
// kill: mm/oom_kill.c prints the pid with %d. Before: an OOM kill event was read.
func TestFix13cOOMKillBracketPlaceholder(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"I searched but there is no `Out of memory: Killed process [pid] [comm]` in the logs\n", 0},
		{"grep finds nothing like Out of Memory: Killed process [PID] [NAME].\n", 0},
		// counter-cases: the kernel's own line, with its numbers
		{"Out of memory: Killed process 4242 (postgres) total-vm:812345kB, anon-rss:700000kB, file-rss:0kB, shmem-rss:0kB\n", 1},
		{"Out of Memory: Killed process 917 (httpd).\n", 1},
	} {
		if got := fix13cOOMKills(c.text); got != c.want {
			t.Errorf("%q: %d OOM kills, want %d", c.text, got, c.want)
		}
	}
}

// A text about a HotSpot crash file (hs_err_pid<N>.log) calls the JVM's own aborted native
// allocation an OOM: "the crash is caused by OOM" there is no kernel kill. Before: a stated
// oom-kill. A kill said in words is still read in such a text.
func TestFix13cJVMCrashFileOOMNotKernel(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"We opened the JVM's hs_err_pid4711.log after each restart and every crash was caused by OOM.\n", 0},
		{"The hs_err file shows the crash happened on out of memory in a native thread.\n", 0},
		// counter-cases
		{"We opened hs_err_pid4711.log too, but in the end the OOM killer killed the JVM last night.\n", 1},
		{"Our broker crashed twice from OOM last week.\n", 1},
	})
}

// OOM-kill as the verb with its victim: "oom kill(ed) my/the/our X". Before: not read.
func TestFix13cStatedOOMKillVerb(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"Yesterday the box ran out of RAM and the kernel decided to oom kill our redis instance.\n", 1},
		{"dmesg tell me it oom kill the java process 🙁\n", 1},
		// counter-cases: a mechanism, a possibility, a negation
		{"The kernel may oom kill the largest process when memory runs out.\n", 0},
		{"If it runs out, will the kernel oom kill my app?\n", 0},
		{"It did not oom kill my daemon this time.\n", 0},
	})
}

// A share kswapd "uses" with no resource named is its CPU share (a kernel thread has no
// %MEM). Before: skipped for want of the word "cpu" or "core".
func TestFix13cKswapdShareWithoutCPUWord(t *testing.T) {
	wantStated(t, model.RateKswapdCPUPct, []statedCase{
		{"Once the laptop fills its RAM, kswapd0 starts using a whole thread at 95%.\n", 95},
		{"Here kswapd0 sits at 88% for minutes.\n", 88},
		// counter-cases: a memory share near kswapd, a definition
		{"kswapd0 wakes up when memory is 97% used.\n", 0},
		{"kswapd runs while swap is 60% full.\n", 0},
	})
}

// Udp RcvbufErrors named and said to grow, no figure. Before: nothing read.
func TestFix13cStatedUDPRcvbufRising(t *testing.T) {
	wantStated(t, model.RateStatedUDPRcvbufRising, []statedCase{
		{"Under the media load our UdpRcvbufErrors shot up within seconds.\n", 1},
		{"In netstat -su the 'RcvbufErrors' kept increasing during the test.\n", 1},
		{"We saw a spike in RcvbufErrors at peak hours.\n", 1},
		// counter-cases: definition, negation, possibility
		{"The RcvbufErrors counter increases when a socket's receive queue is full.\n", 0},
		{"RcvbufErrors did not increase at all.\n", 0},
		{"There was no increase in RcvbufErrors.\n", 0},
		{"If RcvbufErrors grows, raise the buffer.\n", 0},
	})
}

// A share of UDP datagrams dropped at full receive buffers, stated. Before: not read.
func TestFix13cStatedUDPRcvbufShare(t *testing.T) {
	wantStated(t, model.RateStatedUDPRcvbufDropPct, []statedCase{
		{"The syslog collector measured a 3.5 % UDP receive buffer drop rate during bursts.\n", 3.5},
		{"On the relay we lost **2 % UDP receive-\nbuffer drops** at peak.\n", 2},
		{"The UDP receive buffer drop rate was about 7% all day.\n", 7},
		// counter-cases: a threshold, a TCP figure, a possibility
		{"Alert when the UDP receive buffer drop rate is above 1%.\n", 0},
		{"The TCP receive buffer errors were 5% of segments.\n", 0},
		{"If we see 4% UDP receive buffer drops, we scale out.\n", 0},
	})
}

// Applications' socket errors EAGAIN in C programs' forms, and etcd's and HotSpot's own
// buffers: listed as unread with what they mean, read as nothing. Before: prose (exit 3).
func TestFix13cAppErrorLinesUnread(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"errno-colon", "[gtpu] ERROR: recvfrom() failed (11:Resource temporarily unavailable) (path.c:88)\n", "EAGAIN"},
		{"errno-equals", "ERROR: relay(): write failed on fd 12, errno=11 (Resource temporarily unavailable)\n", "EAGAIN"},
		{"etcd", `{"level":"warn","ts":"2024-01-02T03:04:05Z","msg":"dropped internal Raft message since sending buffer is full (overloaded network)","remote-peer-id":"ab12"}` + "\n", "etcd"},
		{"hotspot", "# Native memory allocation (malloc) failed to allocate 65536 bytes for ChunkPool\n", "JVM's own native allocation"},
		// h28d: the Linux form is read now (hserrmem.go, TestH28dHsErrMemory); a line not in
		// its exact form stays named.
		{"hotspot-memory", "Memory: 4k page, physical 8123456k free, swap 0k free\n", "another system"},
	} {
		wantUnreadOnly(t, c.name, c.text, c.want)
	}
	// counter-cases: the errno's text in a sentence with no number, and a bare word.
	for _, s := range []string{
		"Sometimes recv says Resource temporarily unavailable, is that bad?\n",
		"the sending buffer is full of ideas\n",
	} {
		tl := ParseString(s, "p", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "EAGAIN") || strings.Contains(u.Why, "etcd") {
				t.Errorf("%q: read as %q", s, u.Why)
			}
		}
	}
}

// A NIC driver's transmit hang named in prose is a network event no rule judges: listed as
// unread so the text runs. Before: prose only (exit 3). Counter-cases: a host that hangs, a
// transmit queue's length, a timeout of something else.
func TestFix13cTxHangNamedUnread(t *testing.T) {
	for _, s := range []string{
		"Every few hours the guests drop off the network and the kernel log shows TX hang on ens160.\n",
		"igb keeps printing Detected Tx Unit Hang on eth2 under load\n",
		"we see NETDEV WATCHDOG style transmit queue 3 timed out messages after the upgrade\n",
	} {
		wantUnreadOnly(t, s, s, "transmit hang")
	}
	for _, s := range []string{
		"The whole server hangs when the backup starts.\n",
		"We raised the transmit queue length to 10000.\n",
		"The HTTP client reports a read timeout after 30 seconds.\n",
	} {
		tl := ParseString(s, "p", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "transmit hang") {
				t.Errorf("%q: read as a transmit hang", s)
			}
		}
	}
}

// A socket-buffer sysctl in bytes stated with a unit in prose ("`net.core.rmem_max` was 8
// MiB"): its bytes. Before: the key with no value, or "to 16 MiB" read as 16. Counter-cases:
// a key in pages, a plain number keeps its reading.
func TestFix13cProseSocketBufferSize(t *testing.T) {
	for _, c := range []struct{ text, key, want string }{
		{"On the relay `net.core.rmem_max` was 16 MiB already.\n", "net.core.rmem_max", "16777216"},
		{"and net.core.wmem_default is 256K on these hosts\n", "net.core.wmem_default", "262144"},
		{"We raised net.core.rmem_max to 16 MiB.\n", "net.core.rmem_max", "16777216"},
		{"net.ipv4.tcp_mem is 4M here\n", "net.ipv4.tcp_mem", ""},
		{"net.core.rmem_max is 212992 by default\n", "net.core.rmem_max", "212992"},
	} {
		tl := ParseString(c.text, "p", Options{})
		got, found := "", false
		for _, s := range tl.Settings {
			if s.Key == c.key {
				got, found = s.Value, true
			}
		}
		if !found || got != c.want {
			t.Errorf("%q: %s = %q (found %v), want %q", c.text, c.key, got, found, c.want)
		}
	}
}
