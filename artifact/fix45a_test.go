package artifact

import (
	"testing"

	"headroom/model"
)

// fix45a (corpus 3761): the OOM killer as the subject of a phrasal verb of pursuit, "went
// after ffmpeg", is a kill the author tells (reStatedOOM's killer verbs).
func TestFix45aStatedOOMKillerWentAfter(t *testing.T) {
	for _, text := range []string{
		"The oom-killer went after ffmpeg and dumped the kernel because the ZFS ARC wasn't letting go of memory fast enough.\n",
		"Last night the OOM killer came for postgres again.\n",
		"Turns out the oom killer targeted mysqld on the replica.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
			t.Errorf("%q: stated OOM %v, want 1", text, got)
		}
	}
	// Counter-cases: a question, a condition, advice, a general statement, a negation.
	for _, text := range []string{
		"Why does the oom-killer go after ffmpeg and not the ARC?\n",
		"If the OOM killer goes after postgres, raise its oom_score_adj.\n",
		"Set oom_score_adj so the OOM killer never goes after sshd.\n",
		"The OOM killer goes after the process with the highest oom_score.\n",
		"The OOM killer did not go after ffmpeg this time.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v, want none", text, got)
		}
	}
}

// fix45a (corpus 3765): libnuma's perror for a refused memory-policy call (libnuma.c setpol:
// numa_error("set_mempolicy"), perror by default), as x265's thread pools print it in a
// container whose seccomp profile refuses set_mempolicy: named unread, no OOM, no failure.
func TestFix45aNUMAPolicyRefusedUnread(t *testing.T) {
	text := "```\n" +
		"  x265 [info]: Thread pool created using 4 threads\n" +
		"  set_mempolicy: Operation not permitted\n" +
		"  set_mempolicy: Operation not permitted\n" +
		"  x265 [info]: Coding QT: max CU size, min CU size : 64 / 8\n" +
		"```\n"
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != whyNUMAPolicyRefused || tl.Unparsed[0].FirstLine != 3 || tl.Unparsed[0].LastLine != 4 {
		t.Errorf("unread %+v, want lines 3-4 named as libnuma's perror", tl.Unparsed)
	}
	if len(tl.RuntimeOOMs) != 0 || len(tl.Events) != 0 || statedRate(t, text, model.RateStatedOOM) != 0 {
		t.Errorf("an OOM or a failure read from set_mempolicy's EPERM: %+v %+v", tl.RuntimeOOMs, tl.Events)
	}
	checkAccount(t, tl)
	for _, line := range []string{"mbind: Invalid argument", "get_mempolicy: Operation not permitted", "set_mempolicy: Cannot allocate memory"} {
		if !numaPolicyErrLine(line) {
			t.Errorf("%q not read as libnuma's perror", line)
		}
	}
	// Counter-cases: a question quoting the line, the man page's ERRORS entry, another
	// call's perror, another program's line with the same errno.
	for _, text := range []string{
		"Why do I get set_mempolicy: Operation not permitted in docker?\n",
		"EPERM  The flags argument included MPOL_MF_MOVE_ALL and the caller does not have the CAP_SYS_NICE privilege.\n",
		"sched_setaffinity: Operation not permitted\n",
		"ffmpeg: set_mempolicy failed: Operation not permitted\n",
	} {
		for _, u := range ParseString(text, "p", Options{}).Unparsed {
			if u.Why == whyNUMAPolicyRefused {
				t.Errorf("%q: named %+v", text, u)
			}
		}
	}
}
