package artifact

import (
	"strings"
	"testing"
)

// Pre-round 8 hardening (h8a): monitoring agents' alarms and metrics, and data stores' own
// words, written from the agents' and the stores' sources (cited at unreadagent.go), not from
// a case. Each is listed as unread with what it is, never read as a kernel counter or a
// kernel event; before, each paste of such lines alone exited 3 ("nothing is evidence").

func wantUnreadOnly(t *testing.T, name, text string, want ...string) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) == 0 {
		t.Errorf("%s: nothing listed as unread, want %q", name, want)
		return
	}
	all := ""
	for _, u := range tl.Unparsed {
		all += u.Why + "\n"
	}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%s: unread reasons %q, want %q", name, all, w)
		}
	}
	// Nor as a setting: main read zabbix_get's "-k 'vm.memory.size[available]'" as a
	// sysctl vm.memory.size with an empty value.
	if len(tl.Samples) != 0 || len(tl.Events) != 0 || tl.Log.Len() != 0 || len(tl.RuntimeOOMs) != 0 || len(tl.Settings) != 0 {
		t.Errorf("%s: read as evidence: %d samples, %d events, %d log records, %d runtime kills, settings %+v", name,
			len(tl.Samples), len(tl.Events), tl.Log.Len(), len(tl.RuntimeOOMs), tl.Settings)
	}
	checkAccount(t, tl)
}

func TestH8aAgentMetricsUnread(t *testing.T) {
	cases := []struct{ name, text, want string }{
		// alarm-notify.sh.in: SMS/Slack "${host} ${status_message}, ${chart}, ${alarm}";
		// older versions' alarm is "${name//_/ } = ${value_string}", the chart names it.
		{"netdata slack", "db01 is critical, `system.ram`, *System memory utilization = 96.4%*\n", "Netdata chart system.ram"},
		// An alarm on a counter's growth that fired is read as stated since fix13a
		// (statedalarm.go, TestNetdataCounterAlarmStated); one that recovered stays unread.
		{"netdata alarm name", "db01 recovered, system.softnet_stat, 1min_netdev_backlog_exceeded = 0 packets\n", "netdev_max_backlog) per second, averaged over 1 minute"},
		{"netdata old name", "alarm 10min_netdev_backlog_exceeded cleared, value 0\n", "before 2019"},
		{"netdata tcp_memory", "db01 is critical, ipv4.sockstat_tcp_mem, tcp_memory = 93.1%\n", "tcp_mem's high"},
		{"netdata oom_kill", "WARNING: oom_kill = 2 kills\n", "summed over the last 30 minutes"},
		{"netdata resets old name", "WARNING: 1m_ipv4_tcp_resets_sent = 412 tcp resets/s\n", "Tcp OutRsts per second"},
		{"netdata ratio", "web2 needs attention, net_drops.eth0, inbound_packets_dropped_ratio = 3.4%\n", "over 10 minutes"},
		// send_syslog: "${prefix} ${status} on ${host} at ${date}: ${chart} ${value_string}",
		// logged by logger(1) under the netdata user's name.
		{"netdata syslog", "Nov 29 10:12:01 db01 netdata[1234]: sysadmin CRITICAL on db01 at Sun Nov 29 10:12:01 UTC 2026: system.ram 96.4%\n", "system.ram"},
		{"zabbix_get", "$ zabbix_get -s 127.0.0.1 -k 'vm.memory.size[available]'\n187654144\n", "Zabbix item vm.memory.size"},
		{"zabbix net.if.in", "net.if.in[eth0,dropped]  48211\n", "Zabbix item net.if.in"},
		{"zabbix swap", "system.swap.size[,pfree] 3.125\n", "Zabbix item system.swap.size"},
		{"datadog", "system.net.tcp.listen_overflows  412.0\n", "ListenOverflows per second"},
		{"datadog mem", "system.mem.usable 183.2\n", "in MiB"},
		{"metricbeat", "system.socket.summary.tcp.all.orphan: 40211\n", "orphaned TCP sockets"},
		{"metricbeat event", `{"@timestamp":"2026-11-29T10:12:01.123Z","event":{"dataset":"system.memory","module":"system","duration":115251},"metricset":{"name":"memory","period":10000},"system":{"memory":{"actual":{"free":191889408,"used":{"pct":0.9771,"bytes":8061530112}},"total":8253419520,"swap":{"free":0,"total":2147479552}}}}` + "\n", "Metricbeat system/memory event"},
		{"collectd", "PUTVAL db01/interface-eth0/if_dropped interval=10.000 1701251521.000:48211:0\n", "collectd interface plugin if_dropped"},
	}
	for _, c := range cases {
		wantUnreadOnly(t, c.name, c.text, c.want, "not read an agent's window or share as the kernel's counter")
	}
}

