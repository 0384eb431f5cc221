package artifact

import "testing"

// fix70i (corpus 7229, AsahiLinux/linux#483): a monitoring loop's clock-stamped readings of
// atlantic's InDroppedDma, one a line, the third without its colon. They are a series of
// readings of one NIC, so the counter's growth is the loss while the loop ran; a stamped
// counter that is no loss counter is not read as one, and one reading is no series.
func TestClockStampedNICCounters(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		readings   int
	}{
		{"atlantic", "     05:16:17: InDroppedDma: 4421\n     05:16:30: InDroppedDma: 4676\n     05:16:43 InDroppedDma: 5078\n", 3},
		{"not a loss counter", "05:16:17: InPackets: 4997685505\n05:16:30: InPackets: 4997685777\n", 0},
		{"one reading", "05:16:17: InDroppedDma: 4421\n", 0},
	} {
		tl := ParseString(tc.text, "t", Options{})
		n := 0
		var lastV int64
		for _, s := range tl.Samples {
			for _, st := range s.NICStats {
				if v, ok := st.Stats.Get("InDroppedDma"); ok {
					n++
					lastV = v
				}
			}
		}
		if n != tc.readings || n > 0 && lastV != 5078 {
			t.Errorf("%s: %d readings (last %d), want %d", tc.name, n, lastV, tc.readings)
		}
	}
}
