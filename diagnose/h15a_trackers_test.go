package diagnose

import (
	"strings"
	"testing"
)

// h15a (pre-round 15, blind to g74): the findings Launchpad's and the Debian BTS's forms
// reach, from minimal texts built from apport's, reportbug's and Debian's kernel bug
// script's format strings (artifact/h15a_trackers_test.go has their readers' tests).

func ids(d Diagnosis) []string {
	var out []string
	for _, f := range d.Findings {
		out = append(out, f.ID)
	}
	return out
}

func hasID(d Diagnosis, prefix string) bool {
	for _, f := range d.Findings {
		if strings.HasPrefix(f.ID, prefix) {
			return true
		}
	}
	return false
}

// apport's CurrentDmesg field (one blank before each line) with an OOM kill: oom-kill with
// its victim, and the host kernel from the report's task line.
func TestH15aApportDmesgOOM(t *testing.T) {
	text := "ProblemType: Bug\nArchitecture: amd64\nCurrentDmesg:\n" +
		" [612003.118420] mysqld invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n" +
		" [612003.118425] CPU: 1 PID: 1422 Comm: mysqld Not tainted 5.4.0-48-generic #52-Ubuntu\n" +
		" [612003.118676] Out of memory: Killed process 1422 (mysqld) total-vm:5921628kB, anon-rss:3489212kB, file-rss:0kB, shmem-rss:0kB, UID:111 pgtables:7392kB oom_score_adj:0\n" +
		"MachineType: QEMU Standard PC (i440FX + PIIX, 1996)\n"
	tl := pasteTimeline(t, text)
	if tl.Host.Kernel != "5.4.0-48-generic" || tl.Host.Is32Bit() {
		t.Errorf("host: kernel %q 32-bit %v", tl.Host.Kernel, tl.Host.Is32Bit())
	}
	f := memFinding(t, Run(tl, nil), "oom-kill")
	if !evidenceHas(f, "", "mysqld") || !evidenceHas(f, "", "3489212") {
		t.Errorf("oom-kill evidence: %+v", f.Evidence)
	}
}

// apport's 32-bit Architecture (dpkg's armhf) with an atomic order-1 failure in the
// indented dmesg: an alloc-fail finding on a host read as 32-bit.
func TestH15aApportArmhfAllocFailure(t *testing.T) {
	text := "ProblemType: Bug\nArchitecture: armhf\nProcVersionSignature: Ubuntu 4.15.0-1065.69-raspi2 4.15.18\nCurrentDmesg:\n" +
		" [401223.120012] kworker/0:2: page allocation failure: order:1, mode:0x1080020(GFP_ATOMIC), nodemask=(null)\n" +
		" [401223.120104] Normal free:4516kB min:3508kB low:4384kB high:5260kB active_anon:4112kB inactive_anon:5020kB active_file:301212kB inactive_file:301344kB unevictable:0kB writepending:0kB present:892920kB managed:860520kB mlocked:0kB kernel_stack:1176kB pagetables:0kB bounce:0kB free_pcp:120kB local_pcp:0kB free_cma:0kB\n" +
		" [401223.120130] Normal: 1071*4kB (UMEH) 11*8kB (H) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 4372kB\n"
	tl := pasteTimeline(t, text)
	if !tl.Host.Is32Bit() || tl.Host.Kernel != "4.15.0-1065-raspi2" {
		t.Errorf("host: kernel %q arch %q 32-bit %v", tl.Host.Kernel, tl.Host.Arch, tl.Host.Is32Bit())
	}
	if d := Run(tl, nil); !hasID(d, "alloc-fail-") {
		t.Errorf("no alloc-fail finding: %v", ids(d))
	}
}

