package artifact

import (
	"reflect"
	"testing"
)

// net-tools 1.60 statistics.c (RHEL/CentOS 5-7) prints these TcpExt sentences; 2.x reworded
// them ("bytes directly received in process context from prequeue", "packet headers
// predicted", "... data payload received"). Both must map to the /proc/net/netstat name.
func TestNetstatSOldNetToolsSentences(t *testing.T) {
	text := "TcpExt:\n" +
		"    21066557124 packets directly queued to recvmsg prequeue.\n" +
		"    107804774495 packets directly received from backlog\n" +
		"    32303786161599 packets directly received from prequeue\n" +
		"    114423157390 packets header predicted\n" +
		"    31062846714 acknowledgments not containing data received\n" +
		"    7 times recovered from packet loss due to SACK data\n" +
		"    3 packetes rejected in established connections because of timestamp\n"
	ns, err := ParseNetstatS(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns.Unmapped) != 0 {
		t.Fatalf("unmapped: %v", ns.Unmapped)
	}
	c := ns.Groups[0].Counters
	for name, want := range map[string]int64{
		"TCPPrequeued": 21066557124, "TCPDirectCopyFromBacklog": 107804774495,
		"TCPDirectCopyFromPrequeue": 32303786161599, "TCPHPHits": 114423157390,
		"TCPPureAcks": 31062846714, "TCPSackRecovery": 7, "PAWSEstab": 3,
	} {
		if got, ok := c.Get(name); !ok || got != want {
			t.Errorf("%s = %d (%v), want %d", name, got, ok, want)
		}
	}
}

// A paste cut inside its last sentence keeps the number and names the counters the sentence
// can begin; one candidate sets the counter, several set none.
func TestNetstatSCutLastLine(t *testing.T) {
	for _, tc := range []struct {
		last  string
		value int64
		cands []string
		set   string
	}{
		{"    43361 TCP sockets finished time wait", 43361, []string{"TW", "TWKilled"}, ""},
		{"    530313 times recovered from packet loss due to", 530313, []string{"TCPRenoRecovery", "TCPSackRecovery"}, ""},
		{"    9 connections aborted due to memory", 9, []string{"TCPAbortOnMemory"}, "TCPAbortOnMemory"},
	} {
		ns, err := ParseNetstatS("TcpExt:\n    5 packets pruned from receive queue because of socket buffer overrun\n" + tc.last + "\n\n")
		if err != nil {
			t.Fatal(err)
		}
		if len(ns.Cut) != 1 || ns.Cut[0].Value != tc.value || !reflect.DeepEqual(ns.Cut[0].Candidates, tc.cands) {
			t.Errorf("%q: cut = %+v, want value %d candidates %v", tc.last, ns.Cut, tc.value, tc.cands)
			continue
		}
		c := ns.Groups[0].Counters
		if tc.set != "" {
			if v, _ := c.Get(tc.set); v != tc.value {
				t.Errorf("%q: %s = %d, want %d", tc.last, tc.set, v, tc.value)
			}
		} else if c.Len() != 1 {
			t.Errorf("%q: a counter was guessed: %v", tc.last, c.Names())
		}
	}
	// The same words in the middle of the output are not a cut: they stay unmapped.
	ns, err := ParseNetstatS("TcpExt:\n    43361 TCP sockets finished time wait\n    12 delayed acks sent\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(ns.Cut) != 0 || len(ns.Unmapped) != 1 {
		t.Fatalf("mid-output line: cut %v unmapped %v", ns.Cut, ns.Unmapped)
	}
}
