package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix47c: round 42's first-run misses in batch g185 (WebRTC media servers and TURN relays),
// by class: an OOM kill told as the end of a growth or as the kernel's kill when memory ran
// out (corpus 3982, 3984, 3993); coturn's and eturnal's own lines (3988, 3999); a size range
// whose unit is its own word (3986).

// Growth until an out-of-memory, and the kernel killing when memory is exhausted.
func TestFix47cOOMUntilAndKernelKillOnExhaustion(t *testing.T) {
	for _, text := range []string{
		// corpus 3982 (coturn#1933)
		"iocc-git · description · 2026-06-03\nIts still a memory leak problem but its slower until out of memory kill.\nI suggest this in coturn.service:\n",
		// corpus 3993 (jitsi-meet#6589)
		"## Current behavior\n---\n\nRAM usage grows until OOM is reached (after that I have to manually do `service jitsi-videobridge2 restart`)\n",
		// corpus 3984 (coturn#1128)
		"There is enormous use of memory during the process and the kernel is killing the service once all the memory including swap memory is exhausted. Please suggest me how to overcome this situation.\n",
		"The heap kept growing till the OOM killer kicked in.\n",
		"The kernel killed coturn when the RAM ran out.\n",
	} {
		if !hostStatesOOM(text) {
			t.Errorf("stated OOM kill not read: %q", text)
		}
		tl := ParseString(text, "p", Options{})
		found := false
		for _, s := range tl.Samples {
			if s.Rates[model.RateStatedOOM] == 1 {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no stated_oom 1", text)
		}
	}
	for _, text := range []string{
		"If the leak is not fixed, memory will grow until OOM is reached.\n",                // a possibility
		"Does RSS keep growing until the OOM killer kicks in?\n",                            // a question
		"A leaking process grows until the OOM killer kills it.\n",                          // documentation's voice
		"The app logs grow until out of memory errors appear in its own log.\n",             // no kill: errors
		"The kernel kills a process once memory is exhausted.\n",                            // no victim of ours: generic
		"The kernel will kill the service once all the memory is exhausted, so add swap.\n", // a possibility
		"Memory grew until it stabilised at 300 MB; no OOM happened.\n",                     // no OOM
	} {
		if hostStatesOOM(text) {
			t.Errorf("read as a stated OOM kill: %q", text)
		}
	}
}

// coturn's start banner and eturnal's Prometheus gauge: named unread with what they prove,
// not read as a shortage (corpus 3988, 3999).
func TestFix47cRelayBannerAndGaugeUnread(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"```\nVersion Coturn-4.5.0.7 'dan Eider'\n0: \nMax number of open files/sockets allowed for this process: 65535\n0: \n```\n", "RLIMIT_NOFILE"},
		{"0: (1): INFO: Due to the open files/sockets limitation, max supported number of TURN Sessions possible is: 32500 (approximately)\n", "capacity note"},
		{"Screenshot, 64,8% usage was taken with \neturnal_turn_open_sessions{instance=\"localhost:8081\", job=\"eturnal\", transport=\"UDP\"}\n= 3633\n", "mod_stats_prometheus.erl"},
	} {
		tl := ParseString(c.text, "p", Options{})
		if len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, c.want) {
			t.Errorf("%q: unparsed %+v, want %q", c.text, tl.Unparsed, c.want)
		}
		if got := statedRate(t, c.text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v", c.text, got)
		}
	}
	// Counter-cases: advice naming the metric, a doc's list, another program's limit line.
	for _, line := range []string{
		"You can query eturnal_turn_open_sessions{transport=\"udp\"} in Grafana.",
		"eturnal_turn_open_sessions: Number of currently active TURN sessions",
		"Max number of open files: 1024",
	} {
		if why, _, ok := relayOwnLine(line); ok {
			t.Errorf("%q named as a relay's line: %s", line, why)
		}
	}
}

// A size range whose unit is the next word states a figure (corpus 3986); a bare range, or a
// range of ports, does not.
func TestFix47cSizeRangeUnitWord(t *testing.T) {
	if !statesDomainFigure("We run coturn inside docker. Memory usage daily increases for 40-100 Mb.") {
		t.Errorf("size range not a figure")
	}
	for _, s := range []string{
		"Memory usage changed between releases 4.5-4.6 of coturn.",
		"The udp relay port range is 49152-65535 here.",
		"Memory issue open since 2021-11, see issue 857.",
	} {
		if statesDomainFigure(s) {
			t.Errorf("%q read as a figure", s)
		}
	}
	tl := ParseString("We run coturn inside docker. Memory usage daily increases for 40-100 Mb.\n", "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != whyStatedFigure {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}
