package kernel

import "testing"

func TestClassifyNICCounter(t *testing.T) {
	for name, want := range map[string]NICLoss{
		"rx_fifo_errors":       {"rx", NICLayerNIC, NICCauseRing},
		"rx_dropped":           {"rx", NICLayerSoftware, NICCauseStack},
		"rx_frame_errors":      {"rx", NICLayerNIC, NICCauseLink},
		"tx_carrier_errors":    {"tx", NICLayerNIC, NICCauseLink},
		"collisions":           {"tx", NICLayerNIC, NICCauseLink},
		"tx_fifo_errors":       {"tx", NICLayerNIC, NICCauseRing},
		"rx_missed_errors":     {"rx", NICLayerNIC, NICCauseRing},
		"rx_no_buffer_count":   {"rx", NICLayerNIC, NICCauseRing},
		"rx_discards":          {"rx", NICLayerNIC, NICCauseRing},
		"rx_discards_phy":      {"rx", NICLayerNIC, NICCauseRing},
		"rx_out_of_buffer":     {"rx", NICLayerNIC, NICCauseRing},
		"alloc_rx_buff_failed": {"rx", NICLayerDriver, NICCauseRefill},
		"rx_buff_alloc_err":    {"rx", NICLayerDriver, NICCauseRefill},
		"rx_xsk_alloc_fail":    {"rx", NICLayerDriver, NICCauseRefill},
		"rx_queue_3_drops":     {"rx", NICLayerNIC, NICCauseRing},
		"rx3_dropped":          {"rx", NICLayerNIC, NICCauseRing},
		"rx_drops":             {"rx", NICLayerSoftware, NICCauseStack},
		"port.rx_dropped":      {"rx", NICLayerNIC, NICCauseRing},
		"port_rx_nodesc_drops": {"rx", NICLayerNIC, NICCauseRing},
		"rx_noskb_drops":       {"rx", NICLayerDriver, NICCauseRefill},
		"[0]_rx_discards":      {"rx", NICLayerNIC, NICCauseRing},
		"[12]_rx_discards":     {"rx", NICLayerNIC, NICCauseRing},
	} {
		got, ok := ClassifyNICCounter(name, false)
		if !ok || got != want {
			t.Errorf("ethtool %s: %+v %v, want %+v", name, got, ok, want)
		}
	}
	if l, ok := ClassifyNICCounter("rx_queue_0_drops", true); !ok || l.Layer != NICLayerDriver || l.RxOverrun() {
		t.Errorf("a virtual device's queue drop: %+v %v", l, ok)
	}
	for _, name := range []string{"rx_errors", "tx_errors", "rx_bytes", "rx_packets", "multicast", "rx_kicks", "tx_alloc_fail", "rx_queue_x_drops", "rx_queue_1_packets", "[0]_rx_ucast_packets", "[x]_rx_discards", "port.tx_dropped_link_down"} {
		if c, ok := ClassifyNICCounter(name, false); ok {
			t.Errorf("%s classified as %+v: it is not a loss counter (or a total that would double count)", name, c)
		}
		if c, ok := ClassifyNetDevCounter(name); ok {
			t.Errorf("netdev %s classified as %+v", name, c)
		}
	}
	if got := RxOverrunNetDevCounters; len(got) != 3 || got[0] != "rx_fifo_errors" || got[1] != "rx_missed_errors" || got[2] != "rx_over_errors" {
		t.Errorf("RxOverrunNetDevCounters = %v", got)
	}
	var virt, phys Counters
	virt.Set("rx_queue_0_kicks", 1)
	phys.Set("rx_queue_0_drops", 1)
	if !VirtualNICStats(virt) || VirtualNICStats(phys) {
		t.Error("VirtualNICStats")
	}
}

// Corpus 249: i40e's ethtool -S prints the VSI's rx_dropped beside the port's
// port.rx_dropped. The VSI's is its rx_discards (GLV_RDPC, frames dropped for want of a
// descriptor on its rings), a ring loss; a device without the port counters keeps the
// generic meaning, a drop in the stack.
func TestClassifyNICStatsIntelVSI(t *testing.T) {
	var i40e, other Counters
	i40e.Set("rx_dropped", 3322)
	i40e.Set("port.rx_dropped", 0)
	other.Set("rx_dropped", 3322)
	got := ClassifyNICStats(&i40e, false)
	if len(got) != 2 || got[0].Name != "rx_dropped" || !got[0].RxOverrun() || !got[1].RxOverrun() {
		t.Errorf("i40e: %+v", got)
	}
	if l, ok := ClassifyNICCounterIn("rx_dropped", false, IntelVSIStats(i40e)); !ok || !l.RxOverrun() {
		t.Errorf("ClassifyNICCounterIn: %+v %v", l, ok)
	}
	if got := ClassifyNICStats(&other, false); len(got) != 1 || got[0].Cause != NICCauseStack {
		t.Errorf("without port counters: %+v", got)
	}
}

// An ethtool -S of i40e or ice cut before its "port." names still shows the driver by its
// VSI list: rx_unknown_protocol is printed only by the Intel VSI statistics (i40e, ice,
// iavf), so rx_dropped beside it is the VSI's rx_discards, a ring loss. A list without it
// (a generic driver's rx_dropped) keeps the stack's meaning.
func TestClassifyNICStatsIntelVSIWithoutPortNames(t *testing.T) {
	var cut, generic Counters
	for _, n := range []string{"rx_unicast", "tx_unicast", "rx_bytes", "tx_bytes"} {
		cut.Set(n, 10)
		generic.Set(n, 10)
	}
	cut.Set("rx_dropped", 500)
	cut.Set("rx_unknown_protocol", 0)
	generic.Set("rx_dropped", 500)
	if got := ClassifyNICStats(&cut, false); len(got) != 1 || !got[0].RxOverrun() {
		t.Errorf("VSI list without port names: %+v", got)
	}
	if got := ClassifyNICStats(&generic, false); len(got) != 1 || got[0].Cause != NICCauseStack {
		t.Errorf("generic rx_dropped: %+v", got)
	}
}
