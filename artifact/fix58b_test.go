package artifact

import "testing"

// fix58b (corpus 4819): a Chinese notebook's explanation of the OOM killer, a condition
// "当……时" and the victim chosen "依据一定的规则", states how the kernel behaves in general,
// not a kill on the author's host.
func TestFix58bCJKOOMExplained(t *testing.T) {
	for _, text := range []string{
		"OOM（Out of Memory）机制是为了应对系统内存耗尽的情况而设计的一种保护机制。当系统内存资源紧张到无法为新的内存分配请求提供足够的空间时，OOM Killer会被触发，依据一定的规则杀掉一些进程来释放内存。\n",
		"一旦内存耗尽，OOM killer 就杀掉 oom_score 最高的进程\n",
		"OOM killer 根据 oom_score 分数选择并杀死进程\n",
		"当内存不足时，OOM killer 会杀掉一些进程。\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: an explanation read as a stated OOM kill", text)
		}
	}
	// counter-cases: the author's own kill, with a condition or a time, stays stated.
	for _, text := range []string{
		"我们的服务昨天因为 OOM 导致被杀。\n",
		"当我跑压测时，mysqld 被 OOM killer 杀死了\n",
		"偶爾,OOM-killer 會殺死一些程序\n",
		"当晚 OOM killer 杀掉了 java 进程，服务崩溃\n",
		"了解后，发现是linux OOM-killer机制导致的，内存不足，kill部分进程。\n",
		"当mem usage达到1.5GIB左右时候 程序会被oom 导致重启\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a stated OOM kill no longer read", text)
		}
	}
}
