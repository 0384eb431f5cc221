package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix52b (round 47, g202): the old in-kernel lowmemorykiller's lines without a prefix, as a
// console or a blog pasted them (corpus 4324, Android 2.2's emulator), bare and in dmesg.
func TestFix52bLowMemKillerBareLines(t *testing.T) {
	const bare = "このページ(V8 benchmark)です。\n\n" +
		"select 217 (droid.deskclock), adj 15, size 3521, to kill\n" +
		"select 236 (d.process.media), adj 15, size 3646, to kill\n" +
		"send sigkill to 236 (d.process.media), adj 15, size 3646\n" +
		"select 194 (d.process.acore), adj 8, size 4156, to kill\n" +
		"send sigkill to 286 (viders.calendar), adj 13, size 3477\n"
	dmesg := ""
	for i, l := range strings.Split(strings.TrimSpace(bare[strings.Index(bare, "select"):]), "\n") {
		dmesg += "<6>[  " + string(rune('1'+i)) + "0.123456] " + l + "\n"
	}
	for name, text := range map[string]string{"bare": bare, "dmesg": dmesg} {
		tl := ParseString(text, "p", Options{})
		if len(tl.RuntimeOOMs) != 2 {
			t.Fatalf("%s: runtime OOMs %+v, want the 2 send sigkill lines", name, tl.RuntimeOOMs)
		}
		o := tl.RuntimeOOMs[0]
		if o.Scope != model.OOMScopeLowMemKiller || o.Victim != "d.process.media" || o.PID != 236 || o.Reporter != "Android's in-kernel lowmemorykiller" || o.OOMScoreAdj != nil {
			t.Errorf("%s: kill %+v, want d.process.media 236 by the in-kernel lowmemorykiller, no oom_score_adj (adj is oom_adj)", name, o)
		}
		arts := artifactsOf(tl, KindLowMemKill)
		if len(arts) != 2 {
			t.Fatalf("%s: artifacts %+v", name, arts)
		}
		if k, ok := arts[1].Data.(lmkBareKill); !ok || k.OOMAdj != 13 || k.SizePages != 3477 || k.Victim != "viders.calendar" {
			t.Errorf("%s: artifact %+v, want oom_adj 13 size 3477 pages", name, arts[1].Data)
		}
	}
	// The candidate lines are named, not read as kills.
	if why := unreadWhyAt(bare, 3); why != lmkBareWhy {
		t.Errorf("select line named %q", why)
	}
	// Counter-cases: the format string in a guide, a question, another program's SIGKILL
	// notice, a select line without its shape: no kill.
	for _, text := range []string{
		"lowmem_print(1, \"send sigkill to %d (%s), adj %d, size %d\\n\", selected->pid, selected->comm, selected_oom_adj, selected_tasksize);\n",
		"Why does it send sigkill to 236 (d.process.media), adj 15, size 3646?\n",
		"supervisord: send sigkill to 236 (worker)\n",
		"sending SIGKILL to process 236 uid 0 \"app\": badness 900, VmRSS 20 MiB\n",
		"select 217 (droid.deskclock) to kill\n",
	} {
		tl := ParseString(text, "p", Options{})
		for _, o := range tl.RuntimeOOMs {
			if o.Reporter == "Android's in-kernel lowmemorykiller" {
				t.Errorf("%q: read as the lowmemorykiller's kill %+v", text, o)
			}
		}
	}
}

// fix52b (corpus 4330): kswapd's CPU share in the sentence after the one naming it.
func TestFix52bKswapdShareNextSentence(t *testing.T) {
	for _, text := range []string{
		"THis time, next to the normally running software it showed kswapd0. It\nwent up to 70%. Well, the only difficulty of course is that when it runs\nlow on ressources it is also difficult to run all those programs.\n",
		"top showed kswapd0. It was at about 70%.\n",
	} {
		if got := statedRate(t, text, model.RateKswapdCPUPct); got != 70 {
			t.Errorf("%q: kswapd CPU %v, want 70", text, got)
		}
	}
	// Counter-cases: a memory share, a likelihood, a question, a general statement.
	for _, text := range []string{
		"top showed kswapd0. It went up to 70% of the RAM.\n",
		"I suspect kswapd0. It is 90% likely the culprit.\n",
		"Is it kswapd0? It went up to 70%?\n",
		"A system under pressure runs kswapd. It goes up to 100% when memory is low.\n",
	} {
		if got := statedRate(t, text, model.RateKswapdCPUPct); got != 0 {
			t.Errorf("%q: kswapd CPU %v, want none", text, got)
		}
	}
}

// fix52b (corpus 4333): RAM filled then swap taken into use, as a monitor showed it.
func TestFix52bSwappingSeenInMonitor(t *testing.T) {
	for _, text := range []string{
		"According to `htop` it uses all the ram and then starts using swap\n",
		"htop shows it uses all the RAM and then starts using swap.\n",
	} {
		if got := statedRate(t, text, model.RateStatedSwapping); got != 1 {
			t.Errorf("%q: stated swapping %v, want 1", text, got)
		}
	}
	for _, text := range []string{
		"When a program uses all the ram it then starts using swap.\n",
		"Does htop show it uses all the ram and then starts using swap?\n",
		"If htop shows it uses all the ram and then starts using swap, add more RAM.\n",
		"According to htop it never uses all the ram and then starts using swap.\n",
	} {
		if got := statedRate(t, text, model.RateStatedSwapping); got != 0 {
			t.Errorf("%q: stated swapping %v, want none", text, got)
		}
	}
}

