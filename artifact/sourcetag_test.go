package artifact

import "testing"

// A log collector's source tag before each syslog line ("[cron0] Apr 13 14:49:07 host
// kernel: ...", corpus 4870): the kernel's records are read behind it. Counter-cases: a
// bracketed word before prose, a stamp-like digit tag, and a tag before a program's output
// stay as they are (no kernel record).
func TestSourceTagBeforeSyslog(t *testing.T) {
	records := func(text string) int {
		return ParseString(text, "p", Options{}).Log.Len()
	}
	tagged := "[cron0] Apr 13 14:49:07 c3b8c663f095 kernel: [25036641.536769] IPv6: Neighbour table overflow\n" +
		"[cron0] Apr 13 14:49:07 c3b8c663f095 kernel: [25036641.536835] TCP: out of memory -- consider tuning tcp_mem\n"
	if n := records(tagged); n != 2 {
		t.Errorf("tagged syslog: %d kernel records, want 2", n)
	}
	for in, want := range map[string]bool{
		"[cron0] Apr 13 14:49:07 host kernel: x":                                true,
		"[node-3] [  123.456789] TCP: out of memory -- consider tuning tcp_mem": true,
		"[update] Apr 13 the box was rebooted":                                  false,
		"[2] Apr 13 14:49:07 host kernel: x":                                    false,
		"[cron0] free -m shows 200 MB free":                                     false,
		"[a b] Apr 13 14:49:07 host kernel: x":                                  false,
		"[ERROR] [1700000000.123456789]: 1: DROPPED Message-Id 33":              false,
	} {
		if _, ok := stripSourceTag(in); ok != want {
			t.Errorf("stripSourceTag(%q) = %v, want %v", in, ok, want)
		}
	}
}
