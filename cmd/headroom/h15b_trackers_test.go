package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Pre-round 15 (h15b): the forms of Red Hat's, Fedora's, SUSE's, Gentoo's and Arch's trackers
// and forums, written from the programs' sources (sos, supportutils, portage, abrt/libreport,
// inxi, the kernel's panic.c), none copied from a case. Each text must reach the finding an
// expert lists, with its figure, and the host's kernel from the form's own header.

type h15bReport struct {
	Host struct {
		Kernel     string `json:"kernel"`
		MemTotalKB int64  `json:"mem_total_kb"`
	} `json:"host"`
	Findings []struct {
		ID       string `json:"id"`
		Evidence []struct{ What, Value, Source string }
	} `json:"findings"`
	Unparsed []struct {
		FirstLine int    `json:"first_line"`
		Why       string `json:"why"`
	} `json:"unparsed"`
}

func h15bDoctor(t *testing.T, name, text string) (h15bReport, int) {
	t.Helper()
	write := tempWriter(t)
	f := write(name, text)
	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{"--format", "json", f}, IO{Stdout: &out, Stderr: &errb})
	var rep h15bReport
	if code == exitFailure && strings.Contains(errb.String(), "(0 lines could not be read)") {
		return rep, code // nothing is evidence, and nothing was left unread
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%s: exit %d, %v (stderr %q)", name, code, err, errb.String())
	}
	return rep, code
}

// h15bEvidence is the value of the finding id's evidence whose "what" holds what, "" when
// the finding or the evidence is missing.
func h15bEvidence(rep h15bReport, id, what string) (string, bool) {
	for _, f := range rep.Findings {
		if f.ID != id {
			continue
		}
		for _, e := range f.Evidence {
			if strings.Contains(e.What, what) {
				return e.Value, true
			}
		}
		return "", true
	}
	return "", false
}

const h15bSosreport = `From the sosreport:

sos_commands/memory/free_-m
              total        used        free      shared  buff/cache   available
Mem:          64215       61020         312          40        2883         900
Swap:          4095        4001          94

sos_commands/networking/netstat_-s
TcpExt:
    4567 times the listen queue of a socket overflowed
    4567 SYNs to LISTEN sockets dropped

sos_commands/kernel/uname_-a
Linux db01 3.10.0-957.el7.x86_64 #1 SMP Thu Oct 4 20:48:51 UTC 2018 x86_64 x86_64 x86_64 GNU/Linux
`

// sosreport keeps `free -m` in sos_commands/memory/free_-m (sos's _mangle_command makes the
// command's spaces '_'): the unit is MiB, so the memory and the swap are the host's figures
// (main kept them as printed, unit unknown, and swap-under-load was not checked).
func TestH15bSosreportFreeUnit(t *testing.T) {
	rep, _ := h15bDoctor(t, "sos.txt", h15bSosreport)
	if rep.Host.MemTotalKB != 64215*1024 || rep.Host.Kernel != "3.10.0-957.el7.x86_64" {
		t.Errorf("host %+v: want MemTotal 64215 MiB, kernel from uname_-a", rep.Host)
	}
	if v, ok := h15bEvidence(rep, "swap-under-load", "swap used"); !ok || !strings.Contains(v, "4097024 of 4193280 kB") {
		t.Errorf("swap-under-load %v %q: want 4001 of 4095 MiB", ok, v)
	}
	if _, ok := h15bEvidence(rep, "listen-overflow", ""); !ok {
		t.Errorf("no listen-overflow from netstat_-s: %+v", rep.Findings)
	}
	// Counter: a plain "free" file is free's default, KiB; a label that is not sos's
	// name keeps the unit unknown.
	rep, _ = h15bDoctor(t, "sos2.txt", strings.Replace(h15bSosreport, "free_-m", "free", 1))
	if rep.Host.MemTotalKB != 64215 {
		t.Errorf("sos_commands/memory/free: MemTotal %d kB, want 64215 (KiB, free's default)", rep.Host.MemTotalKB)
	}
	rep, _ = h15bDoctor(t, "sos3.txt", strings.Replace(h15bSosreport, "sos_commands/memory/free_-m", "memory figures", 1))
	if rep.Host.MemTotalKB != 0 {
		t.Errorf("unlabelled free: MemTotal %d, want none (unit unknown)", rep.Host.MemTotalKB)
	}
}

