package diagnose

import (
	"strings"
	"testing"
)

// fix57a: the stated forms the artifact readers take (artifact/fix57a_test.go) reach their
// rules as warnings naming what was stated; texts without them leave the rules unfired.
func TestFix57aStatedFindings(t *testing.T) {
	for _, c := range []struct {
		id, text, title string
	}{
		{"listen-overflow", "ip.tcp_syn_queue (tcp), 1m tcp syn queue cookies = 2 cookies\n\nI've been getting this netdata alert regularly.\n", "SYN queues were full"},
		{"listen-overflow", "ss -lnt 看到端口9091 Recv-Q达到129 超出backlog的值128.所以导致全连接队列满了。\n", "accept queue was full"},
		{"udp-rcvbuf-errors", "The UDP packet loss went away by setting the rmem_max and rmem_default\nin /proc/sys/net/core on the receiving linux box.\n", "UDP datagrams lost"},
		{"tcp-memory-pressure", "In `/var/log/kern.log` there were errors “TCP: out of memory”.\n", "global memory limit"},
	} {
		res := fired(t, c.id, c.text)
		if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Title, c.title) || res.Findings[0].Severity > Warning && c.id != "tcp-memory-pressure" {
			t.Errorf("%s on %q: %+v", c.id, c.text, res.Findings)
		}
	}
	// Counter-cases: a tuning guide's words.
	for _, c := range []struct{ id, text string }{
		{"listen-overflow", "# Recv-Q approaching the backlog limit (128) indicates accept() bottleneck\n# Increase with: sysctl -w net.core.somaxconn=65535\n"},
		{"listen-overflow", "Netdata ships alarms such as 1m_tcp_syn_queue_cookies and 1m_tcp_syn_queue_drops.\n"},
		{"udp-rcvbuf-errors", "UDP by default has 64K buffer and drops packets when it overflows. You can increase it using the net/core/[rw]mem_* sysctls.\n"},
	} {
		if res := fired(t, c.id, c.text); len(res.Findings) != 0 {
			t.Errorf("%s on %q fired: %+v", c.id, c.text, res.Findings)
		}
	}
}
