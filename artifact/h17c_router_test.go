package artifact

import (
	"strings"
	"testing"
)

// Pre-round 17 (h17c): firewall and router distributions' own output, from their op-mode
// sources (vyatta-op scripts/vyos-show-ram.sh; zeekctl's controllee.zeek net_stats_request);
// snippets written here, none copied from a case. The interface counters' forms reach their
// rules in diagnose/h17c_router_test.go.

// vyos-show-ram.sh (VyOS 1.1-1.3, the Vyatta-derived EdgeOS): bare MiB under "show system
// memory" are read, Total as MemTotal, Free kept as printed (MemFree + Buffers + Cached).
func TestH17cVyattaShowRAM(t *testing.T) {
	for _, text := range []string{
		"ubnt@EdgeRouter:~$ show system memory\nTotal: 493\nFree:  11\nUsed:  482\n",
		"vyos@vyos:~$ show system memory\nTotal: 493\nFree:  11\nUsed:  482\n",
		"> vyos@vyos:~$ show system memory\n> Total: 493\n> Free:  11\n> Used:  482\n",
	} {
		tl := ParseString(text, "t", Options{})
		if !artifactHas(t, tl, KindFree, `"Mem":[504832,-1,-1]`) || !artifactHas(t, tl, KindFree, `"-/+ buffers/cache":[-1,493568,11264]`) || len(tl.Unparsed) != 0 {
			t.Errorf("%q: artifacts %+v unparsed %+v: want MemTotal 493 MiB read", text, tl.Artifacts, tl.Unparsed)
		}
		checkAccount(t, tl)
		for _, s := range tl.Samples {
			if s.MemInfo == nil {
				continue
			}
			if v, ok := s.MemInfo.Get("MemTotal"); !ok || v != 504832 {
				t.Errorf("%q: MemTotal %d %v, want 504832 kB", text, v, ok)
			}
			if _, ok := s.MemInfo.Get("MemAvailable"); ok {
				t.Errorf("%q: Free (MemFree+Buffers+Cached) read as MemAvailable", text)
			}
		}
	}
	// Counters: the same shape without the command, after another command, mixed units,
	// parts above the total.
	for _, s := range []string{
		"Summary of the run:\nTotal: 493\nFree:  11\nUsed:  482\n",
		"$ show system storage memory-like\nTotal: 493\nFree:  11\nUsed:  482\n",
		"vyos@vyos:~$ show system memory\nTotal: 1.94 GB\nFree:  81\nUsed:  1.86 GB\n",
		"vyos@vyos:~$ show system memory\nTotal: 493\nFree:  600\nUsed:  482\n",
	} {
		tl := ParseString(s, "t", Options{})
		for _, a := range tl.Artifacts {
			if a.Kind == KindFree {
				t.Errorf("%q read as the memory script's", s)
			}
		}
	}
}

// zeekctl netstats: each node's "recvd= dropped= link=" named as the sensor's own capture
// counters (no rule reads a sensor's ring); conntrack -S's "drop=" stays conntrack's.
func TestH17cZeekNetstatsNamed(t *testing.T) {
	for _, text := range []string{
		"worker-1: 1764324000.123456 recvd=123456789 dropped=2345678 link=125802467\n",
		"[zeek@sensor ~]$ zeekctl netstats\n  worker-1-1: 1764324000.123456 recvd=123456789 dropped=2345678 link=125802467\n  worker-1-2: 1764324000.123457 recvd=123456700 dropped=0 link=123456700\n",
	} {
		tl := ParseString(text, "t", Options{})
		found := false
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "zeekctl netstats") && strings.Contains(u.Why, "not the NIC's") {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: unparsed %+v: want named as zeekctl's capture counters", text, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	tl := ParseString("cpu=0   \tfound=0 invalid=3 insert=0 insert_failed=5 drop=5 early_drop=0 error=0 search_restart=1\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "zeekctl") {
			t.Errorf("conntrack -S named as zeekctl's: %+v", u)
		}
	}
	if !artifactHas(t, tl, KindConntrackS, `"insert_failed":5`) {
		t.Errorf("conntrack -S no longer read: %+v", tl.Artifacts)
	}
}

