package artifact

import (
	"strings"
	"testing"
)

// h17b: the forms forum engines and web pages give a paste (forms.go stripLineEmphasis,
// forumCaption, stripBarQuote; prefixes.go kernelTagRecord, indentedMarker; gutter.go's
// unpadded tab gutter), each read on its own line, with the counter-cases that keep theirs.
func TestH17bForumFormLines(t *testing.T) {
	for _, c := range []struct {
		in, text string
		stamped  bool // a dmesg stamp read
		kernel   bool // the kernel's record (a stamp or a syslog tag read)
		quote    int
	}{
		// Markdown emphasis around a report's key line.
		{"### [  812.345678] nginx invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0", "nginx invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0", true, true, 0},
		{"**[  812.345678] Out of memory: Killed process 1234 (nginx)**", "Out of memory: Killed process 1234 (nginx)", true, true, 0},
		{"**Node 0 Normal free:124kB min:10088kB low:12608kB high:15132kB**", "Node 0 Normal free:124kB min:10088kB low:12608kB high:15132kB", false, false, 0},
		{"> ## Jan  2 03:04:05 web01 kernel: Out of memory: Killed process 1234 (nginx)", "Out of memory: Killed process 1234 (nginx)", false, true, 1},
		// A bare "kernel: " tag before any record (old rsyslog excerpts).
		{"kernel: Task in /kubepods/burstable/pod0f5e killed as a result of limit of /kubepods/burstable/pod0f5e", "Task in /kubepods/burstable/pod0f5e killed as a result of limit of /kubepods/burstable/pod0f5e", false, true, 0},
		{"kernel:  oom_kill_process+0x2bc/0x2c0", " oom_kill_process+0x2bc/0x2c0", false, true, 0},
		{"kernel: Mem-Info:", "Mem-Info:", false, true, 0},
		// List markers with an indent, bar quoting around mail quoting.
		{" * [  812.345678] Out of memory: Killed process 1234 (nginx)", "Out of memory: Killed process 1234 (nginx)", true, true, 0},
		{" - Normal free:124kB min:10088kB low:12608kB high:15132kB", "Normal free:124kB min:10088kB low:12608kB high:15132kB", false, false, 0},
		{"  * mlx4_en: page allocation failure: order:3, mode:0x4020 under NFS load", "  * mlx4_en: page allocation failure: order:3, mode:0x4020 under NFS load", false, false, 0},
		{"kernel: the messages below are from the last boot", "kernel: the messages below are from the last boot", false, false, 0},
		{"| >> [  812.345678] Out of memory: Killed process 1234 (nginx)", "Out of memory: Killed process 1234 (nginx)", true, true, 3},
		{"| ", "", false, false, 1},
		// Forum code box captions: blank, as a fence.
		{"Code: Select all", "", false, false, 0},
		{"CODE: SELECT ALL", "", false, false, 0},
		{"Code: [Select]", "", false, false, 0},
		{"Code:", "", false, false, 0},
		{"Spoiler", "", false, false, 0},
		// Counter-cases: left as written.
		{"# [ -f /etc/sysctl.conf ] && sysctl -p", "# [ -f /etc/sysctl.conf ] && sysctl -p", false, false, 0},
		{"## Steps to reproduce", "## Steps to reproduce", false, false, 0},
		{"**Note: the box has 8 GB of RAM**", "**Note: the box has 8 GB of RAM**", false, false, 0},
		{`Mon Aug 13 19:05:49 2018 - *** uWSGI listen queue of socket "127.0.0.1:43429" (fd: 3) full !!! (101/100) ***`, "", false, false, 0},
		{"*** uWSGI is running in multiple interpreter mode ***", "*** uWSGI is running in multiple interpreter mode ***", false, false, 0},
		{"kernel: 5.15.0-91-generic", "kernel: 5.15.0-91-generic", false, false, 0},
		{"kernel: Linux 6.1.0-18-amd64", "kernel: Linux 6.1.0-18-amd64", false, false, 0},
		{"kernel: x86_64", "kernel: x86_64", false, false, 0},
		{"| eth0 | 12345 | 0 |", "| eth0 | 12345 | 0 |", false, false, 0},
		{"Code: the file is below, see line 12", "Code: the file is below, see line 12", false, false, 0},
		{"Spoiler alert: it was the NIC", "Spoiler alert: it was the NIC", false, false, 0},
		{"     - name: eth0", "     - name: eth0", false, false, 0},
	} {
		ls := SplitLines(c.in + "\n")
		if len(ls) != 1 {
			t.Errorf("%q: %d lines", c.in, len(ls))
			continue
		}
		l := ls[0]
		if c.text != "" && l.Text != c.text || c.text == "" && strings.HasPrefix(c.in, "Code") && l.Text != "" {
			t.Errorf("%q: text %q, want %q", c.in, l.Text, c.text)
		}
		if (l.UptimeUsec >= 0) != c.stamped || l.Kernel != c.kernel || l.Quote != c.quote {
			t.Errorf("%q: stamped %v kernel %v quote %d, want %v %v %d", c.in, l.UptimeUsec >= 0, l.Kernel, l.Quote, c.stamped, c.kernel, c.quote)
		}
	}
}

