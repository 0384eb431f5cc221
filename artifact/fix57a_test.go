package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix57a: the kernel's "TCP: out of memory" reported in the author's past tense ("there
// were errors"), as the log it was; a guide's present tense or a condition is no record.
func TestFix57aTCPOOMThereWere(t *testing.T) {
	logged := func(text string) bool {
		for _, r := range ParseString(text, "p", Options{}).Log.Records() {
			if strings.Contains(r.Message, "out of memory") {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"In `/var/log/kern.log` there were errors “TCP: out of memory”.\n", true},
		{"In dmesg there were many messages \"TCP: out of memory -- consider tuning tcp_mem\" last night.\n", true},
		// counter-cases: a guide's present, a condition, a possibility
		{"When tcp_mem is exhausted there are errors like \"TCP: out of memory\" in the log.\n", false},
		{"If there were errors \"TCP: out of memory\" you would need to raise tcp_mem.\n", false},
		{"The kernel may print \"TCP: out of memory -- consider tuning tcp_mem\" under load.\n", false},
	} {
		if got := logged(c.text); got != c.want {
			t.Errorf("%q: logged %v, want %v", c.text, got, c.want)
		}
	}
}

// fix57a: Netdata's SYN-queue alarms (1m_tcp_syn_queue_cookies, _drops on ip.tcp_syn_queue)
// as a notification quotes them; a zero value, a cleared alarm and a health.d line are none.
func TestFix57aSynQueueAlarm(t *testing.T) {
	for _, c := range []struct {
		text        string
		win, perSec float64
	}{
		{"ip.tcp_syn_queue (tcp), 1m tcp syn queue cookies = 2 cookies\n\nI've been getting this netdata alert regularly.\n", 60, 2},
		{"netdata fired 1m_tcp_syn_queue_drops on our load balancer again.\n", 60, 0},
		// counter-cases
		{"ip.tcp_syn_queue (tcp), 1m tcp syn queue cookies = 0 cookies\n", 0, 0},
		{"The 1m_tcp_syn_queue_cookies alarm cleared after an hour.\n", 0, 0},
		{"Netdata ships alarms such as 1m_tcp_syn_queue_cookies and 1m_tcp_syn_queue_drops.\n", 0, 0},
	} {
		if v := statedRate(t, c.text, model.RateStatedSynQueueAlarmSec); v != c.win {
			t.Errorf("%q: window %v, want %v", c.text, v, c.win)
		}
		if v := statedRate(t, c.text, model.RateStatedSynQueuePerSec); v != c.perSec {
			t.Errorf("%q: rate %v, want %v", c.text, v, c.perSec)
		}
	}
}

// fix57a: a listener's accept queue stated full by its Recv-Q (the figures at or above the
// backlog, or the Recv-Q piled up in a text about somaxconn), and UDP loss a larger receive
// buffer cured, stated as the outcome. A guide's words, a condition, advice, a negation, a
// possibility or a queue below its limit are not read.
func TestFix57aStatedQueues(t *testing.T) {
	acc, udp := model.RateStatedAcceptQueueFull, model.RateStatedUDPLossCuredByRcvbuf
	for _, c := range []struct {
		key, text string
		want      float64
	}{
		{acc, "ss -lnt 看到端口9091 Recv-Q达到129 超出backlog的值128.所以导致全连接队列满了，后续的客户端连接会被拒绝。\n", 1},
		{acc, "On the proxy `ss -lnt` showed Recv-Q 129 above Send-Q 128 on port 443.\n", 1},
		{acc, "原因を調査したところ、どうやら Recv-Q が溜まっており、ソケットが枯渇してそうでした\nそのため net.core.somaxconn の上限を引き上げて対応した\n", 1},
		{acc, "The Recv-Q of our listening socket piled up during the sale, so we raised somaxconn.\n", 1},
		{acc, "ss -lnt showed Recv-Q 0 and Send-Q 128 on port 443.\n", 0},
		{acc, "# Recv-Q approaching the backlog limit (128) indicates accept() bottleneck\n# Increase with: sysctl -w net.core.somaxconn=65535\n", 0},
		{acc, "Recv-Q が溜まっている場合は net.core.somaxconn を引き上げます\n", 0},
		{acc, "If the Recv-Q piles up on a listener, raise net.core.somaxconn.\n", 0},
		{acc, "如果Recv-Q堆积，需要调大somaxconn。\n", 0},
		{acc, "The Recv-Q piled up on the client connection while the app was paused.\n", 0}, // no listener named
		{acc, "Recv-Q never piled up on the listener; somaxconn is 4096.\n", 0},
		{udp, "The UDP packet loss went away by setting the rmem_max and rmem_default\nin /proc/sys/net/core on the receiving linux box.\n", 1},
		{udp, "Raising net.core.rmem_max to 26214400 fixed the UDP drops on the syslog collector.\n", 1},
		{udp, "Raising net.core.rmem_max has not fixed the UDP drops.\n", 0},
		{udp, "Increasing rmem_max may fix the UDP loss if the application sets SO_RCVBUF.\n", 0},
		{udp, "You can increase it with the net/core/[rw]mem_* sysctls; UDP loss is not always the buffer.\n", 0},
		{udp, "The UDP packet loss did not go away after raising rmem_max.\n", 0},
	} {
		if v := statedRate(t, c.text, c.key); v != c.want {
			t.Errorf("%s %q: %v, want %v", c.key, c.text, v, c.want)
		}
	}
}