// OpenWrt's `ubus call system info` (procd system.c system_info): memory and swap in bytes,
// read as MemTotal, MemFree, Buffers, Cached, MemAvailable (kB); available 0 (kernels
// before 3.14) is no MemAvailable; root and tmp (filesystems) are not memory.
func TestH17cUbusSystemInfo(t *testing.T) {
	pretty := `root@OpenWrt:~# ubus call system info
{
	"localtime": 1764324000,
	"uptime": 812345,
	"load": [
		65536,
		43210,
		32100
	],
	"memory": {
		"total": 129114112,
		"free": 5939200,
		"shared": 1200128,
		"buffered": 2134016,
		"available": 9121792,
		"cached": 11276288
	},
	"root": {
		"total": 4096,
		"free": 2048,
		"used": 2048,
		"avail": 2048
	},
	"swap": {
		"total": 0,
		"free": 0
	}
}
`
	compact := `{"localtime":1764324000,"uptime":812345,"load":[65536,43210,32100],"memory":{"total":129114112,"free":5939200,"shared":1200128,"buffered":2134016,"available":0,"cached":11276288},"swap":{"total":0,"free":0}}` + "\n"
	for _, c := range []struct {
		text  string
		avail int64 // -1: none
	}{{pretty, 8908}, {compact, -1}} {
		tl := ParseString(c.text, "t", Options{})
		got := false
		for _, s := range tl.Samples {
			if s.MemInfo == nil {
				continue
			}
			got = true
			for k, want := range map[string]int64{"MemTotal": 126088, "MemFree": 5800, "Buffers": 2084, "Cached": 11012} {
				if v, ok := s.MemInfo.Get(k); !ok || v != want {
					t.Errorf("%s = %d %v, want %d", k, v, ok, want)
				}
			}
			v, ok := s.MemInfo.Get("MemAvailable")
			if c.avail < 0 && ok || c.avail >= 0 && (!ok || v != c.avail) {
				t.Errorf("MemAvailable %d %v, want %d", v, ok, c.avail)
			}
		}
		if !got || len(tl.Unparsed) != 0 {
			t.Errorf("%q: samples %+v unparsed %+v: want the memory read", c.text[:40], tl.Samples, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	// Counter: another program's JSON with a "memory" member but not procd's keys.
	tl := ParseString(`{"localtime": 1, "memory": {"total": 1000, "used": 10}}`+"\n", "t", Options{})
	for _, a := range tl.Artifacts {
		if a.Kind == KindFree {
			t.Errorf("another JSON read as ubus system info: %+v", a)
		}
	}
}

// Suricata's eve.json stats record (Security Onion, SELKS, IPFire's IPS, a pfSense/OPNsense
// sensor's Linux twin) names its capture.kernel_drops as the sensor's own, short or longer
// than the errno lines' bound; Untangle's JVM line under its "uvm" tag is named as the JVM's
// heap, not exit 3. Counter-cases: an eve alert record, another tag's JVM sentence.
func TestH17cEveStatsAndUntangleNamed(t *testing.T) {
	short := `{"timestamp":"2026-11-28T10:00:00.000000+0000","event_type":"stats","stats":{"uptime":3600,"capture":{"kernel_packets":123456789,"kernel_drops":2345678,"errors":0}}}` + "\n"
	long := strings.Replace(short, `"errors":0}`, `"errors":0},"decoder":{"pkts":1,"bytes":2,"invalid":3,"ipv4":4,"ipv6":5,"ethernet":6,"raw":7,"null":8,"sll":9,"tcp":10,"udp":11,"sctp":12,"icmpv4":13,"icmpv6":14,"ppp":15,"pppoe":16,"gre":17,"vlan":18,"vlan_qinq":19,"vxlan":20,"mpls":21,"avg_pkt_size":22,"max_pkt_size":23,"erspan":24,"teredo":25,"ipv4_in_ipv6":26,"ipv6_in_ipv6":27,"vntag":28,"ieee8021ah":29,"event_ipv4_pkt_too_small":30}`, 1)
	if len(long) <= maxErrnoLineBytes {
		t.Fatalf("the long record is %d bytes, not above %d", len(long), maxErrnoLineBytes)
	}
	for _, c := range []struct{ text, word string }{
		{short, "eve.json stats record"},
		{long, "eve.json stats record"},
		{"Nov 28 10:00:00 untangle uvm[3456]: Exception in thread \"pool-3-thread-1\" java.lang.OutOfMemoryError: Java heap space\n", "-Xmx"},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, c.word) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: unparsed %+v: want named (%s)", c.text[:60], tl.Unparsed, c.word)
		}
		checkAccount(t, tl)
	}
	for _, s := range []string{
		`{"timestamp":"2026-11-28T10:00:00.000000+0000","event_type":"alert","alert":{"signature":"ET POLICY kernel_drops test"}}`,
		"Nov 28 10:00:00 untangle uvm[3456]: session 1234 finished",
	} {
		if why, ok := sensorOwnLine(s); ok {
			t.Errorf("%q named as a sensor's: %s", s, why)
		}
	}
}