// Names inside other names, sentences without a value, another exporter's series and a
// syslog line of a program that is no agent are not an agent's metric.
func TestH8aAgentMetricsNotFromOthers(t *testing.T) {
	for _, text := range []string{
		"We saw the ram_in_use alarm fire all night.\n",                                 // no value: prose
		"xram_in_use_total 5 and system.ramdisk 7 on host 12\n",                         // names inside other names
		"vm.memory.size = 5\n",                                                          // no Zabbix key without "["
		"The oom_kill counter in /proc/vmstat went from 3 to 5.\n",                      // vmstat's field, no alarm
		"./check.sh tcp_memory 3 used_swap 4\n",                                         // a script's words, no alarm
		"Nov 29 10:12:01 db01 myapp[812]: accept4() failed (24: Too many open files)\n", // not an agent's tag (nginx's is read since h12b)
	} {
		tl := ParseString(text, "t", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "agent's window") || strings.Contains(u.Why, "RLIMIT_NOFILE") {
				t.Errorf("%q: listed as %q", text, u.Why)
			}
		}
	}
	// node_exporter's series stay read by their reader.
	tl := ParseString("node_memory_MemAvailable_bytes 1.2e+09\nnode_network_receive_drop_total{device=\"eth0\"} 7\n", "t", Options{})
	if len(tl.Samples) != 1 || len(tl.Unparsed) != 0 {
		t.Errorf("node_exporter: %d samples, unread %+v", len(tl.Samples), tl.Unparsed)
	}
}

func TestH8aDataStoreLinesUnread(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"scylla bad_alloc", "Nov 29 10:12:01 db01 scylla[1234]:  [shard 3] seastar - Exceptional future ignored: std::bad_alloc (std::bad_alloc), backtrace: 0x5f0c2de\n", "Seastar's per-shard pool"},
		{"scylla stall", "Nov 29 10:12:02 db01 scylla[1234]:  [shard 3] reactor - Reactor stalled for 262 ms on shard 3. Backtrace: 0x5f0c2de\n", "CPU time, not memory"},
		{"clickhouse", "2026.11.29 10:12:01.123456 [ 1234 ] {abc} <Error> executeQuery: Code: 241. DB::Exception: Memory limit (total) exceeded: would use 28.13 GiB (attempt to allocate chunk of 4219952 bytes), maximum: 28.13 GiB. (MEMORY_LIMIT_EXCEEDED)\n", "ClickHouse's own memory limit"},
		{"etcd heartbeat", `{"level":"warn","ts":"2026-11-29T10:12:01.123Z","caller":"etcdserver/raft.go:369","msg":"leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk","to":"8e9e05c52164694d"}` + "\n", "heartbeat late"},
		{"etcd fdatasync", `{"level":"warn","ts":"2026-11-29T10:12:02.123Z","caller":"wal/wal.go:802","msg":"slow fdatasync","took":"1.52s","expected-duration":"1s"}` + "\n", "the disk, not memory"},
		{"cassandra pause", "WARN  [GossipTasks:1] 2026-11-29 10:12:01,123 FailureDetector.java:288 - Not marking nodes down due to local pause of 12345678900 > 5000000000\n", "failure detector was paused"},
		{"java direct", "2026-11-29 10:12:01,123 ERROR [ReplicaFetcherThread-0-1] java.lang.OutOfMemoryError: Direct buffer memory\n", "direct-buffer limit"},
		{"java thread", "Exception in thread \"main\" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached\n", "could not start a thread"},
		{"java emfile", "2026-11-29 10:12:01,123 ERROR Error while accepting connection (kafka.network.Acceptor) java.io.IOException: Too many open files\n", "RLIMIT_NOFILE"},
		// The JDK's message is strerror's text, and the exception line holds no digit.
		{"java enobufs", "java.io.IOException: No buffer space available\n\tat sun.nio.ch.Net.connect0(Native Method)\n", "ENOBUFS"},
	}
	for _, c := range cases {
		wantUnreadOnly(t, c.name, c.text, c.want)
	}
}

// Sentences about the errors, and an errno's text not after an exception's class, stay prose.
func TestH8aDataStoreLinesNotFromProse(t *testing.T) {
	for _, text := range []string{
		"Our Scylla reactor stalls happen under compaction.\n",
		"The Memory limit was exceeded, says the dashboard.\n",
		"The exception says No buffer space available\n",
		"Is this an Exception? No buffer space available is what I get.\n",
	} {
		if tl := ParseString(text, "t", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v, want prose", text, tl.Unparsed)
		}
	}
}

// Every agent name holds the anchor the gate asks the line for: a name without '_' or '['
// must hold "mem" or "system.", or agentMetricLine could never find it.
func TestAgentAnchors(t *testing.T) {
	for _, m := range agentMetrics {
		if agentAnchor(m.name) == anchorSystem && !strings.Contains(m.name, "mem") && !strings.Contains(m.name, "system.") && !strings.Contains(m.name, "ipv4.") {
			t.Errorf("%q holds none of the anchors", m.name)
		}
	}
}
