package artifact

import (
	"testing"

	"headroom/model"
)

func scriptRingLoss(text string) float64 {
	tl := ParseString(text, "mail", Options{})
	var v float64
	for _, s := range tl.Samples {
		v += s.Rates[model.RateNICRxRingLossPerSec]
	}
	return v
}

// fix61f: a script's per-second readings named by a legend that follows them.
func TestFix61fScriptRatesWithLegend(t *testing.T) {
	readings := "$ scripts/myethstats\nWed Dec 23 12:44:47 IST 2020\nens6f1: portrx: 10030972 rx:  7010503 pps     drop:  3020434 pps\n\n"
	intel := "Note: ethtool -S stats\nportrx => port.rx_size_64\nrx => rx_packets\ndrop => rx_dropped\n"
	if v := scriptRingLoss(readings + intel); v != 3020434 {
		t.Errorf("i40e's rx_dropped (a VSI ring discard) by the legend: %v pps, want 3020434", v)
	}
	for name, text := range map[string]string{
		"no legend":              readings + "drop is rx_dropped\n",
		"one legend line":        readings + "drop => rx_dropped\n",
		"not ethtool names":      readings + "portrx => packets_in\ndrop => discarded\n",
		"not per second":         "ens6f1: portrx: 10030972 rx: 7010503 drop: 3020434\n\n" + intel,
		"the stack's rx_dropped": readings + "rx => rx_packets\ndrop => rx_dropped\n", // no port. names: not i40e's
	} {
		if v := scriptRingLoss(text); v != 0 {
			t.Errorf("%s: ring loss %v pps, want none", name, v)
		}
	}
}
