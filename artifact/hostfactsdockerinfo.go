package artifact

import "strings"

// fix49b (corpus 3049): docker info's "Kernel Version:" and "Operating System:" fields
// (docker/cli cli/command/system/info.go, the daemon's /info: KernelVersion, OperatingSystem)
// describe the host of the daemon the client talks to. Triton's sdc-docker answers /info for
// a whole data center and fills both with fixed values (sdc-docker lib/backends/sdc/info.js:
// KernelVersion '3.12.0-1-amd64', "same as lxzone", OperatingSystem 'SmartDataCenter',
// CPUs 0, Total Memory 0 B): its containers run in SmartOS LX-branded zones, which emulate
// Linux's system calls on an illumos kernel, so the version names no Linux kernel that runs
// anywhere. Read as the kernel's release it raised kernel-known-limits on a kernel no
// machine ran. When the block's "Operating System:" says SmartDataCenter, the release its
// "Kernel Version:" gave (a few lines above, as docker info prints them) is dropped, and no
// later mention is taken for this host's kernel: the text's containers run on SmartOS
// (otherOS names it when nothing else was read).

// dockerInfoOtherOS: docker info's Operating System values that are no Linux host.
var dockerInfoOtherOS = []string{"SmartDataCenter"}

// dockerInfoNotLinux drops the kernel a docker info block's "Kernel Version:" gave when the
// block's "Operating System:" field (ft, on line no) names a system that runs no Linux
// kernel; it reports whether it did.
func (h *hostFacts) dockerInfoNotLinux(ft string, no int) bool {
	v := strings.TrimSpace(strings.TrimPrefix(ft, "Operating System: "))
	named := false
	for _, n := range dockerInfoOtherOS {
		if v == n {
			named = true
		}
	}
	if !named || h.kernelLine == 0 || no-h.kernelLine > 8 || no < h.kernelLine {
		return false
	}
	if !strings.HasPrefix(strings.TrimLeft(h.kernelText, " \t"), "Kernel Version: ") {
		return false
	}
	// No later line names this host's kernel: set above every score, with no release.
	h.kernel, h.kernelText, h.kernelLine, h.kernelScore = "", "", 0, 6
	return true
}

// smartOSDockerInfo: the text holds docker info's block from Triton's sdc-docker.
func smartOSDockerInfo(text string) string {
	for _, n := range dockerInfoOtherOS {
		if strings.Contains(text, "\nOperating System: "+n) || strings.Contains(text, "\n Operating System: "+n) {
			return "SmartOS (seen: docker info's \"Operating System: " + n + "\", Triton's sdc-docker: containers in LX-branded zones on an illumos kernel)"
		}
	}
	return ""
}

// fix49b (corpus 4055): smartmontools' banner, "smartctl 7.2 2020-12-30 r5155
// [x86_64-linux-5.18.17-edge] (local build)" (smartctl.cpp and smartd.cpp print "%s %s %s
// [%s] %s" with smi()->get_os_version_str(), which on Linux is os_linux.cpp's
// strprintf("%s-linux-%s", u.machine, u.release) of uname(2)): the machine and the release
// of the kernel the tool ran on, as uname -m and -r print them. The build host's triple it
// falls back to without uname ("x86_64-pc-linux-gnu") holds no release and is not read.

// smartmontoolsBanner reads the release and machine of a smartctl or smartd banner in t.
func smartmontoolsBanner(t string) (release, arch string, ok bool) {
	k := strings.Index(t, "smartctl ")
	if k < 0 {
		if k = strings.Index(t, "smartd "); k < 0 {
			return "", "", false
		}
	}
	rest := t[k:]
	o := strings.IndexByte(rest, '[')
	if o < 0 || o > 48 {
		return "", "", false
	}
	c := strings.IndexByte(rest[o:], ']')
	if c < 0 {
		return "", "", false
	}
	arch, release, ok = strings.Cut(rest[o+1:o+c], "-linux-")
	if !ok || arch == "" || release == "" || strings.ContainsAny(arch+release, " \t") || !isDigit(release[0]) {
		return "", "", false
	}
	return release, arch, true
}
