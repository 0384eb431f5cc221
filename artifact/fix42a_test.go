package artifact

import (
	"testing"

	"headroom/model"
)

// fix42a: kills and swap the author tells without a kernel line (platforms, pods, prose),
// each class with counter-cases of the same shape.
//   - corpus 3595: a negation in a parenthesis closed before the statement is the aside's
//     ("(Guaranteed QoS, no burst headroom) and OOM-killed (exit 137)").
//   - corpus 3573: OOMKilled as the status a pod shows (kubectl's STATUS column).
//   - corpus 3596: counted OOMKill restarts or kills ("8 lifetime OOMKill restarts").
//   - corpora 3555, 3559: a platform's or an orchestrator's kill, stop or restart for running
//     out of memory or at its memory limit, ECS's "Container killed due to memory usage".
//   - corpus 3557: kswapd's work with an adverb of how hard ("extensively used `kswapd0`").
//   - corpus 3589: the swap used up, told with a pronoun for the sized swap before it ("gave
//     it a 200gb swap ... it used all of that also").
func TestFix42aStatedClasses(t *testing.T) {
	oom, kswapd, swap := model.RateStatedOOM, model.RateStatedKswapdBusy, model.RateStatedSwapping
	for _, c := range []struct {
		text, key string
		want      float64
	}{
		{"`sonarr-0` ran with **request == limit == 1G** (Guaranteed QoS, no burst headroom) and OOM-killed (exit 137) on **2026-06-08** during an import/scan spike.\n", oom, 1},
		{"The worker (no swap configured) was OOM-killed twice last night.\n", oom, 1},
		{"The worker was not (yet) OOM-killed.\n", oom, 0},
		{"How many OOMKill restarts did it have?\n", oom, 0},
		{"No pod (of 3) got OOM killed.\n", oom, 0},

		{"Early the following morning, alerts fire when the Openscapes workshop hub fails a health check, with hub pod showing OOMKilled status.\n", oom, 1},
		{"5:05 Incident declared. Georgiana notes after deleting the hub deployment and re-deploying the hub pod shows OOMKilled status\n", oom, 1},
		{"The container's status was OOMKilled after the import.\n", oom, 1},
		{"Does the hub pod show OOMKilled status?\n", oom, 0},
		{"If the pod shows OOMKilled status, raise its memory limit.\n", oom, 0},
		{"The pod did not show OOMKilled status; it failed its liveness probe.\n", oom, 0},
		{"The pod shows CrashLoopBackOff status after the upgrade.\n", oom, 0},

		{"`soularr` has **8 lifetime OOMKill restarts** against its `768Mi` memory limit.\n", oom, 1},
		{"The exporter logged 3 `OOMKilled` restarts overnight.\n", oom, 1},
		{"How many OOMKill restarts does the alert allow before it pages?\n", oom, 0},
		{"If a pod has 3 OOMKill restarts, the alert fires.\n", oom, 0},
		{"The pod has 8 lifetime restarts, none of them OOMKilled.\n", oom, 0},

		{"Noticed this as my server is constantly restarting after hitting a memory limit.\n", oom, 1},
		{"Since then, ECS repeatedly kept shutting down and restarting _that specific instance_ due to it running out of memory.\n", oom, 1},
		{"Stopped reason: OutOfMemoryError: Container killed due to memory usage\n", oom, 1},
		{"The task was stopped for exceeding its memory limit twice today.\n", oom, 1},
		{"If your container attempts to exceed the memory specified here, the container is stopped.\n", oom, 0},
		{"Is the service restarting after hitting a memory limit?\n", oom, 0},
		{"The container might get restarted for exceeding its memory limit.\n", oom, 0},
		{"To avoid restarting after hitting the memory limit, set GOMEMLIMIT.\n", oom, 0},
		{"It was not restarted due to running out of memory; the deploy restarted it.\n", oom, 0},
		{"I'm worried the container will be killed after reaching its memory limit.\n", oom, 0},
		{"We restarted the server after upgrading the memory to 16 GB.\n", oom, 0},
		{"Make sure to restart the service after changing the memory limit.\n", oom, 0},

		{"We identified it usually extensively used `kswapd0`,  a few minutes before shutting down, after less than an hour of slowly but surely having its RAM used growing.\n", kswapd, 1},
		{"Before the hang kswapd0 was running constantly.\n", kswapd, 1},
		{"If kswapd0 is running constantly, add memory.\n", kswapd, 0},
		{"Is kswapd0 heavily used on your box?\n", kswapd, 0},
		{"kswapd0 was not running constantly; it woke twice.\n", kswapd, 0},

		{"While trying to figure out the OOM error i installed the swap plugin and gave it a 200gb swap just so i have time to see what is happening. it used all of that also.\n", swap, 1},
		{"I added a 16 GB swap file. It ate all of that in ten minutes.\n", swap, 1},
		{"I gave the VM 16 GB of RAM. It used all of that too.\n", swap, 0},
		{"I set up a 200gb swap. Would it use all of that?\n", swap, 0},
		{"I gave it a 200gb swap; if it used all of that, the box would stall.\n", swap, 0},
		{"I gave it a 200gb swap and it never used all of that.\n", swap, 0},
		{"I gave it an 8 GB swap and 2 TB of disk. It filled all of that.\n", swap, 0},
	} {
		if got := statedRate(t, c.text, c.key); got != c.want {
			t.Errorf("%q: %s %v, want %v", c.text, c.key, got, c.want)
		}
	}
}
