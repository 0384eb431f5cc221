package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix55a (round 50, g216–g217): symptoms an operator tells in prose or quotes from the
// kernel log: the SLUB header cut after its node (fix55a_slubcut.go), the drops named by the
// NIC's ring-loss counter (fix55a_nicnamed.go), a send refused with ENOBUFS quoted without a
// figure (fix55a_sendenobufs.go).

func slabEvents(tl *model.Timeline) []model.Event {
	var out []model.Event
	for _, e := range tl.Events {
		if e.Kind == model.EventSlabFailure {
			out = append(out, e)
		}
	}
	return out
}

func TestFix55aSlubHeaderCutAfterNode(t *testing.T) {
	for _, text := range []string{
		// Quoted in a sentence with its syslog tag, no cache line (a Chinese post).
		"升级前内核日志里有 “kernel: SLUB: Unable to allocate memory on node -1”,后来升级了内核。\n",
		// A log line a grep cut after the node.
		"[12345.678901] SLUB: Unable to allocate memory on node 0\n",
		"We keep getting `SLUB: Unable to allocate memory on node -1` on the workers.\n",
	} {
		tl := ParseString(text, "t", Options{})
		evs := slabEvents(tl)
		if len(evs) != 1 {
			t.Errorf("%q: %d slab events, unparsed %+v", text, len(evs), tl.Unparsed)
			continue
		}
		if s := evs[0].SlabFailure; s.Mode != "" || s.Cache != "" {
			t.Errorf("%q: %+v", text, s)
		}
	}
	// With its cache line below: the cache read too.
	tl := ParseString("[1.000000] SLUB: Unable to allocate memory on node -1\n[1.000000]   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 0, min order: 0\n", "t", Options{})
	if evs := slabEvents(tl); len(evs) != 1 || evs[0].SlabFailure.Cache != "skbuff_head_cache" {
		t.Errorf("with cache line: %+v", evs)
	}
	// Not a failure: a sentence that goes on after the node, a condition, a question, a
	// guide's example.
	for _, text := range []string{
		"SLUB: Unable to allocate memory on node -1 errors are usually harmless on this driver.\n",
		"If you see SLUB: Unable to allocate memory on node -1, raise min_free_kbytes.\n",
		"Does the kernel print SLUB: Unable to allocate memory on node -1?\n",
		"You will see something like this:\nSLUB: Unable to allocate memory on node -1\n",
	} {
		if evs := slabEvents(ParseString(text, "t", Options{})); len(evs) != 0 {
			t.Errorf("%q read as a failure: %+v", text, evs)
		}
	}
	for _, c := range []struct {
		t    string
		node int
		ok   bool
	}{
		{"SLUB: Unable to allocate memory on node -1", -1, true},
		{"“kernel: SLUB: Unable to allocate memory on node 1”,", 1, true},
		{"SLUB: Unable to allocate memory on node -1,", -1, true},
		{"SLUB: Unable to allocate memory on node -1 (gfp", 0, false},
		{"SLUB: Unable to allocate memory on node -1 errors", 0, false},
	} {
		if n, ok := slubCutNode(c.t); ok != c.ok || ok && n != c.node {
			t.Errorf("slubCutNode(%q) = %d %v", c.t, n, ok)
		}
	}
}

func TestFix55aDropsNamedByNICCounter(t *testing.T) {
	for _, text := range []string{
		"流量高峰时出现drop丢包,rx_missed_errors\n",
		"高峰期 eth0 的 rx_missed_errors 丢包很多\n",
		"Under load the box drops packets due to rx_missed_errors on eth1.\n",
		"The packet loss shows up as rx_fifo_errors.\n",
	} {
		if !statedOverrun(text) {
			t.Errorf("%q: no stated overrun", text)
		}
	}
	for _, text := range []string{
		// a counter that is no ring loss, a value, a negation, a question, a condition, a
		// definition, documentation
		"We see drops in rx_dropped.\n",
		"drops: rx_missed_errors: 0\n",
		"There are no drops in rx_missed_errors.\n",
		"Are the drops rx_missed_errors?\n",
		"If you see drops, check rx_missed_errors and rx_fifo_errors.\n",
		"rx_missed_errors counts packets dropped when the ring is full.\n",
		"Receive errors add up several kinds of drops:\n- FIFO overruns (when NIC buffer fills faster than kernel can process)\n",
		"Drops show up in rx_missed_errors (i.e. frames the NIC had no descriptor for).\n",
		"掉包不是 rx_missed_errors 引起的\n",
	} {
		if statedOverrun(text) {
			t.Errorf("%q read as a stated overrun", text)
		}
	}
}

func TestFix55aSendENOBUFSQuoted(t *testing.T) {
	for _, l := range []string{
		"`WARN: GRE packet send failed: No buffer space available`",
		"sendto: No buffer space available",
		"write udp4: sendmsg: no buffer space available.",
	} {
		if why, ok := sendENOBUFSQuoted(l); !ok || !strings.Contains(why, "send") {
			t.Errorf("%q not read", l)
		}
	}
	for _, l := range []string{
		"recvmsg: No buffer space available",                                   // a receive
		"netlink send: No buffer space available",                              // a netlink socket's
		"Why does send fail: No buffer space available?",                       // a question
		"If send fails: No buffer space available",                             // a condition
		"send failed: No buffer space available on my router again",            // a sentence that goes on
		"Failed to open: No buffer space available",                            // no send
		"Failed to adjust socket send buffer size.: No buffer space available", // setsockopt, no send
	} {
		if _, ok := sendENOBUFSQuoted(l); ok {
			t.Errorf("%q read", l)
		}
	}
	tl := ParseString("Uploading through the tunnel, the log fills with:\n`WARN: GRE packet send failed: No buffer space available`\n", "t", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != sendENOBUFSWhy {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	if len(tl.Samples) != 0 || len(tl.Events) != 0 {
		t.Errorf("read as evidence: %+v %+v", tl.Samples, tl.Events)
	}
}