// supportconfig's conf_files copies /proc/sys files under "# PATH" (supportutils'
// supportconfig.rc): the value is the host's, read as `cat` of it is (main named the
// line "no reader"). conntrack-full reaches its figure from the two files.
func TestH15bSupportconfigProcSysFile(t *testing.T) {
	text := "#==[ Configuration File ]===========================#\n# /proc/sys/net/netfilter/nf_conntrack_max\n65536\n\n" +
		"#==[ Configuration File ]===========================#\n# /proc/sys/net/netfilter/nf_conntrack_count\n65536\n\n" +
		"#==[ Configuration File ]===========================#\n# /proc/sys/net/ipv4/ip_forward\n1\n"
	rep, _ := h15bDoctor(t, "network.txt", text)
	if v, ok := h15bEvidence(rep, "conntrack-full", "entries"); !ok || !strings.Contains(v, "65536 / 65536") {
		t.Errorf("conntrack-full %v %q", ok, v)
	}
	if len(rep.Unparsed) != 0 {
		t.Errorf("unparsed %+v", rep.Unparsed)
	}
	// Counter: a file supportconfig did not find has no value.
	rep, _ = h15bDoctor(t, "nf.txt", "#==[ Configuration File ]===========================#\n# /proc/sys/net/netfilter/nf_conntrack_max - File not found\n\nnf_conntrack: table full, dropping packet\n")
	if _, ok := h15bEvidence(rep, "conntrack-full", ""); !ok {
		t.Errorf("the kernel line beside a missing file: %+v", rep.Findings)
	}
}

// abrt's kernel oops report: "reason:" repeats the oops' first line, which the backtrace
// holds; the failure is counted once (main counted 2), and the kernel is abrt's "kernel:"
// field. A bare "WARNING: CPU: N PID: N at …" line (kernel/panic.c __warn) is a kernel line,
// not "name: value counters".
func TestH15bAbrtReasonOnce(t *testing.T) {
	text := "reason:         kworker/u16:2: page allocation failure: order:4, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"cmdline:        BOOT_IMAGE=(hd0,gpt2)/vmlinuz-5.6.13-300.fc32.x86_64 root=UUID=abc ro\n" +
		"kernel:         5.6.13-300.fc32.x86_64\npackage:        kernel-core-5.6.13-300.fc32\ntype:           Kerneloops\n\nbacktrace:\n" +
		"kworker/u16:2: page allocation failure: order:4, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"CPU: 1 PID: 1234 Comm: kworker/u16:2 Tainted: G        W         5.6.13-300.fc32.x86_64 #1\nCall Trace:\n dump_stack+0x66/0x90\n warn_alloc.cold+0x75/0xd9\n" +
		"Node 0 Normal: 2300*4kB (UME) 900*8kB (UME) 120*16kB (UME) 3*32kB (U) 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 18416kB\n"
	rep, _ := h15bDoctor(t, "abrt.txt", text)
	v, ok := h15bEvidence(rep, "alloc-fail-fragmented", "page allocation failures")
	if !ok || !strings.HasPrefix(v, "1 (kworker/u16:2 ×1), order 4") || rep.Host.Kernel != "5.6.13-300.fc32.x86_64" {
		t.Errorf("alloc-fail-fragmented %v %q kernel %q: want one failure of order 4", ok, v, rep.Host.Kernel)
	}
	// The reason alone (a report cut before its backtrace) is still the failure.
	rep, _ = h15bDoctor(t, "reason.txt", text[:strings.Index(text, "\n\nbacktrace:")+1])
	if v, ok := h15bEvidence(rep, "alloc-fail-fragmented", "page allocation failures"); !ok || !strings.HasPrefix(v, "1 (") {
		t.Errorf("reason alone: %v %q", ok, v)
	}
	warn := "reason:         WARNING: CPU: 2 PID: 0 at net/sched/sch_generic.c:443 dev_watchdog+0x248/0x250\nkernel:         5.3.7-301.fc31.x86_64\n\n" +
		"Truncated backtrace:\nNETDEV WATCHDOG: enp3s0 (r8169): transmit queue 0 timed out\nWARNING: CPU: 2 PID: 0 at net/sched/sch_generic.c:443 dev_watchdog+0x248/0x250\n"
	rep, code := h15bDoctor(t, "warn.txt", warn)
	if len(rep.Unparsed) != 0 || code == exitFailure {
		t.Errorf("abrt WARNING report: exit %d unparsed %+v", code, rep.Unparsed)
	}
}

