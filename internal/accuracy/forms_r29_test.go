package main

// Round 29 (g130–g133): losses of its cases under a form that are limits of the form.

func init() {
	// A /proc/net/dev table told apart only by its line breaks (2908: enp4s0's drop and fifo
	// columns), joined onto one line: its rows are read only one per line.
	for _, c := range []string{
		"2908-xdp-tutorial-466-2025-linux-6.14-igb-i211-native-xdp-pass-proc-net-dev-enp4s0-drop-9980-fifo-9980-of-613-packets",
	} {
		formsKnownLimits["flattened "+c] = limitFlattenedBlock
	}
}
