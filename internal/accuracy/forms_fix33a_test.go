package main

// fix33a: losses of its own cases under a form that are limits of the form.
func init() {
	// 2845's kills are earlyoom's own lines read at a line's start (bare, or after a stamp
	// whose host and tag the paste cut); joined onto one line with the rest of the thread
	// they stand mid-line, as on main before fix33a (not a loss of this branch).
	formsKnownLimits["flattened 2845-earlyoom-205-2020-950-mib-host-mem-avail-19-swap-free-153-sigterm-ipfs-vmrss-637-mib"] = limitFlattenedBlock
}
