package main

// Losses of the g36–g39 cases under a form that are limits of the form, not of the reading
// (kept apart from the table in forms_test.go so that its alignment does not move).
func init() {
	// 1027's Mem-Info has three lines longer than 72 columns (the Node, DMA and Normal lines)
	// among short ones: wrapped by the form, unwrap.go cannot infer the width, and the Normal
	// zone's watermarks stay on a piece of their own.
	formsKnownLimits["wrap-log-72 1027-proxmox-arm64-31-ps225-pve-mem-info-normal-free-21324-below-min-36436-free-cma-header-absent"] = limitWrappedLogWidth
}
