package artifact

import (
	"strings"
	"testing"
)

// The classes the held-out batches g25 and g26 found (corpus 789-826), each on a minimal
// snippet written for the class (not the case's words); every test failed before its change.

func nicStat(text, name string) (int64, bool) {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		for _, n := range s.NICStats {
			if n.Stats != nil {
				if v, ok := n.Stats.Get(name); ok {
					return v, true
				}
			}
		}
	}
	return 0, false
}

// A paste site's or an editor's line numbers before every line ("  1. ", vim's "  12 ",
// `cat -n`'s tab, "3:"): the gutter goes, the output behind it is read.
func TestLineGutterStripped(t *testing.T) {
	body := []string{"$ ethtool -S eth1", "", "NIC statistics:", "     rx_packets: 900", "     rx_missed_errors: 77", "     tx_packets: 40"}
	for _, g := range []func(int) string{
		func(n int) string { return strings.Repeat(" ", 3-len(itoa(n))) + itoa(n) + ". " },
		func(n int) string { return strings.Repeat(" ", 3-len(itoa(n))) + itoa(n) + " " },
		func(n int) string { return "     " + itoa(n) + "\t" },
		func(n int) string { return itoa(n) + ":" },
	} {
		var b strings.Builder
		b.WriteString("Untitled paste\n\n")
		for i, l := range body {
			b.WriteString(g(i+1) + l + "\n")
		}
		text := b.String()
		if v, ok := nicStat(text, "rx_missed_errors"); !ok || v != 77 {
			t.Errorf("rx_missed_errors = %d, %v; want 77 from\n%s", v, ok, text)
		}
		sameAsWhole(t, "gutter", text)
	}
}

// Not gutters: ip -o link's own index, IRQ rows, a vmstat row whose r column counts up by
// chance only twice, numbers not consecutive from 1.
func TestNotLineGutterLeftAlone(t *testing.T) {
	for _, text := range []string{
		"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500 qdisc mq state UP\n3: eth1: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN\n",
		"  0:   45   IO-APIC   2-edge      timer\n  1:    9   IO-APIC   1-edge      i8042\n  8:    1   IO-APIC   8-edge      rtc0\n  9:    0   IO-APIC   9-fasteoi   acpi\n",
		" 1  0      0 280228  10240 512000    0    0     1     2   30   40  1  1 98  0  0\n 2  0      0 280100  10240 512000    0    0     0     0   31   41  1  1 98  0  0\n 0  0      0 280000  10240 512000    0    0     0     0   31   41  1  1 98  0  0\n",
		"2. first\n3. second\n4. third\n",
		"  PID USER      PR  NI    VIRT    RES    SHR S  %CPU %MEM     TIME+ COMMAND\n     1 root      20   0   33620   2920   1496 S   0.0  0.0   0:03.82 init\n     2 root      20   0       0      0      0 S   0.0  0.0   0:00.02 kthreadd\n     3 root      20   0       0      0      0 S   0.0  0.0   0:05.35 ksoftirqd/0\n",
		"cpu      total    dropped   squeezed\n  0  620315792          0         11\n  1  692783857          0         22\n  2  633627628          0         16\n  3  705611806          0         20\n",
	} {
		if got := stripLineGutters(text); got != text {
			t.Errorf("changed:\n%s\ninto\n%s", text, got)
		}
	}
}

func statedAllocOrders(text string) []int {
	tl := ParseString(text, "p", Options{})
	var o []int
	for _, e := range tl.Events {
		if e.AllocFailure != nil {
			o = append(o, e.AllocFailure.Order)
		}
	}
	return o
}

// Page allocation failures the prose states with their order and no report of them: one
// failure of that order (any language around it, the name misspelt as written).
func TestStatedAllocFailureWithOrder(t *testing.T) {
	for _, text := range []string{
		"サーバで \"order:3\" の Page Allocaton Failure が多数発生する。\n",
		"Since the upgrade we get lots of order 2 page allocation failures in the NIC driver.\n",
	} {
		if o := statedAllocOrders(text); len(o) != 1 {
			t.Errorf("%q: orders %v, want one", text, o)
		}
	}
	for _, text := range []string{
		"If you see an order 3 page allocation failure, raise min_free_kbytes.\n",   // a possibility
		"We never saw a page allocation failure, only order 2 compaction stalls.\n", // a denial
		"Page allocation failures are common on busy hosts.\n",                      // no order
		"> On my test box the order:4 page allocation failure shows up hourly.\n",   // another machine's
	} {
		if o := statedAllocOrders(text); len(o) != 0 {
			t.Errorf("%q: orders %v, want none", text, o)
		}
	}
}

func ringLossRate(text string) (float64, bool) {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if v, ok := s.Rates["nic_rx_ring_loss_per_sec"]; ok {
			return v, true
		}
	}
	return 0, false
}

// ethtool -S counters a watch tool prints as per-second rates ("451.3k/s"): the ring-loss
// counters' rate is read as a rate, never as a since-boot counter.
func TestEthtoolRatesRead(t *testing.T) {
	const text = "$ watch 'ethtool -S eth3 | grep rx'\nrx_packets: 1.2M/s\nrx_nodesc_drop_cnt: 2.5k/s\nrx_bytes: 900.0M/s\n"
	if v, ok := ringLossRate(text); !ok || v != 2500 {
		t.Errorf("ring loss rate = %v, %v; want 2500", v, ok)
	}
	// A page's list markers before the tool's own "- " (a bulleted copy of a bulleted paste).
	if v, ok := ringLossRate("- - host$ watch 'ethtool -S eth3'\n- - rx_nodesc_drop_cnt: 2.5k/s\n- - rx_packets: 3.0/s\n"); !ok || v != 2500 {
		t.Errorf("bulleted: ring loss rate = %v, %v; want 2500", v, ok)
	}
	if v, ok := nicStat(text, "rx_nodesc_drop_cnt"); ok {
		t.Errorf("a rate read as a counter: %d", v)
	}
	// Not under ethtool -S: a tool's own "name: N/s" lines are not the NIC's counters.
	if _, ok := ringLossRate("$ iftop -t\nrx_nodesc_drop_cnt: 2.5k/s\nrx_missed_errors: 10/s\n"); ok {
		t.Error("read without ethtool -S")
	}
}

// ethtool -k: the NIC's offload features are read (sub-features tab-indented, ethtool's
// notes kept, an ellipsis where the paste was cut); a "name: on" line outside the block is not.
func TestEthtoolFeaturesRead(t *testing.T) {
	const text = "# ethtool -k eth7\nFeatures for eth7:\nscatter-gather: on\n\ttx-scatter-gather: on\ngeneric-receive-offload: on\nlarge-receive-offload: off [fixed]\n...\n"
	tl := ParseString(text, "p", Options{})
	var feats map[string]string
	for _, a := range tl.Artifacts {
		if a.Kind == KindEthtoolK {
			feats, _ = a.Data.(map[string]any)["features"].(map[string]string)
		}
	}
	if feats["generic-receive-offload"] != "on" || feats["large-receive-offload"] != "off [fixed]" || feats["tx-scatter-gather"] != "on" {
		t.Errorf("features %v", feats)
	}
	if len(tl.Unparsed) > 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	for _, a := range ParseString("The switch says:\nflow-control: on\n", "p", Options{}).Artifacts {
		if a.Kind == KindEthtoolK {
			t.Error("read without Features for")
		}
	}
}