// The running release from the forms' own headers, not from a package list: emerge --info's
// "Portage … (…, R M)" and "System uname: Linux-R-M-…" (a gentoo-sources list names 5.10.76
// too), inxi's "Kernel:" field, a [code]-wrapped uname -a, a kernel banner's whole release.
func TestH15bKernelFromHeaders(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Portage 3.0.30 (python 3.9.9-final-0, default/linux/amd64/17.1, gcc-11.2.0, glibc-2.33-r7, 5.15.11-gentoo x86_64)\n=================================================================\n" +
			"sys-kernel/gentoo-sources: 5.10.76-r1::gentoo, 5.15.11::gentoo\n\nOut of memory: Killed process 23456 (cc1plus) total-vm:3123456kB, anon-rss:2912345kB, file-rss:0kB, shmem-rss:0kB\n", "5.15.11-gentoo"},
		{"System uname: Linux-5.15.11-gentoo-x86_64-AMD_Ryzen_7_3700X_8-Core_Processor-with-glibc2.33\nKiB Mem:    16314688 total,   2310532 free\n\nOut of memory: Killed process 23456 (cc1plus) total-vm:3123456kB, anon-rss:2912345kB, file-rss:0kB, shmem-rss:0kB\n", "5.15.11-gentoo"},
		{"System:\n  Kernel: 6.1.7-200.fc37.x86_64 arch: x86_64 bits: 64 compiler: gcc v: 2.38-25.fc37\n\nOut of memory: Killed process 2345 (firefox) total-vm:4123456kB, anon-rss:2345678kB, file-rss:0kB, shmem-rss:12kB\n", "6.1.7-200.fc37.x86_64"},
		{"System:    Host: <filter> Kernel: 5.10.16-arch1-1 x86_64 bits: 64 compiler: gcc v: 10.2.0\n\nOut of memory: Killed process 2345 (firefox) total-vm:4123456kB, anon-rss:2345678kB, file-rss:0kB, shmem-rss:12kB\n", "5.10.16-arch1-1"},
		{"[code]Linux archbox 6.6.8-arch1-1 #1 SMP PREEMPT_DYNAMIC Thu, 21 Dec 2023 19:01:01 +0000 x86_64 GNU/Linux[/code]\n\n[code][ 9123.456789] Out of memory: Killed process 4242 (chromium) total-vm:32123456kB, anon-rss:6123456kB, file-rss:0kB, shmem-rss:1024kB[/code]\n", "6.6.8-arch1-1"},
		{"Jan 02 10:11:12 box kernel: Linux version 4.19.0-6-amd64 (debian-kernel@lists.debian.org) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.67-2+deb10u2 (2019-11-11)\n" +
			"Jan 02 10:55:01 box kernel: Out of memory: Killed process 2345 (java) total-vm:4123456kB, anon-rss:2345678kB, file-rss:0kB, shmem-rss:12kB\n", "4.19.0-6-amd64"},
		{"$ hostnamectl\n  Operating System: Arch Linux\n            Kernel: Linux 6.6.8-arch1-1\n      Architecture: x86-64\n\nOut of memory: Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB\n", "6.6.8-arch1-1"},
	} {
		rep, _ := h15bDoctor(t, "k.txt", c.text)
		if _, ok := h15bEvidence(rep, "oom-kill", ""); rep.Host.Kernel != c.want || !ok {
			t.Errorf("%q: kernel %q oom-kill %v, want %q and the kill", c.text[:40], rep.Host.Kernel, ok, c.want)
		}
	}
	// Counters: a sentence naming a release after "Kernel:", a package list alone.
	for _, s := range []string{
		"Kernel: 5.15 broke it for me, 5.10 works\nOut of memory: Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB\n",
		"sys-kernel/gentoo-sources: 5.10.76-r1::gentoo, 5.15.11::gentoo\nOut of memory: Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB\n",
		"$ rpm -q kernel\nkernel-4.18.0-305.el8.x86_64\nkernel-4.18.0-372.9.1.el8.x86_64\nkernel-4.18.0-477.10.1.el8.x86_64\nOut of memory: Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB\n",
		"Portage 3.0.30 is installed (latest)\nOut of memory: Killed process 1 (x) total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB\n",
	} {
		if rep, _ := h15bDoctor(t, "c.txt", s); rep.Host.Kernel != "" {
			t.Errorf("%q: kernel %q, want none", s[:30], rep.Host.Kernel)
		}
	}
}

