package diagnose

import "testing"

// fix41a: the four must classes end to end, from a minimal snippet of each case to its
// finding, with a counter-case of the same shape.
func TestFix41aClassesFindings(t *testing.T) {
	wantWarnings(t, []warningCase{
		// corpus 3444: the reason OOMKilled as the cause of a restart: oom-kill, warning.
		{"I notice that all three replicas of these components restart at about the same time - exiting w/ the same OOMKilled error (error 137).\n", "oom-kill", true},
		{"Does the pod restart due to an OOMKilled error?\n", "oom-kill", false},
		// corpus 3463: "and got OOM": oom-kill, warning.
		{"In the worst case, the memory cost went to 12GB and got OOM.\n", "oom-kill", true},
		{"I got OOM when allocating tensor with shape [64,3,224,224].\n", "oom-kill", false},
		// corpus 3464: out of RAM, then swap taken into use: swap-under-load, warning.
		{"The machine went out of RAM and began using swapspace (GoBGP got 3,5 GB RAM of 4 GB built in).\n", "swap-under-load", true},
		{"When Linux runs out of RAM and starts using swap, everything slows down.\n", "swap-under-load", false},
		// corpus 3465: memory filled, in the passive, with an amount of swap counted in.
		{"I'm exporting one full table to a virtual machine with 8GB of memory and the entire memory is filled by that from zebra, including a fair amount of swap as well.\n", "swap-under-load", true},
		{"The memory is used by zebra, plus some swap for idle pages.\n", "swap-under-load", false},
	})
}
