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
		tl := ParseString(text, "p", Options{})
		v := 0.0
		for _, s := range tl.Samples {
			v = max(v, s.Rates[model.RateStatedKswapdBusy])
		}
		return v
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