// An unpadded line number and a tab before every line (a code block shown as a table,
// copied): a gutter without a numbered empty line; padded numbers (cat -n, nl) still need
// one, and two rows numbered 1 and 2 are no run.
func TestH17bTabGutter(t *testing.T) {
	got := stripLineGutters("1\t[  812.345678] a\n2\t[  812.345679] b\n3\t[  812.345680] c\n")
	if got != "[  812.345678] a\n[  812.345679] b\n[  812.345680] c\n" {
		t.Errorf("tab gutter: %q", got)
	}
	for _, in := range []string{
		"     1\troot 12\n     2\troot 13\n     3\troot 14\n", // cat -n without an empty line: may be a table
		"1\teth0\t12\n2\teth1\t13\n",                          // two rows
		"0\tcpu0\n1\tcpu1\n2\tcpu2\n",                         // an index from 0
	} {
		if got := stripLineGutters(in); got != in {
			t.Errorf("%q: stripped to %q", in, got)
		}
	}
}

// The bare "kernel: " tag is now read before the header (kernelTagRecord), as a stamp is:
// a comm with " : " inside that starts the text the header reader gets keeps its blank.
func TestH17bCommWithColonAtLineStart(t *testing.T) {
	for _, text := range []string{
		"kernel: WebContainer : : page allocation failure: order:4, mode:0x4d0\n",
		"[  812.345678] WebContainer : : page allocation failure: order:4, mode:0x4d0\n",
	} {
		tl := ParseString(text, "p", Options{})
		var got []string
		for _, ev := range tl.Events {
			if ev.AllocFailure != nil {
				got = append(got, ev.AllocFailure.Process)
			}
		}
		if len(got) != 1 || got[0] != "WebContainer : " {
			t.Errorf("%q: processes %q, want [\"WebContainer : \"]", text, got)
		}
	}
	if af, ok := parseAllocHeader("mount.nfs: page allocation failure: order:4, mode:0x4d0"); !ok || af.Process != "mount.nfs" {
		t.Errorf("mount.nfs: %+v", af)
	}
}

// An OOM task table's header cut after its first columns (a paste that ends inside it) is
// still the kernel's header; a bracketed "pid" before other words is not.
func TestH17bTaskHeaderCut(t *testing.T) {
	for s, want := range map[string]bool{
		"[ pid ]   uid  tgid total_vm      rss nr_ptes swapents oom_score_adj name": true,
		"[ pid ]   uid  tgid t":                   true,
		"[  pid  ]   uid  tgid":                   true,
		"[ pid ] is the column of the process id": false,
		"[ pid ]   uid":                           false,
	} {
		if got := isOOMTaskHeader(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
