package artifact

import (
	"strings"
	"testing"
)

// h15a (pre-round 15, blind to g74): Ubuntu Launchpad's and the Debian BTS's forms, built
// from apport's source (problem_report.py's "Key:\n value" with one blank per continuation
// line, report.py's Uname/Architecture/ProcVersionSignature), reportbug's (bugreport.py's
// "-- System Information:" block), Debian's kernel bug script (image.bug: "** Kernel log:",
// "*** Protocol statistics:") and deb-changelog(5).

// A Debian changelog entry quoted by Launchpad's Janitor or a BTS closing mail (.changes
// form, one more blank and " ." lines) names other reports' messages: no record, no host
// fact. A log line after the entry's trailer, or unindented right after its header, is read.
func TestH15aChangelogIsProse(t *testing.T) {
	janitor := "This bug was fixed in the package linux - 4.15.0-117.118\n\n---------------\n" +
		"linux (4.15.0-117.118) bionic; urgency=medium\n\n" +
		"  * mlx4_en: page allocation failure: order:3, mode:0x4020 under NFS load\n    (LP: #1890456)\n\n" +
		"  * nf_conntrack: table full, dropping packet with many short connections\n\n" +
		"  * Out of memory: Kill process when cgroup swap is disabled (LP: #1885432)\n" +
		"    - Linux 4.15.18\n\n" +
		" -- Khalid Elmously <khalid.elmously@canonical.com>  Fri, 21 Aug 2020 14:01:23 -0400\n"
	changes := "Closes: 931234\nChanges:\n linux (4.19.67-1) buster; urgency=medium\n .\n   * New upstream stable update:\n" +
		"     - netfilter: nf_conntrack: table full, dropping packet flood with NAT\n     - Linux 4.19.67\n .\n" +
		"   [ Salvatore Bonaccorso ]\n   * [x86] mm: Fix GFP flags (Closes: #931234)\nChecksums-Sha1:\n"
	quoted := "On Tue, 2019-07-02 at 10:00 +0200, Ben wrote:\n> linux (4.9.189-3) stretch; urgency=medium\n>\n" +
		">   * page allocation failure: order:1, mode:0x2280020(GFP_ATOMIC|__GFP_NOTRACK)\n>\n" +
		">  -- Ben Hutchings <ben@decadent.org.uk>  Tue, 10 Sep 2019 21:02:01 +0100\n"
	for name, text := range map[string]string{"janitor": janitor, "changes": changes, "quoted": quoted} {
		tl := ParseString(text, "p", Options{})
		if tl.Log.Len() != 0 || len(tl.Events) != 0 || tl.Host.Kernel != "" {
			t.Errorf("%s: records %d events %d kernel %q, want none", name, tl.Log.Len(), len(tl.Events), tl.Host.Kernel)
		}
	}
	// Counter-cases: the log after the trailer, a log line unindented under a header.
	tl := ParseString(janitor+"\n[ 1234.567890] nf_conntrack: nf_conntrack: table full, dropping packet\n", "p", Options{})
	if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full") {
		t.Errorf("log after the trailer: %d records", tl.Log.Len())
	}
	tl = ParseString("linux (4.19.67-1) buster; urgency=medium\nnf_conntrack: nf_conntrack: table full, dropping packet\n", "p", Options{})
	if tl.Log.Len() != 1 {
		t.Errorf("unindented log line under a header: %d records", tl.Log.Len())
	}
	// A sentence naming the header's words is no header.
	tl = ParseString("The fix is in linux (4.19.67-1) buster; urgency=medium upload.\nnf_conntrack: nf_conntrack: table full, dropping packet\n", "p", Options{})
	if tl.Log.Len() != 1 {
		t.Errorf("sentence: %d records", tl.Log.Len())
	}
}

// An OOM report's (and a SLUB failure's) task line names the running kernel as an
// allocation failure's does, also in apport's CurrentDmesg field (one blank more).
func TestH15aReportTaskLineKernel(t *testing.T) {
	oom := "CurrentDmesg:\n [612003.118420] mysqld invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n" +
		" [612003.118425] CPU: 1 PID: 1422 Comm: mysqld Not tainted 5.4.0-48-generic #52-Ubuntu\n" +
		" [612003.118676] Out of memory: Killed process 1422 (mysqld) total-vm:5921628kB, anon-rss:3489212kB, file-rss:0kB, shmem-rss:0kB, UID:111 pgtables:7392kB oom_score_adj:0\n"
	tl := ParseString(oom, "p", Options{})
	if tl.Host.Kernel != "5.4.0-48-generic" {
		t.Errorf("OOM task line: kernel %q", tl.Host.Kernel)
	}
	if n := len(oomKills(t, oom)); n != 1 {
		t.Errorf("OOM kills %d, want 1", n)
	}
	// Counter: apport's signature is stronger than a report's task line and is kept.
	tl = ParseString("ProcVersionSignature: Ubuntu 5.4.0-42.46-generic 5.4.44\n"+oom, "p", Options{})
	if tl.Host.Kernel != "5.4.0-42-generic" {
		t.Errorf("signature first: kernel %q", tl.Host.Kernel)
	}
}

