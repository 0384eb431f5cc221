package artifact

import (
	"testing"

	"headroom/model"
)

// A vendor knowledge-base article (Environment ... Resolution sections) names a symptom for
// every system it lists: its title and Cause stating kswapd busy are not this host's (891).
// The same words in a post without those sections, or a post that merely says "environment"
// in a sentence, still state it.
func TestKBArticleKswapdNotHost(t *testing.T) {
	busy := func(text string) float64 {
		t.Helper()
		return statedRate(t, text, model.RateStatedKswapdBusy)
	}
	kb := "kswapd is using a lot of CPU cycles\n\nEnvironment\n\nSUSE Linux Enterprise Server 12 SP1\n\nResolution\n\nReduce the memory pressure.\n\nCause\n\nThis has the effect of kswapd using a lot of CPU cycles.\n"
	if got := busy(kb); got != 0 {
		t.Errorf("KB article: stated kswapd busy %v, want 0", got)
	}
	post := "kswapd is using a lot of CPU cycles\n\nOur SLES 12 SP1 server has been slow since Monday.\n"
	if got := busy(post); got != 1 {
		t.Errorf("post: stated kswapd busy %v, want 1", got)
	}
	words := "In our environment kswapd is using a lot of CPU cycles.\n\nThe resolution was more RAM.\n"
	if got := busy(words); got != 1 {
		t.Errorf("words in sentences: stated kswapd busy %v, want 1", got)
	}
}

// The kubelet's command-line flags and a node's capacity block pasted in a post (898: "exit
// 3, nothing is evidence") are settings and facts: the hard memory.available threshold and the
// node's memory. A soft threshold alone, a percentage, or "memory:" outside a capacity block
// is not read as either.
func TestKubeletFlagsAndCapacityPasted(t *testing.T) {
	text := "Node capacity\n\n  capacity:\n    cpu: \"32\"\n    memory: 260790784Ki\n    pods: \"234\"\n\n" +
		"kubelet flags\n\n--max-pods=234\n--eviction-hard=nodefs.inodesFree<10%,memory.available<256Mi,nodefs.available<10%\n--eviction-soft=memory.available<500Mi\n"
	tl := ParseString(text, "p", Options{})
	if tl.Kubelet == nil || tl.Kubelet.Threshold != "256Mi" || tl.Kubelet.Bytes != 256<<20 {
		t.Errorf("kubelet: %+v, want evictionHard memory.available 256Mi", tl.Kubelet)
	}
	if tl.Host.MemTotalKB != 260790784 {
		t.Errorf("memory %d kB, want 260790784 (the node's capacity)", tl.Host.MemTotalKB)
	}
	for _, c := range []string{
		"--eviction-soft=memory.available<500Mi\n",
		"--eviction-hard=memory.available<5%\n",
		"limits:\n    memory: 512Mi\n",
	} {
		tl := ParseString(c, "p", Options{})
		if tl.Kubelet != nil || tl.Host.MemTotalKB != 0 {
			t.Errorf("%q: kubelet %+v, memory %d kB; want neither", c, tl.Kubelet, tl.Host.MemTotalKB)
		}
	}
}
