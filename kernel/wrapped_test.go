package kernel

import "testing"

func TestWrappedNegative(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want bool
	}{
		{4294967295, true},          // -1 as u32
		{4294967254, true},          // -42 as u32 (e1000 after resume)
		{-1, true},                  // 2^64-1 kept as two's complement
		{0, false},                  // counts of a quiet zone
		{1113, false},               // a real buddyinfo count
		{4294967296, false},         // 2^32 itself: a real u64 count past it
		{4294967295 - 1<<16, false}, // just outside the slack
		{1 << 40, false},            // a large u64 byte counter
	} {
		if got := WrappedNegative(c.v); got != c.want {
			t.Errorf("WrappedNegative(%d) = %v, want %v", c.v, got, c.want)
		}
	}
}
