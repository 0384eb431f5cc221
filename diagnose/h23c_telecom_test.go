package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// h23c: telecom and mobile-core software's own lines (artifact/unreadtelecom.go), built
// from the programs' format strings: each is named as the program's own (its radio counts,
// pool or queue), keeps its figures, and raises no kernel finding; the kernel's counters
// pasted beside them reach their rules.

// kernelMemNet are the findings a program's own pool or radio count must not raise.
var h23cKernelIDs = []string{"oom-kill", "alloc-fail-reserve", "alloc-fail-fragmented", "alloc-fail-lowmem",
	"alloc-fail-skb-drops", "slab-alloc-failure", "udp-rcvbuf-errors", "overcommit-exposed", "nic-rx-overruns",
	"softnet-backlog-drops", "tcp-memory-pressure", "rx-dropped-software"}

func h23cNamed(tl *model.Timeline, want string) bool {
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, want) {
			return true
		}
	}
	return false
}

// namedNoKernelFinding: form is named with want among its unread lines, and no finding of
// h23cKernelIDs fires on it (a program's own line, h23c's and h27b's).
func namedNoKernelFinding(t *testing.T, form, want string) {
	t.Helper()
	tl := parseText19b(t, form)
	if !h23cNamed(tl, want) {
		t.Errorf("%q: not named %q; unparsed %+v", form, want, tl.Unparsed)
	}
	d := Run(tl, nil)
	for _, id := range h23cKernelIDs {
		if findingOf(d, id) != nil {
			t.Errorf("%q: %s fired", form, id)
		}
	}
}

func TestH23cTelecomOwnLines(t *testing.T) {
	cases := []struct{ text, want string }{
		{"Late: 3; Underflow: 40; Overflow: 1;\n", "srsRAN Project"},
		{"RF status: O=5, U=37, L=2\n", "srsRAN 4G"},
		{"2026-11-30T13:01:02.123456 [RF     ] [I] Overflow\n", "srsRAN 4G's radio log"},
		{"2026-11-30T13:01:02.124000 [RF     ] [I] Late (detected in asynchronous thread)\n", "srsRAN 4G's radio log"},
		{"2026-11-30T13:01:02.123456 [RF     ] [I] [ 5432] Underflow\n", "srsRAN 4G's radio log"},
		{"2021-03-04T10:11:12.123456789Z [ERRO][UPF][Util] bufPool128 is empty\n", "free5GC's UPF buffer pool"},
		{"2026-11-30T13:01:03.000001 [RF     ] [E] Fatal radio error occured.\n", "SRSRAN_RF_ERROR_RX"},
		{"2026-11-30T13:01:02.123456 [RF      ] [W] Real-time failure in RF: overflow\n", "ru_radio_event_handler"},
		{"2026-11-30T13:01:02.123456 [PHY     ] [W] Real-time failure in lower PHY: Downlink data late for sector 0 and slot 120.3.\n", "lower PHY"},
		{"[HW]   [recv] received 7680 samples out of 30720\n", "OpenAirInterface's USRP driver"},
		{"[HW]   ERROR_CODE_OVERFLOW (Overflow)\n", "ERROR_CODE_OVERFLOW"},
		{"[PHY]   rx_rf: Asked for 30720 samples, got 7680 from USRP\n", "OpenAirInterface's RU"},
		{"11/30 13:02:11.123: [core] ERROR: ogs_pkbuf_alloc() failed [size=8192] (../lib/core/ogs-pkbuf.c:255)\n", "Open5GS's packet buffer pool"},
		{"Nov 30 13:02:11 core1 open5gs-upfd[1234]: 11/30 13:02:11.123: [core] ERROR: ogs_pool_alloc() failed (../lib/core/ogs-pkbuf.c:418)\n", "Open5GS's object pool"},
		{"upf_1  | 11/30 13:02:11.123: [core] FATAL: No OGS_CLUSTER_2048_SIZE (../lib/core/ogs-pkbuf.c:323)\n", "OGS_CLUSTER"},
		{"2021-03-04T10:11:12Z [ERRO][UPF][Util] bufPool64 is empty\n", "free5GC's UPF buffer pool"},
		{"Nov 30 13:02:11 sip1 /usr/sbin/kamailio[2345]: ERROR: tm [t_funcs.c:312]: new_t(): no more shm memory\n", "Kamailio's shared memory pool"},
		{"> ERROR: <core> [core/parser/msg_parser.c:617]: parse_headers(): no more pkg memory\n", "Kamailio's per-process private memory pool"},
		{"ERROR: <core> [core/mem/q_malloc.c:488]: qm_malloc(): qm_malloc(0x7f3a1c000000, 4096); Free fragment not found!\n", "Free fragment not found"},
		{"[2026-11-30 13:02:12] WARNING[12346]: taskprocessor.c:1356 taskprocessor_push: Taskprocessor 'stasis/m:cache_pattern:1/endpoint:endpoint' queue reached 500 scheduled tasks (high water mark: 500).\n", "Asterisk's taskprocessor"},
		{"[2026-11-30 13:02:11] WARNING[12345][C-00000001]: res_agi.c:2392 launch_script: Failed to fork(): Cannot allocate memory\n", "Asterisk could not fork"},
		{"2026-11-30 13:02:11.123456 [CRIT] switch_core_session.c:1181 Memory Error!\n", "FreeSWITCH could not allocate"},
		{"terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n", "operator new threw std::bad_alloc"},
	}
	for _, c := range cases {
		for _, form := range []string{c.text, "```\n" + c.text + "```\n"} {
			namedNoKernelFinding(t, form, c.want)
		}
	}
}

