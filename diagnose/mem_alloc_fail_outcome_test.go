package diagnose

import (
	"strings"
	"testing"
)

// A stated cure by a larger vm.min_free_kbytes decides the reserve only where a larger
// reserve cannot also restore large blocks (fix54d): an order > 0 failure with no dump on a
// kernel before 4.4 is decided by its order (fragmentation, inferred, the outcome cited);
// an order-0 failure, one beside an order-0 failure, a 4.4+ kernel and an unknown kernel keep
// the reserve the outcome decides.
func TestAllocOutcomeDecidesOnlyWhereItCan(t *testing.T) {
	const cure = "Luckily you can tell the kernel to keep memory free with vm.min_free_kbytes. On my installation this value was something like 2000. After changing it to 20000 (~20MB), the problem went away.\n"
	header := func(order string) string {
		return "Looking at dmesg I saw a lot of error messages, all starting with:\nafpd: page allocation failure. order:" + order + ", mode:0x20\n"
	}
	const k26 = "I have experienced this problem with the 2.6.30-1 kernel under Debian.\n"
	cases := []struct {
		name, text, want string
		undecided        bool // the explanation says the outcome fits both
	}{
		{"2.6 order 2", header("2") + k26 + cure, classFragmented, true},
		{"2.6 order 2, multiplication sign", strings.Replace(header("2"), "0x20", "0×20", 1) + k26 + cure, classFragmented, true},
		{"2.6 order 0", header("0") + k26 + cure, classReserve, false},
		// The order-0 failure decides the reserve for both reports.
		{"2.6 order 2 beside order 0", header("2") + "swapper: page allocation failure. order:0, mode:0x20\n" + k26 + cure, classReserve, true},
		{"5.10 order 2", header("2") + "I have experienced this problem with the 5.10.0 kernel under Debian.\n" + cure, classReserve, false},
		{"kernel unknown, order 2", header("2") + cure, classReserve, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Run(pasteTimeline(t, c.text), nil)
			f := memFinding(t, d, c.want)
			if !evidenceHas(f, "the author's outcome", "raised to 20000") {
				t.Errorf("the outcome is not cited: %+v", f.Evidence)
			}
			other := classReserve
			if c.want == classReserve {
				other = classFragmented
			}
			if st := memCheck(d, other).Status; st == StatusFinding {
				t.Errorf("%s also fired: one cause per report", other)
			}
			undecided := strings.Contains(f.Explanation, "fits fragmentation as well as a short reserve")
			if undecided != c.undecided {
				t.Errorf("explanation says the outcome does not decide: %v, want %v: %s", undecided, c.undecided, f.Explanation)
			}
			if _, ok := changeFor(f, "vm.min_free_kbytes"); !ok {
				t.Errorf("no vm.min_free_kbytes change: %+v", f.Changes)
			}
		})
	}
}
