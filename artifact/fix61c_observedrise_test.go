package artifact

import "testing"

// fix61c: a NIC ring-loss counter the author watched rise, said with an adverb ("always",
// "steadily") and a present tense with "when" after an observation ("I'm noticing that").
func TestFix61cObservedNICCounterRise(t *testing.T) {
	for _, text := range []string{
		"However, I'm noticing that `ethtool -S eth2 | grep port_rx_nodesc_drops` always increases arbitrarily when the capture starts up.\n",
		"We observed that rx_missed_errors steadily increases whenever the backup runs.\n",
		"rx_fifo_errors steadily climbs during the nightly sync on this host.\n",
	} {
		if !statedOverrun(text) {
			t.Errorf("not read as a stated overrun: %q", text)
		}
	}
	for _, text := range []string{
		"rx_missed_errors increases when the ring is full and the host cannot keep up.\n", // documentation's voice
		"Have you noticed whether rx_missed_errors always increases when the capture starts?\n",
		"I'm noticing that rx_packets always increases when the capture starts.\n", // no loss counter
		"We never see that rx_missed_errors increases when the capture starts.\n",
	} {
		if statedOverrun(text) {
			t.Errorf("read as a stated overrun: %q", text)
		}
	}
}
