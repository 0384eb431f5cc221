package lab

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"headroom/lab/netlab"
	"headroom/lab/vm"
)

// TestReadersOnKernels runs `lab run readers` on every kernel lab/vm boots: the live readers
// on real kernels other than this host's (a 32-bit HighMem one among them), compared with
// the guests' own files. It needs root, QEMU and the kernels (make vmkernels).
func TestReadersOnKernels(t *testing.T) {
	needGuest(t, "readers", "qemu-system-x86_64")
	sc, err := LookupScenario("readers")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range vm.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			if st := k.Stat(vm.CacheDir()); !st.Present {
				t.Skipf("readers: kernel %s not in %s (%s): run make vmkernels", k.Name, vm.CacheDir(), st.Missing)
			}
			rep := runGuestChecked(t, sc, k.Name, 10*time.Minute)
			d := rep.Details.(*ReadersDetails)
			t.Logf("%s: boot %.1f s, run %.1f s under %s; %d comparisons, %d failed; findings %v", k.Name, rep.BootSec, rep.RunSec, rep.Accel, len(d.Comparisons), d.Failed, d.Findings)
			for _, c := range d.Comparisons {
				if !c.OK {
					t.Errorf("%s %s: reported %s, guest %s %s", c.Reader, c.Figure, c.Reported, c.Guest, c.Note)
				}
			}
			if !rep.OK {
				t.Errorf("not ok: %v", rep.Summary)
			}
			// Every reader compared, and the 32-bit kernel's lowmem with them.
			seen := map[string]bool{}
			for _, c := range d.Comparisons {
				seen[c.Reader] = true
				seen[c.Reader+" "+c.Figure] = true
			}
			for _, r := range []string{"doctor", "capture", "serve", "check"} {
				if !seen[r] {
					t.Errorf("no comparison of %s", r)
				}
			}
			if k.GOARCH == "386" && (!seen["doctor host.low_total_kb"] || !seen["doctor zone 0 HighMem min_kb"]) {
				t.Errorf("32-bit guest: lowmem or the HighMem zone not compared")
			}
		})
	}
}

// guestScenario skips t unless scenario can boot kernel here (root, qemu, the kernel in the
// cache), and returns the scenario.
func guestScenario(t *testing.T, scenario, kernel, qemu string) *Scenario {
	t.Helper()
	needGuest(t, scenario, qemu)
	k, err := vm.LookupKernel(kernel)
	if err != nil {
		t.Fatal(err)
	}
	if st := k.Stat(vm.CacheDir()); !st.Present {
		t.Skipf("%s: kernel %s not in %s (%s): run make vmkernels", scenario, k.Name, vm.CacheDir(), st.Missing)
	}
	sc, err := LookupScenario(scenario)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// runGuestChecked runs guest scenario sc on kernel, ends t on an error (with the guest's
// console), and checks when t ends that the run left none of its objects behind.
func runGuestChecked(t *testing.T, sc *Scenario, kernel string, timeout time.Duration) *GuestReport {
	t.Helper()
	before, err := netlab.SnapshotOwned()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		after, err := netlab.SnapshotOwned()
		if err != nil {
			t.Error(err)
			return
		}
		if ch := before.RunChanges(after, netlab.Mine()); len(ch) > 0 {
			t.Errorf("left behind: %v", ch)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rep, err := RunGuest(ctx, sc, GuestOptions{Kernel: kernel, Progress: func(s string) { t.Log(s) }})
	if err != nil {
		if rep != nil {
			t.Logf("console:\n%s", rep.Console)
		}
		t.Fatal(err)
	}
	return rep
}

// needGuest skips a guest test that cannot boot here: it needs root (a network namespace and
// a tap) and the QEMU binary of the guest's architecture.
func needGuest(t *testing.T, scenario, qemu string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("%s: booting a guest needs root (a network namespace and a tap); run as root", scenario)
	}
	if _, err := exec.LookPath(qemu); err != nil {
		t.Skipf("%s: %s not installed (apt-get install qemu-system-x86)", scenario, qemu)
	}
}
