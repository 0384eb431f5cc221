package artifact

import "testing"

// fix37b (corpus 3170): a Chinese yes/no question before the OOM words ("有没有被 OOM 杀过",
// a checklist's "has it been OOM-killed?") asks, it does not state a kill.
func TestFix37bCJKOOMAsked(t *testing.T) {
	for _, text := range []string{
		"| ③ | **有没有被 OOM 杀过** | 确定答案，不用猜 —— 被杀的容器会自己重启，屏幕上什么都看不出来，只有内核日志里有 |\n",
		"有没有被 OOM 杀过\n",
		"请确认容器是否被 OOM killer 杀掉了\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: an asked OOM kill read as stated", text)
		}
	}
	// counter-cases: the kill stated, and the asking words in another clause, keep the finding.
	for _, text := range []string{
		"我们的容器被 OOM 杀了两次\n",
		"查了有没有日志，结果 mysqld 被 OOM 杀了\n",
		"偶爾,OOM-killer 會殺死一些程序\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a stated OOM kill no longer read", text)
		}
	}
}

// nbd's device lines are the kernel's however pasted; other "block" words are not (fix37b,
// corpus 3147).
func TestFix37bNbdBareKernel(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"block nbd2: Possible stuck request 000000002f3b7bec: control (write@9158656,4096B). Runtime 210 seconds", true},
		{"block nbd0: Connection timed out", true},
		{"block drbd1: meta connection shut down by peer.", true},
		// counter-cases: a sentence, no device number, another prefix
		{"block nbd devices: we saw stuck requests", false},
		{"block nbd: Possible stuck request", false},
		{"blocked nbd2: Possible stuck request", false},
	} {
		if got := bareKernelLine(c.t); got != c.want {
			t.Errorf("bareKernelLine(%q) = %v, want %v", c.t, got, c.want)
		}
	}
}

// The kernel's BUG line quoted in a sentence is named; the words without its form are not
// (fix37b, corpus 3154).
func TestFix37bQuotedKernelBug(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{`The system log shows "BUG: scheduling while atomic: kswapd0/142/0x00000002", I check the nbd.c file.`, true},
		{"BUG: sleeping function called from invalid context at mm/slab.h:421", true},
		// counter-cases
		{"scheduling while atomic bugs are common with swap over the network", false},
		{"BUG: scheduling while atomic in kswapd0", false},
		{"BUG: sleeping function called from invalid context", false},
	} {
		if got := quotedKernelBug(c.t); got != c.want {
			t.Errorf("quotedKernelBug(%q) = %v, want %v", c.t, got, c.want)
		}
	}
	tl := ParseString("When swap is on nbd the system freezes. The system log shows \"BUG: scheduling while atomic: kswapd0/142/0x00000002\".\n", "t", Options{})
	if len(tl.Unparsed) != 1 {
		t.Errorf("quoted BUG line: unparsed %+v, want the line named", tl.Unparsed)
	}
	if statedOOM(tl) {
		t.Errorf("quoted BUG line read as an OOM kill")
	}
}

// A figure with its size unit as its own word, in a line naming memory, is a stated figure
// (fix37b, corpus 3170); without a domain word, or a bare number, it is not.
func TestFix37bSpacedSizeUnit(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"面板上「660.3 MiB Free / 3.8 GiB Total」。Linux 把暂时用不到的内存拿去做文件缓存", true},
		{"the container's memory sits at 512 MB", true},
		// counter-cases: no domain word; a bare number in a CJK line; "bytes" as a noun far off
		{"下载了 3.8 GiB 的电影", false},
		{"内存条有 2 根", false},
		{"the ISO is 3.8 GiB and the download took 20 minutes", false},
	} {
		if got := statesDomainFigure(c.t); got != c.want {
			t.Errorf("statesDomainFigure(%q) = %v, want %v", c.t, got, c.want)
		}
	}
}