// A reportbug mail with Debian's kernel script: conntrack-full from "** Kernel log:",
// listen-overflow from "*** Protocol statistics:" (netstat -s), the host from "Kernel:",
// not from the package tables under it nor from a release the prose names before it.
func TestH15aReportbugKernelScript(t *testing.T) {
	text := "Package: src:linux\nVersion: 4.19.37-5\nSeverity: important\n\nSince Linux 4.9 the gateway drops connections.\n\n-- Package-specific info:\n** Kernel log:\n" +
		"[501234.101201] nf_conntrack: nf_conntrack: table full, dropping packet\n\n" +
		"** Network status:\n*** Protocol statistics:\nTcpExt:\n    31245 times the listen queue of a socket overflowed\n    31245 SYNs to LISTEN sockets dropped\n\n" +
		"-- System Information:\nDebian Release: 10.0\n  APT prefers stable\nArchitecture: amd64 (x86_64)\n\nKernel: Linux 4.19.0-5-amd64 (SMP w/8 CPU cores)\n" +
		"Locale: LANG=en_US.UTF-8, LC_CTYPE=en_US.UTF-8 (charmap=UTF-8)\n\n" +
		"Versions of packages linux-image-4.19.0-5-amd64 depends on:\nii  initramfs-tools [linux-initramfs-tool]  0.133\nii  kmod  26-1\nii  linux-base  4.6\nii  libacl1  2.2.53-4\n\n-- no debconf information\n"
	tl := pasteTimeline(t, text)
	if tl.Host.Kernel != "4.19.0-5-amd64" || tl.Host.Arch != "x86_64" || tl.Host.CPUs != 8 {
		t.Errorf("host: kernel %q arch %q cpus %d", tl.Host.Kernel, tl.Host.Arch, tl.Host.CPUs)
	}
	d := Run(tl, nil)
	memFinding(t, d, "conntrack-full")
	if f := memFinding(t, d, "listen-overflow"); !evidenceHas(f, "ListenOverflows", "31245") {
		t.Errorf("listen-overflow evidence: %+v", f.Evidence)
	}
}

// Launchpad's Janitor closing a bug with the upload's changelog, and a BTS closing mail's
// .changes: no finding from the entries' titles (main raised conntrack-full, alloc-fail and
// oom-kill from them), and the stable update's "Linux 4.19.67" is no host kernel. Counter:
// the reporter's own log line in the same thread still reaches conntrack-full.
func TestH15aChangelogRaisesNothing(t *testing.T) {
	closing := "Launchpad Janitor (janitor) wrote on 2020-09-02:\t#14\nThis bug was fixed in the package linux - 4.15.0-117.118\n\n---------------\n" +
		"linux (4.15.0-117.118) bionic; urgency=medium\n\n" +
		"  * mlx4_en: page allocation failure: order:3, mode:0x4020 under NFS load\n    (LP: #1890456)\n\n" +
		"  * nf_conntrack: table full, dropping packet with many short connections\n\n" +
		"  * Out of memory: Kill process when cgroup swap is disabled (LP: #1885432)\n\n" +
		" -- Khalid Elmously <khalid.elmously@canonical.com>  Fri, 21 Aug 2020 14:01:23 -0400\n\n" +
		"Changes:\n linux (4.19.67-1) buster; urgency=medium\n .\n   * New upstream stable update:\n     - Linux 4.19.67\n"
	d := Run(pasteTimeline(t, closing), nil)
	if len(d.Findings) != 0 {
		t.Errorf("changelog: findings %v, want none", ids(d))
	}
	tl := pasteTimeline(t, "May  3 02:14:11 gw01 kernel: [52311.442210] nf_conntrack: nf_conntrack: table full, dropping packet\n\n"+closing)
	d = Run(tl, nil)
	if f := memFinding(t, d, "conntrack-full"); !evidenceHas(f, "", "1×") {
		t.Errorf("the reporter's log: %+v", f.Evidence)
	}
	if hasID(d, "alloc-fail-") || hasID(d, "oom-kill") {
		t.Errorf("changelog beside a log: %v", ids(d))
	}
}

// The BTS page's heading and a mail's Subject quoting the logged message are titles: the
// finding counts the log's one record, not three.
func TestH15aTitlesOverLogCountOnce(t *testing.T) {
	text := "Debian Bug report logs - #931234\nlinux-image-4.19.0-5-amd64: nf_conntrack: table full, dropping packet on a busy NAT gateway\n\n" +
		"From: Jane Doe <jane@example.org>\nSubject: linux-image-4.19.0-5-amd64: nf_conntrack: table full, dropping packet on a busy NAT gateway\n\n" +
		"Package: src:linux\n\n[ 1234.567890] nf_conntrack: nf_conntrack: table full, dropping packet\n"
	f := memFinding(t, Run(pasteTimeline(t, text), nil), "conntrack-full")
	if !evidenceHas(f, "", "1× \"nf_conntrack: nf_conntrack: table full") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}
