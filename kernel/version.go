package kernel

import (
	"fmt"
	"strconv"
	"strings"
)

// KernelVersion is a parsed kernel release: "2.6.30-1-kirkwood" → {2, 6, 30}. Known is false
// for the zero value (the release was not given); every comparison with an unknown version is
// false, so a rule that needs "at least 4.4" never assumes it of a kernel it does not know.
//
// This is the only parser of kernel releases in headroom: model (Host.KernelVersion), plan
// (defaults that changed between kernels), diagnose (historical sysctl keys, per-era limits)
// and the GFP tables (gfp.go) all compare through it, so a release means the same everywhere.
type KernelVersion struct {
	Major, Minor, Patch int
	Known               bool
}

// KV is a known version major.minor.patch, for tables and comparisons.
func KV(major, minor, patch int) KernelVersion {
	return KernelVersion{Major: major, Minor: minor, Patch: patch, Known: true}
}

// maxVersionComponent bounds a component so that "9999999999.1" is an error, not an overflow.
const maxVersionComponent = 1 << 20

// ParseKernelVersion reads a kernel release in any of the forms a host or a text prints it:
//
//	"6.18.44-fc-v669", "2.6.13-2smp", "3.10.0-1160.el7.x86_64", "5.15.0+", "4.9" (uname -r)
//	"v5.10", "2.4.19-pre2"                                                        (prose, git tags)
//	"Linux version 2.6.30-1-kirkwood (gcc …) #1 …"                     (/proc/version, dmesg banner)
//	"Linux host 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian … x86_64 GNU/Linux"       (uname -a)
//	"CPU: 0 PID: 1 Comm: swapper Not tainted 4.19.0-6-amd64 #1 Debian …"  (oops/warn task line)
//	"Pid: 1, comm: swapper Tainted: G        W  2.6.32-431.el6.x86_64 #1"        (2.6's task line)
//
// "" (or only spaces) gives an unknown version and no error: the release was not given. Text
// that is not one of these forms is an error.
func ParseKernelVersion(s string) (KernelVersion, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return KernelVersion{}, nil
	}
	if rel, _, ok := ReleaseInLine(s); ok {
		s = rel
	}
	s = strings.TrimPrefix(s, "v")
	// Cut at the first character that is neither digit nor dot: "-2smp", "+", "_rc1".
	end := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '.' {
			end = i
			break
		}
	}
	parts := strings.Split(strings.TrimRight(s[:end], "."), ".")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return KernelVersion{}, fmt.Errorf("kernel version %q: want major.minor[.patch]", s)
	}
	var n [3]int
	for i := 0; i < len(parts) && i < 3; i++ {
		v, err := strconv.Atoi(parts[i])
		if err != nil || v < 0 || v > maxVersionComponent {
			return KernelVersion{}, fmt.Errorf("kernel version %q: bad component %q", s, parts[i])
		}
		n[i] = v
	}
	return KernelVersion{Major: n[0], Minor: n[1], Patch: n[2], Known: true}, nil
}

// ReleaseInLine finds the release (and, for uname -a, the machine) in one line of the forms
// the kernel or uname print it: the /proc/version banner "Linux version R", uname -a
// "Linux HOST R #N … MACHINE …", and the task line of a WARN/oops/allocation failure
// ("Not tainted R", "Tainted: G W R"; lib/dump_stack.c dump_stack_print_info prints
// print_tainted() then init_utsname()->release). ok is false when the line has none of them.
func ReleaseInLine(line string) (release, arch string, ok bool) {
	if i := strings.Index(line, "Linux version "); i >= 0 {
		if f := strings.Fields(line[i+len("Linux version "):]); len(f) > 0 && startsVersion(f[0]) {
			return f[0], "", true
		}
	}
	if i := strings.Index(line, "ainted"); i > 0 && (strings.HasSuffix(line[:i], "Not t") || strings.HasSuffix(line[:i], "T")) {
		// "Not tainted R" or "Tainted: <flags> R": the release is the first field after the
		// word that starts with a digit (the flags are letters and spaces).
		rest := strings.TrimPrefix(line[i+len("ainted"):], ":")
		for _, f := range strings.Fields(rest) {
			if startsVersion(f) {
				return f, "", true
			}
			if f[0] == '#' {
				break
			}
		}
	}
	if f := strings.Fields(line); len(f) >= 4 && f[0] == "Linux" && startsVersion(f[2]) && strings.HasPrefix(f[3], "#") {
		// uname -a: the machine is the first field after the build stamp that names a known
		// architecture ("… SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29) x86_64 GNU/Linux").
		for _, w := range f[4:] {
			if ArchWordBits(w) != 0 {
				return f[2], w, true
			}
		}
		return f[2], "", true
	}
	return "", "", false
}

// startsVersion reports whether s begins "N.N".
func startsVersion(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9'
}

