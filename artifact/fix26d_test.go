package artifact

import (
	"testing"

	"headroom/model"
)

// fix26d (round 21, issue 29): a JVM's OutOfMemoryError pasted with the author's "crashes
// with OOM" (corpus 2313), Rust's "(os error 24)" in a log shipper's journald line (2308),
// dropwatch's drops at the UDP socket queue (2317), collectd's MaxPacketSize (2316).

// fix26dRate: the largest value of key over the text's samples.
func fix26dRate(text, key string) float64 {
	tl := ParseString(text, "t", Options{})
	v := 0.0
	for _, s := range tl.Samples {
		v = max(v, s.Rates[key])
	}
	return v
}

func TestFix26dUDPQueueDropwatch(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"i installed dropwatch and its reporting dropping with `95255 drops at udp_queue_rcv_skb+374 (0xffffffff815e1c64)` \ncan you help\n", 95255},
		{"dropwatch> start\n12 drops at __udp_queue_rcv_skb+0x4c/0x3b0 (0xffffffff8b3c1a2c)\n30 drops at udp_queue_rcv_one_skb+3e1 (0xffffffff9a1b2c3d)\n5 drops at __netif_receive_skb_core+99 (0xffffffff8147b4ef)\n", 42},
		// counter-cases: another drop site; a sentence without a code span; advice
		{"dropwatch shows `95255 drops at __udp4_lib_rcv+374 (0xffffffff815e1c64)` here\n", 0},
		{"dropwatch> start\n19 drops at __netif_receive_skb+49f (0xffffffff8147b4ef)\n", 0},
		{"We saw 95255 drops at udp_queue_rcv_skb in the last hour.\n", 0},
		{"If you see `100 drops at udp_queue_rcv_skb+374 (0xffffffff815e1c64)` raise rmem_max.\n", 0},
	} {
		if got := fix26dRate(c.text, model.RateStatedUDPDropwatchDrops); got != c.want {
			t.Errorf("%q: dropwatch UDP queue drops %v, want %v", c.text, got, c.want)
		}
	}
}

func TestFix26dJVMOOMNotHost(t *testing.T) {
	jvm := "Logstash crashes with an OOM quite quickly, without much traffic.\n\n```\njava.lang.OutOfMemoryError: Java heap space\nDumping heap to java_pid11.hprof ...\n```\n"
	if v := fix26dRate(jvm, model.RateStatedOOM); v != 0 {
		t.Errorf("a JVM's OutOfMemoryError pasted: stated OOM %v, want none", v)
	}
	// counter-cases: no program's OOM line, or a kill word: the host's OOM stays stated
	for _, text := range []string{
		"Logstash crashes with an OOM quite quickly, without much traffic.\n",
		"mysqld was killed by the OOM killer last night.\n\n```\njava.lang.OutOfMemoryError: Java heap space\n```\n",
	} {
		if v := fix26dRate(text, model.RateStatedOOM); v == 0 {
			t.Errorf("%q: stated OOM lost", text)
		}
	}
}

func TestFix26dNamedLines(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Jul 21 15:10:50 k8s-master3 vector[17832]: 2023-07-21T07:10:50.512864Z ERROR source{component_kind=\"source\"}: vector::internal_events::file::source: Failed reading file for fingerprinting. file=/data/a.log error=Too many open files (os error 24) error_code=\"reading\"\n", "EMFILE"},
		{"Jul 21 15:10:50 host myapp[17832]: Failed reading file error=Too many open files (os error 24)\n", "EMFILE"},
		{"```\n<Plugin \"network\">\n    Forward true\n    MaxPacketSize 1200\n</Plugin>\n```\n", "MaxPacketSize"},
	} {
		if ws := fix25bUnread(c.text); !fix25bHas(ws, c.want) {
			t.Errorf("%q: unread %q, want a reason with %q", c.text, ws, c.want)
		}
	}
	// counter-cases: the words in a sentence; another program's tag; the size in prose
	for _, text := range []string{
		"If I set MaxPacketSize 1200 then metrics are dropped.\n",
		// h27b: with Rust's "(os error 24)" the line is Rust's io::Error under any tag
		// (langruntime.go langRuntimeRecord) and is named; without it, another program's
		// line under its tag stays unnamed.
		"Jul 21 15:10:50 host myapp[17832]: Failed reading file error=Too many open files\n",
	} {
		if ws := fix25bUnread(text); fix25bHas(ws, "MaxPacketSize") || fix25bHas(ws, "EMFILE") {
			t.Errorf("%q: named %q", text, ws)
		}
	}
}

func TestFix26dDropwatchForms(t *testing.T) {
	for _, text := range []string{
		// wrapped at 80 columns inside the span; each line in backticks
		"i installed dropwatch and its reporting dropping with `95255 drops at\nudp_queue_rcv_skb+374 (0xffffffff815e1c64)` can you help\n",
		"    `i installed dropwatch and its reporting dropping with `95255 drops at udp_queue_rcv_skb+374 (0xffffffff815e1c64)` can you help`  \n",
	} {
		if got := fix26dRate(text, model.RateStatedUDPDropwatchDrops); got != 95255 {
			t.Errorf("%q: dropwatch UDP queue drops %v, want 95255", text, got)
		}
	}
}
