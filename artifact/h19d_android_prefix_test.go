package artifact

import "testing"

// h19d: the caller blocks Android vendor kernels print after the dmesg stamp in parentheses
// (MediaTek's CONFIG_PRINTK_MT_PREFIX "(2)[67:kswapd0]", "(CPU:2-pid:67:kswapd0) ") and the
// printk_cpuid vendor module's caller id "[ T67@C2]" are cut like CONFIG_PRINTK_CALLER's, so
// the message behind them is read from its start.
func TestH19dAndroidCallerBlocks(t *testing.T) {
	const msg = "lowmemorykiller: Killing 'com.tencent.mm' (5555), adj 100,"
	for raw, caller := range map[string]string{
		"[  700.123456] (2)[67:kswapd0]" + msg:             "T67",
		"<6>[  700.123456] (2)[67:kswapd0]" + msg:          "T67",
		"[  700.123456] (0)[0:swapper/0]" + msg:            "C0",
		"[  700.123456] (CPU:2-pid:67:kswapd0) " + msg:     "T67",
		"[  700.123456][ T67@C2] " + msg:                   "T67@C2",
		"[  700.123456][  T67] " + msg:                     "T67",
		"[  700.123456]  [2:        kswapd0:   67] " + msg: "2:kswapd0:67",
	} {
		ls := SplitLines(raw + "\n")
		if len(ls) != 1 || ls[0].Text != msg || ls[0].Caller != caller || !ls[0].Kernel {
			t.Errorf("%q: %+v", raw, ls)
		}
	}
	// Counter-cases: a parenthesis that is no caller block stays the message's, and one
	// without a kernel stamp before it is text.
	for raw, text := range map[string]string{
		"[  700.123456] (2) retries left":       "(2) retries left",
		"[  700.123456] (2)[x:kswapd0] message": "(2)[x:kswapd0] message",
		"[  700.123456] (CPU:two-pid:67:k) m":   "(CPU:two-pid:67:k) m",
		"(2)[67:kswapd0]" + msg:                 "(2)[67:kswapd0]" + msg,
		"[  700.123456][ T67@X2] " + msg:        "[ T67@X2] " + msg,
	} {
		ls := SplitLines(raw + "\n")
		if len(ls) != 1 || ls[0].Text != text {
			t.Errorf("%q: %+v", raw, ls)
		}
	}
}
