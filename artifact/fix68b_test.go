package artifact

import "testing"

// g287 (linux-input, 2024): a mail put a blank after a workqueue worker's colon,
// "kworker/1: 0: page allocation failure": the comm is "kworker/1:0" again. A worker printed
// whole, and a task whose name only looks like a prefix and a number, keep their comms.
func TestFix68bKworkerSplitByMail(t *testing.T) {
	for line, want := range map[string]string{
		"[71553.093623]kworker/1: 0: page allocation failure: order:4, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), nodemask=(null)": "kworker/1:0",
		"Jan  3 10:00:01 host kernel: kworker/u8: 2: page allocation failure: order:2, mode:0x20":                                       "kworker/u8:2",
		"[ 12.5] kworker/0:1H: page allocation failure: order:0, mode:0x20":                                                             "kworker/0:1H",
		"Jan  3 10:00:01 host kernel: kworker/0: 1H: page allocation failure: order:0, mode:0x20":                                       "kworker/0:1H",
		"Jan  3 10:00:01 host kernel: nginx: 3: page allocation failure: order:0, mode:0x20":                                            "3",
		"Jan  3 10:00:01 host kernel: swapper/1: page allocation failure: order:1, mode:0x20":                                           "swapper/1",
	} {
		af, ok := parseAllocHeader(line)
		if !ok || af.Process != want {
			t.Errorf("%q: comm %q, want %q", line, af.Process, want)
		}
	}
}
