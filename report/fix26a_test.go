package report

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// fix26a: Ray's kill message is one record longer than a log line's usual bound (the IDs in
// hex, two "ray logs" commands, 700 bytes and more): it is read as Ray's kill when it begins
// the line as Ray prints it, and a sentence "looks like the OOM killer happens" beside it is
// Ray's killer, no stated kernel OOM. A long sentence quoting the words mid-way, the same
// sentence alone, and the sentence beside a kernel kill line do not change.
func TestFix26aRayLongKillRecord(t *testing.T) {
	ids := strings.Repeat("2c0ca846c8a9b1630ce2a4aae5ce82dd", 2)
	kill := "Memory on the node (IP: 10.0.0.12, ID: " + ids + ") where the task (task ID: " + ids + ", name=pi4_sample, pid=664672, memory used=0.05GB) was running was 219.41GB / 230.40GB (0.952289), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: " + ids + ") because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.0.12`. To see the logs of the worker, use `ray logs worker-" + ids + "*out -ip 10.0.0.12. Top 10 memory users:"
	if len(kill) <= 512 {
		t.Fatalf("the snippet must be longer than a log line's bound: %d", len(kill))
	}
	said := "Looks like the OOM killer happens and kills the actors.\n"
	oom := func(text string) (diagnose.Check, bool) {
		res := diagnose.Run(artifact.ParseString(text, "t", artifact.Options{}), nil)
		found := false
		for _, f := range res.Findings {
			found = found || f.ID == "oom-kill"
		}
		for _, c := range res.Checks {
			if c.ID == "oom-kill" {
				return c, found
			}
		}
		return diagnose.Check{}, found
	}
	for _, text := range []string{"```\n" + kill + "\n```\n\n" + said, "    `" + kill + "`  \n\n" + said, "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n" + kill + "\n" + said} {
		c, found := oom(text)
		if found || c.Status != diagnose.StatusNotChecked || !strings.Contains(c.Why, "Ray's memory monitor") || !strings.Contains(c.Why, "219.41GB / 230.40GB") {
			t.Errorf("%q: oom-kill found=%v %v %q, want not checked naming Ray's kill and its figures", text, found, c.Status, c.Why)
		}
	}
	// Counter-cases: the same words quoted mid-way in a long sentence are no kill of Ray's
	// (the stated OOM beside it stays); the sentence alone stays a stated OOM; beside the
	// kernel's kill line the kernel's OOM is found.
	quoted := "In our docs we explain that a message like " + kill + " may show up, and we think " + said
	if c, _ := oom(quoted); strings.Contains(c.Why, "Ray's memory monitor") {
		t.Errorf("a sentence quoting Ray's kill: oom-kill %q, want no Ray kill read", c.Why)
	}
	if _, found := oom(said); !found {
		t.Errorf("%q alone: want the stated oom-kill kept", said)
	}
	if _, found := oom("[12345.678901] Out of memory: Killed process 664672 (python) total-vm:1234kB, anon-rss:1000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:100kB oom_score_adj:0\n" + said); !found {
		t.Errorf("a kernel kill line with the sentence: want oom-kill")
	}
}

// fix26a: Ray's own lines about memory that are no kill and no shortage of the host's (its
// object store against /dev/shm, its memory monitor's failed check, its guess at a pod's
// memory limit on a SIGTERM) are read and named, no exit 3 and no finding; a guide's example
// of the message, another program's /dev/shm line and a sentence that only names the words
// are not.
func TestFix26aRayOwnLines(t *testing.T) {
	named := func(text, why string) bool {
		for _, u := range artifact.ParseString(text, "t", artifact.Options{}).Unparsed {
			if strings.Contains(u.Why, why) {
				return true
			}
		}
		return false
	}
	for _, c := range []struct{ text, why string }{
		{"ValueError: The configured object store size (11.81114368 GB) exceeds /dev/shm size (11.8111232 GB). This will harm performance. Consider deleting files in /dev/shm or increasing its size with --shm-size in Docker.\n", "object store against /dev/shm"},
		{"WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only 67108864 bytes available.\n", "falls back to a directory on disk"},
		{"(raylet) [2022-09-16 09:27:25,719 C 236 236] (raylet) memory_monitor.cc:121:  Check failed: (_left_ > _right_)  117896851456 vs 117896851456\n", "failed check in its own memory monitor"},
		{"All of those events say \"Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code 1. The worker may have exceeded K8s pod memory limits. The process receives a SIGTERM\"\n", "Ray's guess from a SIGTERM alone"},
	} {
		if !named(c.text, c.why) {
			t.Errorf("%q: not named with %q", c.text, c.why)
		}
		res := diagnose.Run(artifact.ParseString(c.text, "t", artifact.Options{}), nil)
		if len(res.Findings) != 0 {
			t.Errorf("%q: findings %+v, want none", c.text, res.Findings)
		}
	}
	for _, text := range []string{
		"If the object store is too big you will see something like: ValueError: The configured object store size (20 GB) exceeds /dev/shm size (8 GB).\n",
		"Increase /dev/shm with --shm-size so the object store size fits.\n",
		"tmpfs           7.8G  1.2G  6.6G  16% /dev/shm\n",
		"I read memory_monitor.cc and the check there looks wrong to me.\n",
		"Our pods may have exceeded their memory limits, I think.\n",
	} {
		for _, w := range []string{"object store against /dev/shm", "failed check in its own memory monitor", "Ray's guess from a SIGTERM alone", "falls back to a directory on disk"} {
			if named(text, w) {
				t.Errorf("%q: named as Ray's own line %q, want not", text, w)
			}
		}
	}
}
