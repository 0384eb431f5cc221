package artifact

import (
	"testing"

	"headroom/model"
)

// BusyBox top's CPU line in its own words (usr sys nic idle io irq sirq): a router's
// softirq share is read as procps' "si" is (corpus 7163).
func TestBusyBoxTopCPULabels(t *testing.T) {
	text := "Mem: 55080K used, 67248K free, 160K shrd, 2008K buff, 16472K cached\n" +
		"CPU:   5% usr   1% sys   0% nic   0% idle   2% io   3% irq  89% sirq\n" +
		"Load average: 4.19 3.51 3.21 5/69 7515\n" +
		"  PID  PPID USER     STAT   VSZ %VSZ %CPU COMMAND\n" +
		"    8     2 root     RW       0   0%  24% [ksoftirqd/0]\n"
	tl := ParseString(text, "top", Options{})
	got := map[string]float64{}
	for _, s := range tl.Samples {
		for k, v := range s.Rates {
			got[k] = v
		}
	}
	for k, want := range map[string]float64{model.RateCPUUserPct: 5, model.RateCPUSystemPct: 1, model.RateCPUIdlePct: 0,
		model.RateCPUIOWaitPct: 2, model.RateCPUIRQPct: 3, model.RateCPUSoftIRQPct: 89} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("%s = %v (read: %v), want %v", k, v, ok, want)
		}
	}
}
