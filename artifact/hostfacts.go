package artifact

import (
	"fmt"
	"slices"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// hostFacts gathers what a text tells about its host: kernel release, architecture, word
// size, HighMem, memory, page size, host name. Evidence from kernel output beats prose, and
// among equals the first mention wins; each fact remembers its line.
type hostFacts struct {
	kernel      string
	kernelLine  int
	kernelText  string
	kernelScore int

	arch      string
	archLine  int
	archScore int

	wordBits  int
	wordScore int

	highMem     bool
	memTotalKB  int64
	memScore    int
	pageSizeKB  int64
	cpus        int
	hostname    string
	armTraceSet bool
	afterUnameR bool // the last line was the command "uname -r"
	// afterVersionCmd: the last line was a prompt and another program's version command
	// ("$ juju version", "# haproxy -v"): the version on the next line is that program's.
	afterVersionCmd bool
	nvrLine         int // the number of the last line that was a kernel package's NVR

	// programVers: bare versions an earlier line named as a program's ("Update SABnzbd to
	// 2.2.1"): the same version alone later ("the 2.2.1 have on my computer") is that
	// program's, not the kernel's (fix42c, corpus 3592). At most a few are kept.
	programVers []string
}

// unameRCommand: "uname -r" alone or after a shell prompt ("$ ", "# ", "root@h:~# ",
// "[root@h ~]# ").
func unameRCommand(t string) bool {
	p := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "uname -r"))
	return p == "" || strings.IndexAny(p[len(p)-1:], "$#>%") == 0
}

// Kernel release mentions, strongest first:
//
//	5  "Linux version 2.6.30-1-kirkwood (...)" (boot banner), uname -a
//	4  "Linux 2.6.13-2smp"
//	3  "the 2.6.30-1 kernel", "kernel 4.0.0", "a 4.0.0 kernel"
//	1  a bare old-style release in prose: "2.4.13 (and 2.4.5) performance drops"
var (
	reVersion     = `([2-7]\.\d{1,2}(?:\.\d{1,3})?(?:-[0-9A-Za-z_.+~]+)?)`
	reLinuxVerBan = lazyre.New(`Linux version ` + reVersion)
	reLinuxVer    = lazyre.New(`\bLinux ` + reVersion + `\b`)
	reKernelVer   = lazyre.New(`(?i)\b` + reVersion + `(?:\s*\(\w+\))?\s+kernel\b|\bkernel(?: version:?)?\s+(?:v)?` + reVersion)
	reBareVer     = lazyre.New(`(?:^|[\s(])(2\.[0-6]\.\d{1,3}(?:-[0-9A-Za-z_.+~]+)?)`)
	reWordBits    = lazyre.New(`\b(32|64)[ -]?bit\b`)
)

// reDistroBefore: the words before "Linux N.N" that make it a distribution's release, not the
// kernel's: "Red Hat Enterprise Linux 5.8" (2.6.18), "Oracle Linux 7.9", "Scientific Linux
// 6.4", "Rocky Linux 8.5", "Red Hat Linux 7.3" (corpus 609 read RHEL 5.8 as kernel 5.8).
var reDistroBefore = lazyre.New(`(?i)\b(?:enterprise|oracle|scientific|rocky|alma|amazon|red\s*hat|redhat|kali|mint|alpine|puppy|yellow\s*dog|turbo|mandrake|caldera|asianux|euler|anolis|kylin|deepin)\s*$`)

// distroRelease: the text before "Linux N.N" names a distribution (reDistroBefore).
func distroRelease(before string) bool { return reDistroBefore.MatchString(before) }

// reFeatureVerBefore and reFeatureVerAfter: the words around "Linux N.N" (or "kernel N.N")
// that make it the version a feature came or went with, in the voice of reference pages, not
// the release of the host the text is about: tcp(7) "tcp_abc (Integer; default: 0; Linux
// 2.6.15 to Linux 3.8)", proc(5) "/proc/[pid]/oom_adj (since Linux 2.6.11)", "removed in
// Linux 4.12", "kernels before 2.6.13". A page documents every version it names; none is the
// host's.
var (
	reFeatureVerBefore = lazyre.New(`(?i)(?:\b(?:since|before|after|until|till|prior\s+to|as\s+of|starting\s+(?:with|from|in)|introduced\s+in|added\s+in|removed\s+in|appeared\s+in|new\s+in|dropped\s+in|deprecated\s+in|up\s+to(?:\s+and\s+including)?|through|older\s+than|newer\s+than|later\s+than|earlier\s+than)|\d\.\d+(?:\.\d+)*\s*(?:to|through|-|–)|[<>]=?|≥|≤)\s*(?:the\s+)?(?:Linux\s+|kernels?\s+(?:version\s+)?)?$`)
	reFeatureVerAfter  = lazyre.New(`(?i)^(?:/[2-7]\.\d+(?:\.\d+)?)+\s*$|^(?:/[2-7]\.\d+(?:\.\d+)?)?\s*(?:(?:to|through|until|-|–)\s*(?:Linux\s+|kernel\s+)?[2-7]\.\d|(?:and|or)\s+(?:Linux\s+)?(?:[2-7]\.\d|later|newer|above|up|earlier|older)\b|onwards?\b|\+)`)
)

