package diagnose

import (
	"strings"
	"testing"
)

// Round 8, fixed by class (fix13a): a monitoring agent's alarm on a kernel counter's growth
// that fired is read as a stated rate of that counter (artifact/statedalarm.go); listen-overflow
// and softnet-backlog-drops judge it when no counter is read, below critical. Snippets written
// for the class from netdata's health.d and alarm-notify.sh forms, not copied from a case.

func TestStatedAlarmListenDrops(t *testing.T) {
	cases := []struct{ name, text, want string }{
		// alarm-notify.sh's e-mail: "${summary} = ${value_string}" (the id with spaces).
		{"mail value", "web7 needs attention\n\nipv4.tcplistenissues\n1m ipv4 tcp listen drops = 2.4 drops\n", "2.4/s"},
		{"current id fired", "Since Monday the 1m_tcp_accept_queue_overflows alarm fires on our ingress hosts every evening.\n", "the alarm fired"},
		{"chart in a title", "# Our proxies raise netdata alerts on ip.tcp_accept_queue\n\nWhat should I tune first?\n", "the alarm fired"},
	}
	for _, c := range cases {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "listen-overflow")
		if f == nil {
			t.Errorf("%s: no listen-overflow finding; findings %+v", c.name, d.Findings)
			continue
		}
		if f.Severity >= Critical {
			t.Errorf("%s: %v, want below critical (stated)", c.name, f.Severity)
		}
		if ev := f.Evidence[0].Value; !strings.Contains(ev, c.want) {
			t.Errorf("%s: evidence %q, want %q", c.name, ev, c.want)
		}
	}
}

func TestStatedAlarmSoftnetDrops(t *testing.T) {
	text := "We keep getting `1hour_netdev_backlog_exceeded` on two of the routers; it fired again last night.\n"
	d, _ := rootOf(t, text)
	f := findingOf(d, "softnet-backlog-drops")
	if f == nil {
		t.Fatalf("no softnet-backlog-drops finding; findings %+v", d.Findings)
	}
	if f.Severity >= Critical || !strings.Contains(f.Evidence[0].Value, "window 1 h") {
		t.Errorf("got %v %q, want below critical with the alarm's window", f.Severity, f.Evidence[0].Value)
	}
	// The hour's sum quoted: 7200 packets over an hour is 2/s.
	d, _ = rootOf(t, "gw2 is critical, system.softnet_stat, 1hour_netdev_backlog_exceeded = 7200 packets\n")
	if f := findingOf(d, "softnet-backlog-drops"); f == nil || !strings.Contains(f.Evidence[0].Value, "2/s (7200 over") {
		t.Errorf("hour sum: %+v", f)
	}
}

// Counter-cases: an alarm at 0, one that cleared, a threshold in a changelog, a health
// configuration, a possibility, and a reset alarm (no rule of this domain) raise nothing.
func TestStatedAlarmNotFired(t *testing.T) {
	for _, text := range []string{
		"web7 recovered\n\nipv4.tcplistenissues\n1m ipv4 tcp listen drops = 0 drops\n",
		"db01 was critical, system.softnet_stat, 1min_netdev_backlog_exceeded = 3 packets, now CLEAR\n",
		"1. `1m_ipv4_tcp_listen_drops` is now warning for up to 60 packets\n",
		"   alarm: 1m_tcp_accept_queue_drops\n      on: ip.tcp_accept_queue\n    warn: $this > 1\n",
		"If the 1m_tcp_accept_queue_drops alarm fires, raise somaxconn.\n",
		"The netdata update triggers ipv4.tcphandshake alerts: 1m ipv4 tcp resets received = 66 tcp resets/s\n",
	} {
		d, _ := rootOf(t, text)
		for _, id := range []string{"listen-overflow", "softnet-backlog-drops"} {
			if f := findingOf(d, id); f != nil {
				t.Errorf("%q: %s fired: %+v", text, id, f)
			}
		}
	}
}