// The figures each count or request states are kept with their names.
func TestH23cTelecomFigures(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Late: 3; Underflow: 40; Overflow: 1;\n", "late:3 message:Late: 3; Underflow: 40; Overflow: 1; overflow:1 program:srsran underflow:40"},
		{"RF status: O=5, U=37, L=2\n", "late:2"},
		{"[HW]   [recv] received 7680 samples out of 30720\n", "samples_received:7680 samples_requested:30720"},
		{"11/30 13:02:11.123: [core] ERROR: ogs_pkbuf_alloc() failed [size=8192] (../lib/core/ogs-pkbuf.c:255)\n", "request_bytes:8192"},
		{"[2026-11-30 13:02:12] WARNING[12346]: taskprocessor.c:1356 taskprocessor_push: Taskprocessor 'x' queue reached 512 scheduled tasks (high water mark: 500).\n", "high_water_mark:500"},
	} {
		tl := parseText19b(t, c.text)
		found := false
		for _, a := range tl.Artifacts {
			if a.Kind == artifact.KindProgramLimit && strings.Contains(fmt.Sprint(a.Data), c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no figures %q in %+v", c.text, c.want, tl.Artifacts)
		}
	}
}

// The kernel's own counters pasted beside the program's lines reach their rules.
func TestH23cKernelCountersBeside(t *testing.T) {
	const udp = "11/30 13:02:11.123: [core] ERROR: ogs_pkbuf_alloc() failed [size=8192] (../lib/core/ogs-pkbuf.c:255)\n" +
		"Late: 3; Underflow: 40; Overflow: 1;\n" +
		"$ netstat -su\nUdp:\n    88123456 packets received\n    12 packets to unknown port received\n    40512 packet receive errors\n    90123456 packets sent\n    40512 receive buffer errors\n    0 send buffer errors\n"
	d, _ := rootOf(t, udp)
	f := findingOf(d, "udp-rcvbuf-errors")
	if f == nil {
		t.Fatalf("netstat -su beside Open5GS and srsRAN lines: no udp-rcvbuf-errors")
	}
	var all []string
	for _, e := range f.Evidence {
		all = append(all, e.What+" "+e.Value)
	}
	if s := strings.Join(all, "; "); !strings.Contains(s, "40512") {
		t.Errorf("udp-rcvbuf-errors evidence %q lacks 40512", s)
	}
	const commit = "[2026-11-30 13:02:11] WARNING[12345]: res_agi.c:2392 launch_script: Failed to fork(): Cannot allocate memory\n" +
		"$ cat /proc/meminfo\nMemTotal:        8000000 kB\nMemFree:          200000 kB\nMemAvailable:     400000 kB\nSwapTotal:        1000000 kB\nSwapFree:          10000 kB\nCommitLimit:      5000000 kB\nCommitted_AS:    12000000 kB\n" +
		"$ sysctl vm.overcommit_memory\nvm.overcommit_memory = 0\n"
	d, _ = rootOf(t, commit)
	if findingOf(d, "overcommit-exposed") == nil {
		t.Errorf("Asterisk's fork ENOMEM beside meminfo over RAM+swap: no overcommit-exposed")
	}
	if findingOf(d, "oom-kill") != nil {
		t.Errorf("Asterisk's fork ENOMEM: oom-kill fired")
	}
}

