package artifact

import (
	"testing"
)

// ixgbe's SR-IOV counters are named with spaces and capitals ("VF 0 Tx Packets",
// ixgbe_ethtool.c of Intel's driver), after the underscore names: corpus 417, an
// 'ethtool -S eno2 | grep -v ": 0"'. Inside a "NIC statistics:" block they are counters like
// the others, not lines to drop.
func TestEthtoolStatsSpacedNamesInBlock(t *testing.T) {
	text := `[root@controller ~(keystone_admin)]# ethtool -S eno2|grep -v ": 0"
NIC statistics:
     rx_pkts_nic: 1658520803
     rx_no_dma_resources: 529324299
     rx_queue_0_bytes: 3656
     VF 0 Tx Packets: 1
     VF 0 Tx Bytes: 90
`
	tl := ParseString(text, "p", Options{})
	es := one(t, tl, KindEthtoolS).(*EthtoolStats)
	get(t, &es.Stats, "rx_no_dma_resources", 529324299)
	get(t, &es.Stats, "VF 0 Tx Packets", 1)
	get(t, &es.Stats, "VF 0 Tx Bytes", 90)
	if len(tl.Unparsed) != 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
}

// Outside a block, a "words: number" line is prose ("Total drops: 5"), not a counter: a
// bare (grep'd) block still requires the driver's one-word names.
func TestEthtoolBareSpacedNameNotCounter(t *testing.T) {
	if _, _, ok := ethtoolCounter("Total drops: 5"); ok {
		t.Error("'Total drops: 5' read as a counter outside a NIC statistics block")
	}
}
