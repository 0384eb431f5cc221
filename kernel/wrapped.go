package kernel

// A counter the kernel keeps signed, or decrements past zero by an accounting bug, and
// prints unsigned shows a small negative number as a value just below 2^32 (a 32-bit
// unsigned int or a 32-bit kernel's unsigned long: "%u", "%lu") or 2^64: free_area's
// nr_free printed by frag_show_print (mm/vmstat.c, "%6lu") as 4294967295 after a merge
// across zones (linux-mm 2006, "nr_free went -1"), e1000's statistics after a resume
// printed by /proc/net/dev as 4294967254 (netdev 2006). Such a value is no reading: a
// judgement that used it would see four billion free blocks or dropped packets.

// wrapSlack is how far below 2^32 (or 2^64) a value is taken for a wrapped negative: a
// real count of a u32 counter lands in those 65,536 values once in 65,536 wraps, a
// negative from a bug is at most a few thousand below.
const wrapSlack = 1 << 16

// WrappedNegative reports whether v, a counter as printed unsigned and read into an int64,
// is a small negative number wrapped: within wrapSlack below 2^32, or negative (a value
// near 2^64 that a reader kept as its two's complement, or a count printed signed as -1).
func WrappedNegative(v int64) bool {
	const top32 = int64(1) << 32
	return v < 0 || v < top32 && v >= top32-wrapSlack
}
