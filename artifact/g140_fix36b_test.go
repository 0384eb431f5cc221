package artifact

import (
	"headroom/model"

	"strings"
	"testing"
)

// fix36b: the OpenTelemetry Collector's memory_limiter lines (its own heap limit) are named
// unread, no OOM. Before: nothing read (exit 3).
func TestFix36bOtelMemoryLimiterUnread(t *testing.T) {
	text := "2023-01-12T11:39:25.971Z\twarn\tmemorylimiterprocessor@v0.66.0/memorylimiter.go:312\tMemory usage is above soft limit. Dropping data.\t{\"kind\": \"processor\", \"name\": \"memory_limiter\", \"pipeline\": \"logs\", \"cur_mem_mib\": 87}\n" +
		"2023-01-12T11:39:30.970Z\twarn\tmemorylimiterprocessor@v0.66.0/memorylimiter.go:286\tMemory usage is above hard limit. Forcing a GC.\t{\"kind\": \"processor\", \"name\": \"memory_limiter\", \"pipeline\": \"logs\", \"cur_mem_mib\": 102}\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "memory_limiter processor") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v: want the memory_limiter lines unread, no OOM", tl.Unparsed, statedOOM(tl))
	}
	checkAccount(t, tl)
	// In a pasted issue (a sentence above the log): a bare zap log of other lines is left to
	// the fast path, which hands on only lines with "of memory" (docs/accuracy.md fix36b).
	tl = ParseString("The collector starts with this configuration:\n\n"+
		"2024-02-12T12:13:15.730Z        info    memorylimiter/memorylimiter.go:77       Memory limiter configured       {\"kind\": \"processor\", \"name\": \"memory_limiter\", \"limit_mib\": 400, \"spike_limit_mib\": 250, \"check_interval\": 1}\n", "t", Options{})
	if !f15Unread(tl, "memory_limiter start-up") {
		t.Fatalf("unparsed %+v: want the start-up line unread", tl.Unparsed)
	}
	// Counter-cases: a sentence about a memory limit, and the kernel's kill line, are not it.
	for _, s := range []string{"we raised the memory usage limit of the pod to 2 GiB", "Memory cgroup out of memory: Killed process 12 (otelcol)"} {
		if why, ok := appOOMLine(s); ok && strings.Contains(why, "memory_limiter") {
			t.Errorf("%q read as the memory_limiter's", s)
		}
	}
}

// fix36b: a guest's virtio-balloon statistics as Firecracker prints them are listed unread.
func TestFix36bBalloonStatisticsUnread(t *testing.T) {
	line := `{"target_pages":1835008,"actual_pages":1835008,"target_mib":7168,"actual_mib":7168,"swap_in":0,"swap_out":0,"major_faults":1360,"minor_faults":126031,"free_memory":142065664,"total_memory":8351473664,"available_memory":437428224,"disk_caches":470376448,"hugetlb_allocations":0,"hugetlb_failures":0,"oom_kill":0,"alloc_stall":0}`
	tl := ParseString(line+"\n", "t", Options{})
	if !f15Unread(tl, "virtio-balloon") || statedOOM(tl) {
		t.Fatalf("unparsed %+v: want the balloon statistics unread", tl.Unparsed)
	}
	checkAccount(t, tl)
	for _, s := range []string{
		`{"free_memory":1024,"total_memory":2048}`,                          // two keys only
		`{"swap_in":0,"swap_out":0,"major_faults":1,"minor_faults":2}`,      // no free/total memory
		`{"a":{"free_memory":1,"total_memory":2,"swap_in":0,"swap_out":0}}`, // nested
		"the balloon reports free_memory and total_memory, swap_in, swap_out",
	} {
		if balloonStatsObject(s) {
			t.Errorf("%q read as balloon statistics", s)
		}
	}
}

// fix36b: packets said to drop, no protocol or counter, in a text with nothing else read:
// listed unread. Counter-cases must stay unlisted.
func TestFix36bNamedPacketDrops(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"# [receiver/jaegerreceiver] Thrift packets drop\n", true},
		{"we can export metrics describing the number of processed/dropped thrift packets.\n", true},
		// counter-cases: a single packet, no loss, a negation
		{"Drop the packet filter rule and try again.\n", false},
		{"The packets arrive in order.\n", false},
		{"Expected: no packets dropped at this rate.\n", false},
	} {
		got := len(fix15bUnread(c.text)) > 0
		if got != c.want {
			t.Errorf("%q: listed %v, want %v", c.text, got, c.want)
		}
	}
}

// fix36b: a measured share of UDP drops in a text that puts the cure on the socket receive
// buffer (corpus 3100). Before: not read.
func TestFix36bUDPDropShareWithRcvbufCure(t *testing.T) {
	const cure = "\nThat can be fixed by increasing UDP socket receive buffer in kernel.\n"
	wantStated(t, model.RateStatedUDPRcvbufDropPct, []statedCase{
		{"vmagent looses incoming UDP packets. We have about 50% of UDP drops when pushing 20K+ packets per second.\n" + cure, 50},
		{"The listener shows UDP packet loss of 30% at peak.\n\nRaising rmem_max removed it.\n", 30},
		// counter-cases: no receive-buffer cure in the text, a possibility, a negation, a threshold
		{"We have about 50% of UDP drops when pushing 20K+ packets per second over the WiFi link.\n", 0},
		{"If you see 5% UDP loss, check the link.\n" + cure, 0},
		{"There is no 5% UDP loss anymore.\n" + cure, 0},
		{"Alert when UDP loss is above 5% on any node.\n" + cure, 0},
	})
}

// fix36b: jaeger-client-cpp's UDP span send refused with ENOBUFS, its own log line and the
// error quoted in a title that says a span send hit it (corpus 3095). Before: not read.
func TestFix36bJaegerSpanSendENOBUFS(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"ERROR: Failed to flush spans in reporter: Could not send span No buffer space available, code=105, numFailed=12\n", true},
		{"# \"No buffer space available, code=105\" occurred at span send\n", true},
		// counter-cases: no span send named, another number, OpenVPN's form on a read
		{"# \"No buffer space available, code=105\" what does it mean?\n", false},
		{"Could not send span No buffer space available, code=1050\n", false},
		{"read UDPv4: No buffer space available (code=105)\n", false},
	} {
		tl := ParseString(c.text, "t", Options{})
		got := false
		for _, s := range tl.Samples {
			got = got || s.Rates[model.RateStatedUDPSendENOBUFS] > 0
		}
		if got != c.want {
			t.Errorf("%q: send ENOBUFS read %v, want %v", c.text, got, c.want)
		}
	}
}
