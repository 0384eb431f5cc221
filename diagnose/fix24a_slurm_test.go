package diagnose

import (
	"fmt"
	"strings"
	"testing"
)

// fix24a (round 19, g92): Slurm's oom-kill line as users paste it (the quote that closes a
// StdErr block, the first sentence alone), slurmctld's low real_memory check, NCCL's verbs
// ENOMEM: each read or named, with counter-cases that must stay as they were.

func TestFix24aSlurmOOMForms(t *testing.T) {
	for _, c := range []struct {
		name, text string
		count      int
	}{
		{"closing quote", "StdErr: \"/var/spool/slurmd/job00191/slurm_script: line 28:  8156 Killed                  python3 main.py\nslurmstepd: error: Detected 1 oom-kill event(s) in StepId=191.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.\"\n", 1},
		{"first sentence, step cgroup", "the batch run is killed with the message:\nslurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup.\n", 2},
		{"first sentence, StepId no stop", "```\nslurmstepd: error: Detected 1 oom-kill event(s) in StepId=40159.batch\n```\n", 1},
		{"first sentence, step .0", "slurmstepd: error: Detected 1 oom-kill event(s) in step 411502.0 cgroup.\n", 1},
	} {
		tl := pasteTimeline(t, c.text)
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if f.Facts.OOM != OOMCgroup || !strings.Contains(f.Title, fmt.Sprintf("ran %d×", c.count)) {
			t.Errorf("%s: %q %+v", c.name, f.Title, f.Facts)
		}
	}
}

func TestFix24aSlurmCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"sentence about the job":  "Detected 2 oom-kill events in my job.\n",
		"sentence, no step shape": "slurmstepd: error: Detected 2 oom-kill event(s) in the last run.\n",
		"advice naming the line":  "If you get Detected 1 oom-kill event(s) in step 12.batch cgroup. raise --mem.\n",
		"zero events":             "slurmstepd: error: Detected 0 oom-kill event(s) in step 12.batch cgroup.\n",
		"low real_memory":         "[2020-08-13T10:20:03.698] error: Node ip-10-2-1-120 has low real_memory size (63622 < 64000)\n[2020-08-13T10:20:03.698] error: Setting node ip-10-2-1-120 state to DRAIN\n",
	} {
		tl := pasteTimeline(t, text)
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%s: %+v %+v", name, res.Findings, tl.RuntimeOOMs)
		}
	}
}

// slurmctld's registration check names its figure line (a configuration mismatch), every form
// of the message; a sentence about it and another daemon's line stay unread-free.
func TestFix24aSlurmLowRealMemory(t *testing.T) {
	for name, text := range map[string]string{
		"20.02":       "[2020-08-13T10:20:03.698] error: Node ip-10-2-1-120 has low real_memory size (63622 < 64000)\n",
		"old":         "slurmctld: error: Node n01 has low real_memory size 128000\n",
		"22.05 debug": "[2023-01-02T03:04:05.000] debug:  Node n01 has low real_memory size (63622 / 64000) < 100.00%\n",
		"syslog":      "Aug 13 10:20:03 head slurmctld[811]: error: Node c7 has low real_memory size (63622 < 64000)\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "RealMemory") {
			t.Errorf("%s: %+v", name, tl.Unparsed)
		}
		for _, id := range []string{"oom-kill", "alloc-fail-reserve"} {
			if res := run(t, id, tl); len(res.Findings) > 0 {
				t.Errorf("%s: %s fired: %+v", name, id, res.Findings)
			}
		}
	}
	for name, text := range map[string]string{
		"sentence":      "The node has low real_memory size because RealMemory is set too high.\n",
		"another field": "[2020-08-13T10:20:03.698] error: Node n01 has low tmp_disk size (100 < 2000)\n",
	} {
		tl := pasteTimeline(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "RealMemory") {
				t.Errorf("%s: named as slurmctld's check: %+v", name, u)
			}
		}
	}
}

func TestFix24aNCCLVerbsENOMEM(t *testing.T) {
	for name, text := range map[string]string{
		"title":    "# misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory\n",
		"nccl log": "gpu01:1234:1301 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n",
	} {
		tl := pasteTimeline(t, text)
		if tl.Log.Len() != 0 || len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "RLIMIT_MEMLOCK") {
			t.Errorf("%s: log %d, unparsed %+v", name, tl.Log.Len(), tl.Unparsed)
		}
		for _, id := range []string{"alloc-fail-reserve", "oom-kill", "slab-alloc-failure"} {
			if res := run(t, id, tl); len(res.Findings) > 0 {
				t.Errorf("%s: %s fired: %+v", name, id, res.Findings)
			}
		}
	}
	for name, text := range map[string]string{
		"other errno": "gpu01:1234:1301 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Bad address\n",
		"sentence":    "NCCL says Call to ibv_reg_mr failed with error Cannot allocate memory when ulimit -l is low.\n",
	} {
		tl := pasteTimeline(t, text)
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "NCCL's verbs wrapper") {
				t.Errorf("%s: named as NCCL's ENOMEM: %+v", name, u)
			}
		}
	}
}
