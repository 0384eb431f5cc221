package kernel

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// Host facts in distributions' bug trackers' report forms (pre-round 8). Each form carries the
// reporter's kernel release, machine and CPU count in fields of its own, which the generic
// readers ("Linux R", uname -a) miss or misread:
//
//	Red Hat/Fedora Bugzilla and abrt: the component's NVR, "kernel-5.14.0-362.8.1.el9_3.x86_64"
//	  (Bugzilla's template "Version-Release number of selected component"; rpm -q kernel
//	  prints NAME-VERSION-RELEASE.ARCH), and abrt's report field "kernel: 6.5.6-300.fc39.x86_64"
//	  (libreport's problem-data element "kernel", the running release). On these
//	  distributions uname -r is VERSION-RELEASE.ARCH, so the release is the NVR without the
//	  package's name.
//	Ubuntu apport: "ProcVersionSignature: Ubuntu 5.15.0-91.101-generic 5.15.131", the
//	  host's /proc/version_signature: the ABI release with its upload number
//	  ("5.15.0-91.101"), the flavour, then the upstream release; uname -r is
//	  "5.15.0-91-generic" (the upload number dropped).
//	  Its "Uname: Linux 5.15.0-91-generic x86_64" is uname's sysname, release and machine
//	  (apport/report.py add_os_info: f"{u[0]} {u[2]} {u[4]}" of os.uname()).
//	Debian reportbug: "Kernel: Linux 6.1.0-18-amd64 (SMP w/8 CPU threads; PREEMPT)" and
//	  "Architecture: i386 (i686)" (reportbug/utils.py: the dpkg architecture, then uname -m
//	  in parentheses; "CPU cores" before reportbug 7.10, "CPU threads" since). The Kernel
//	  field is "%s %s" of uname's sysname and release (bugreport.py), the flavour included.

// rpmKernelPackages are the kernel packages whose NVR names the running release.
var rpmKernelPackages = []string{"kernel-core-", "kernel-rt-core-", "kernel-rt-", "kernel-PAE-", "kernel-debug-", "kernel-uek-", "kernel-default-", "kernel-"}

// rpmArches end an NVR.
var rpmArches = []string{"x86_64", "aarch64", "i686", "i586", "ppc64le", "ppc64", "s390x", "armv7hl", "riscv64"}

// ReleaseInTrackerField reads a kernel release (and the machine, when the field states it)
// from one line of a tracker's report form: an RPM kernel NVR, abrt's "kernel:" field,
// apport's ProcVersionSignature and Uname, or reportbug's "Kernel:". ok is false when the
// line is none of them.
func ReleaseInTrackerField(line string) (release, machine string, ok bool) {
	t := strings.TrimSpace(line)
	if rest, found := strings.CutPrefix(t, "ProcVersionSignature:"); found {
		f := strings.Fields(rest)
		// "Ubuntu 5.15.0-91.101-generic 5.15.131": the second field is the ABI release.
		if len(f) < 2 || !startsVersion(f[1]) {
			return "", "", false
		}
		abi, flavour, _ := strings.Cut(f[1], "-")
		num, flav, hasFlav := strings.Cut(flavour, "-")
		if d := strings.IndexByte(num, '.'); d > 0 {
			num = num[:d] // "91.101" → "91": the upload number is not in uname -r
		}
		rel := abi + "-" + num
		if hasFlav {
			rel += "-" + flav
		}
		return rel, "", true
	}
	if rest, found := strings.CutPrefix(t, "Uname: Linux "); found {
		// apport: the release and the machine, nothing else on the line.
		if f := strings.Fields(rest); len(f) == 2 && startsVersion(f[0]) && ArchWordBits(f[1]) != 0 {
			return f[0], f[1], true
		}
		return "", "", false
	}
	if rest, found := strings.CutPrefix(t, "Kernel: Linux "); found {
		// reportbug: the release, then its notes in parentheses.
		rel, notes, _ := strings.Cut(rest, " ")
		if !startsVersion(rel) || notes != "" && !strings.HasPrefix(notes, "(") {
			return "", "", false
		}
		return rel, "", true
	}
	if rest, found := strings.CutPrefix(t, "kernel:"); found {
		// abrt: "kernel:         6.5.6-300.fc39.x86_64", the field's value alone.
		v := strings.TrimSpace(rest)
		if !startsVersion(v) || strings.ContainsAny(v, " \t") {
			return "", "", false
		}
		return v, rpmArch(v), true
	}
	if rel, mach, ok := releaseInSystemHeader(t); ok {
		return rel, mach, true
	}
	// The NVR as a field's value: the whole line (Bugzilla's template puts it on the line
	// after its label) or after a label's colon. In a sentence ("upgrading to kernel-… fixed
	// it") it may be any release, not the host's running one.
	i := strings.Index(t, "kernel-")
	if i < 0 || (i > 0 && !strings.HasSuffix(strings.TrimSpace(t[:i]), ":")) {
		return "", "", false
	}
	tok := t[i:]
	if strings.ContainsAny(tok, " \t") {
		return "", "", false
	}
	for _, p := range rpmKernelPackages {
		if v, found := strings.CutPrefix(tok, p); found {
			// The NVR's release must end with its architecture: "kernel-5.14.0-362.8.1.el9_3.x86_64";
			// "kernel-4.18" (a word in prose) names no built package.
			if a := rpmArch(v); a != "" && startsVersion(v) {
				return v, a, true
			}
			return "", "", false
		}
	}
	return "", "", false
}