// featureVersion reports whether the release at t[i:j] is named as a feature's version
// (reFeatureVerBefore, reFeatureVerAfter) rather than as the host's kernel.
func featureVersion(t string, i, j int) bool {
	return reFeatureVerBefore.MatchString(t[:i]) || reFeatureVerAfter.MatchString(t[j:])
}

// reBuildTarget: the words before "Linux N.N" that make it the kernel a binary was built for
// or on, not the running one (h40c): file(1)'s ELF note "for GNU/Linux 3.2.0" (libmagic
// magic/Magdir/elf: the ABI tag's minimum kernel), glibc's banner "Compiled on a Linux
// 5.15.0 system" (csu/version.c, the build host's headers). Also a product's own release
// named "<product> for Linux N.N" (round 51): "Virtuozzo Containers for Linux 4.7",
// "Parallels Server for Linux 4.0", "Plesk for Linux 12.5" are the product's versions (the
// Virtuozzo 4.7 nodes ran 2.6.18-based kernels); only a product word right before "for"
// counts, so "kernel headers for Linux 5.14.0" and "a patch for Linux 4.7" are untouched.
var reBuildTarget = lazyre.New(`(?i)(?:\bfor\s+GNU/|\bcompiled\s+on\s+an?\s+|\b(?:virtuozzo|parallels|plesk|acronis|containers|server|agent|tools|edition|suite)\s+for\s+)$`)

// buildTarget: the text before "Linux N.N" names it a build's target or host (reBuildTarget).
func buildTarget(before string) bool { return reBuildTarget.MatchString(before) }

// cleanRelease drops placeholders: "2.4.19-preX" names no release, "2.4.19" does.
func cleanRelease(v string) string {
	v = strings.TrimRight(v, ".,;:)")
	if i := strings.IndexByte(v, '-'); i >= 0 {
		suf := v[i+1:]
		if strings.ContainsAny(suf, "X") || suf == "" {
			v = v[:i]
		}
	}
	return v
}

func (h *hostFacts) setKernel(v string, score int, l *Line, text string) {
	v = cleanRelease(v)
	if kv, err := kernel.ParseKernelVersion(v); err != nil || !kv.Known {
		return
	}
	if score > h.kernelScore {
		h.kernel, h.kernelScore, h.kernelLine, h.kernelText = v, score, l.No, strings.TrimSpace(text)
		if len(h.kernelText) > 80 {
			h.kernelText = h.kernelText[:80]
		}
	}
}

func (h *hostFacts) setArch(a string, score int, l *Line) {
	if score > h.archScore {
		h.arch, h.archScore, h.archLine = a, score, l.No
	}
}

