package main

// Round 23 (g106–g109): losses of its cases under a form that are limits of the form.
func init() {
	// 2457: a sysctl.conf block (the typo "net.core.wmen_max = ...") joined onto one line: the
	// block's key = value lines become one run of words, which no reader takes as settings.
	formsKnownLimits["flattened 2457-netdata-3826-2018-new-vps-400-alarms-sysctl-conf-net-core-wmen-max-typo-rmem-default-30mib"] = limitFlattenedBlock
}
