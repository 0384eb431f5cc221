package tune

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"headroom/model"
)

// ethtoolG is `ethtool -g` from ethtool 6.1 on an e1000e NIC.
const ethtoolG = `Ring parameters for eth0:
Pre-set maximums:
RX:		4096
RX Mini:	n/a
RX Jumbo:	n/a
TX:		4096
Current hardware settings:
RX:		256
RX Mini:	n/a
RX Jumbo:	n/a
TX:		256
RX Buf Len:		n/a
CQE Size:		n/a
TX Push:	off
TCP data split:	n/a
`

// fakeNIC answers ethtool and tc like a device would, and records every command.
type fakeNIC struct {
	rx, tx, maxRX int
	qdisc         string // as tc shows it, refcnt included
	cmds          []string
	failSet       bool
}

func (n *fakeNIC) Run(_ context.Context, argv ...string) (string, error) {
	cmd := strings.Join(argv, " ")
	n.cmds = append(n.cmds, cmd)
	switch {
	case cmd == "ethtool -g eth0":
		return fmt.Sprintf("Ring parameters for eth0:\nPre-set maximums:\nRX:\t\t%d\nTX:\t\t4096\nCurrent hardware settings:\nRX:\t\t%d\nTX:\t\t%d\n", n.maxRX, n.rx, n.tx), nil
	case strings.HasPrefix(cmd, "ethtool -G eth0 rx "):
		if n.failSet {
			return "", errors.New("ethtool -G: Invalid argument")
		}
		fmt.Sscan(argv[4], &n.rx)
		return "", nil
	case cmd == "tc qdisc show dev eth0 root":
		return n.qdisc + "\n", nil
	case strings.HasPrefix(cmd, "tc qdisc replace dev eth0 root tbf "):
		n.qdisc = "qdisc tbf 8001: root refcnt 2 rate 100Mbit burst 32Kb lat 50ms "
		return "", nil
	case cmd == "tc qdisc del dev eth0 root":
		n.qdisc = "qdisc noqueue 0: root refcnt 2 "
		return "", nil
	}
	return "", fmt.Errorf("fakeNIC: unexpected %q", cmd)
}

func TestParseEthtoolRings(t *testing.T) {
	r, err := ParseEthtoolRings(ethtoolG)
	if err != nil {
		t.Fatal(err)
	}
	if r.Max["rx"] != 4096 || r.Current["rx"] != 256 || r.Current["tx"] != 256 {
		t.Errorf("%+v", r)
	}
	if _, ok := r.Current["rx-mini"]; ok {
		t.Error("n/a parsed as a value")
	}
	if _, err := ParseEthtoolRings("netlink error: Operation not supported"); err == nil {
		t.Error("accepted an error message")
	}
}

func TestNICChangesNeedNICFlag(t *testing.T) {
	nic := &fakeNIC{rx: 256, tx: 256, maxRX: 4096, qdisc: "qdisc noqueue 0: root refcnt 2"}
	a := &Applier{Runner: nic, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits}
	e, items, err := a.Apply(context.Background(), []model.Change{{Kind: model.ChangeEthtool, Key: "eth0 rx", Recommended: "4096", Why: "rx_missed_errors"}})
	if err != nil || e != nil || items[0].Action != ActionNeedsNIC || items[0].Current != "256" {
		t.Fatalf("entry %v items %+v err %v", e, items, err)
	}
	for _, c := range nic.cmds {
		if strings.Contains(c, " -G ") {
			t.Errorf("ran %q without --nic", c)
		}
	}
}

func TestNICApplyAndRollback(t *testing.T) {
	nic := &fakeNIC{rx: 256, tx: 256, maxRX: 4096, qdisc: "qdisc noqueue 0: root refcnt 2 "}
	j := openTestJournal(t, t.TempDir())
	var logs logBuffer
	a := &Applier{Runner: nic, NIC: true, Journal: j, Limits: testLimits, Log: testLogger(&logs)}
	changes := []model.Change{
		{Kind: model.ChangeEthtool, Key: "eth0 rx", Recommended: "4096", Why: "rx_missed_errors rising"},
		{Kind: model.ChangeTC, Key: "eth0 root tbf", Recommended: "rate 100mbit burst 32kb latency 50ms", Why: "pace below the bottleneck"},
	}
	e, _, err := a.Apply(context.Background(), changes)
	if err != nil {
		t.Fatal(err)
	}
	if nic.rx != 4096 || !strings.Contains(nic.qdisc, "tbf 8001:") {
		t.Fatalf("rx %d qdisc %q", nic.rx, nic.qdisc)
	}
	if e.Changes[1].Old != "qdisc noqueue 0: root" {
		t.Errorf("old qdisc %q", e.Changes[1].Old)
	}
	if !strings.Contains(logs.String(), "eth0 rx: 256 → 4096") {
		t.Errorf("log:\n%s", logs.String())
	}
	rb := &Rollbacker{Journal: j, Runner: func(string) Runner { return nic }}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if nic.rx != 256 || !strings.Contains(nic.qdisc, "noqueue 0:") {
		t.Errorf("after rollback rx %d qdisc %q", nic.rx, nic.qdisc)
	}
}

func TestNICBounds(t *testing.T) {
	nic := &fakeNIC{rx: 256, tx: 256, maxRX: 1024, qdisc: "qdisc htb 1: root refcnt 2 r2q 10 default 0x1"}
	a := &Applier{Runner: nic, NIC: true, Journal: openTestJournal(t, t.TempDir()), Limits: testLimits, AllOrNothing: true}
	_, _, err := a.Apply(context.Background(), []model.Change{
		{Kind: model.ChangeEthtool, Key: "eth0 rx", Recommended: "4096", Why: "w"},
		{Kind: model.ChangeTC, Key: "eth0 root tbf", Recommended: "rate 100mbit burst 32kb latency 50ms", Why: "w"},
	})
	for _, want := range []string{"above the driver's pre-set maximum 1024", `the root qdisc is "qdisc htb 1: root r2q 10 default 0x1", not the kernel's default`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}