// scan looks for host facts in one line. It is called for every non-blank line, so it
// tests cheap substrings before any regular expression.
func (h *hostFacts) scan(l *Line) {
	t := l.Text
	// "$ uname -r" and the release on the next line: the host's own, as strong as a boot
	// banner.
	if h.afterUnameR {
		h.afterUnameR = false
		if rel := strings.TrimSpace(t); rel != "" && !strings.ContainsAny(rel, " \t") {
			if h.kernelScore < 5 {
				h.setKernel(rel, 5, l, t)
			}
			return
		}
	}
	if strings.HasSuffix(t, "uname -r") && unameRCommand(t) {
		h.afterUnameR = true
		return
	}
	if h.afterVersionCmd {
		// fix65p (g262's 5664: "$ juju version" / "2.2.3-xenial-amd64" read as kernel 2.2.3).
		h.afterVersionCmd = false
		for _, f := range strings.Fields(t) {
			if f = strings.TrimRight(f, ",;"); f != "" && f[0] >= '0' && f[0] <= '9' && len(h.programVers) < 8 {
				h.programVers = append(h.programVers, f)
			}
		}
		for _, m := range reBareVer.FindAllStringSubmatch(t, -1) {
			if len(h.programVers) < 8 {
				h.programVers = append(h.programVers, m[1]) // as the bare-version reader cuts it
			}
		}
		// The line is still read for the other facts it may state (pveversion -v's "running
		// kernel: R").
	}
	if versionCommand(t) {
		h.afterVersionCmd = true
		return
	}
	if h.kernelScore < 5 && strings.Contains(t, "(running kernel: ") {
		// Proxmox's pveversion: "pve-manager/8.2.7/3e0176e6bb2ade3b (running kernel:
		// 6.8.12-4-pve)", and -v's first line "proxmox-ve: 8.2.0 (running kernel: R)": the
		// release uname reports, whatever version other packages' lines print below it
		// (zfsutils-linux: 2.2.6-pve1 is no kernel).
		k := strings.Index(t, "(running kernel: ")
		rel, _, ok := strings.Cut(t[k+len("(running kernel: "):], ")")
		if rel = strings.TrimSpace(rel); ok && rel != "" && !strings.ContainsAny(rel, " \t") {
			h.setKernel(rel, 5, l, t)
		}
	}
	if h.kernelScore < 5 && strings.Contains(t, "-linux-") {
		if rel, arch, ok := smartmontoolsBanner(t); ok {
			// smartctl's and smartd's banner, "[x86_64-linux-5.18.17-edge]": uname's machine
			// and release of the host they run on (hostfactsdockerinfo.go).
			h.setKernel(rel, 5, l, t)
			h.setArch(arch, 5, l)
		}
	}
	if h.hostname == "" && l.Kernel && l.Host != "" {
		h.hostname = l.Host
	}
	if l.Kernel || l.Syslog {
		if h.kernelScore < 5 && strings.Contains(t, "Linux version ") {
			// The banner's release is its whole word ("4.19.0-6-amd64", "5.15.12-arch1-1"):
			// reVersion stops after one '-' part.
			if rel, _, ok := kernel.ReleaseInLine(t); ok {
				h.setKernel(rel, 5, l, t)
			} else if m := reLinuxVerBan.FindStringSubmatch(t); m != nil {
				h.setKernel(m[1], 5, l, t)
			}
		}
		if h.kernelScore < 5 && strings.Contains(t, "ainted") {
			if m := reTainted.FindStringSubmatch(t); m != nil {
				h.setKernel(m[1], 5, l, t)
			}
		}
		return
	}
	if h.kernelScore < 5 && strings.HasPrefix(strings.TrimSpace(t), "CPU: ") && strings.Contains(t, "ainted") {
		// The oops header's "CPU: 1 PID: 1234 Comm: x Not tainted R #1" without its log
		// prefix (abrt's backtrace, a pasted oops).
		if rel, _, ok := kernel.ReleaseInLine(t); ok {
			h.setKernel(rel, 5, l, t)
		}
	}
	if h.kernelScore < 5 && strings.Contains(t, "inux") {
		if rel, arch, ok := kernel.ReleaseInLine(t); ok && arch != "" && strings.HasPrefix(t, "Linux ") {
			// uname -a (kernel.ReleaseInLine knows the machine names).
			h.setKernel(rel, 5, l, t)
			h.setArch(arch, 5, l)
		} else if ok && h.kernelScore < 4 && unameCut(t) {
			// uname -a cut before its machine ("Linux manjaroB 5.10.179-1-MANJARO #1 SMP
			// PREEMP", g259): the release is the host's, the machine unknown.
			h.setKernel(rel, 4, l, t)
		} else if m := reLinuxVerBan.FindStringSubmatch(t); m != nil {
			h.setKernel(m[1], 5, l, t)
		} else if m := reLinuxVer.FindStringSubmatchIndex(t); m != nil && h.kernelScore < 4 && !distroRelease(t[:m[0]]) && !featureVersion(t, m[0], m[1]) && !buildTarget(t[:m[0]]) {
			h.setKernel(t[m[2]:m[3]], 4, l, t)
		}
	}
	// Trackers' report forms (kernel.ReleaseInTrackerField): apport's ProcVersionSignature
	// and Uname, reportbug's "Kernel: Linux R" and abrt's "kernel:" field are the host's
	// own (uname's, as strong as uname -a: a release named in the report's prose before
	// them does not win), an RPM NVR in Bugzilla's template the reporter's statement of it.
	// emerge --info's "Portage … (…, R M)" and "System uname: Linux-R-M-…", inxi's and
	// neofetch's "Kernel: R" are the running host's too. A field indented as Launchpad's
	// notification mail indents its "Bug description:" (two blanks) is the same field.
	ft := t
	if len(ft) > 0 && (ft[0] == ' ' || ft[0] == '\t') {
		ft = strings.TrimLeft(ft, " \t")
	}
	if strings.HasPrefix(ft, "Operating System: ") && h.dockerInfoNotLinux(ft, l.No) {
		return
	}
	if h.kernelScore < 5 && (strings.Contains(t, "kernel-") || strings.HasPrefix(ft, "kernel:") || strings.HasPrefix(ft, "ProcVersionSignature:") ||
		strings.HasPrefix(ft, "Uname: Linux ") || strings.Contains(t, "Kernel: ") || strings.Contains(t, "System uname: ") || strings.HasPrefix(ft, "Portage ")) {
		if rel, arch, ok := kernel.ReleaseInTrackerField(t); ok {
			score := 5
			if strings.Contains(t, "kernel-") {
				score = 4
				// `rpm -q kernel`, `rpm -qa | grep kernel`: one NVR a line for every kernel
				// installed, the running one not marked: a list names no host's release.
				prev := h.nvrLine
				h.nvrLine = l.No
				if prev > 0 && prev == l.No-1 {
					if h.kernelLine == prev && h.kernelScore == 4 {
						h.kernel, h.kernelScore, h.kernelLine, h.kernelText = "", 0, 0, ""
					}
					score = 0
				}
			}
			if h.kernelScore < score {
				h.setKernel(rel, score, l, t)
			}
			if arch != "" {
				h.setArch(arch, score, l)
			}
		}
	}
	if h.cpus == 0 && strings.Contains(t, "SMP w/") {
		h.cpus = kernel.ReportbugCPUs(t) // reportbug's "Kernel: Linux R (SMP w/8 CPU threads)"
	}
	if h.cpus == 0 && strings.HasSuffix(strings.TrimSpace(t), " CPU)") {
		if b, ok := sysstatBanner(t); ok && b.CPUs > 0 {
			h.cpus = b.CPUs // sysstat's banner: "(128 CPU)"
		}
	}
	if h.kernelScore < 3 && strings.Contains(t, "ernel") {
		if m := reKernelVer.FindStringSubmatchIndex(t); m != nil && !featureVersion(t, m[0], m[1]) {
			v := subOr(t, m[2], m[3])
			if v == "" {
				v = subOr(t, m[4], m[5])
			}
			h.setKernel(v, 3, l, t)
		}
	}
	if h.kernelScore < 3 {
		if v, ok := kernelStatedCJK(t); ok {
			h.setKernel(v, 3, l, t) // stated in Chinese or Japanese prose (hostfactscjk.go)
		}
	}
	if h.kernelScore < 1 && strings.Contains(t, "2.") {
		program := -1 // the end of the last program's version (programVersionBefore)
		for _, m := range reBareVer.FindAllStringSubmatchIndex(t, -1) {
			// "updated ss-redir to version 2.1.0": a program's version, not a kernel's
			// (corpus 537), "version: 2.4.9" a tool's version field (fix25b, corpus 2189); "kernel
			// version 2.4.5" was read above.
			if before := strings.ToLower(strings.TrimRight(t[:m[2]], " \t:=")); strings.HasSuffix(before, "version") || strings.HasSuffix(before, " v") || programVersionBefore(before) || installedByPackageManager(t[m[3]:]) || program >= 0 && versionListAfter(t[program:m[2]]) {
				program = m[3]
				if len(h.programVers) < 8 {
					h.programVers = append(h.programVers, t[m[2]:m[3]])
				}
				continue
			}
			if slices.Contains(h.programVers, t[m[2]:m[3]]) {
				continue // the version an earlier line gave a program (fix42c)
			}
			if featureVersion(t, m[2], m[3]) || preReleaseGlued(t, m[3]) || !bareKernelSeries(t[m[2]:m[3]]) {
				continue
			}
			h.setKernel(t[m[2]:m[3]], 1, l, t)
			break
		}
	}
	if h.archScore < 3 && strings.HasPrefix(ft, "Architecture: ") {
		if a, ok := dpkgArchField(ft); ok {
			h.setArch(a, 3, l)
		}
	}
	if h.archScore < 3 {
		// A machine name inside a link is the linked page's topic, not this host's
		// ("…/topic/memory_pool.20issue.20on.20arch64.20and.20riscv64/…" in a post about
		// arm64, corpus 3460).
		for _, a := range []string{"x86_64", "aarch64", "i686", "i386", "armv5tel", "armv7l", "armv6l", "ppc64le", "s390x", "riscv64"} {
			if i := strings.Index(t, a); i >= 0 && !inURL(t, i) {
				h.setArch(a, 3, l)
				break
			}
		}
	}
	if h.archScore < 2 && (strings.Contains(t, "Kirkwood") || strings.Contains(t, "SheevaPlug")) {
		// Marvell Kirkwood SoCs (SheevaPlug, GuruPlug, many NAS boxes) have the Feroceon
		// ARMv5TE core: uname -m prints armv5tel (arch/arm/mach-kirkwood).
		h.setArch("armv5tel", 2, l)
	}
	if h.wordScore < 1 && strings.Contains(t, "bit") {
		// InnoDB's allocation failure ends in boilerplate, "Note that on most 32-bit computers
		// the process memory space is limited to 2 GB or 4 GB" (h38b): no statement of this
		// host's width.
		if m := reWordBits.FindStringSubmatchIndex(t); m != nil && !deviceWidth(t[m[1]:]) && !strings.Contains(t, "on most 32-bit computers") {
			h.wordBits, h.wordScore = int(t[m[2]]-'0')*10+int(t[m[2]+1]-'0'), 1
		}
	}
}

