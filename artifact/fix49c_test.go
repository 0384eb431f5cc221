package artifact

import (
	"testing"

	"headroom/model"
)

// fix49c: round 44's OOM told in prose or in a vendor's log line, as read by the artifact
// layer: the stated out-of-memory (model.RateStatedOOM) at its line, or the line named unread
// with what it proves; and counter-cases of the same shape that must not be read.

// The stated out-of-memory of each form.
func TestFix49cStatedOOMForms(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
	}{
		// corpus 4118: the runtime's OOMKilled as an outcome.
		{"# Helmrelease can't start on 64MB of memory\n\nUsing the helm release (v 3.4.8) to start a single reposilite instance on k8s results in a OOMKilled - increasing to 128MB got reposilite in the air\n", 3},
		// corpus 4124: an unpunctuated declarative line before a question line.
		{"we are getting oom-killer\ncurrently using 3.9% and 3.5% when nothing is going on, do they spike?\n", 1},
		// corpus 4143: RouterOS's log, with its topics (and /log print's short date).
		{"Периодически роутер перезагружается:\n2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n", 3},
		{"nov/13 09:57:41 system,error,critical out of memory condition was detected\n", 1},
		// corpus 4106: death by OOM.
		{"That works as first, but quite soon brokers start to die due to an OOM situation.\n", 1},
		// corpus 4088: the machine out of memory.
		{"The logs on the instance indicated that the instance was out of memory. The team restarted the instance and k3s.\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != 1 {
			t.Errorf("%q: stated OOM %v, want 1 (its line %d is cited by the finding: diagnose/fix49c_test.go)", c.text, got, c.line)
		}
	}
	for _, text := range []string{
		"Does it result in OOMKilled when the limit is 64MB?\n",              // a question
		"A container over its limit will result in OOMKilled.\n",             // documentation's future
		"are we getting oom-killer\nor is it the watchdog?\n",                // the question's word order
		"we are not getting oom-killer\nso what restarts it?\n",              // a negation
		"What does out of memory condition was detected mean?\n",             // RouterOS's words asked about
		"RouterOS writes out of memory condition was detected to its log.\n", // a doc's sentence, no topics
		"09:57:41 dhcp,info out of memory condition was detected\n",          // not the system topic at an error level
		"If the instance was out of memory, the kubelet restarts pods.\n",    // a condition
		"The broker died due to a bad config.\n",
		"The machine went out of memory and began using swapspace (GoBGP got 3,5 GB RAM of 4 GB built in).\n", // swap in use (corpus 3464)
		"The machine went out of RAM, so it swapped.\n",                                                       // RAM full, swap to spare                                                      // no out-of-memory
		"Confluence crashes with out of memory (OOM) error during flushQueue shortly after startup\n",         // a program's own error (4099)
		"The service crashed with an out of memory error.\n",                                                  // a program's own error
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v, want none", text, got)
		}
	}
	// The machine crashing with the error keeps the host's reading (hostCrashedOOM).
	if got := statedRate(t, "My server crashed with an out of memory error during the backup.\n", model.RateStatedOOM); got != 1 {
		t.Errorf("the host's crash with an out-of-memory error: stated OOM %v, want 1", got)
	}
}

// Named unread with what they prove: Go's quoted error chain ending in "signal: killed"
// (4117), a crash after all the system's memory was consumed (4132), a Japanese statement of
// the server's memory shortage and the reboot (4089). Nothing diagnosed from any.
func TestFix49cNamedUnread(t *testing.T) {
	for _, c := range []struct {
		text, why string
		line      int
	}{
		{"harbor · issue\n# Scanning image fails with error \"running trivy wrapper: running trivy: signal: killed\"\n", goSignalKilledWhy, 2},
		{"We've noticed what seems to be a memory leak in Kamailio process. After several days, Kamailio will crash after consuming all system memory.\n", whyStatedShortageCrash, 1},
		{"昨晩,何とか不定期日記をカモランドのWiki上に移行したが,今朝の6時半頃からサーバがメモリ不足に陥って,サーバを再起動するしかなくなってしまった.\n", whyStatedShortageReboot, 1},
		{"服务器内存不足，只能重启。\n", whyStatedShortageReboot, 1},
	} {
		w := fix40bWhys(c.text)
		if w[c.why] != [2]int{c.line, c.line} {
			t.Errorf("%q: unread %v, want line %d named", c.text, w, c.line)
		}
		if statedRate(t, c.text, model.RateStatedOOM) != 0 {
			t.Errorf("%q: an out-of-memory read from it", c.text)
		}
	}
	for _, c := range []struct{ text, why string }{
		{"What does \"signal: killed\" mean in trivy?\n", goSignalKilledWhy},                                         // a question quoting the words
		{"The docs say a child ends with \"signal: killed\" on SIGKILL.\n", goSignalKilledWhy},                       // no error chain
		{"Kamailio will not crash after consuming all system memory, it caps pkg memory.\n", whyStatedShortageCrash}, // a negation
		{"If it runs long, will it crash after consuming all system memory?\n", whyStatedShortageCrash},              // a question
		{"サーバがメモリ不足に陥ったら再起動すればいいですか？\n", whyStatedShortageReboot},                                                    // a question
		{"再起動したのはメモリ不足ではないサーバの設定のためです。\n", whyStatedShortageReboot},                                                  // no machine's shortage
		{"メモリ不足の対策として、プロセス数を減らした。\n", whyStatedShortageReboot},                                                       // no reboot, no machine
	} {
		if w := fix40bWhys(c.text); w[c.why] != [2]int{} {
			t.Errorf("%q: named unread %v", c.text, w)
		}
	}
}

// The RouterOS record alone: its line form, and other topics' or a sentence's words.
func TestFix49cRouterOSLine(t *testing.T) {
	for _, l := range []string{
		"2024-11-13 09:57:41 system,error,critical out of memory condition was detected",
		"09:57:41 system,error,critical out of memory condition was detected",
		"jan/02/2024 09:57:41 system,error,critical out of memory condition was detected",
	} {
		if !routerOSOOMLine(l) {
			t.Errorf("%q not read", l)
		}
	}
	for _, l := range []string{
		"out of memory condition was detected",
		"2024-11-13 09:57:41 system,info out of memory condition was detected",
		"2024-11-13 09:57:41 system,error,critical kernel failure in previous boot",
	} {
		if routerOSOOMLine(l) {
			t.Errorf("%q read", l)
		}
	}
}
