package main

// Losses of the g32–g35 cases under a form that are limits of the form, not of the reading
// (kept apart from the table in forms_test.go so that its alignment does not move).
func init() {
	// 1001's mail source is quoted-printable ("sysctl -w net.core.rmem_max=3D24266666"): the
	// zero-width form breaks "=3D" into "=\u200b3D", and the value reads "3D24266666".
	formsKnownLimits["zero-width 1001-usrp-users-2019-x310-ubuntu-16.04-vm-uhd-recv-buffer-212992-of-24266666-quoted-printable-rfnoc-error-healthy"] = limitZeroWidthInQP
}
