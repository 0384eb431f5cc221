package kernel

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseNetDev(t *testing.T) {
	devs, err := ParseNetDev(bytes.NewReader(member(t, hostFixture, "proc/net/dev")))
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) == 0 || devs[0].Name != "lo" {
		t.Fatalf("devices %+v", devs)
	}
	for _, d := range devs {
		if got := strings.Join(d.Counters.Names(), " "); got != strings.Join(netDevColumns[:], " ") {
			t.Errorf("%s counters %q", d.Name, got)
		}
	}
	lo := devs[0].Counters
	rx, _ := lo.Get("rx_bytes")
	tx, _ := lo.Get("tx_bytes")
	if rx == 0 || rx != tx { // loopback receives what it sends
		t.Errorf("lo rx_bytes %d tx_bytes %d", rx, tx)
	}
}

func TestParseNetDevLayouts(t *testing.T) {
	// Seed 004's eth0 as /proc/net/dev of 2.6.13 prints it ("%6s:%8lu": no space after the
	// colon once the byte count is wide), and a 2.4 device without get_stats.
	text := `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
  eth0:1988145274 2050626316 1392055 2784110 1392055    0          0         0 2674276694 373778386    0    0    0     0       0          0
 dummy0: No statistics available.
`
	devs, err := ParseNetDev(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 2 {
		t.Fatalf("%+v", devs)
	}
	eth0 := devs[0].Counters
	for name, want := range map[string]int64{"rx_bytes": 1988145274, "rx_packets": 2050626316, "rx_errors": 1392055,
		"rx_dropped": 2784110, "rx_fifo_errors": 1392055, "tx_packets": 373778386} {
		if v, ok := eth0.Get(name); !ok || v != want {
			t.Errorf("%s = %d, %v; want %d", name, v, ok, want)
		}
	}
	if devs[1].Name != "dummy0" || devs[1].Counters.Len() != 0 {
		t.Errorf("device without statistics parsed as %+v", devs[1])
	}

	// An older header with fewer columns names them; without a header the 16 are assumed.
	short := " face |bytes packets errs drop|bytes packets errs drop\n  eth1: 1 2 3 4 5 6 7 8\n"
	devs, err = ParseNetDev(strings.NewReader(short))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(devs[0].Counters.Names(), " "); got != "rx_bytes rx_packets rx_errors rx_dropped tx_bytes tx_packets tx_errors tx_dropped" {
		t.Errorf("columns %q", got)
	}
	// The receive half alone, as "awk '{print $1,...,$7}' | column -t" leaves it (corpus
	// case 268): one bar in the header.
	cut := "Inter-|           Receive         |            Transmit\nface              |bytes          packets      errs      drop  fifo     frame\nens4f1:           23277830485243  43072288786  1673119   11    1673109  10\n"
	devs, err = ParseNetDev(strings.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := devs[0].Counters.Get("rx_packets"); v != 43072288786 || devs[0].Counters.Len() != 6 {
		t.Errorf("cut table: %v", devs[0].Counters.Names())
	}
	headless := "  eth1: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
	devs, err = ParseNetDev(strings.NewReader(headless))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := devs[0].Counters.Get("tx_compressed"); v != 16 {
		t.Errorf("tx_compressed %d", v)
	}
}

func TestParseNetDevMalformed(t *testing.T) {
	const hdr = "Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"header only", hdr, 0},
		{"too few columns", hdr + "  eth0: 1 2 3\n", 3},
		{"too many columns", hdr + "  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", 3},
		{"not a number", hdr + "  eth0: 1 2 3 4 5 6 7 x 9 10 11 12 13 14 15 16\n", 3},
		{"negative", hdr + "  eth0: 1 2 3 4 5 6 7 -8 9 10 11 12 13 14 15 16\n", 3},
		{"no colon", hdr + "  eth0 1 2\n", 3},
		{"unknown header word", " face |bytes bananas|bytes\n", 1},
		{"truncated", hdr + "    lo:    3193      29    0    0    0     0          0         0     3193      29    0    0    0     0       0          0\n  eth0: 398", 4},
	}, func(b []byte) error { var d []NetDev; return ParseNetDevInto(&d, b) })
}

func TestParseNetDevInto(t *testing.T) {
	checkInto(t, ParseNetDevInto,
		member(t, hostFixture, "proc/net/dev"),
		[]byte(" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"+
			"  eth9: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n    lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"))
}

func FuzzParseNetDev(f *testing.F) {
	other := seedFuzz(f, exact("proc/net/dev"), " face |bytes|bytes\n a: 1 2\n", " x: No statistics available.\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseNetDevInto) })
}

func BenchmarkParseNetDevInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/dev"), ParseNetDevInto)
}