// Red Hat Bugzilla's template and comment headers never raise a finding nor an unread line;
// the messages under "Actual results:" and in a comment reach theirs.
func TestH15bBugzillaTemplate(t *testing.T) {
	text := "Description of problem:\nThe NFS server stops receiving after days of uptime.\n\n" +
		"Version-Release number of selected component (if applicable):\nkernel-3.10.0-1160.el7.x86_64\n\n" +
		"How reproducible:\nAlways, after 3-4 days.\n\nSteps to Reproduce:\n1. Run heavy NFS traffic\n2. Wait\n\n" +
		"Actual results:\nJan  1 11:58:02 nfs01 kernel: nf_conntrack: table full, dropping packet\n\nExpected results:\nNo drops.\n\nAdditional info:\n\n" +
		"Comment 5 John Smith 2019-01-01 12:00:00 UTC\n\n(In reply to Jane Doe from comment #3)\n> Can you attach the output of sysctl -a | grep tcp_mem ?\n\n" +
		"Jan  1 11:58:01 nfs01 kernel: TCP: out of memory -- consider tuning tcp_mem\n"
	rep, _ := h15bDoctor(t, "rhbz.txt", text)
	ids := map[string]bool{}
	for _, f := range rep.Findings {
		ids[f.ID] = true
	}
	if !ids["conntrack-full"] || !ids["tcp-memory-pressure"] || len(rep.Unparsed) != 0 || rep.Host.Kernel != "3.10.0-1160.el7.x86_64" {
		t.Errorf("findings %v unparsed %+v kernel %q", ids, rep.Unparsed, rep.Host.Kernel)
	}
	head := text[:strings.Index(text, "Actual results:")] + "Expected results:\nNo drops.\n\nAdditional info:\nComment 5 John Smith 2019-01-01 12:00:00 UTC\n(In reply to Jane Doe from comment #3)\n"
	rep, code := h15bDoctor(t, "head.txt", head)
	if code != exitFailure {
		t.Errorf("the template alone: exit %d, want %d (no evidence, none unread)", code, exitFailure)
	}
	for _, f := range rep.Findings {
		if f.ID != "kernel-known-limits" {
			t.Errorf("the template alone raised %s", f.ID)
		}
	}
	if len(rep.Unparsed) != 0 {
		t.Errorf("the template alone: unparsed %+v", rep.Unparsed)
	}
}

// abrt-hook-ccpp's own lines alone are named (not exit 3), with no kill and no finding;
// beside the kernel's OOM kill they stay another program's lines and the kill is one.
func TestH15bAbrtHookLines(t *testing.T) {
	hook := "Mar  1 02:03:04 rhel7 abrt-hook-ccpp[12345]: Process 4321 (java) of user 1001 killed by SIGABRT - dumping core\n" +
		"Mar  1 02:03:05 rhel7 abrt-hook-ccpp[12345]: Saved core dump of pid 4321 (/usr/lib/jvm/java-1.8.0/bin/java) to /var/spool/abrt/ccpp-2023-03-01-02:03:04-4321 (812345678 bytes)\n"
	rep, code := h15bDoctor(t, "hook.txt", hook)
	if code == exitFailure || len(rep.Unparsed) != 2 || len(rep.Findings) != 0 || !strings.Contains(rep.Unparsed[0].Why, "no kill by the kernel's OOM killer") {
		t.Errorf("exit %d findings %+v unparsed %+v", code, rep.Findings, rep.Unparsed)
	}
	rep, _ = h15bDoctor(t, "hookoom.txt", hook+"Mar  1 02:03:07 rhel7 kernel: Killed process 4400 (java) total-vm:12345678kB, anon-rss:8123456kB, file-rss:0kB, shmem-rss:0kB\n")
	if _, ok := h15bEvidence(rep, "oom-kill", "global OOM kill"); !ok || len(rep.Unparsed) != 0 {
		t.Errorf("beside the kernel's kill: findings %+v unparsed %+v", rep.Findings, rep.Unparsed)
	}
	// Counter: a sentence with the words is prose.
	if _, code := h15bDoctor(t, "s.txt", "The Process 12 (x) of user 0 killed by SIGABRT question again\n"); code != exitFailure {
		t.Errorf("a sentence: exit %d, want %d", code, exitFailure)
	}
}

// /proc/swaps and swapon -s (mm/swapfile.c swap_show), as sosreport's
// sos_commands/memory/swapon_--summary_--verbose keeps it: the sums are SwapTotal and the
// swap used, and an exhausted swap reaches swap-under-load; an idle swap stays healthy.
func TestH15bProcSwaps(t *testing.T) {
	text := "sos_commands/memory/swapon_--summary_--verbose\nFilename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n" +
		"/dev/dm-1                               partition\t4194300\t\t4097024\t\t-2\n/swapfile                               file\t\t1048572\t\t1000000\t\t-3\n"
	rep, _ := h15bDoctor(t, "swaps.txt", text)
	if v, ok := h15bEvidence(rep, "swap-under-load", "swap used"); !ok || !strings.Contains(v, "5097024 of 5242872 kB") {
		t.Errorf("swap-under-load %v %q", ok, v)
	}
	idle := strings.Replace(strings.Replace(text, "4097024", "0", 1), "1000000", "0", 1)
	rep, _ = h15bDoctor(t, "idle.txt", idle)
	if _, ok := h15bEvidence(rep, "swap-under-load", ""); ok {
		t.Errorf("an unused swap raised swap-under-load: %+v", rep.Findings)
	}
	// Counter: another table under a "Filename" header is not swap's.
	if rep, code := h15bDoctor(t, "other.txt", "Filename   Type   Size   Modified\nreport.txt file 1234 yesterday\n"); code != exitFailure && len(rep.Findings) != 0 {
		t.Errorf("another table: exit %d findings %+v", code, rep.Findings)
	}
}
