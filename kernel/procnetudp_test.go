package kernel

import "testing"

func TestParseUDPSocketRow(t *testing.T) {
	if !IsUDPSocketHeader("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops") {
		t.Error("header not recognised")
	}
	r, ok := ParseUDPSocketRow("51808: 00000000:232A 00000000:0000 07 00000000:3FFFFFC0 00:00000000 00000000     0        0 1326199616 2 ffff88103e5be1c0 1875166813")
	if !ok || r.LocalPort != 9002 || r.RxQueue != 1073741760 || r.Drops != 1875166813 || !r.HasDrops || r.Inode != 1326199616 || r.State != 7 {
		t.Errorf("row %+v %v", r, ok)
	}
	// udp6: 32 hex digits of address.
	r, ok = ParseUDPSocketRow("  123: 00000000000000000000000000000000:0035 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000   101        0 2345 2 ffff9c3b 17")
	if !ok || !r.IPv6Address || r.LocalPort != 53 || r.Drops != 17 {
		t.Errorf("udp6 row %+v %v", r, ok)
	}
	// A 2.6.22 row has no drops column; a cut row and a /proc/net/tcp row are not rows.
	if r, ok := ParseUDPSocketRow("   7: 00000000:0202 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 4370 2 c7a3c000"); !ok || r.HasDrops {
		t.Errorf("old row %+v %v", r, ok)
	}
	for _, bad := range []string{
		"52007: 00000000",
		"   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15995 1 ffff8800b9ad0000 100 0 0 10 0",
	} {
		if _, ok := ParseUDPSocketRow(bad); ok {
			t.Errorf("read %q", bad)
		}
	}
}
