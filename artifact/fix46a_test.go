package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix46a: round 41's (g178) first-run misses by class. Snippets are minimal, in the forms
// the programs print or authors write: the swap entered told in the past with how far
// ("went well into my swap"); Japanese "swapが使われまくる" (swap used heavily); Friendica's
// worker line from Process::isMinMemoryReached; an installer's logged RAM requirement check
// (YunoHost's mastodon_ynh install script).

func TestFix46aStatedIntoSwap(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"The daemon grew about 500mb and went well into my swap before it crashed.\n", 1},
		{"Last night the box had gone deep into swap by the time I logged in.\n", 1},
		{"またメモリ空きには余裕があるのにswapが使われまくる現象が発生しています。\n", 1},
		{"サーバーのswapが大量に使われている状態でした。\n", 1},
		// counter-cases: a habit in the present, a negation, a condition, advice
		{"The system is unmounted. It never starts going into swap.\n", 0},
		{"If it goes into swap, add more RAM.\n", 0},
		{"swapが使われまくると遅くなるので注意してください。\n", 0},
		{"swapが使われまくらないようにメモリを増やしましょう。\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedSwapping); got != c.want {
			t.Errorf("%q: stated swapping %v, want %v", c.text, got, c.want)
		}
	}
}

func TestFix46aAppMemoryChecksUnread(t *testing.T) {
	for _, c := range []struct {
		name, text, word string
	}{
		{"friendica worker", `2021-05-01T10:00:01Z worker [WARNING]: Minimal memory reached. {"free":731,"memtotal":16012,"limit":"1024"} - {"file":"Process.php","line":193,"function":"isMinMemoryReached"}` + "\n", "isMinMemoryReached"},
		{"installer warning", "2020-03-02 11:20:33,101: WARNING - You need at least 2048 Mo of RAM+Swap to install Synapse.\n", "installer's logged memory check"},
	} {
		tl := ParseString(c.text, "t", Options{})
		if len(tl.Unparsed) != 1 || !f15Unread(tl, c.word) {
			t.Errorf("%s: unparsed %+v, want the line named (%q)", c.name, tl.Unparsed, c.word)
		}
		if statedOOM(tl) || tl.Host.MemTotalKB != 0 || len(tl.Events) != 0 {
			t.Errorf("%s: stated OOM %v, MemTotal %d, events %d: the app's check is no kill and no host size", c.name, statedOOM(tl), tl.Host.MemTotalKB, len(tl.Events))
		}
	}
	if !installerMemNeeded("2020-03-02 11:20:33 ERROR - You need at least 4 GB of RAM to build this app") {
		t.Error("an ERROR-level requirement in GB: want it read as an installer's check")
	}
	// counter-cases: a README's requirement (no log level), a question, another message of
	// the same worker without figures.
	for _, text := range []string{
		"You need at least 2500 Mo of RAM+Swap to install Mastodon.\n",
		"Do you need at least 4 GB of RAM for the build?\n",
		"2021-05-01T10:00:01Z worker [WARNING]: Memory limit reached - quitting []\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "isMinMemoryReached") || strings.Contains(u.Why, "installer's logged memory check") {
				t.Errorf("%q: named %q, want it not read as an app's memory check", text, u.Why)
			}
		}
	}
}

func TestFix46aViewerMemoryExhaustedUnread(t *testing.T) {
	for _, text := range []string{
		"反応が悪いのでhtopコマンドを実行してみました。そこで見たものはメモリの枯渇と複数のconvertプロセスでした。\n",
		"I finally got a shell, ran htop and the memory was completely exhausted by the workers.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.Unparsed) != 1 || !f15Unread(tl, "process viewer (htop or top)") {
			t.Errorf("%q: unparsed %+v, want the line named as a viewer's reading", text, tl.Unparsed)
		}
		if statedOOM(tl) || len(tl.Events) != 0 {
			t.Errorf("%q: stated OOM %v, events %d: a viewer's reading in words is no kill", text, statedOOM(tl), len(tl.Events))
		}
	}
	// counter-cases: a condition, advice, a question, memory named without being used up
	for _, text := range []string{
		"If the memory is exhausted, htop shows the bar in red.\n",
		"メモリが枯渇したらhtopで確認してください。\n",
		"htopでメモリの枯渇を確認してください。\n",
		"Did htop show the memory was full?\n",
		"htop showed the memory at about half of what we have.\n",
	} {
		if viewerMemoryExhausted(strings.TrimSpace(text)) {
			t.Errorf("%q: read as a viewer's reading of memory used up", text)
		}
	}
}