// apport's "Uname:" and reportbug's "Kernel:" are uname's release (flavour included) and win
// over a release the report's prose names first; a sentence's "Kernel: Linux 5.2 fixed it"
// is no field.
func TestH15aUnameFields(t *testing.T) {
	// The flavour names the word size when no machine is given (Debian's 686-pae, armmp;
	// "-generic" names none).
	for _, c := range []struct {
		rel  string
		bits int
	}{{"4.9.0-9-686-pae", 32}, {"5.10.0-8-armmp-lpae", 32}, {"4.19.0-5-amd64", 64}, {"4.15.0-20-generic", 0}} {
		tl := ParseString("-- System Information:\nKernel: Linux "+c.rel+" (SMP w/2 CPU cores)\n", "p", Options{})
		if tl.Host.Kernel != c.rel || tl.Host.WordBits != c.bits {
			t.Errorf("%s: kernel %q %d-bit, want %d", c.rel, tl.Host.Kernel, tl.Host.WordBits, c.bits)
		}
	}
	for _, c := range []struct{ text, kernel, arch string }{
		{"After the upgrade to Linux 4.15 it drops.\n\nProblemType: Bug\nUname: Linux 4.15.0-20-generic i686\n", "4.15.0-20-generic", "i686"},
		{"Since Linux 4.9 the NAS stalls.\n\n-- System Information:\nKernel: Linux 4.9.0-9-686-pae (SMP w/2 CPU cores)\n", "4.9.0-9-686-pae", ""},
		// Launchpad's notification mail indents the description two blanks.
		{"Bug description:\n  The VM runs out of memory.\n  ---\n  Architecture: armhf\n  Uname: Linux 5.4.0-1015-raspi armv7l\n", "5.4.0-1015-raspi", "armv7l"},
		// A sentence shaped like the field is prose (score 4): the field after it wins.
		{"Kernel: Linux 5.2 fixed it for me.\n\nUname: Linux 4.15.0-20-generic x86_64\n", "4.15.0-20-generic", "x86_64"},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.Kernel != c.kernel || tl.Host.Arch != c.arch {
			t.Errorf("%q: kernel %q arch %q, want %q %q", c.text, tl.Host.Kernel, tl.Host.Arch, c.kernel, c.arch)
		}
	}
}

// apport's "Architecture:" is dpkg's name; reportbug's adds uname -m in parentheses.
func TestH15aDpkgArchitectureField(t *testing.T) {
	for _, c := range []struct {
		text, arch string
		bits       int
	}{
		{"ProblemType: Bug\nArchitecture: armhf\n", "armhf", 32},
		{"ProblemType: Bug\nArchitecture: ppc64el\n", "ppc64el", 64},
		{"ProblemType: Bug\nArchitecture: amd64\n", "amd64", 64},
		{"-- System Information:\nArchitecture: armel (armv5tel)\n", "armv5tel", 32},
		{"-- System Information:\nArchitecture: amd64 (x86_64)\n", "x86_64", 64},
		// Counter-cases: a .changes file's list of architectures, a word that is none.
		{"Format: 1.8\nArchitecture: source all\n", "", 0},
		{"Architecture: unknown\n", "", 0},
	} {
		tl := ParseString(c.text, "p", Options{})
		bits := 0
		if tl.Host.Arch != "" {
			bits = 64
			if tl.Host.Is32Bit() {
				bits = 32
			}
		}
		if tl.Host.Arch != c.arch || bits != c.bits {
			t.Errorf("%q: arch %q (%d-bit), want %q (%d)", c.text, tl.Host.Arch, bits, c.arch, c.bits)
		}
	}
}

