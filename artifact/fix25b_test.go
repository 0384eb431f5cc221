package artifact

import (
	"strings"
	"testing"
)

// fix25b (round 20, issue 29 item 4): texts that exited 3 though they state a network or
// process-end fact of the host: Go's EADDRNOTAVAIL (corpus 2165), bash's job status of a
// SIGKILLed job (2209), Go's os/exec "signal: killed" in a supervisor's log (2229), strace's
// exit notice (2205), a load tester's per-stream bitrate and loss rows (2189).

// fix25bUnread parses text and returns the reasons of the unread lines.
func fix25bUnread(text string) []string {
	tl := ParseString(text, "t", Options{})
	var w []string
	for _, u := range tl.Unparsed {
		w = append(w, u.Why)
	}
	return w
}

func fix25bHas(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func TestFix25bNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"I started to see logs like\nhttp-client.go:558> Unable to connect to 10.0.0.7:8080 ; dial 10.0.0.7:8080: connect: cannot assign requested address.\n", "EADDRNOTAVAIL"},
		{"2020/01/02 10:11:12 connect() failed (99: Cannot assign requested address) while connecting to upstream\n", "EADDRNOTAVAIL"},
		{"root@46dca5673f74:/opt/rocketmq# sh bin/mqbroker -n localhost:9876 &\n[1] 35\n\n[1]+  Exit 137                sh bin/mqbroker -n localhost:9876\n", "job status"},
		{"$ ./run.sh &\n[2]-  Killed                  java -jar app.jar\n", "job status"},
		{"```\n2020-01-02T14:44:33.668963Z     info    Envoy proxy is ready\n2020-01-04T15:26:26.987721Z     warn    Envoy may have been out of memory killed. Check memory usage and limits.\n2020-01-04T15:26:26.987766Z     error   Epoch 0 exited with error: signal: killed\n2020-01-04T15:26:26.987770Z     info    No more active epochs, terminating\n```\n", "signal: killed"},
		{"2021-03-04 10:00:00 supervisor: worker 3 exited: signal: killed\n", "signal: killed"},
		{"```\n# strace -p 714776\nstrace: Process 714776 attached\nfutex(0x7f1f4125b9d0, FUTEX_WAIT, 714831, NULL) = ?\n+++ exited with 255 +++\n```\n", "called exit itself"},
		{"```\n# strace -p 714776\n+++ killed by SIGKILL +++\n```\n", "strace's notice that the traced process was killed"},
		{"```log\n│ Sub 325 │ TR_AMwrvAPqgrSEjd │ audio │ 11278 │ 7.2kbps │ 121 (1.061%) │\n│         │ TR_AM6fSH2srJkRP9 │ audio │ 11253 │ 7.5kbps │ 155 (1.359%) │\nTotal   │ 1500/1500 │ 10.4mbps (20.9kbps avg) │ 235025 (1.29%)  │\n```\n", "per-stream traffic"},
	} {
		ws := fix25bUnread(c.text)
		if !fix25bHas(ws, c.want) {
			t.Errorf("%q: unread %q, want a reason with %q", c.text, ws, c.want)
		}
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an event or OOM kill: %+v", c.text, tl.Events)
		}
	}
}

func TestFix25bCounterCases(t *testing.T) {
	for _, text := range []string{
		// the words in advice, a question or a sentence, not a record
		"To avoid cannot assign requested address, widen net.ipv4.ip_local_port_range.\n",
		"Why does fortio print cannot assign requested address?\n",
		"If your job shows Exit 137 it was killed.\n",
		"What does signal: killed mean?\n",
		"strace prints +++ exited with N +++ when the process exits.\n",
		// other job statuses and Go's other process ends
		"[1]+  Done                    sleep 5\n[2]-  Exit 1                  make\n[3]   Stopped                 vim\n",
		"2021-03-04 10:00:00 supervisor: worker 3 exited: exit status 1\n",
		"2021-03-04 10:00:00 supervisor: worker 3 exited: signal: terminated\n",
		// a table with no rate, a row's figures in a sentence, a markdown link
		"| cpu0 | 50 | 3 (10%) | idle |\n| cpu1 | 20 | 1 (5%) | idle |\n",
		"we saw 7.2kbps and 121 (1.061%) lost packets on one track\n",
		"[1] Killed processes are listed in the log.\n",
	} {
		ws := fix25bUnread(text)
		for _, why := range []string{"EADDRNOTAVAIL", "job status", "signal: killed", "strace's notice", "per-stream traffic"} {
			if fix25bHas(ws, why) {
				t.Errorf("%q listed as unread: %q", text, ws)
			}
		}
	}
}

func TestFix25bVersionField(t *testing.T) {
	tl := ParseString("**livekit-cli:**\nversion: 2.4.9\ncmd: ./lk load-test\n", "t", Options{})
	if tl.Host.Kernel != "" {
		t.Errorf("a tool's version field read as the kernel %q", tl.Host.Kernel)
	}
	tl = ParseString("uname -r says 2.6.32-431.el6.x86_64 here\n", "t", Options{})
	if tl.Host.Kernel == "" {
		t.Errorf("a bare kernel release no longer read")
	}
}
