package kernel

import "testing"

// Pre-round 15 (h15b): the running release in emerge --info's, inxi's and neofetch's headers
// (releaseInSystemHeader), and the lines that only look like them.
func TestH15bReleaseInSystemHeader(t *testing.T) {
	for _, c := range []struct{ line, rel, mach string }{
		{"Portage 3.0.30 (python 3.9.9-final-0, default/linux/amd64/17.1, gcc-11.2.0, glibc-2.33-r7, 5.15.11-gentoo x86_64)", "5.15.11-gentoo", "x86_64"},
		{"Portage 2.1.6.13 (default/linux/x86/2008.0, gcc-4.1.2, glibc-2.6.1-r0, 2.6.25-gentoo-r7 i686)", "2.6.25-gentoo-r7", "i686"},
		{"System uname: Linux-5.15.11-gentoo-x86_64-AMD_Ryzen_7_3700X_8-Core_Processor-with-glibc2.33", "5.15.11-gentoo", "x86_64"},
		{"System uname: Linux-6.1.31-gentoo-dist-aarch64-with-glibc2.37", "6.1.31-gentoo-dist", "aarch64"},
		{"  Kernel: 6.1.7-200.fc37.x86_64 arch: x86_64 bits: 64 compiler: gcc v: 2.38-25.fc37", "6.1.7-200.fc37.x86_64", "x86_64"},
		{"System:    Host: <filter> Kernel: 5.10.16-arch1-1 x86_64 bits: 64 compiler: gcc v: 10.2.0", "5.10.16-arch1-1", "x86_64"},
		{"Kernel: 5.15.12-arch1-1", "5.15.12-arch1-1", ""},
		{"            Kernel: Linux 6.6.8-arch1-1", "6.6.8-arch1-1", ""},
		{"Kernel: Linux 6.1.0-18-amd64 (SMP w/8 CPU threads; PREEMPT)", "6.1.0-18-amd64", ""},
	} {
		rel, mach, ok := ReleaseInTrackerField(c.line)
		if !ok || rel != c.rel || mach != c.mach {
			t.Errorf("%q: %q %q %v, want %q %q", c.line, rel, mach, ok, c.rel, c.mach)
		}
	}
	for _, s := range []string{
		"Portage 3.0.30 is installed (latest)",
		"Kernel: 5.15 broke it for me",
		"Kernel: Linux 6.1 was slower for us",
		"The Kernel: 5.15.1 x86_64 line in my notes",
		"System uname: Linux-unknown",
		"sys-kernel/gentoo-sources: 5.10.76-r1::gentoo, 5.15.11::gentoo",
	} {
		if rel, _, ok := ReleaseInTrackerField(s); ok {
			t.Errorf("%q: read %q, want nothing", s, rel)
		}
	}
}
