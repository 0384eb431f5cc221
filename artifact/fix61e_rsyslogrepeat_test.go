package artifact

import "testing"

// fix61e: rsyslog's "message repeated N times: [<msg>]" keeps the message it repeats.
func TestFix61eRsyslogRepeatedMessage(t *testing.T) {
	text := "Dec  1 03:12:44 web7 kernel: [8123412.123456] TCP: out of memory -- consider tuning tcp_mem\n" +
		"Dec  1 03:12:44 web7 kernel: message repeated 12 times: [ [8123412.223456] TCP: out of memory -- consider tuning tcp_mem]\n" +
		"Dec  1 03:13:01 web7 kernel: message repeated 40 times: [ TCP: out of memory -- consider tuning tcp_mem]\n"
	tl := ParseString(text, "syslog", Options{})
	n := 0
	for _, r := range tl.Log.All() {
		if r.Message == "TCP: out of memory -- consider tuning tcp_mem" {
			n++
		}
	}
	if n != 3 {
		for _, r := range tl.Log.All() {
			t.Logf("%q", r.Message)
		}
		t.Fatalf("%d records of the message, want 3", n)
	}
	// Counter-cases: the wrapper's words alone, or without its bracket, are left as they are.
	for in, want := range map[string]string{
		"message repeated 3 times":             "message repeated 3 times",
		"message repeated many times: [ x]":    "message repeated many times: [ x]",
		"message repeated 3 times: [":          "message repeated 3 times: [",
		"message repeated 4 times: [ sshd ok]": "sshd ok",
	} {
		if got := unwrapRsyslogRepeat(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
