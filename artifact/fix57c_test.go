package artifact

import (
	"testing"

	"headroom/model"
)

// Round 52's classes fixed by fix57c; each positive snippet failed before its change.

// A dmesg stamp glued after the mode where a paste lost its newlines ends the mode.
// Counter-cases: a mode with its flag names, and a mode at the line's end, keep theirs.
func TestAllocModeGluedStamp(t *testing.T) {
	for text, want := range map[string]string{
		"[2662122.262113] swapper: page allocation failure. order:0, mode:0x20[2662122.262119] Pid: 0, comm: swapper Not tainted 2.6.32-314-ec2 #27-Ubuntu\n": "0x20",
		"[  12.345678] kworker/0:1: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n":                                                           "0x2080020(GFP_ATOMIC)",
		"[  12.345678] afpd: page allocation failure. order:2, mode:0x20\n":                                                                                   "0x20",
	} {
		if _, modes := allocOrdersModes(text); len(modes) != 1 || modes[0] != want {
			t.Errorf("%q: modes %q, want %q", text, modes, want)
		}
	}
}

// A logwatch summary's count, in front ("1 Time(s): ") or behind (":  2 Time(s)"), goes, and
// the kernel line it counted is read. Counter-cases: a line logwatch cut ("...:  538
// Time(s)") stays whole, and a line without the count is untouched.
func TestLogwatchCount(t *testing.T) {
	for in, want := range map[string]string{
		"1 Time(s): oom-killer: gfp_mask=0x1d2":                          "oom-killer: gfp_mask=0x1d2",
		"12 Time(s): Normal free:1000kB min:476kB low:952kB high:1428kB": "Normal free:1000kB min:476kB low:952kB high:1428kB",
		"   Out of memory: Killed process 812 (java):  2 Time(s)":        "Out of memory: Killed process 812 (java)",
	} {
		if got, ok := stripLogwatchCount(in); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"   Out of memory: Kill process 8...:  2 Time(s)",
		"   GART error 11...:  538Time(s)",
		"oom-killer: gfp_mask=0x1d2",
		"Time(s) of the runs: 3",
	} {
		if got, ok := stripLogwatchCount(in); ok {
			t.Errorf("%q: stripped to %q", in, got)
		}
	}
	tl := ParseString("in my logfiles:\n\n1 Time(s): Normal free:1000kB min:476kB low:952kB high:1428kB active:186988kB inactive:608kB present:245120kB\n1 Time(s): oom-killer: gfp_mask=0x1d2\n", "p", Options{})
	n := 0
	for _, e := range tl.Events {
		if e.Kind == model.EventOOMKill {
			n++
		}
	}
	if n != 1 {
		t.Errorf("logwatch OOM: %d OOM events, want 1", n)
	}
}

// A mail's own subject naming 2.4's allocation failure, pointed at by the body as what the
// host prints, is a failure of that order. Counter-cases: a reply's subject, a body that
// does not point at the subject, and one that only supposes it.
func TestSubjectAllocFailure(t *testing.T) {
	const head = "From: A <a@b>\nTo: linux-kernel@vger.kernel.org\nSubject: __alloc_pages: 2-order allocation failed.\n\n"
	if orders, _ := allocOrdersModes(head + "This error ($subj) started appearing today on my machine.\nSuggestions?\n"); len(orders) != 1 || orders[0] != 2 {
		t.Errorf("subject: orders %v, want [2]", orders)
	}
	for _, s := range []string{
		"From: A <a@b>\nSubject: Re: __alloc_pages: 2-order allocation failed.\n\nThis error ($subj) started appearing today on my machine.\n",
		head + "What does this message mean? Is it harmful?\n",
		head + "If you get $subj then raise the reserve.\n",
	} {
		if orders, _ := allocOrdersModes(s); len(orders) != 0 {
			t.Errorf("%q: orders %v", s, orders)
		}
	}
}

// A high-order allocation stated in prose with ENOMEM and cured by drop_caches is a
// failure of that order. Counter-cases: without the cure, without the failure, order 0, a
// supposition.
func TestProseOrderENOMEM(t *testing.T) {
	const fail = "root@amd:~# ifconfig wlan0 up\nSIOCSIFFLAGS: Cannot allocate memory\n\n"
	const cure = "Then I did \"echo 3 > /proc/sys/vm/drop_caches\" and now the network works.\n"
	if orders, _ := allocOrdersModes(fail + "It looks like it uses big allocations for firmware. Order five allocation.\n\n" + cure); len(orders) != 1 || orders[0] != 5 {
		t.Errorf("stated: orders %v, want [5]", orders)
	}
	for _, s := range []string{
		fail + "It uses an order 5 allocation for firmware.\n",
		"It uses an order 5 allocation for firmware.\n\n" + cure,
		fail + "It uses an order 0 allocation for the ring.\n\n" + cure,
		fail + "If the driver asks for an order 5 allocation it may fail.\n\n" + cure,
	} {
		if orders, _ := allocOrdersModes(s); len(orders) != 0 {
			t.Errorf("%q: orders %v", s, orders)
		}
	}
}