// rpmArch is the architecture suffix of an RPM release ("….el9_3.x86_64" → "x86_64"), "".
func rpmArch(v string) string {
	for _, a := range rpmArches {
		if strings.HasSuffix(v, "."+a) {
			return a
		}
	}
	return ""
}

// reReportbugCPUs: reportbug's "(SMP w/8 CPU threads; PREEMPT)", "(SMP w/2 CPU cores)".
var reReportbugCPUs = lazyre.New(`\(SMP w/(\d{1,4}) CPU (?:threads?|cores?)\b`)

// ReportbugCPUs is the CPU count of reportbug's "Kernel:" line, 0 when the line has none.
func ReportbugCPUs(line string) int {
	if !strings.Contains(line, "SMP w/") {
		return 0
	}
	m := reReportbugCPUs.FindStringSubmatch(line)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// releaseInSystemHeader reads the running release from the system headers pasted on Gentoo's
// and Arch's forums and in Fedora's reports (pre-round 15):
//
//	Portage 3.0.30 (python 3.9.9-final-0, default/linux/amd64/17.1, gcc-11.2.0, glibc-2.33-r7, 5.15.11-gentoo x86_64)
//	  (emerge --info's first line, portage's getportageversion: its last item is
//	  platform.release() + " " + platform.machine())
//	System uname: Linux-5.15.11-gentoo-x86_64-AMD_Ryzen_7_3700X-with-glibc2.33
//	  (emerge --info, platform.platform(aliased=1): system-release-machine[-processor][-with-libc])
//	Kernel: 6.1.7-200.fc37.x86_64 arch: x86_64 bits: 64   (inxi -F's System: block)
//	System:    Host: h Kernel: 5.10.16-arch1-1 x86_64 bits: 64 compiler: gcc   (older inxi)
//	Kernel: 5.15.12-arch1-1   (neofetch, fastfetch)
//	Kernel: Linux 6.6.8-arch1-1   (hostnamectl; reportbug's, with "(SMP w/N CPU threads)" after it)
//
// The release must be followed by the end of the line, a machine name or inxi's next field:
// "Kernel: 5.15 broke it" in a sentence is no field.
func releaseInSystemHeader(t string) (release, machine string, ok bool) {
	if rest, found := strings.CutPrefix(t, "Portage "); found && strings.HasSuffix(t, ")") {
		open := strings.IndexByte(rest, '(')
		if open < 0 || !startsVersion(rest) {
			return "", "", false
		}
		items := strings.Split(rest[open+1:len(rest)-1], ", ")
		f := strings.Fields(items[len(items)-1])
		if len(items) >= 3 && len(f) == 2 && startsVersion(f[0]) && ArchWordBits(f[1]) != 0 {
			return f[0], f[1], true
		}
		return "", "", false
	}
	if i := strings.Index(t, "System uname: Linux-"); i >= 0 {
		rest := t[i+len("System uname: Linux-"):]
		if !startsVersion(rest) {
			return "", "", false
		}
		// The release may hold '-' itself ("5.15.11-gentoo"): it ends before the first
		// '-'-separated part that names a machine.
		parts := strings.Split(strings.Fields(rest)[0], "-")
		for k := 1; k < len(parts); k++ {
			if ArchWordBits(parts[k]) != 0 {
				return strings.Join(parts[:k], "-"), parts[k], true
			}
		}
		return "", "", false
	}
	i := strings.Index(t, "Kernel: ")
	if i < 0 || (i > 0 && t[i-1] != ' ' && t[i-1] != '\t') {
		return "", "", false
	}
	if i > 0 && !strings.HasPrefix(t, "System:") {
		return "", "", false // inxi puts Kernel: first on its line, or in the System: line
	}
	f := strings.Fields(t[i+len("Kernel: "):])
	if len(f) >= 2 && f[0] == "Linux" && startsVersion(f[1]) && (len(f) == 2 || strings.HasPrefix(f[2], "(")) {
		// hostnamectl's "Kernel: Linux 6.6.8-arch1-1" (systemd's hostnamectl.c, the
		// release alone) and reportbug's "Kernel: Linux 6.1.0-18-amd64 (SMP w/8 CPU
		// threads; PREEMPT)": the whole word ("Linux R" in prose stops after one '-' part).
		return f[1], "", true
	}
	if len(f) == 0 || !startsVersion(f[0]) {
		return "", "", false
	}
	switch {
	case len(f) == 1:
		return f[0], "", true
	case ArchWordBits(f[1]) != 0:
		return f[0], f[1], true
	case f[1] == "arch:" && len(f) > 2 && ArchWordBits(f[2]) != 0:
		return f[0], f[2], true
	case f[1] == "bits:":
		return f[0], "", true
	}
	return "", "", false
}

// flavourBits are Debian's and Ubuntu's kernel flavours that name the word size: the last
// part of uname -r ("4.9.0-9-686-pae", "5.10.0-8-armmp-lpae", "4.15.0-20-generic-pae"),
// from Debian's debian/config/<arch>/defines (i386: 686, 686-pae, 486; armel: marvell, rpi,
// orion5x, kirkwood, iop32x, ixp4xx, versatile; armhf: armmp, armmp-lpae; amd64, arm64,
// powerpc64le, s390x, octeon, loongson-3, 5kc-malta) and Ubuntu's i386 and armhf flavours
// (generic-pae, generic-lpae, raspi2). "-generic", "-lowlatency" and the clouds' name no
// word size.
var flavourBits = []struct {
	suffix string
	bits   int
}{
	{"-686-pae", 32}, {"-686-bigmem", 32}, {"-686", 32}, {"-486", 32}, {"-bigmem", 32}, {"-k7", 32},
	{"-generic-pae", 32}, {"-generic-lpae", 32}, {"-armmp-lpae", 32}, {"-armmp", 32}, {"-raspi2", 32},
	{"-marvell", 32}, {"-kirkwood", 32}, {"-orion5x", 32}, {"-iop32x", 32}, {"-ixp4xx", 32}, {"-versatile", 32}, {"-rpi", 32},
	{"-amd64", 64}, {"-arm64", 64}, {"-powerpc64le", 64}, {"-s390x", 64}, {"-octeon", 64}, {"-loongson-3", 64}, {"-5kc-malta", 64},
}

// FlavourWordBits is the word size a Debian or Ubuntu release's flavour names, 0 when it
// names none.
func FlavourWordBits(release string) int {
	for _, f := range flavourBits {
		if strings.HasSuffix(release, f.suffix) {
			return f.bits
		}
	}
	return 0
}
