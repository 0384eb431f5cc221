package artifact

import (
	"strings"
	"testing"
)

// Issue 29 item 4: a table no reader knows (corpus 445, majek's softnet_stat.sh re-printing
// softnet_stat in decimal under watch(1)) is listed as unread output, one entry for its rows,
// not counted as prose; the sentence around it stays prose.
func TestUnreadRowsListedNotProse(t *testing.T) {
	text := `Some numbers from our box:
cpu      total    dropped   squeezed
  0  620315792          0         11
  1  692783857          0         22
thanks for any help, we have 2 boxes
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].LastLine != 4 {
		t.Fatalf("unparsed %+v, want one entry for lines 3-4", tl.Unparsed)
	}
	if !strings.Contains(tl.Unparsed[0].Why, "numbers") {
		t.Errorf("why: %q", tl.Unparsed[0].Why)
	}
	if tl.Lines == nil || tl.Lines.Unparsed != 2 {
		t.Errorf("lines: %+v", tl.Lines)
	}
}

// Counters flattened onto one line by a web page (corpus 452: '<pre> $ sudo ethtool -S eth0
// NIC statistics: rx_packets: 597028087 ...'): unread output, not prose.
func TestUnreadFlattenedPairs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"RX packets:24224374 errors:21 dropped:0 overruns:0 frame:32", true},
		{"rx_packets: 597028087 tx_packets: 5924278060 rx_bytes: 112643393747", true},
		{"06:02:11 PM      0.00     95.00   6422.00      0.00   9790.00", true},
		{"I have a 1gb swap. It is not possible that it ended.", false},
		{"The values are 3093984 pages (11.8GB), and 4125312 pages (15.7GB).", false},
		{"Playing with 12 players on the server, and linux dmesg tell this", false},
	} {
		if _, got := unreadEvidence(tc.line); got != tc.want {
			t.Errorf("unreadEvidence(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