// Counter-cases: the words in a sentence or advice, another program's line, a healthy
// status line of the same form, an example quoted after a lead-in.
func TestH23cTelecomCounterCases(t *testing.T) {
	for _, text := range []string{
		"I keep seeing overflow and underflow messages from the radio, is the late count bad?\n",
		"Raise the pool sizes in open5gs if you see allocation failures.\n",
		"The UDP receive buffer is 212992 bytes; Late: fine.\n",
		"Nov 30 13:02:11 host myapp[12]: buffer queue reached its limit\n",
		"2026-11-30T13:01:02.123456 [RF     ] [I] Overflowing the stats\n",
		"2026-11-30T13:01:02.123456 [MAC    ] [I] Overflow\n",
		"2026-11-30T13:01:02.123456 [RF     ] [I] [slot] Overflow\n",
	} {
		tl := parseText19b(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "srsRAN") || strings.Contains(u.Why, "Open5GS") || strings.Contains(u.Why, "Asterisk") {
				t.Errorf("%q: named as a telecom line: %q", text, u.Why)
			}
		}
	}
	// A healthy radio status (every count zero) is still the program's own count, named,
	// with no finding.
	tl := parseText19b(t, "RF status: O=0, U=0, L=0\n")
	d := Run(tl, nil)
	if len(d.Findings) != 0 {
		t.Errorf("RF status all zero: findings %+v", d.Findings)
	}
}

// The kernel's SCTP counters (/proc/net/sctp/snmp, nstat) are named, no rule; nstat's Udp
// rows beside them still reach udp-rcvbuf-errors.
func TestH23cSCTPCounters(t *testing.T) {
	const snmp = "SctpCurrEstab                   \t2\nSctpInPktBacklog                \t0\nSctpInPktDiscards               \t1532\nSctpInDataChunkDiscards         \t87\n"
	for _, text := range []string{snmp, "$ cat /proc/net/sctp/snmp\n" + snmp, "```\n" + snmp + "```\n"} {
		tl := parseText19b(t, text)
		if !h23cNamed(tl, "SCTP counters") {
			t.Errorf("%q: not named; %+v", text, tl.Unparsed)
		}
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v", text, d.Findings)
		}
	}
	const mix = "$ nstat -az\n#kernel\nUdpInDatagrams                  88123456           0.0\nUdpInErrors                     40512              0.0\nUdpRcvbufErrors                 40512              0.0\nUdpSndbufErrors                 0                  0.0\nSctpInPktDiscards               1532               0.0\n"
	d, _ := rootOf(t, mix)
	if findingOf(d, "udp-rcvbuf-errors") == nil {
		t.Errorf("nstat with Sctp rows: no udp-rcvbuf-errors")
	}
	// Counter-cases: a sentence naming the counter, a sysctl key.
	for _, text := range []string{"SctpInPktDiscards keeps growing on the AMF, why?\n", "net.sctp.sctp_mem = 94401 125868 188802\n"} {
		if h23cNamed(parseText19b(t, text), "SCTP counters") {
			t.Errorf("%q: named as SCTP counters", text)
		}
	}
}
