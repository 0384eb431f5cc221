package artifact

import (
	"strings"
	"testing"
)

// TestTrackerFormsHostFacts (pre-round 8, distributions' trackers): the host facts in each
// tracker's report form, written from the forms' documented layouts (cited at
// kernel.ReleaseInTrackerField and kernel.ReportbugCPUs), and the lines like them that name
// no running kernel.
func TestTrackerFormsHostFacts(t *testing.T) {
	for _, c := range []struct {
		name, text, kernel, arch string
		cpus                     int
	}{
		{"bugzilla template", "Description of problem:\nthroughput drops\n\nVersion-Release number of selected component (if applicable):\nkernel-5.14.0-362.8.1.el9_3.x86_64\n\nAdditional info:\n", "5.14.0-362.8.1.el9_3.x86_64", "x86_64", 0},
		{"bugzilla kernel-core", "Version-Release number of selected component: kernel-core-6.5.6-300.fc39.aarch64\n", "6.5.6-300.fc39.aarch64", "aarch64", 0},
		{"abrt field", "reason:         BUG: soft lockup - CPU#2 stuck for 22s!\ncmdline:        BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.5.6-300.fc39.x86_64 ro\nkernel:         6.5.6-300.fc39.x86_64\n", "6.5.6-300.fc39.x86_64", "x86_64", 0},
		{"apport signature alone", "ProblemType: Bug\nProcVersionSignature: Ubuntu 5.15.0-91.101-generic 5.15.131\nArchitecture: amd64\n", "5.15.0-91-generic", "amd64", 0}, // dpkg's name (h15a)
		{"apport HWE signature", "ProcVersionSignature: Ubuntu 6.5.0-14.14~22.04.1-generic 6.5.3\n", "6.5.0-14-generic", "", 0},
		{"reportbug", "-- System Information:\nDebian Release: 12.5\nArchitecture: i386 (i686)\n\nKernel: Linux 6.1.0-18-686-pae (SMP w/4 CPU threads; PREEMPT)\n", "6.1.0-18-686-pae", "i686", 4}, // uname -r whole (h15a)
		{"reportbug cores", "Kernel: Linux 4.19.0-6-amd64 (SMP w/2 CPU cores)\n", "4.19.0-6-amd64", "", 2},
		// Counter-cases: a release named in a sentence, a package name without a built
		// release, a syslog line of the kernel.
		{"nvr in a sentence", "Upgrading to kernel-5.14.0-400.el9.x86_64 fixed it for me.\n", "", "x86_64", 0},
		{"package name alone", "Component: kernel-4.18\n", "", "", 0},
		{"uni-processor", "Kernel: Linux 6.1.0-18-amd64 (PREEMPT)\n", "6.1.0-18-amd64", "", 0},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.Kernel != c.kernel || tl.Host.Arch != c.arch || tl.Host.CPUs != c.cpus {
			t.Errorf("%s: kernel %q arch %q cpus %d, want %q %q %d", c.name, tl.Host.Kernel, tl.Host.Arch, tl.Host.CPUs, c.kernel, c.arch, c.cpus)
		}
	}
}

// TestTrackerFormsWrappedFiles: the host's /proc files as the forms wrap them are read:
// apport's ProcMeminfo (indented one blank) and CurrentDmesg.txt attachment, and
// supportconfig's "#==[ Command ]====#" blocks (memory.txt: "# /bin/cat /proc/meminfo").
func TestTrackerFormsWrappedFiles(t *testing.T) {
	apport := "ProcVersionSignature: Ubuntu 4.15.0-20.21-generic 4.15.17\nUname: Linux 4.15.0-20-generic i686\nProcMeminfo:\n MemTotal:        2052000 kB\n MemFree:           40000 kB\nCurrentDmesg.txt:\n [ 1234.000000] kworker/0:1: page allocation failure: order:2, mode:0x1080020(GFP_ATOMIC), nodemask=(null)\n"
	tl := ParseString(apport, "p", Options{})
	if tl.Host.Kernel != "4.15.0-20-generic" || tl.Host.MemTotalKB != 2052000 || !tl.Host.Is32Bit() {
		t.Errorf("apport: kernel %q mem %d 32-bit %v", tl.Host.Kernel, tl.Host.MemTotalKB, tl.Host.Is32Bit())
	}
	found := false
	for _, e := range tl.Events {
		if e.AllocFailure != nil && e.AllocFailure.Order == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("apport: CurrentDmesg.txt's failure not read")
	}
	sc := "#==[ Command ]======================================#\n# /bin/cat /proc/meminfo\nMemTotal:        4012345 kB\nMemFree:           91234 kB\n\n#==[ Command ]======================================#\n# /sbin/sysctl -a\nvm.min_free_kbytes = 11264\n\n#==[ Command ]======================================#\n# /bin/uname -a\nLinux host1 5.14.21-150500.55.39-default #1 SMP PREEMPT_DYNAMIC Tue Nov 21 10:03:52 UTC 2023 (0e5b2ba) x86_64 x86_64 x86_64 GNU/Linux\n"
	tl = ParseString(sc, "p", Options{})
	if tl.Host.Kernel != "5.14.21-150500.55.39-default" || tl.Host.MemTotalKB != 4012345 {
		t.Errorf("supportconfig: kernel %q mem %d", tl.Host.Kernel, tl.Host.MemTotalKB)
	}
	if v, _, ok := tl.Sysctl("vm.min_free_kbytes"); !ok || !strings.HasPrefix(v, "11264") {
		t.Errorf("supportconfig: vm.min_free_kbytes %q %v", v, ok)
	}
}
