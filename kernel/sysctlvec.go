package kernel

import (
	"strconv"
	"strings"
)

// SysctlInts reads a sysctl value that is a vector of integers, as the kernel prints it
// (proc_dointvec and proc_doulongvec_minmax, kernel/sysctl.c, separate the fields with a
// tab and end with a newline: "4096\t131072\t6291456\n") and as sysctl(8), a config file or a
// paste writes it (spaces). ok is false when the value is empty or a field is not a decimal
// integer. It is the one parser of such values (issue 31): eight copies each had their own
// edge cases.
func SysctlInts(v string) (vals []int64, ok bool) {
	n := 0
	for range strings.FieldsSeq(v) {
		n++
	}
	if n == 0 {
		return nil, false
	}
	out := make([]int64, n)
	if SysctlIntsInto(v, out) != n {
		return nil, false
	}
	return out, true
}

// SysctlIntsInto is SysctlInts without allocating: it parses v's fields into out and returns
// how many there were, 0 for an empty value, or -1 when a field is not an integer or out is
// too short (serve's scrape reads tcp_mem into an array on its stack).
func SysctlIntsInto(v string, out []int64) int {
	n := 0
	for f := range strings.FieldsSeq(v) {
		x, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n == len(out) {
			return -1
		}
		out[n] = x
		n++
	}
	return n
}
