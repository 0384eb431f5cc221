package artifact

import "testing"

// g259 (SELinux 220): "ebitmap_node ate over 40GB of memory" is what one cache took, not the
// machine's size; the machine's own size beside it, and "using 32GB RAM machines", still are.
func TestFix65bConsumedAmountNoHostSize(t *testing.T) {
	for _, c := range []struct {
		text string
		kb   int64
	}{
		{"# ebitmap_node ate over 40GB of memory\n", 0},
		{"The java process consumed about 12 GB of RAM before it died.\n", 0},
		{"The dentry cache grew to 20 GB of memory overnight.\n", 0},
		{"A leak hogging 3 GB of memory on this 8 GB RAM box.\n", 8 << 20},
		{"We are using 32GB RAM machines for the workers.\n", 32 << 20},
		{"Our server has 16 GB of RAM and it was slow.\n", 16 << 20},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.MemTotalKB; got != c.kb {
			t.Errorf("%q: MemTotalKB %d, want %d", c.text, got, c.kb)
		}
	}
}

// g259 (node_exporter 2716): uname -a cut before its machine still gives the release; a
// complete one gives the machine too, and wins over the cut one.
func TestFix65eUnameCut(t *testing.T) {
	for _, c := range []struct{ text, kernel, arch string }{
		{"Linux manjaroB 5.10.179-1-MANJARO #1 SMP PREEMP\n", "5.10.179-1-MANJARO", ""},
		{"Linux h 5.10.0-8-amd64 #1 SMP Debian 5.10.46-4 (2021-08-03) x86_64 GNU/Linux\n", "5.10.0-8-amd64", "x86_64"},
		{"Linux is great, 5.10 #1 in my heart\n", "", ""},
	} {
		h := ParseString(c.text, "p", Options{}).Host
		if h.Kernel != c.kernel || h.Arch != c.arch {
			t.Errorf("%q: kernel %q arch %q, want %q %q", c.text, h.Kernel, h.Arch, c.kernel, c.arch)
		}
	}
}

// g260 (a Turkish RCA): /proc/vmstat lines with the author's pointer after a value are read;
// the pointer is no counter.
func TestFix65hVMStatAnnotated(t *testing.T) {
	text := "compact_stall    15\ncompact_fail     15\ncompact_success   0     <-- 15 denemede 0 başarı\n"
	tl := ParseString(text, "p", Options{})
	var got map[string]int64
	for _, s := range tl.Samples {
		if s.VMStat != nil {
			got = map[string]int64{}
			for _, n := range []string{"compact_stall", "compact_fail", "compact_success"} {
				if v, ok := s.VMStat.Get(n); ok {
					got[n] = v
				}
			}
		}
	}
	if got["compact_stall"] != 15 || got["compact_fail"] != 15 || len(got) != 3 {
		t.Errorf("vmstat read %v", got)
	}
}

// g262 (conjure-up 1192): the output of a program's version command is that program's
// version, not the kernel's; uname -r's is the kernel's.
func TestFix65pVersionCommandOutput(t *testing.T) {
	for _, c := range []struct{ text, kernel string }{
		{"admin@k8smaster:~$ juju version\n2.2.3-xenial-amd64\n", ""},
		{"$ foo --version\nfoo 2.6.32-rc1\n", ""},
		{"$ uname -r\n2.6.32-rc1\n", "2.6.32-rc1"},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.Kernel; got != c.kernel {
			t.Errorf("%q: kernel %q, want %q", c.text, got, c.kernel)
		}
	}
}
