package diagnose

import "testing"

// fix46b: the stated OOM forms (a SIGKILL due to OOM, the kernel's quoted "Out of memory")
// fire oom-kill at warning, the host out of RAM and swap fires swap-under-load; a stated
// memory figure with a plural unit is named unread and fires nothing.
func TestFix46bStatedFindings(t *testing.T) {
	for _, text := range []string{
		"The php cron worker received SIGKILL due to OOM last night.\n",
		"New overload and kernel \"Out of memory\" even with the `php -d memory_limit=128M` in the crontab.\n",
	} {
		mustFire(t, run(t, "oom-kill", pasteTimeline(t, text)), Warning)
	}
	mustFire(t, run(t, "swap-under-load", pasteTimeline(t, "When I woke up this morning, the machine was almost entirely out of RAM (8GB) & swap (16GB), and load averages were around 350-400.\n")), Warning)
	tl := pasteTimeline(t, "When I returned, I found the RAM completely maxed out on the box (16GBs) and dozens of stray Chromium processes still running.\n")
	if len(tl.Unparsed) != 1 {
		t.Errorf("unread %+v, want the RAM line", tl.Unparsed)
	}
	for _, id := range []string{"oom-kill", "swap-under-load"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on a RAM figure in words: %+v", id, res.Findings)
		}
	}
}
