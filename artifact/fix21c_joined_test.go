package artifact

import (
	"strings"
	"testing"
)

// fix21c: syslog records run onto one line after prose (a page that lost the newlines), and
// 2.6.18's footer lines "N pagecache pages" and "Swap cache: add ...".
func TestFix21cJoinedSyslogAfterProse(t *testing.T) {
	text := "ホストのシスログを見ると、カーネルが悲鳴をあげている。 ... Aug 2 07:25:54 omega kernel: 927 pagecache pages Aug 2 07:25:54 omega kernel: Swap cache: add 778561, delete 778496, find 162567/194519, race 0+30 Aug 2 07:25:54 omega kernel: Free swap = 0\n"
	tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := false
	for _, a := range tl.Artifacts {
		if a.Kind == KindShowMem {
			got = true
		}
	}
	if !got {
		t.Errorf("want a show_mem footer read from the joined records, got %+v", tl.Artifacts)
	}
	// One record after prose is no joined log; prose naming the words is none either.
	for _, text := range []string{
		"the log said Aug 2 07:25:54 omega kernel: 927 pagecache pages and then nothing\n",
		"Look for pagecache pages and Swap cache: add lines and Free swap = 0 in the syslog.\n",
	} {
		tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range tl.Artifacts {
			if a.Kind == KindShowMem {
				t.Errorf("%q: show_mem read", text)
			}
		}
	}
}

// init/initramfs.c's boot lines, pasted without a stamp (and lower-cased by a page), are
// the kernel's; a sentence that only names them is not.
func TestFix21cInitramfsBareLines(t *testing.T) {
	for _, s := range []string{"Freeing initrd memory: 130016K", "freeing initrd memory: 130016krun /init as init process", "Initramfs unpacking failed: write error"} {
		if !bareKernelLine(s) {
			t.Errorf("%q: want a bare kernel line", s)
		}
	}
	for _, s := range []string{"The kernel prints Freeing initrd memory: at boot", "Free memory: 12 GB", "initramfs: unpacked"} {
		if bareKernelLine(s) {
			t.Errorf("%q: read as a kernel line", s)
		}
	}
}
