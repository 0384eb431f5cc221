package artifact

import (
	"strings"
	"testing"
)

// Round 13's g66 (IDS/capture sensors), fix18a: systemd's unit result oom-kill, an OOM stated
// of the run this host is compared with, Suricata's ERRCODE messages, ntopng's JSON drops and
// the kernel's tpacket_rcv clamp.

func TestFix18aSystemdResultOOMKill(t *testing.T) {
	for _, text := range []string{
		// systemctl status (corpus 1612's form, systemd 249)
		"root@ubuntu22-1:~# systemctl status wazuh-manager\n× wazuh-manager.service - Wazuh manager\n     Loaded: loaded (/lib/systemd/system/wazuh-manager.service; enabled; vendor preset: enabled)\n     Active: failed (Result: oom-kill) since Mon 2024-02-26 15:09:39 UTC; 33min ago\n    Process: 122370 ExecStart=/usr/bin/env /var/ossec/bin/wazuh-control start (code=exited, status=0/SUCCESS)\n        CPU: 32min 43.530s\n",
		// the journal's line
		"May 17 11:21:17 host1 systemd[1]: jenkins.service: Failed with result 'oom-kill'.\n",
		// journalctl -o cat's lines indented four spaces as a code block (corpus 3307's
		// form under the forms test's indent-4), and by a tab
		"    meilisearch.service: Main process exited, code=killed, status=9/KILL\n    meilisearch.service: Failed with result 'oom-kill'.\n",
		"\tmeilisearch.service: A process of this unit has been killed by the OOM killer.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 1 || NothingRead(tl) {
			t.Errorf("%q: runtime OOMs %+v, want one (systemd's result oom-kill)", text, tl.RuntimeOOMs)
		}
		for _, a := range tl.Artifacts {
			if a.Kind == KindShowMem {
				t.Errorf("%q: systemctl's Active: line read as show_mem's", text)
			}
		}
		checkAccount(t, tl)
	}
	// The unit's OOM line and its result are one kill.
	tl := ParseString("Feb 26 15:09:39 h systemd[1]: wazuh-manager.service: A process of this unit has been killed by the OOM killer.\nFeb 26 15:09:39 h systemd[1]: wazuh-manager.service: Failed with result 'oom-kill'.\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Count != 1 {
		t.Errorf("unit OOM line then result: %+v, want one kill", tl.RuntimeOOMs)
	}
	// Counter-cases: another result, another state, a sentence naming the result, a
	// result quoted after a lead-in.
	for _, s := range []string{
		"     Active: failed (Result: exit-code) since Mon 2024-02-26 15:09:39 UTC; 33min ago\n",
		"May 17 11:21:17 host1 systemd[1]: jenkins.service: Failed with result 'exit-code'.\n",
		"     Active: active (running) since Mon 2024-02-26 15:09:39 UTC (Result: oom-kill)\n",
		"If the kernel kills it, systemctl status shows Active: failed (Result: oom-kill) for the unit.\n",
		"May 17 11:21:17 host1 myapp[12]: jenkins.service: Failed with result 'oom-kill'.\n",
		// indented, but a sentence before the unit, or no unit type
		"    then the unit jenkins.service: Failed with result 'oom-kill'.\n",
		"    jenkins: Failed with result 'oom-kill'.\n",
	} {
		if tl := ParseString(s, "t", Options{}); len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: runtime OOMs %+v, want none", s, tl.RuntimeOOMs)
		}
	}
}

func TestFix18aComparedRunOOM(t *testing.T) {
	other := "Despite no swap and up to 88.5% RAM utilization, no OOM kill occurred in either run.\n\n" +
		"This contrasts with the EC2 Amazon Linux 2023 results (89-92% RAM) which triggered the OOM killer. The Ubuntu runs here are at a comparable level.\n"
	if statesOOM(other) {
		t.Error("an OOM of the compared run read as this host's")
	}
	// Counter-cases: the contrast without a relative clause, the kill in the main clause,
	// the plain statement.
	for _, s := range []string{
		"Unlike yesterday, today the memory leak triggered the OOM killer on the server.\n",
		"The nightly import triggered the OOM killer, unlike the weekly one.\n",
		"The nightly import on this server triggered the OOM killer.\n",
	} {
		if !statesOOM(s) {
			t.Errorf("%q: want the OOM stated", s)
		}
	}
}

func TestFix18aSensorMessagesNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"[29826] 7/12/2021 -- 10:09:43 - (util-pool.c:168) <Error> (PoolInit) -- [ERRCODE: SC_ERR_POOL_INIT(66)] - alloc error\n", "stream.memcap"},
		{"[29826] 7/12/2021 -- 10:09:43 - (stream-tcp.c:5277) <Error> (StreamTcpThreadInit) -- [ERRCODE: SC_ERR_MEM_ALLOC(1)] - failed to setup/expand stream session pool. Expand stream.memcap?\n", "stream.memcap"},
		{"<Warning> - [ERRCODE: SC_ERR_AFP_CREATE(190)] - Inefficient setup: ring-size < max_pending_packets. Resetting to decent value 2501.\n", "ethtool -g"},
		{"<Error> - [ERRCODE: SC_ERR_INVALID_ARGUMENT(13)] - bad value\n", "engine"},
		{"In the messages I found that \" localhost kernel: tpacket_rcv: packet too big, clamped from 17487 to 16254. macoff=82\n", "tp_frame_size"},
		{"{\n  \"networkinterface\":\"eth1\",\n  \"gathering\":\"pcap\",\n  \"uptime\":684,\n  \"version_ntop\":\"2.0.150611 \",\n  \"packets\":0,\n  \"drops\":48868\n}\n", "ntopng"},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, u := range tl.Unparsed {
			found = found || strings.Contains(u.Why, c.word)
		}
		if !found {
			t.Errorf("%q: unparsed %+v: want named (%s)", c.text, tl.Unparsed, c.word)
		}
		if len(tl.Events) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%q: read as evidence of the kernel: %+v", c.text, tl.Events)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: a sentence naming the codes or the function, another program's JSON
	// drops, a kernel page allocation failure (still read).
	for _, s := range []string{
		"Suricata logs SC_ERR_POOL_INIT when the stream memcap is too small\n",
		"tpacket_rcv is the function that copies frames into the ring\n",
		"{\n  \"name\":\"eth1\",\n  \"packets\":0,\n  \"drops\":48868\n}\n",
	} {
		checkNotNamedAs(t, s, "Suricata", "tpacket_rcv", "ntopng")
	}
}
