package kernel

import "testing"

// A stated receive-buffer size maps to the order the skb head asks of the buddy allocator:
// the shared info pushes a power-of-two payload to the next order.
func TestSkbHeadOrder(t *testing.T) {
	for _, c := range []struct {
		payload, page int64
		order         int
		ok            bool
	}{
		{32 << 10, 4096, 4, true},   // 32 KiB + shinfo: 64 KiB
		{16 << 10, 4096, 3, true},   // 16 KiB + shinfo: 32 KiB
		{9000, 4096, 2, true},       // a jumbo frame: 9024 + 320 B in 16 KiB
		{1974, 4096, 0, false},      // a kmalloc cache serves it
		{32 << 10, 65536, 0, false}, // 64 KiB pages: kmalloc-64k... within two pages
	} {
		o, ok := SkbHeadOrder(c.payload, c.page)
		if o != c.order || ok != c.ok {
			t.Errorf("SkbHeadOrder(%d, %d) = %d %v, want %d %v", c.payload, c.page, o, ok, c.order, c.ok)
		}
	}
	for msg, want := range map[string]bool{
		"rtw_8723du 1-1:1.2: failed to allocate rx_skb 0": true,
		"mt76x2u 1-1:1.0: Failed to allocate RX skb":      true,
		"rtw_8723du 1-1:1.2: failed to get tx report":     false,
		"skb allocated for rx":                            false,
	} {
		if got := IsDriverRxSkbAllocFail(msg); got != want {
			t.Errorf("IsDriverRxSkbAllocFail(%q) = %v", msg, got)
		}
	}
}