// traceAddressBits is the width of the first call-trace address of a kernel line
// ("[<ffffffff8125660f>]": 16 hex digits, a 64-bit kernel; "[<c0158a73>]": 8, a 32-bit
// one), 0 when the line has none. The kernel prints them with "%p"/"[<%px>]" at full width
// (arch/*/kernel/dumpstack.c, lib/dump_stack.c printk_stack_address).
func traceAddressBits(t string) int {
	i := strings.Index(t, "[<")
	if i < 0 {
		return 0
	}
	j := i + 2
	for j < len(t) && isHexDigit(t[j]) {
		j++
	}
	if j+1 >= len(t) || t[j] != '>' || t[j+1] != ']' {
		return 0
	}
	switch j - i - 2 {
	case 16:
		return 64
	case 8:
		return 32
	}
	return 0
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// deviceWidth: the words after "32-bit" name a device's or a value's width, not the
// kernel's: "32-bit devices", "32-bit DMA", "32-bit dma-able memory", "32-bit physical
// addresses", "a 32-bit counter" (corpus 781: prose about ZONE_DMA32 on a 64-bit RISC-V
// kernel was read as a 32-bit kernel).
func deviceWidth(after string) bool {
	w := strings.ToLower(strings.TrimLeft(after, " \t"))
	for _, p := range []string{"dma", "device", "pci", "physical", "address", "counter", "value", "mask", "register", "integer", "int ", "unsigned", "signed", "number", "field", "bar ", "bars", "hash", "id ", "ids"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

func (h *hostFacts) pageKB(kb int64, _ int) {
	if h.pageSizeKB == 0 && kb > 0 {
		h.pageSizeKB = kb
	}
}

func (h *hostFacts) memTotal(kb int64, score int) {
	if kb > 0 && score > h.memScore {
		h.memTotalKB, h.memScore = kb, score
	}
}

// apply writes the facts into the Timeline's Host.
func (h *hostFacts) apply(host *model.Host, opt Options) {
	host.Kernel, host.KernelLine = h.kernel, h.kernelLine
	if h.kernel == "" {
		host.KernelLine = 0
	}
	if opt.Kernel != "" {
		host.Kernel, host.KernelLine = opt.Kernel, 0
	}
	host.Arch = h.arch
	if host.Arch == "" && h.armTraceSet {
		host.Arch = "arm"
	}
	host.Hostname = h.hostname
	bitsFromArch := kernel.ArchWordBits(host.Arch)
	switch {
	case h.highMem:
		// ZONE_HIGHMEM exists only in 32-bit kernels (CONFIG_HIGHMEM).
		host.WordBits = 32
	case bitsFromArch != 0:
		host.WordBits = bitsFromArch
	case h.wordScore >= 2:
		host.WordBits = h.wordBits // a call trace's address width
	case kernel.FlavourWordBits(h.kernel) != 0:
		// The release's flavour ("4.9.0-9-686-pae", kernel.FlavourWordBits): surer than a
		// "32-bit" in prose.
		host.WordBits = kernel.FlavourWordBits(h.kernel)
	case h.wordScore > 0:
		host.WordBits = h.wordBits
	}
	if h.highMem {
		t := true
		host.HighMem = &t
	}
	if h.pageSizeKB > 0 {
		host.SetPageSize(int(h.pageSizeKB * 1024))
	}
	host.MemTotalKB = h.memTotalKB
	if h.cpus > 0 {
		host.CPUs = h.cpus
	}
}

func (h *hostFacts) String() string {
	return fmt.Sprintf("kernel %q (line %d) arch %q bits %d", h.kernel, h.kernelLine, h.arch, h.wordBits)
}

// dpkgArchField reads the architecture of a tracker's "Architecture:" field: apport's
// (apport/report.py add_os_info: packaging.get_system_architecture(), dpkg's name: "amd64",
// "armhf", "ppc64el") and reportbug's, which adds uname -m in parentheses ("Architecture:
// amd64 (x86_64)", "armhf (armv7l)"; the machine is the kernel's own and wins). A field of
// several words (a .changes file's "Architecture: source all") or an unknown name is none.
func dpkgArchField(t string) (string, bool) {
	v := strings.TrimSpace(strings.TrimPrefix(t, "Architecture: "))
	name, machine, paren := strings.Cut(v, " (")
	if paren {
		if m, ok := strings.CutSuffix(machine, ")"); ok && !strings.ContainsAny(m, " \t") && kernel.ArchWordBits(m) != 0 {
			return m, true
		}
	}
	if strings.ContainsAny(name, " \t") || kernel.ArchWordBits(name) == 0 {
		return "", false
	}
	return name, true
}

// bareKernelSeries: a bare "2.x.y" with no kernel word is read as the kernel only in the
// series hosts ran and pastes name bare: 2.2, 2.4, 2.6 and the 2.5 development series of
// the 2.6 era ("tested on 2.5.66"). 2.0 (1996) and the 2.1 and 2.3 development series named
// bare are a program's release ("tried to upgrade to 2.0.0" of actix-web, corpus 3455;
// "2.1.3", "2.3.1" of any tool): none of the corpus's 150-odd 2.x kernels is one of them.
// A kernel of those series named as one ("kernel 2.0.36", "Linux 2.0.36") is still read.
func bareKernelSeries(v string) bool {
	switch {
	case strings.HasPrefix(v, "2.0."), strings.HasPrefix(v, "2.1."), strings.HasPrefix(v, "2.3."):
		return false
	}
	return true
}

// preReleaseGlued: the bare release ending at end is glued to a pre-release tag ("2.0.0rc1",
// "2.0.0b4", "2.1.0beta"): a program's version (fix35c, corpus 3019: GNS3's "2.0.0rc1" read
// as kernel 2.0.0); a kernel's own is joined by a dash ("2.6.32-rc1"), kept by reBareVer.
// Other glued letters stay a kernel's: 2.4's patch sets were named so ("2.4.20aa1",
// Arcangeli's tree; "2.4.20rmap"; "2.4.18ac3", Cox's; corpus 346).
func preReleaseGlued(t string, end int) bool {
	k := end
	for k < len(t) && (t[k] >= 'a' && t[k] <= 'z' || t[k] >= 'A' && t[k] <= 'Z') {
		k++
	}
	switch strings.ToLower(t[end:k]) {
	case "rc", "b", "beta", "a", "alpha", "dev":
		return true
	}
	return false
}

// unameCut: t is uname -a's line cut before its machine: "Linux", a host name, the release,
// and the build number "#N" (fs[3]); kernel.ReleaseInLine checked the release.
func unameCut(t string) bool {
	fs := strings.Fields(t)
	return len(fs) >= 4 && fs[0] == "Linux" && len(fs[3]) >= 2 && fs[3][0] == '#' && strings.Trim(fs[3][1:], "0123456789") == ""
}

// versionCommand: a shell prompt and a program's own version command, "$ juju version",
// "root@h:~# haproxy -v", "# nginx -V", "$ docker --version" (not uname: its release is the
// kernel's).
func versionCommand(t string) bool {
	s := strings.TrimSpace(t)
	i := strings.IndexAny(s, "$#")
	if i < 0 || i+2 > len(s) || s[i+1] != ' ' {
		return false
	}
	f := strings.Fields(s[i+2:])
	if len(f) != 2 || f[0] == "uname" || strings.ContainsAny(f[0], "|;&") {
		return false
	}
	switch f[1] {
	case "version", "--version", "-version", "-v", "-V":
		return true
	}
	return false
}
