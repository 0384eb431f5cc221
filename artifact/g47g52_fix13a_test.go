package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// Round 8, fixed by class (fix13a). Snippets written for each class from its program's
// source (netdata health.d/tcp_listen.conf and softnet.conf, alarm-notify.sh; cmetrics'
// cmt_encode_text.c as Fluent Bit's stdout output prints it), not copied from a case.

// statedKey is the value of key in a sample of tl, present or not (a window of 0 is "not
// said", not absent).
func statedKey(tl *model.Timeline, key string) (float64, bool) {
	for i := range tl.Samples {
		if v, ok := tl.Samples[i].Rates.Get(key); ok {
			return v, true
		}
	}
	return 0, false
}

func TestNetdataCounterAlarmStated(t *testing.T) {
	cases := []struct {
		name, text       string
		windowKey, key   string
		window, perSec   float64
		wantRate, listed bool
	}{
		{name: "mail with value", text: "ipv4.tcplistenissues\n--\n1m ipv4 tcp listen drops = 1.5 drops\n",
			windowKey: model.RateStatedListenAlarmSec, key: model.RateStatedListenDropsPerSec, window: 60, perSec: 1.5, wantRate: true},
		{name: "notification line", text: "db01 needs attention, system.softnet_stat, 1min_netdev_backlog_exceeded = 15.2 packets\n",
			windowKey: model.RateStatedSoftnetDropAlarmSec, key: model.RateStatedSoftnetDroppedPerSec, window: 60, perSec: 15.2, wantRate: true},
		{name: "old name raised", text: "alarm 10min_netdev_backlog_exceeded raised, value 12\n",
			windowKey: model.RateStatedSoftnetDropAlarmSec, window: 600},
		{name: "prose fires", text: "The alarm `1hour_netdev_backlog_exceeded` fires on the edge boxes every day.\n",
			windowKey: model.RateStatedSoftnetDropAlarmSec, window: 3600},
	}
	for _, c := range cases {
		tl := ParseString(c.text, "t", Options{})
		w, ok := statedKey(tl, c.windowKey)
		if !ok || w != c.window {
			t.Errorf("%s: window %v %v, want %v; samples %+v, unread %+v", c.name, w, ok, c.window, tl.Samples, tl.Unparsed)
			continue
		}
		if c.wantRate {
			if v, _ := statedKey(tl, c.key); v != c.perSec {
				t.Errorf("%s: rate %v, want %v", c.name, v, c.perSec)
			}
		}
		last := strings.Count(c.text, "\n")
		for _, u := range tl.Unparsed {
			if u.FirstLine <= last && last <= u.LastLine {
				t.Errorf("%s: the alarm line is read, yet listed unread: %+v", c.name, u)
			}
		}
		checkAccount(t, tl)
	}
}

// An alarm that cleared, at 0, named as a threshold or a configuration is no growth; an
// agent's line among them stays unread (unreadagent.go).
func TestNetdataCounterAlarmNotStated(t *testing.T) {
	for _, c := range []struct{ text, unread string }{
		{"db01 recovered, system.softnet_stat, 1min_netdev_backlog_exceeded = 0 packets\n", "netdev_max_backlog"},
		{"alarm 10min_netdev_backlog_exceeded cleared, value 3\n", "before 2019"},
		{"1m_ipv4_tcp_listen_drops is now warning for up to 60 packets\n", ""},
		{"   alarm: 1m_tcp_accept_queue_drops\n      on: ip.tcp_accept_queue\n    warn: $this > 1\n", ""},
		{"the ipv4.tcplistenissues chart shows no alarms here\n", ""},
	} {
		tl := ParseString(c.text, "t", Options{})
		for _, k := range []string{model.RateStatedListenAlarmSec, model.RateStatedSoftnetDropAlarmSec} {
			if v, ok := statedKey(tl, k); ok {
				t.Errorf("%q: stated %s = %v", c.text, k, v)
			}
		}
		if c.unread != "" {
			wantUnreadOnly(t, c.text, c.text, c.unread)
		}
	}
}

// Netdata's tcp resets chart is named as unread, so a paste of its alarm runs (exit 0) and
// says what it is; it is not a counter of this domain's rules.
func TestNetdataHandshakeChartUnread(t *testing.T) {
	wantUnreadOnly(t, "tcphandshake", "Netdata raises ipv4.tcphandshake alerts after every update\n", "Netdata chart ipv4.tcphandshake")
}

// Fluent Bit's stdout output of node_exporter_metrics (cmetrics' text encoder): "STAMP
// name{labels} = value". Read by the node_exporter reader; a sample stamped at the epoch was
// never collected and is not read as 0.
func TestCMetricsTextNodeExporter(t *testing.T) {
	text := "2024-05-02T10:00:01.123456789Z node_memory_MemTotal_bytes = 8589934592\n" +
		"2024-05-02T10:00:01.123456789Z node_memory_MemAvailable_bytes = 4294967296\n" +
		"1970-01-01T00:00:00.000000000Z node_vmstat_pswpout = 0\n" +
		"2024-05-02T10:00:01.123456789Z node_netstat_TcpExt_ListenOverflows = 7\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Samples) != 1 {
		t.Fatalf("samples %+v, unread %+v", tl.Samples, tl.Unparsed)
	}
	s := tl.Samples[0]
	if s.MemInfo == nil {
		t.Fatalf("no meminfo read: %+v", s)
	}
	if v, ok := s.MemInfo.Get("MemAvailable"); !ok || v != 4194304 {
		t.Errorf("MemAvailable %v %v, want 4194304 kB", v, ok)
	}
	if s.VMStat != nil {
		if _, ok := s.VMStat.Get("pswpout"); ok {
			t.Errorf("the epoch-stamped pswpout was read")
		}
	}
	if v, ok := s.NetStat.Get("TcpExt", "ListenOverflows"); !ok || v != 7 {
		t.Errorf("ListenOverflows %v %v", v, ok)
	}
	checkAccount(t, tl)
	// Counter-cases: an RFC 3339 syslog line stays a syslog line; a stamp and "k = v" of no
	// exporter is not read as one.
	tl = ParseString("2024-05-02T10:00:01.123456789Z web1 kernel: TCP: out of memory -- consider tuning tcp_mem\n", "t", Options{})
	if tl.Log.Len() != 1 {
		t.Errorf("syslog line: %d log records", tl.Log.Len())
	}
	tl = ParseString("2024-05-02T10:00:01.123456789Z retries = 3\n", "t", Options{})
	if len(tl.Samples) != 0 {
		t.Errorf("a stamped k = v read as a sample: %+v", tl.Samples)
	}
}
