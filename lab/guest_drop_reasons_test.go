package lab

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"headroom/lab/vm"
	"headroom/model"
)

// judgeDropReasons on a guest's files shaped as Debian's 6.1 guest wrote them: counts
// matched against the kernel's counters, citations read from the findings' first evidence,
// the reason table's gaps, and what the tracer left behind.
func TestJudgeDropReasons(t *testing.T) {
	files := func(fullCited uint64, instances string) map[string][]byte {
		drops, _ := json.Marshal(guestDropsResult{TunSent: 3000, TunTxDropped: 2501, UDPSent: 3000, RcvbufErrors: 2993, TunQueueLen: 500})
		w := model.TraceWindow{Reasons: true, Duration: 5925 * time.Millisecond, DropsTotal: 6002,
			Drops: []model.TraceCount{{Name: "SOCKET_RCVBUFF", Count: 2993}, {Name: "FULL_RING", Count: 2501}, {Name: "NOT_SPECIFIED", Count: 508}}}
		type ev struct{ What, Value string }
		type finding struct {
			ID       string `json:"id"`
			Evidence []ev   `json:"evidence"`
		}
		doc, _ := json.Marshal(map[string]any{"trace": w, "findings": []finding{
			{"udp-rcvbuf-errors", []ev{{"packets the kernel dropped as SOCKET_RCVBUFF (the socket's receive buffer was full)", "2993 in 5.9s (505/s)"}}},
			{"nic-rx-overruns", []ev{{"packets the kernel dropped as FULL_RING (a ring was full)", strconv.FormatUint(fullCited, 10) + " in 5.9s (422/s); dropped in tun_net_xmit+0x2b1 2501"}}},
		}})
		return map[string][]byte{
			"drops.rc": []byte("0\n"), "drops.json": drops, "doctor.json": doc,
			// 6.1's print fmt names its reasons; PFMEMALLOC is not among them.
			"kfree_skb.format":       []byte(`print fmt: "skbaddr=%p protocol=%u location=%pS reason: %s", REC->skbaddr, REC->protocol, REC->location, __print_symbolic(REC->reason, { 1, "NOT_SPECIFIED" }, { 14, "SOCKET_RCVBUFF" }, { 15, "PROTO_MEM" }, { 48, "CPU_BACKLOG" }, { 58, "QDISC_DROP" }, { 6, "NETFILTER_DROP" }, { 36, "TCP_OFO_QUEUE_PRUNE" }, { 64, "FULL_RING" }, { 65, "NOMEM" })`),
			"kfree_skb.files":        []byte("enable\nfilter\nformat\nhist\nid\ntrigger\n"),
			"instances-after.txt":    []byte(instances),
			"kfree_skb.enable-after": []byte("0\n"),
		}
	}
	d, err := judgeDropReasons(&vm.Result{Files: files(2501, "")})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Cited["FULL_RING"] || !d.Cited["SOCKET_RCVBUFF"] || !d.Restored || !d.HistTriggers || !dropCountsMatch(d) {
		t.Errorf("cited %v, restored %v, hist %v, counts match %v", d.Cited, d.Restored, d.HistTriggers, dropCountsMatch(d))
	}
	if !slices.Equal(d.Absent, []string{"PFMEMALLOC"}) || d.KernelReasons != 9 {
		t.Errorf("absent %v, %d reasons; want [PFMEMALLOC], 9", d.Absent, d.KernelReasons)
	}
	// A finding citing another count, an instance left behind: each is caught.
	d, err = judgeDropReasons(&vm.Result{Files: files(2500, "headroom-118-2301\n")})
	if err != nil {
		t.Fatal(err)
	}
	if d.Cited["FULL_RING"] || d.Restored {
		t.Errorf("a wrong citation or a left instance passed: cited %v, restored %v", d.Cited, d.Restored)
	}
	// More traced than the kernel counted is no match.
	d.Counted["FULL_RING"] = 2600
	if dropCountsMatch(d) {
		t.Error("2600 traced against a tx_dropped of 2501 matched")
	}
	if _, err := judgeDropReasons(&vm.Result{Files: map[string][]byte{"drops.rc": []byte("1\n"), "drops.out": []byte("TUNSETIFF: no device")}}); err == nil {
		t.Error("a failed helper was not an error")
	}
}

// netstatValue reads a counter of /proc/net/netstat's and /proc/net/snmp's header/values
// pairs, by group and name; a counter the kernel lacks is not read as zero.
func TestNetstatValue(t *testing.T) {
	text := "TcpExt: SyncookiesSent PFMemallocDrop TCPOFOQueue\nTcpExt: 0 17 4\nIpExt: InNoRoutes\nIpExt: 3\n"
	if v, ok := netstatValue(text, "TcpExt:", "PFMemallocDrop"); !ok || v != 17 {
		t.Errorf("PFMemallocDrop %d %v; want 17", v, ok)
	}
	if _, ok := netstatValue(text, "TcpExt:", "TCPMemoryPressures"); ok {
		t.Error("an absent counter was read")
	}
	if _, ok := netstatValue(text, "Udp:", "RcvbufErrors"); ok {
		t.Error("an absent group was read")
	}
}