// fix52b (corpus 4325, 4327): termux-info and dumpsys's foreground apps are named (the
// device's app state, no memory figure), so the paste is read rather than refused, and
// nothing in them is read as a kill or a figure.
func TestFix52bAndroidInfoNamed(t *testing.T) {
	termux := "```\nTermux Variables:\nTERMUX_APP__PID=30766\nTERMUX_APP__TARGET_SDK=28\nTERMUX_VERSION=0.118.0+245158c\nPackages CPU architecture:\naarch64\nSubscribed repositories:\n# sources.list\ndeb https://mirror.freedif.org/\nKernel build information:\nLinux localhost 4.14.186 #1 SMP PREEMPT aarch64 Android\n```\n"
	for no := 2; no <= 10; no++ {
		if why := unreadWhyAt(termux, no); why != termuxInfoWhy {
			t.Errorf("termux-info line %d named %q", no, why)
		}
	}
	if why := unreadWhyAt(termux, 12); why == termuxInfoWhy {
		t.Errorf("uname -a after termux-info taken as termux-info's")
	}
	fg := "```\nActive foreground apps - user 0:\n  #2: com.termux\n    mNumActive=1 mAppOnTop=false mShownWhileTop=true mShownWhileScreenOn=true\n    mStartTime=-4h8m25s658ms mStartVisibleTime=-4h8m25s658ms\n```\n"
	for no := 2; no <= 5; no++ {
		if why := unreadWhyAt(fg, no); why != fgAppsWhy {
			t.Errorf("foreground apps line %d named %q", no, why)
		}
	}
	for _, text := range []string{termux, fg} {
		tl := ParseString(text, "p", Options{})
		if len(tl.RuntimeOOMs) != 0 || len(tl.Samples) != 0 && len(tl.Samples[0].Rates) != 0 {
			t.Errorf("%q: read %+v %+v", text, tl.RuntimeOOMs, tl.Samples)
		}
	}
	// Counter-case: a single TERMUX_ variable in prose opens nothing.
	if why := unreadWhyAt("Set TERMUX_APP__PID=1 in your shell.\n", 1); why == termuxInfoWhy {
		t.Errorf("a variable in prose named as termux-info")
	}
}

// fix52b (corpus 4329): lmkd's kill with its figures, and Samsung's "Reclaim" form; the
// reason's swap figures are kept as lmkd printed them, never read as the host's swap.
func TestFix52bLmkdKillFigures(t *testing.T) {
	text := "01-01 15:11:14.049   879   879 I lmkd    : Reclaim 'com.samsung.android.scpm' (31960), uid 5009, oom_score_adj 915, state 19 to free 18184kB rss, 52268kB swap; reason: low watermark is breached and swap is low (5818388kB < 838860kB)\n" +
		"01-01 15:11:14.069   879   890 E lmkd    : process_mrelease 31464 failed: No such process\n" +
		"11-29 10:00:00.123   345   345 I lowmemorykiller: Kill 'com.example' (4242), uid 10100, oom_score_adj 905 to free 70000kB rss, 1000kB swap; reason: device is low on swap (10000kB < 20000kB) and thrashing (30%)\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.RuntimeOOMs) != 2 {
		t.Fatalf("runtime OOMs %+v, want 2", tl.RuntimeOOMs)
	}
	if o := tl.RuntimeOOMs[0]; o.Victim != "com.samsung.android.scpm" || o.PID != 31960 || o.OOMScoreAdj == nil || *o.OOMScoreAdj != 915 || o.Reporter != "Android's lmkd" {
		t.Errorf("Samsung's kill %+v", o)
	}
	arts := artifactsOf(tl, KindLowMemKill)
	k, ok := arts[0].Data.(lmkdKill)
	if !ok || k.RSSKB != 18184 || k.SwapKB != 52268 || k.SwapFreeKB != 5818388 || k.SwapThresholdKB != 838860 {
		t.Errorf("Samsung's figures %+v", arts[0].Data)
	}
	if k, ok := arts[1].Data.(lmkdKill); !ok || k.RSSKB != 70000 || k.SwapKB != 1000 || k.SwapFreeKB != 0 {
		t.Errorf("AOSP's figures %+v", arts[1].Data)
	}
	for _, s := range tl.Samples {
		for key := range s.Rates {
			if strings.Contains(key, "swap") {
				t.Errorf("lmkd's reason read as the host's swap: %s", key)
			}
		}
	}
	// Counter-case: "Reclaim" under another tag, or bare, is no lmkd kill.
	for _, text := range []string{
		"01-01 15:11:14.049   879   879 I Zygote  : Reclaim 'com.x' (31960), uid 5009, oom_score_adj 915, state 19 to free 18184kB rss, 52268kB swap; reason: x\n",
		"Reclaim 'com.x' (31960), uid 5009, oom_score_adj 915, state 19 to free 18184kB rss, 52268kB swap; reason: x\n",
	} {
		if n := len(ParseString(text, "p", Options{}).RuntimeOOMs); n != 0 {
			t.Errorf("%q: %d kills", text, n)
		}
	}
}
