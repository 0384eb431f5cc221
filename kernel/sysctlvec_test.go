package kernel

import (
	"slices"
	"testing"
)

func TestSysctlInts(t *testing.T) {
	for in, want := range map[string][]int64{
		"4096\t131072\t6291456\n": {4096, 131072, 6291456}, // as /proc/sys prints it
		" 4096 87380   4194304 ":  {4096, 87380, 4194304},  // as sysctl(8) and pastes write it
		"-1":                      {-1},
		"9223372036854775807":     {1<<63 - 1},
	} {
		if got, ok := SysctlInts(in); !ok || !slices.Equal(got, want) {
			t.Errorf("SysctlInts(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", " \t\n", "4096 87380 4M", "1.5", "cubic", "9223372036854775808"} {
		if got, ok := SysctlInts(bad); ok || got != nil {
			t.Errorf("SysctlInts(%q) = %v, %v; want not ok", bad, got, ok)
		}
	}
	var two [2]int64
	if n := SysctlIntsInto("1 2 3", two[:]); n != -1 {
		t.Errorf("SysctlIntsInto past the end = %d, want -1", n)
	}
	if n := SysctlIntsInto("7\t8", two[:]); n != 2 || two != [2]int64{7, 8} {
		t.Errorf("SysctlIntsInto = %d %v", n, two)
	}
	if n := SysctlIntsInto("", two[:]); n != 0 {
		t.Errorf("SysctlIntsInto(\"\") = %d, want 0", n)
	}
}