// A title that names a TX hang, or an allocation failure with its order but no mode, is
// not listed unread when the text logs the event; alone, it is listed (TX hang) or stated
// (the failure) as before. A title quoting a logged message is not a second record.
func TestH15aTitleOverItsLog(t *testing.T) {
	hangLog := "[82311.120011] ixgbe 0000:01:00.0 enp1s0f0: Detected Tx Unit Hang\n[82311.120140] ixgbe 0000:01:00.0 enp1s0f0: Reset adapter\n"
	subject := "From: John Smith <john@example.net>\nSubject: linux-image-4.9.0-8-amd64: ixgbe: Detected Tx Unit Hang and Reset adapter every night\nDate: Wed, 27 Feb 2019 23:10:02 +0100\n\n"
	tl := ParseString(subject+"Package: src:linux\n\n"+hangLog, "p", Options{})
	if len(tl.Unparsed) != 0 || tl.Log.Len() != 2 {
		t.Errorf("subject over its log: unparsed %+v, records %d", tl.Unparsed, tl.Log.Len())
	}
	tl = ParseString(subject+"Every night the link stops.\n", "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != txHangWhy {
		t.Errorf("subject alone: unparsed %+v, want the TX hang listed", tl.Unparsed)
	}

	lpTitle := "Title:\n  nfsd page allocation failure order:3 with mlx4_en\n\nStatus in linux package in Ubuntu:\n  New\n"
	report := "[90211.102201] nfsd: page allocation failure: order:3, mode:0x4020(GFP_ATOMIC|__GFP_COMP), nodemask=(null)\n" +
		"[90211.102210] CPU: 6 PID: 2214 Comm: nfsd Not tainted 4.15.0-112-generic #113-Ubuntu\n"
	tl = ParseString(report+"\n"+lpTitle, "p", Options{})
	if len(tl.Unparsed) != 0 {
		t.Errorf("Launchpad title under the report: unparsed %+v", tl.Unparsed)
	}
	// Counter: a header with its order but no mode that a report follows is a cut header.
	tl = ParseString("nfsd: page allocation failure: order:3\nCPU: 6 PID: 2214 Comm: nfsd Not tainted 4.15.0-112-generic #113-Ubuntu\n", "p", Options{})
	if len(tl.Unparsed) != 1 {
		t.Errorf("cut header: unparsed %+v, want it listed", tl.Unparsed)
	}

	ct := "[ 1234.567890] nf_conntrack: nf_conntrack: table full, dropping packet\n"
	bts := "Debian Bug report logs - #931234\nlinux-image-4.19.0-5-amd64: nf_conntrack: table full, dropping packet on a NAT gateway\n\n" +
		"Subject: linux-image-4.19.0-5-amd64: nf_conntrack: table full, dropping packet on a NAT gateway\n\n"
	tl = ParseString(bts+ct, "p", Options{})
	if tl.Log.Len() != 1 || !strings.HasPrefix(tl.Log.At(0).Message, "nf_conntrack") {
		t.Errorf("BTS titles over the log: %d records", tl.Log.Len())
	}
	// Counters: titles alone are the text's statement (read); a sentence naming the message
	// beside the log is not a title.
	tl = ParseString(bts+"The gateway drops connections.\n", "p", Options{})
	if tl.Log.Len() == 0 {
		t.Errorf("BTS titles alone: no record")
	}
	// A chat's "[10:14]" is no dmesg stamp: the titles are still the only statement.
	tl = ParseString(bts+"[10:14] <bob> nf_conntrack: table full, dropping packet here too\n", "p", Options{})
	titled := false
	for k := 0; k < tl.Log.Len(); k++ {
		titled = titled || strings.Contains(tl.Log.At(k).Message, "linux-image")
	}
	if !titled {
		t.Errorf("titles beside a chat line: not read")
	}
	tl = ParseString("Hello,\nour other gateway keeps printing nf_conntrack: table full, dropping packet as well\n\n"+ct, "p", Options{})
	if tl.Log.Len() < 2 {
		t.Errorf("sentence beside the log: %d records, want its own too", tl.Log.Len())
	}
}

// The bots' and templates' text of both trackers is read as prose: nothing listed, no
// record, no host fact (the bot's "test the latest v5.2 kernel" is no running kernel).
func TestH15aTrackerBoilerplate(t *testing.T) {
	text := "Ubuntu Kernel Bot (ubuntu-kernel-bot) wrote on 2019-05-03:\t#2\n" +
		"This bug is missing log files that will aid in diagnosing the problem. While running an Ubuntu kernel (not a mainline or third-party kernel) please enter the following command in a terminal window:\n\n" +
		"apport-collect 1827465\n\nand then change the status of the bug to 'Confirmed'.\n\n" +
		"This change has been made by an automated script, maintained by the Ubuntu Kernel Team.\n\n" +
		"Changed in linux (Ubuntu):\nstatus:\tNew → Incomplete\ntags:\tadded: bionic\n\n" +
		"Launchpad Janitor (janitor) wrote on 2019-06-01:\t#3\nStatus changed to 'Confirmed' because the bug affects multiple users.\n\n" +
		"Changed in linux (Ubuntu):\nstatus:\tIncomplete → Confirmed\nThis change was made by a bot.\n\n" +
		"Joseph Salisbury (jsalisbury) wrote on 2019-06-04:\t#4\nWould it be possible for you to test the latest upstream kernel? Please test the latest v5.2 kernel[0].\n\n" +
		"[0] http://kernel.ubuntu.com/~kernel-ppa/mainline/v5.2-rc3/\n\nChanged in linux (Ubuntu):\nimportance:\tUndecided → Medium\ndescription:\tupdated\n\n" +
		"** Changed in: linux (Ubuntu)\n       Status: New => Confirmed\n\n** Tags added: apport-collected\n\n" +
		"--\nYou received this bug notification because you are subscribed to linux\nin Ubuntu.\nhttps://bugs.launchpad.net/bugs/1827465\n\n" +
		"Send a report that this bug log contains spam.\n\n-- System Information:\nDebian Release: 10.0\n  APT prefers stable\n  APT policy: (500, 'stable')\n\n-- no debconf information\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 0 || tl.Log.Len() != 0 || len(tl.Events) != 0 || tl.Host.Kernel != "" {
		t.Errorf("boilerplate: unparsed %+v records %d events %d kernel %q", tl.Unparsed, tl.Log.Len(), len(tl.Events), tl.Host.Kernel)
	}
}
