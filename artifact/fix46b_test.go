package artifact

import (
	"testing"

	"headroom/model"
)

// fix46b (corpus 3885): a kill told by its signal with the OOM as its cause, "receiving
// SIGKILL due to OOM" (the OOM killer kills with SIGKILL, mm/oom_kill.c), is a stated OOM.
func TestFix46bStatedSIGKILLDueToOOM(t *testing.T) {
	statedCases(t, model.RateStatedOOM, []string{
		"owncloud/core · issue #14745 · closed · PHP\n# PHP CLI cron job receiving SIGKILL due to OOM\n\nThe cron job now finishes in about 2 seconds.\n",
		"The worker got a SIGKILL from the OOM killer at 03:12 last night.\n",
		"Our php-fpm child received signal 9 because of OOM during the import.\n",
	}, []string{
		// Counter-cases: the signal alone, a question, a condition, a general statement, a
		// negation.
		"The cron job exited with SIGKILL after 2 seconds.\n",
		"Is the cron job receiving SIGKILL due to OOM?\n",
		"If the job receives SIGKILL due to OOM, raise the memory limit.\n",
		"A process that gets SIGKILL due to OOM cannot clean up.\n",
		"The job did not receive SIGKILL due to OOM; it timed out.\n",
	})
}

// fix46b (corpus 3883): the kernel's own "Out of memory" message named in quotes as what
// came, over a program's own syslog lines, is a stated OOM; the program's lines are not.
func TestFix46bStatedKernelQuotedOutOfMemory(t *testing.T) {
	text := "New overload and kernel \"Out of memory\" even with the `php -d memory_limit=128M` in the crontab. Still strange, is it a php bug ?\n\n" +
		"/var/log/syslog :\n\n```\n" +
		"May 14 14:50:01 gd02 FreshRSS[31829]: FreshRSS Start feeds actualization...\n" +
		"May 14 14:50:01 gd02 FreshRSS[31829]: SimplePie GET http://www.luc-damas.fr/humeurs/feed/\n" +
		"```\n"
	if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
		t.Errorf("stated OOM %v, want 1", got)
	}
	tl := ParseString(text, "p", Options{})
	if len(tl.Events) != 0 || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("FreshRSS's GET lines read as events: %+v %+v", tl.Events, tl.RuntimeOOMs)
	}
	statedCases(t, model.RateStatedOOM, []string{
		"Every night the kernel 'Out of memory' shows up in dmesg.\n",
		"the kernel’s “Out of memory” again, after the upgrade.\n",
	}, []string{
		// Counter-cases: advice, a question, a negation, a condition, a doc's list.
		"Look for kernel \"Out of memory\" lines in dmesg first.\n",
		"Do you see any kernel \"Out of memory\" in the log?\n",
		"There was no kernel \"Out of memory\" in syslog.\n",
		"If you get a kernel \"Out of memory\", lower memory_limit.\n",
		"Messages: kernel \"Out of memory\" can mean the host is short of memory.\n",
	})
}

// fix46b (corpus 3884): the host found out of RAM and swap both, sizes in brackets, is swap
// stated used up; "When I woke up, ..." is the author's past, not a condition.
func TestFix46bStatedOutOfRAMAndSwap(t *testing.T) {
	statedCases(t, model.RateStatedSwapping, []string{
		"When I woke up this morning, the machine was almost entirely out of RAM (8GB) & swap (16GB), and load averages were around 350-400.\n",
		"The server ran out of memory and swap during the import.\n",
		"The box was completely out of RAM, and swap too was gone; no wait: the box was out of RAM and out of swap.\n",
	}, []string{
		// Counter-cases: a mechanism in the present, a condition, advice, a question, a negation.
		"Linux runs out of RAM and swap when too many chromium processes are left.\n",
		"If the machine is out of RAM and swap, the OOM killer picks a process.\n",
		"Add swap so the machine is never out of RAM and swap.\n",
		"Was the machine out of RAM and swap when it hung?\n",
		"The machine was not out of RAM and swap, only slow.\n",
		"When it is out of RAM, swap is used.\n",
	})
}

// fix46b (corpus 3896): the host's memory stated in words with a plural unit, "(16GBs)", is a
// figure: the line is named unread (no exit 3 for a text that states the host's memory).
func TestFix46bPluralUnitFigureUnread(t *testing.T) {
	text := "When I returned, I found the RAM completely maxed out on the box (16GBs) and dozens of stray Chromium processes still running.\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != whyStatedFigure || tl.Unparsed[0].FirstLine != 1 {
		t.Errorf("unread %+v, want line 1 named as a stated figure", tl.Unparsed)
	}
	for _, w := range []string{"16gbs", "512mbs", "2tbs"} {
		if figureKind(w) != unitFigure {
			t.Errorf("%q not a figure with a unit", w)
		}
	}
	// Counter-cases: a word that only ends so, prose with no figure of the domain.
	for _, w := range []string{"gbs", "16gbsx", "3abs"} {
		if figureKind(w) == unitFigure {
			t.Errorf("%q read as a figure with a unit", w)
		}
	}
	for _, text := range []string{
		"I imported 27k links from Pocket and it was slow.\n",
		"We have 16 GBs of photos in the archive folder, 3 tabs open.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if text[0] == 'I' && len(tl.Unparsed) != 0 {
			t.Errorf("%q: unread %+v, want none", text, tl.Unparsed)
		}
	}
}

// statedCases checks that each of read states rate once and each of none not at all.
func statedCases(t *testing.T, rate string, read, none []string) {
	t.Helper()
	for _, text := range read {
		if got := statedRate(t, text, rate); got != 1 {
			t.Errorf("%q: stated %v, want 1", text, got)
		}
	}
	for _, text := range none {
		if got := statedRate(t, text, rate); got != 0 {
			t.Errorf("%q: stated %v, want none", text, got)
		}
	}
}
