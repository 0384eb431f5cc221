package artifact

import (
	"testing"

	"headroom/model"
)

// fix35a (round 30, corpus 2975, 2984, 2998, 3027): the runtime's reason OOMKilled told as a
// container's outcome, docker's OOMKilled flag told as turned true, and the OOM killer's
// repeated kills ("keeps killing X").

func TestFix35aStatedOOMKilledReason(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"When I upload a file which is larger than container memory limit, the container is terminated with reason `OOMKilled`.\n", 1},
		{"Each pod climbed from ~870Mi to ~1800Mi over a few days, then either:\n- hit the 2Gi cgroup limit → **OOMKilled (exit 137)**, or\n- hit the heap cap.\n", 1},
		{"The worker restarted with status OOMKilled twice last night.\n", 1},
		// counter-cases: a question, a condition, a negation, advice, a general statement
		{"Is the container terminated with reason OOMKilled?\n", 0},
		{"If the container gets terminated with reason OOMKilled, raise the limit.\n", 0},
		{"The pod was not terminated with reason OOMKilled but Error.\n", 0},
		{"To avoid containers being terminated with reason OOMKilled, set a higher limit.\n", 0},
		{"Containers that exceed their limit are terminated with reason OOMKilled.\n", 0},
	})
}

func TestFix35aStatedDockerOOMKilledFlag(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"The browser worker's Docker `OOMKilled` snapshot changed from false in the 2026-07-12 review to true in the 2026-07-13 evidence bundle.\n", 1},
		{"# browser.oomkilled (false → true; worker remained healthy)\n\nbody\n", 1},
		// counter-cases: the flag went the other way, a condition, a question, stays false
		{"The `OOMKilled` flag changed from true to false after the restart.\n", 0},
		{"If `OOMKilled` changes from false to true, page the on-call.\n", 0},
		{"Did `OOMKilled` change from false to true?\n", 0},
		{"`OOMKilled` stayed false all week.\n", 0},
	})
}

func TestFix35aStatedOOMKillerKeepsKilling(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"With 512 MB, oom-killer keeps killing squid or httpd processes\n", 1},
		{"Since the upgrade the OOM killer kept killing mysqld.\n", 1},
		// counter-cases: a victim by kind, a condition, a question, a negation, habit
		{"The OOM killer keeps killing the process with the highest score.\n", 0},
		{"If the OOM killer keeps killing squid, add memory.\n", 0},
		{"Is it true that the OOM killer keeps killing squid?\n", 0},
		{"It is not that the OOM killer keeps killing squid.\n", 0},
		{"Usually the OOM killer keeps killing whatever is biggest.\n", 0},
	})
}