// Compare returns -1, 0 or +1 as v is older than, the same as, or newer than w. Unknown
// versions compare equal to each other and older than any known one.
func (v KernelVersion) Compare(w KernelVersion) int {
	switch {
	case v.Known != w.Known:
		if v.Known {
			return 1
		}
		return -1
	case v.Major != w.Major:
		return sign(v.Major - w.Major)
	case v.Minor != w.Minor:
		return sign(v.Minor - w.Minor)
	}
	return sign(v.Patch - w.Patch)
}

func sign(d int) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// AtLeast reports whether v is a known version >= major.minor.patch.
func (v KernelVersion) AtLeast(major, minor, patch int) bool {
	return v.Known && v.Compare(KV(major, minor, patch)) >= 0
}

// Within reports whether v is known and from <= v <= to.
func (v KernelVersion) Within(from, to KernelVersion) bool {
	return v.Known && v.Compare(from) >= 0 && v.Compare(to) <= 0
}

// Next returns the first release after v at its own precision: 2.6.11 → 2.6.12. A key "in
// 2.6.0-2.6.11" is gone from Next(2.6.11) on.
func (v KernelVersion) Next() KernelVersion {
	v.Patch++
	return v
}

func (v KernelVersion) String() string {
	if !v.Known {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// arch is what headroom needs of a `uname -m` machine: the kernel's word size (whether a
// HighMem split can exist: 32-bit only; the size of struct page and of a socket buffer's
// overhead) and the family, the arch/ directory of the kernel source whose memory layout and
// mechanisms apply (the x86 TLB-flush batching of 4.3, the lowmem limits of 32-bit ARM,
// PowerPC and MIPS). The names are the kernel's UTS_MACHINE values (arch/*/Makefile) and what
// distributions print.
type arch struct {
	bits   int
	family string
}

var arches = map[string]arch{
	// 64-bit
	"x86_64": {64, "x86"}, "amd64": {64, "x86"},
	"aarch64": {64, "arm64"}, "aarch64_be": {64, "arm64"}, "arm64": {64, "arm64"},
	"ppc64": {64, "powerpc"}, "ppc64le": {64, "powerpc"}, "powerpc64": {64, "powerpc"}, "powerpc64le": {64, "powerpc"},
	"s390x": {64, "s390"}, "riscv64": {64, "riscv"}, "mips64": {64, "mips"}, "mips64el": {64, "mips"},
	"loongarch64": {64, "loongarch"}, "sparc64": {64, "sparc"}, "alpha": {64, "alpha"}, "ia64": {64, "ia64"},
	"parisc64": {64, "parisc"}, "sh64": {64, "sh"},
	// Debian's architecture names for the same machines (dpkg --print-architecture, which
	// apport's "Architecture:" field and reportbug's "Architecture: armhf (armv7l)" print):
	// amd64, arm64, i386, mips64el and mipsel are above.
	"ppc64el": {64, "powerpc"}, "armhf": {32, "arm"}, "armel": {32, "arm"}, "hppa": {32, "parisc"},
	// 32-bit
	"i386": {32, "x86"}, "i486": {32, "x86"}, "i586": {32, "x86"}, "i686": {32, "x86"}, "x86": {32, "x86"},
	"arm": {32, "arm"}, "armeb": {32, "arm"},
	"mips": {32, "mips"}, "mipsel": {32, "mips"}, "ppc": {32, "powerpc"}, "ppcle": {32, "powerpc"}, "powerpc": {32, "powerpc"},
	"riscv32": {32, "riscv"}, "s390": {32, "s390"}, "sparc": {32, "sparc"}, "parisc": {32, "parisc"}, "m68k": {32, "m68k"},
	"sh": {32, "sh"}, "sh3": {32, "sh"}, "sh4": {32, "sh"}, "sh4a": {32, "sh"}, "sh4eb": {32, "sh"},
	"microblaze": {32, "microblaze"}, "nios2": {32, "nios2"}, "arc": {32, "arc"}, "xtensa": {32, "xtensa"},
	"csky": {32, "csky"}, "openrisc": {32, "openrisc"}, "or1k": {32, "openrisc"},
}

func lookupArch(machine string) (arch, bool) {
	a := strings.ToLower(strings.TrimSpace(machine))
	if v, ok := arches[a]; ok {
		return v, true
	}
	// ARM's 32-bit names carry the core: "armv5tel", "armv7l", "armv8l" (a 32-bit userland
	// on a 64-bit core).
	if strings.HasPrefix(a, "armv") {
		return arch{32, "arm"}, true
	}
	return arch{}, false
}

// ArchWordBits returns 32 or 64 for a `uname -m` machine name, 0 when unknown.
func ArchWordBits(machine string) int {
	a, _ := lookupArch(machine)
	return a.bits
}

// ArchFamily returns the kernel's arch/ directory for a machine name ("x86", "arm",
// "arm64", "powerpc", "mips", ...), "" when unknown.
func ArchFamily(machine string) string {
	a, _ := lookupArch(machine)
	return a.family
}
