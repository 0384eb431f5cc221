package kernel

import "strings"

// MsgDriverRxSkbAllocFail: a driver's own message that it could not allocate a receive skb
// ("rtw_8723du 1-1:1.2: failed to allocate rx_skb 0", drivers/net/wireless/realtek/rtw88
// usb.c). Such drivers allocate with GFP_ATOMIC | __GFP_NOWARN or retry, so no page
// allocation failure report follows: the message is the failure's only trace, and what it
// asked for is not in it. Matched in any case.
var MsgDriverRxSkbAllocFail = []string{"failed to allocate rx_skb", "failed to allocate rx skb", "failed to alloc rx skb", "rx skb allocation failed", "rx skb alloc failed"}

// IsDriverRxSkbAllocFail reports whether a log message is one of MsgDriverRxSkbAllocFail.
func IsDriverRxSkbAllocFail(msg string) bool {
	if !strings.Contains(msg, "skb") {
		return false
	}
	l := asciiLower(msg)
	for _, m := range MsgDriverRxSkbAllocFail {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// skbSharedInfo64 is sizeof(struct skb_shared_info) aligned to SMP_CACHE_BYTES on a 64-bit
// kernel (320 bytes on x86_64 and arm64 since 4.x; include/linux/skbuff.h). A 32-bit
// kernel's is smaller, but any positive overhead moves a power-of-two buffer to the next
// order, which is all SkbHeadOrder needs of it.
const skbSharedInfo64 = 320

// SkbHeadOrder is the page order an skb of payload bytes takes from the buddy allocator:
// __alloc_skb (net/core/skbuff.c) kmallocs SKB_DATA_ALIGN(size) +
// SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) for the data and the shared info at its
// end, and kmalloc above KMALLOC_MAX_CACHE_SIZE (two pages, SLUB) goes straight to the page
// allocator (kmalloc_large: get_order(size)). So a 32 KiB buffer is an order-4 (64 KiB)
// request with 4 KiB pages, not order 3. ok is false for a head that fits a kmalloc cache
// (its slab's order is the cache's, not the request's).
func SkbHeadOrder(payload, pageSize int64) (order int, ok bool) {
	if payload <= 0 || pageSize <= 0 {
		return 0, false
	}
	total := (payload+63)&^63 + skbSharedInfo64
	if total <= 2*pageSize {
		return 0, false
	}
	return GetOrder(total, pageSize)
}
