package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix35b: a swap figure stated nearly full ("SWAP 511/512 MB full") is the author's
// statement that the host swapped; counter-cases state nothing.
func TestFix35bStatedSwapFigureFull(t *testing.T) {
	stated := func(tl *model.Timeline) bool {
		return tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSwapping] > 0 }) != nil
	}
	for _, s := range []string{
		"• In a 4 GB container: load average reached 34 on 4 cores, SWAP 511/512 MB full\n",
		"The box crawled; swap: 1.9 of 2 GB used and load was 40.\n",
		"• maxConcurrent: 4 + subagents.maxConcurrent: 8 = up to 12 concurrent browser contexts\n• In a 4 GB container: load average reached 34 on 4 cores, SWAP 511/512 MB full\n",
	} {
		if !stated(pasteTimeline(t, s)) {
			t.Errorf("%q: swap nearly full not stated", s)
		}
	}
	for _, s := range []string{
		"In a 4 GB container the load reached 12, swap 200/512 MB.\n", // half used: parked pages
		"If swap reaches 511/512 MB the kernel starts killing.\n",     // a possibility
		"Set swap to 512/512 MB so it never fills.\n",
		"If the box ever gets to\nswap 511/512 MB full, add RAM.\n",       // a condition on the line before                     // advice
		"We never saw swap 511/512 MB full on this host.\n",               // negated
		"The renderer used 511/512 MB of its heap, no swap configured.\n", // not the swap's figure
	} {
		if stated(pasteTimeline(t, s)) {
			t.Errorf("%q: stated swapping", s)
		}
	}
}

// fix35b: Chromium's own FATAL "Out of memory. size=N" and Go's DNS lookup timeout are
// named as unread lines with their figure; no OOM kill, no finding. Counter-cases: the
// kernel's OOM line, a sentence quoting the words, a TCP dial timeout.
func TestFix35bChromiumOOMAndGoDNSTimeout(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"`[778:7:0131/235140.910186:FATAL:memory.cc(22)] Out of memory. size=524288`\n", "size=524288 bytes: Chromium's own"},
		{"[docker-2] 2020-04-24T19:25:54.438Z pw:browser:err [0424/192554.150296:FATAL:memory.cc(40)] Out of memory. size=262144\n", "size=262144 bytes: Chromium's own"},
		{"`[ERR] HEAD http://bbc.com - Head http://www.bbc.com/: dial tcp: lookup www.bbc.com on 127.0.1.1:53: read udp 127.0.0.1:53755->127.0.1.1:53: i/o timeout`\n", "DNS query got no answer"},
	} {
		tl := pasteTimeline(t, c.text)
		if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, c.want) {
			t.Errorf("%q: unparsed %+v, want %q", c.text, tl.Unparsed, c.want)
		}
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v", c.text, d.Findings)
		}
	}
	for _, s := range []string{
		"I started seeing a lot of Out of memory. size= errors in Chromium.\n",
		"dial tcp 10.0.0.1:443: i/o timeout\n",
		"Getting lots of i/o timeouts from the crawler.\n",
	} {
		tl := pasteTimeline(t, s)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "Chromium's own") || strings.Contains(u.Why, "DNS query got no answer") {
				t.Errorf("%q: named %q", s, u.Why)
			}
		}
	}
	// The kernel's own line stays the kernel's OOM kill.
	k := "[12345.678901] Out of memory: Killed process 4242 (chrome) total-vm:8000000kB, anon-rss:4000000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:9000kB oom_score_adj:300\n"
	if d := Run(pasteTimeline(t, k), nil); len(findings(d, "oom-kill")) == 0 {
		t.Errorf("kernel OOM kill not read")
	}
}
