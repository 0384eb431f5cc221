//go:build amd64 || arm64 || 386

package kernel

import "unsafe"

// ld64 returns the eight bytes of b at i as a little-endian word, with one load and no
// bounds check: the caller has checked that 0 <= i and i+8 <= len(b). These targets are
// little-endian and load unaligned words at full speed; load_other.go is the portable
// version (ARMv5, whose unaligned loads rotate instead of fault, among them).
func ld64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}
