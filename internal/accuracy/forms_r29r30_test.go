package main

// Rounds 29 and 30 (g130–g137): losses of its cases under a form that are limits of the form.

func init() {
	// Blocks told apart only by their line breaks, joined onto one line: a /proc/net/dev
	// table (2908: enp4s0's drop and fifo columns), Mem-Info's zone lines (2963, 3022: the
	// Normal zone below its min), each read one per line.
	for _, c := range []string{
		"2908-xdp-tutorial-466-2025-linux-6.14-igb-i211-native-xdp-pass-proc-net-dev-enp4s0-drop-9980-fifo-9980-of-613-packets",
		"2963-minio-12292-2021-dmesg-T-oom-node0-normal-free-985296kb-below-min-985668kb-anon-122gb",
		"3022-apt-mirror2-3-2025-mirror-sync-oom-zone-dump-normal-free-30944-below-min-31756",
	} {
		formsKnownLimits["flattened "+c] = limitFlattenedBlock
	}
}
