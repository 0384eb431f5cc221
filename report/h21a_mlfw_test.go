package report

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// h21a: ML and data frameworks' own kills for memory (Ray's raylet memory monitor, dask's
// nanny, YARN's NodeManager relayed by Spark) are no kernel OOM (corpus 1495, 1496: must NOT
// report oom-kill): oom-kill stays not checked, its reason naming that killer, that it is
// not the kernel's OOM killer, the key figure and the count (a kill relayed twice is one);
// a title stating an OOM beside such a kill is the framework's; the GPU's memory, a DataLoader's /dev/shm
// and a model server's worker death are read (named), never an oom-kill of the host; the
// same words in advice, a sentence or an ordinary log change nothing.
func TestH21aFrameworkKills(t *testing.T) {
	run := func(text string) (*diagnose.Finding, bool) {
		res := diagnose.Run(artifact.ParseString(text, "t", artifact.Options{}), nil)
		for i := range res.Findings {
			if res.Findings[i].ID == "oom-kill" {
				return &res.Findings[i], true
			}
		}
		return nil, false
	}
	check := func(text, id string) diagnose.Check {
		for _, c := range diagnose.Run(artifact.ParseString(text, "t", artifact.Options{}), nil).Checks {
			if c.ID == id {
				return c
			}
		}
		return diagnose.Check{}
	}
	for _, c := range []struct{ text, killer, figure string }{
		{"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\nMemory on the node (IP: 10.0.0.12, ID: 4b8c1f) where the task (task ID: 16310a, name=train_fn, pid=23891, memory used=12.34GB) was running was 30.47GB / 31.36GB (0.971714), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 2d7c4e) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.0.12`.\n", "Ray's memory monitor", "30.47GB / 31.36GB (0.971714)"},
		{"(raylet) [2023-06-01 12:00:01,234 E 1234 1234] (raylet) node_manager.cc:3084: 2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 4b8c1f, IP: 10.0.0.12) over the last time period.\n", "Ray's memory monitor", "2 kill(s)"},
		{"2023-05-02 10:11:14,001 - distributed.nanny.memory - WARNING - Worker tcp://127.0.0.1:40123 (pid=5501) exceeded 95% memory budget. Restarting...\n2023-05-02 10:11:14,210 - distributed.nanny - WARNING - Restarting worker\n", "dask's nanny", "95%"},
		{"23/05/02 10:11:12 ERROR YarnScheduler: Lost executor 7 on ip-10-0-1-5: Container killed by YARN for exceeding memory limits. 10.4 GB of 10.4 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.\n23/05/02 10:11:12 WARN TaskSetManager: Lost task 3.0 in stage 5.0 (TID 210, ip-10-0-1-5, executor 7): ExecutorLostFailure (executor 7 exited caused by one of the running tasks) Reason: Container killed by YARN for exceeding memory limits. 10.4 GB of 10.4 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.\n", "YARN's NodeManager", "1 kill(s)"},
	} {
		if f, ok := run(c.text); ok {
			t.Errorf("%q: oom-kill %q, want none (the framework's kill, not the kernel's)", c.text, f.Title)
		}
		ch := check(c.text, "oom-kill")
		if ch.Status != diagnose.StatusNotChecked || !strings.Contains(ch.Why, c.killer) || !strings.Contains(ch.Why, "no kill by the kernel's OOM killer") || !strings.Contains(ch.Why, c.figure) {
			t.Errorf("%q: oom-kill %v %q, want not checked naming %q, not the kernel's, and %q", c.text, ch.Status, ch.Why, c.killer, c.figure)
		}
	}
	// Named (read), no oom-kill: the GPU's memory, /dev/shm, a worker's death that names no
	// killer, Ray's old exception (no kill), and an ordinary start-up line.
	for _, c := range []struct{ text, why string }{
		{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.69 GiB of which 1.12 GiB is free.\n", "the GPU's own memory"},
		{"RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.21 GiB already allocated; 12.56 MiB free; 6.42 GiB reserved in total by PyTorch)\n", "the GPU's own memory"},
		{"ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n", "/dev/shm"},
		{"RuntimeError: DataLoader worker (pid 4512) is killed by signal: Killed.\n", "SIGKILL"},
		{"2023-05-02T10:11:12,345 [INFO ] W-9000-resnet_1.0 org.pytorch.serve.wlm.WorkerThread - Backend worker process died.\n", "names none"},
		{"(VllmWorkerProcess pid=4511) ERROR 05-02 10:11:12 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 4511 died, exit code: -9\n", "SIGKILL"},
		{"E0509 21:57:29.450523 1 pinned_memory_manager.cc:192] failed to allocate pinned system memory\n", "pinned-memory pool"},
		{"ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node ip-10-0-0-12 is used (29.87 / 31.36 GB). The top 10 memory consumers are:\n", "RayOutOfMemoryError"},
		{"(raylet) [2023-05-02 10:11:13,001 I 1234 1234] (raylet) memory_monitor.cc:47: MemoryMonitor initialized with usage threshold at 30000000000 bytes (0.95 system memory), total system memory bytes: 33000000000\n", "start-up line"},
	} {
		if f, ok := run(c.text); ok {
			t.Errorf("%q: oom-kill %q, want none", c.text, f.Title)
		}
		tl := artifact.ParseString(c.text, "t", artifact.Options{})
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, c.why)
		}
		if !named { // the line is read (named, no exit 3) and says what it proves
			t.Errorf("%q: not named with %q: %+v", c.text, c.why, tl.Unparsed)
		}
	}
	// A title saying OOM above the framework's kill: the framework's, no stated host OOM.
	if f, ok := run("# Ray workers keep getting OOM killed\n\n2023-05-02 10:11:14,001 - distributed.nanny.memory - WARNING - Worker tcp://127.0.0.1:40123 (pid=5501) exceeded 95% memory budget. Restarting...\n"); ok {
		t.Errorf("title beside dask's kill: oom-kill %q, want none", f.Title)
	}
	// Counter-cases: advice, a sentence quoting the kill, a summary of no kill.
	for _, text := range []string{
		"If you see \"Worker exceeded 95% memory budget. Restarting\" in your dask logs, increase the memory_limit of the worker.\n",
		"Ray's default RAY_memory_usage_threshold is 0.95; set it to 0.98 to let tasks use more memory.\n",
		"My job keeps failing and the docs say Task was killed due to the node running low on memory means the threshold was crossed.\n",
		"(raylet) [2023-06-01 12:00:01,234 E 1234 1234] (raylet) node_manager.cc:3084: 0 Workers (tasks / actors) killed due to memory pressure (OOM), 3 Workers crashed due to other reasons at node (ID: 4b8c1f, IP: 10.0.0.12) over the last time period.\n",
	} {
		if f, ok := run(text); ok {
			t.Errorf("%q: oom-kill %q, want none", text, f.Title)
		}
	}
}
