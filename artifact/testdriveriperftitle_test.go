package artifact

import "testing"

// fix31a (corpus 2711, 2671): two wrappers around lines headroom reads, the NixOS test
// driver's serial prefix around a VM's kernel record, and iperf3 --title's prefix around its
// table.

func TestFix31aTestDriverSerial(t *testing.T) {
	for _, c := range []struct{ in, text, host string }{
		{"pleroma # [   49.981565] [    475]     0   475     5491      247    61440        0         -1000 systemd-udevd", "[    475]     0   475     5491      247    61440        0         -1000 systemd-udevd", "pleroma"},
		{"machine # [   12.345678] Out of memory: Killed process 822 (postgres)", "Out of memory: Killed process 822 (postgres)", "machine"},
		{"server_1 # <4>[    3.000001] oom_reaper: reaped process 9 (x)", "oom_reaper: reaped process 9 (x)", "server_1"},
		{"* client # [    7.100000] Out of memory: Killed process 5 (y)", "Out of memory: Killed process 5 (y)", "client"},
	} {
		ls := SplitLines(c.in + "\n")
		if len(ls) == 0 || ls[0].Text != c.text || !ls[0].Kernel || ls[0].Host != c.host {
			t.Errorf("%q: got %+v, want kernel text %q on host %q", c.in, ls, c.text, c.host)
		}
	}
	// counter-cases: the driver's line of no kernel record, a shell comment, a sentence, a
	// number in brackets that is no dmesg stamp: kept as written, not the kernel's.
	for _, in := range []string{
		"pleroma # Welcome to NixOS 21.05 (x86_64) - ttyS0",
		"pleroma # [1] Done",
		"x=1 # [   12.345678] a comment",
		"see machine # [   12.345678] above",
		"machine #[   12.345678] no blank",
	} {
		ls := SplitLines(in + "\n")
		if len(ls) == 0 || ls[0].Kernel || ls[0].Text != in {
			t.Errorf("%q: got %+v, want it kept as written", in, ls)
		}
	}
	// The task dump under the prefix is the OOM report it is.
	text := "pleroma # [   49.988483] [    822]    71   822    73059     1426   135168        0             0 postgres\n" +
		"pleroma # [   49.989248] [    824]    71   824    73091      601   122880        0             0 postgres\n" +
		"pleroma # [   49.990018] [    825]    71   825    73059      291   122880        0             0 postgres\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Unparsed) != 0 || NothingRead(tl) {
		t.Errorf("task dump under the driver's prefix: unparsed %+v", tl.Unparsed)
	}
}

func TestFix31aIperfTitle(t *testing.T) {
	text := "s3:  [ ID] Interval           Transfer     Bandwidth       Retr  Cwnd\n" +
		"s3:  [  4]   0.00-1.00   sec   401 MBytes  3.37 Gbits/sec    0    446 KBytes\n" +
		"s2:  [ ID] Interval           Transfer     Bandwidth       Retr  Cwnd\n" +
		"s2:  [  4]   0.00-1.00   sec   391 MBytes  3.28 Gbits/sec    0    446 KBytes\n" +
		"s3:  [  4]   1.00-2.00   sec   400 MBytes  3.36 Gbits/sec    0    446 KBytes\n"
	tl := ParseString(text, "t", Options{})
	var rows int
	for _, a := range artifactsOf(tl, KindIperf) {
		for _, r := range a.Data.(IperfData).Intervals {
			rows++
			if r.Retransmits == nil || *r.Retransmits != 0 || r.CwndBytes == nil || *r.CwndBytes != 446<<10 || r.BitsPerSec < 3.2e9 {
				t.Errorf("row %+v", r)
			}
		}
	}
	if rows != 3 {
		t.Errorf("iperf rows %d, want 3; unparsed %+v", rows, tl.Unparsed)
	}
	// counter-cases: a colon with one blank, a sentence's bracket, a field's value.
	for _, in := range []string{
		"s1: [  4]   0.00-1.00   sec   390 MBytes  3.27 Gbits/sec    0    446 KBytes",
		"Note:  [1] see above",
		"Bandwidth:  3.37 Gbits/sec",
		"two words:  [  4]   0.00-1.00   sec   390 MBytes  3.27 Gbits/sec",
	} {
		if got, ok := stripIperfTitle(in); ok {
			t.Errorf("%q stripped to %q", in, got)
		}
	}
}
