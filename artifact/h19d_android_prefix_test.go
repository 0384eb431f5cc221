package artifact

import (
	"strings"
	"testing"
)

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

// lmkd's logcat lines that are no kill (its start-up, a kill's second line on Android 8-9)
// are named, so that a healthy lmkd log is read, not "nothing"; its kills stay kills, and
// another tag's line with the same words is not lmkd's.
func TestH19dLmkdNotices(t *testing.T) {
	text := "11-29 09:59:58.000   612   612 I lowmemorykiller: Using psi monitors for memory pressure detection\n" +
		"11-29 09:59:58.003   612   612 I lmkd    : Process polling is supported\n" +
		"04-12 08:15:33.001  1089  1089 I lowmemorykiller: Killing 'com.whatsapp' (7777), uid 10098, adj 900\n" +
		"04-12 08:15:33.001  1089  1089 I lowmemorykiller:    to free 87000kB because system is under medium memory pressure oom_adj 800\n"
	tl := ParseString(text, "p", Options{})
	named := 0
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "low memory killer's notice") {
			named += u.LastLine - u.FirstLine + 1
		}
	}
	if named != 3 || len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Victim != "com.whatsapp" {
		t.Errorf("named %d, kills %+v, unparsed %+v", named, tl.RuntimeOOMs, tl.Unparsed)
	}
	other := ParseString("11-29 09:59:58.000   700   700 I ActivityManager: Using psi monitors for memory pressure detection\n", "p", Options{})
	for _, u := range other.Unparsed {
		if strings.Contains(u.Why, "lmkd") {
			t.Errorf("another tag's line named as lmkd's: %+v", u)
		}
	}
}

// logcat's time format ("MM-DD hh:mm:ss.mmm I/tag(  pid): ") and threadtime with -v uid (the
// uid or its name before the pid) carry lmkd's kills as threadtime and brief do.
func TestH19dLogcatTimeAndUID(t *testing.T) {
	kill := "Kill 'com.x.y' (4322), uid 10124, oom_score_adj 200 to free 98304kB rss, 0kB swap; reason: critical pressure"
	for _, prefix := range []string{
		"11-29 10:00:00.123 I/lowmemorykiller(  612): ",
		"2026-11-29 10:00:00.123 I/lowmemorykiller(  612): ",
		"11-29 10:00:00.123  system   612   612 I lowmemorykiller: ",
		"11-29 10:00:00.123  1000   612   612 I lowmemorykiller: ",
	} {
		tl := ParseString(prefix+kill+"\n", "p", Options{})
		if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Victim != "com.x.y" || tl.RuntimeOOMs[0].PID != 4322 {
			t.Errorf("%q: %+v", prefix, tl.RuntimeOOMs)
		}
	}
	// Another tag's line in the same format is no kill.
	if tl := ParseString("11-29 10:00:00.123 I/ActivityManager(  700): "+kill+"\n", "p", Options{}); len(tl.RuntimeOOMs) != 0 {
		t.Errorf("another tag: %+v", tl.RuntimeOOMs)
	}
}

// logcat -b kernel: the kernel's "lowmemorykiller: " prefix became the tag, the in-kernel
// killer's words follow it.
func TestH19dLogcatKernelBuffer(t *testing.T) {
	text := "11-29 10:00:00.123     0     0 I lowmemorykiller: Killing 'com.x.y' (4322), adj 900,\n" +
		"11-29 10:00:00.123     0     0 I lowmemorykiller:    to free 98304kB on behalf of 'kswapd0' (67) because\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Victim != "com.x.y" || tl.RuntimeOOMs[0].Reporter != "Android's in-kernel lowmemorykiller" {
		t.Errorf("%+v", tl.RuntimeOOMs)
	}
}
