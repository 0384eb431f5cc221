package artifact

import (
	"testing"

	"headroom/model"
)

// fix30a (corpus 2569): router firmware's memory report as one JSON line whose numbers are
// quoted strings (Asuswrt httpd's memory_usage, as a Home Assistant integration fetches it
// from appGet.cgi) is listed as unread memory statistics, not "no evidence" and not a
// daemon's packet counters. Counter-cases: quoted strings that are no counters' values
// (versions, grouped digits, words), a config object of other keys, a sentence.
func TestFix30aQuotedJSONMemoryUnread(t *testing.T) {
	for _, line := range []string{
		`{"mem_total": "1048576", "mem_free": "102884", "mem_used": "945692", "simple_free": "293380", "simple_used": "755196"}`,
		`{"memtotal":"509740","memfree":"63412","memavailable":"210332"}`,
		`{"mem_total": 1048576, "mem_free": 102884}`,
	} {
		tl := ParseString("The variable holds:\n"+line+"\n", "t", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != jsonStatWhy {
			t.Errorf("%s: unparsed %+v, want one JSON memory statistics entry", line, tl.Unparsed)
		}
		checkAccount(t, tl)
	}
	for _, text := range []string{
		`{"firmware": "386.7", "build": "2", "model": "RT-AX58U"}` + "\n",
		`{"mem_total": "1,048,576", "mem_free": "1 GB"}` + "\n",
		`{"mem_total": "unknown", "mem_free": "n/a"}` + "\n",
		`{"port": "8080", "timeout": "30"}` + "\n",
		`The "mem_free" value reads "102884" on my router.` + "\n",
	} {
		if tl := ParseString(text, "t", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v, want prose", text, tl.Unparsed)
		}
	}
	// A daemon's packet counters keep their own reason.
	tl := ParseString(`{"ntp.server.packets_received":"1966","ntp.server.packets_dropped":"24"}`+"\n", "t", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != jsonAppCountersWhy {
		t.Errorf("ntp counters: unparsed %+v, want the program's own counters", tl.Unparsed)
	}
}

// fix30a (corpora 2610, 2579): an OOM kill stated as "hitting the OOM killer", and a shortage
// stated with the kill it brought ("running out of RAM and the reaper process kills ...").
// Counter-cases: a condition, advice, a question, a negation, a possibility, the heading.
func TestFix30aStatedOOMHitting(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"The ext.config.rpm-ostree.kernel-replace test is hitting OOM killer failures in today's runs of bump-lockfile.\n", 1},
		{"Since the upgrade we keep hitting the OOM killer on the 2 GB runners.\n", 1},
		{"It won't boot because it is running out of RAM and the reaper process kills a critical function eventually.\n", 1},
		{"The router was running out of memory and the OOM killer killed dnsmasq.\n", 1},
		// Counter-cases.
		{"If you hit the OOM killer, raise the VM's memory.\n", 0},
		{"To avoid hitting the OOM killer, set minMemory to 2048.\n", 0},
		{"Is the test hitting the OOM killer?\n", 0},
		{"The test is not hitting the OOM killer; it times out on the download.\n", 0},
		{"A 32 MB device could be running out of RAM and the reaper may kill something.\n", 0},
		{"When a box is running out of memory and the OOM killer kills a process, the kernel logs it.\n", 0},
		{"# kola: kernel-replace test hitting OOM killer\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}

// fix30a (corpus 2564): ENOSPC on a RAM-backed file system is listed as unread: dnsmasq's
// lease file write under its own tag, and any program's record of a tmpfs path. Counter-cases:
// the same errno on a disk's path, the words in a sentence, another program's "failed to
// write" under dnsmasq's name without the errno, another errno on a tmpfs path.
func TestFix30aTmpfsNoSpaceUnread(t *testing.T) {
	for _, c := range []struct{ text, why string }{
		{"Jul 20 00:12:48 dnsmasq-dhcp[1744]: failed to write /var/lib/misc/dnsmasq.leases: No space left on device (retry in 60 s)\n", dnsmasqLeaseNoSpaceWhy},
		{"Mar  3 10:01:02 host myapp[311]: cannot write /dev/shm/sem.queue: No space left on device\n", tmpfsNoSpaceWhy},
		{"2024-05-01T10:00:00Z ERROR open /run/user/1000/pulse/pid: No space left on device\n", tmpfsNoSpaceWhy},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != c.why {
			t.Errorf("%q: unparsed %+v, want %q", c.text, tl.Unparsed, c.why)
		}
		checkAccount(t, tl)
	}
	for _, text := range []string{
		"Mar  3 10:01:02 host myapp[311]: cannot write /home/app/data.db: No space left on device\n",
		"Mar  3 10:01:02 host rsyslogd[311]: write /var/log/messages: No space left on device\n",
		"If /tmp fills up you will see No space left on device in the logs.\n",
		"Jul 20 00:12:48 dnsmasq-dhcp[1744]: failed to write /var/lib/misc/dnsmasq.leases: Permission denied (retry in 60 s)\n",
		"Mar  3 10:01:02 host myapp[311]: cannot open /run/app.sock: Permission denied\n",
	} {
		if tl := ParseString(text, "t", Options{}); len(tl.Unparsed) != 0 {
			t.Errorf("%q: unparsed %+v, want nothing unread", text, tl.Unparsed)
		}
	}
}
