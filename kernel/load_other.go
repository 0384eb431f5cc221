//go:build !(amd64 || arm64 || 386)

package kernel

import "encoding/binary"

// ld64 returns the eight bytes of b at i as a little-endian word (load_unaligned.go).
func ld64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
