package main

// Rounds 24 and 25 (g110–g117): losses of their cases under a form that are limits of the form.
func init() {
	// 2602: netdata's alarm lines ("1m tcp accept queue drops = 237.1 drops"), each its own
	// line under its chart's name, joined onto one line with the post's prose.
	formsKnownLimits["flattened 2602-netdata-6517-2019-centos7.4-cpanel-alarm-tcp-accept-queue-drops-237-per-min-syn-queue-cookies-24"] = limitFlattenedBlock
}
