package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// h29d (round 29, blind): batch schedulers' and workflow managers' reports of a job killed at
// its memory limit, in the forms users paste them, each reaching oom-kill with its figures;
// exit status 137 alone read as SIGKILL, no kill; sentences and other lines unchanged.
// fix34d moved the virtual-memory forms (PBS vmem, SGE h_vmem, qacct at h_vmem) out of this
// table: a vmem limit counts address space, not resident memory, so those kills are no
// oom-kill (TestFix34dVirtualMemoryKillsAreNoOOM); their resident twins (pmem, h_rss, the
// Torque mail with mem at its request) stand in their place here.

func TestH29dSchedulerMemoryKills(t *testing.T) {
	for _, c := range []struct {
		name, text string
		scope      string
		count      int
		figures    []string
	}{
		{"condor_q -hold", "-- Schedd: submit.example.edu : <10.0.0.5:9618?... @ 11/28/26 10:07:54\n ID          OWNER          HELD_SINCE  HOLD_REASON\n4172.0       alice          11/28 09:51 Error from slot1_3@node17.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4215 megabytes.\n4172.1       alice          11/28 09:53 Error from slot1_4@node21.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4390 megabytes.\n",
			model.OOMScopeCgroup, 2, []string{"limit of 4096 MB, peak usage 4215 MB", "slot1_3@node17.example.edu"}},
		{"condor event log 012", "012 (4172.000.000) 2026-11-28 09:51:02 Job was held.\n\tError from slot1_3@node17.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4215 megabytes.\n\tCode 34 Subcode 0\n",
			model.OOMScopeCgroup, 1, []string{"peak usage 4215 MB"}},
		{"condor_q -l HoldReason", "HoldReason = \"Error from slot1_3@node17.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4215 megabytes.\"\nHoldReasonCode = 34\nRequestMemory = 4096\n",
			model.OOMScopeCgroup, 1, []string{"limit of 4096 MB"}},
		{"condor docker universe", "15872426.5184 erees           5/25 14:51 Error from slot1_3@e327.chtc.wisc.edu: Docker job has gone over memory limit of 16384 Mb\n",
			model.OOMScopeCgroup, 1, []string{"container OOMKilled at its limit of 16384 MB"}},
		{"condor_q flattened", "condor_q -hold ID OWNER HELD_SINCE HOLD_REASON 4172.0 alice 11/28 09:51 Error from slot1_3@node17.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4215 megabytes. 4172.1 alice 11/28 09:53 Error from slot1_4@node21.example.edu: Job has gone over memory limit of 4096 megabytes. Peak usage: 4390 megabytes.\n",
			model.OOMScopeCgroup, 2, []string{"peak usage 4390 MB"}},
		{"condor quoted as the job's", "I am getting the error \"Job has gone over memory limit of 2048 megabytes. Peak usage: 2051 megabytes.\" on every job.\n",
			model.OOMScopeCgroup, 1, []string{"peak usage 2051 MB"}},
		{"condor periodic hold", "991.0        bob            11/28 11:40 Error from slot1_1@e2310.chtc.wisc.edu: memory usage exceeded request_memory\n",
			model.OOMScopeJobLimit, 1, []string{"MemoryUsage over its request_memory", "a batch job went over its memory limit"}},
		{"PBS Pro, mail quote", "From the output file:\n\n> =>> PBS: job killed: mem 2097152kb exceeded limit 1048576kb\n",
			model.OOMScopeJobLimit, 1, []string{"2097152 kB over its limit 1048576 kB"}},
		{"Torque job total", "```\n=>> PBS: job killed: mem job total 4323312 kb exceeded limit 3145728 kb\n```\n",
			model.OOMScopeJobLimit, 1, []string{"4323312 kB over its limit 3145728 kB"}},
		{"Torque pmem", "=>> PBS: job killed: pmem 8589934592 exceeded limit 4294967296\n",
			model.OOMScopeJobLimit, 1, []string{"memory (pmem) 8589934592 bytes over its limit 4294967296 bytes"}},
		{"LSF job report", "------------------------------------------------------------\n\nTERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\nExited with exit code 137.\n\nResource usage summary:\n\n    CPU time :                                   66557.29 sec.\n    Max Memory :                                 16384 MB\n    Average Memory :                             9120.55 MB\n    Total Requested Memory :                     16384.00 MB\n",
			model.OOMScopeJobLimit, 1, []string{"Max Memory 16384 MB", "Total Requested Memory 16384.00 MB"}},
		{"LSF report flattened", "my job died: ---------- TERM_MEMLIMIT: job killed after reaching LSF memory usage limit. Exited with exit code 137. Resource usage summary: CPU time : 66557.29 sec. Max Memory : 16384 MB Average Memory : 9120.55 MB\n",
			model.OOMScopeJobLimit, 1, []string{"Max Memory 16384 MB"}},
		{"SGE execd messages, h_rss", "11/28/2026 10:14:22|  main|node05|W|job 2231876.1 exceeds job hard limit \"h_rss\" of queue \"all.q@node05.cluster\" (8589934592.00000 > limit:8589934592.00000) - sending SIGKILL\n",
			model.OOMScopeJobLimit, 1, []string{"h_rss 8192 MiB over its hard limit 8192 MiB"}},
		{"LSF bjobs -l, wrapped", "Tue Dec 23 16:34:13: Completed <exit>; TERM_MEMLIMIT: job killed after reaching\n                      LSF memory usage limit;\n\n\n MEMLIMIT\n     48 G \n\nMEMORY USAGE:\nMAX MEM: 48 Gbytes;  AVG MEM: 1.3 Gbytes\n",
			model.OOMScopeJobLimit, 1, []string{"MEMLIMIT 48 G", "MAX MEM 48 Gbytes"}},
		{"PBS qstat -f", "Job Id: 123456.pbs01\n    resources_used.mem = 8391232kb\n    job_state = F\n    Resource_List.mem = 8gb\n    Exit_status = -27\n",
			model.OOMScopeJobLimit, 1, []string{"JOB_EXEC_KILL_MEM", "resources_used.mem 8391232kb", "Resource_List.mem 8gb"}},
		{"Galaxy job info", "job info:\nThis job was terminated because it used more memory than it was allocated.\nPlease click the bug icon to report this problem if you need help.\n",
			model.OOMScopeCgroup, 1, []string{"Galaxy"}},
		{"Torque job mail, resident mem", "PBS Job Id: 1234.torque01\nAborted by PBS Server\nJob exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted\nSee Administrator for help\nExit_status=-10\nresources_used.mem=8388000kb\nresources_used.vmem=9000000kb\nreq_information.memory.0=8388608kb\n",
			model.OOMScopeJobLimit, 1, []string{"resources_used.mem 8388000 kB at its request 8388608 kB"}},
		{"Argo get", "STEP                  TEMPLATE  PODNAME                     DURATION  MESSAGE\n ✖ wf-8xk2p           main\n └─✖ train            train     wf-8xk2p-train-3310925371   4m        OOMKilled (exit code 137)\n",
			"", 1, []string{"Argo Workflows"}},
	} {
		tl := pasteTimeline(t, c.text)
		n := 0
		for _, o := range tl.RuntimeOOMs {
			if o.Scope != c.scope {
				t.Errorf("%s: scope %q, want %q", c.name, o.Scope, c.scope)
			}
			n += o.Count
		}
		if n != c.count {
			t.Errorf("%s: %d kills, want %d: %+v", c.name, n, c.count, tl.RuntimeOOMs)
		}
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		all := f.Title
		for _, e := range f.Evidence {
			all += " | " + e.What + " " + e.Value
		}
		for _, fig := range c.figures {
			if !strings.Contains(all, fig) {
				t.Errorf("%s: %q missing from %q", c.name, fig, all)
			}
		}
		if c.scope == model.OOMScopeCgroup && f.Facts.OOM != OOMCgroup {
			t.Errorf("%s: facts %+v", c.name, f.Facts)
		}
		if c.scope == model.OOMScopeJobLimit && (f.Facts.OOM != "" || !strings.Contains(f.Title, "not the kernel's OOM killer")) {
			t.Errorf("%s: %q %+v", c.name, f.Title, f.Facts)
		}
	}
}

// Exit status 137 alone is SIGKILL (128+9): read and named, no OOM kill; oom-kill stays not
// checked and says why.
func TestH29dExitStatus137IsSigkill(t *testing.T) {
	for name, text := range map[string]string{
		"nextflow":             "ERROR ~ Error executing process > 'ALIGN (sample1)'\n\nCaused by:\n  Process `ALIGN (sample1)` terminated with an error exit status (137)\n\nCommand exit status:\n  137\n",
		"nextflow log":         "Nov-28 10:01:02.123 [Task monitor] ERROR nextflow.processor.TaskProcessor - Error executing process > 'ALIGN (sample1)'\n\nCaused by:\n  Process `ALIGN (sample1)` terminated with an error exit status (137)\n",
		"nextflow retried":     "N E X T F L O W  ~  version 24.04.4\n[62/149eb0] NOTE: Process `RNASEQ:ALIGN_STAR:STAR_ALIGN (WT_REP1)` terminated with an error exit status (137) -- Execution is retried (1)\n",
		"nextflow log retried": "Nov-28 10:01:02.123 [Task monitor] INFO  nextflow.processor.TaskProcessor - [62/149eb0] NOTE: Process `STAR_ALIGN (WT_REP1)` terminated with an error exit status (137) -- Execution is retried (1)\n",
		"nextflow TaskHandler": "Nov-28 10:01:02.123 [Task monitor] DEBUG n.processor.TaskPollingMonitor - Task completed > TaskHandler[jobId: 4411; id: 5; name: ALIGN (1); status: COMPLETED; exit: 137; error: -; workDir: work/3a/1b2c3d started: 1732788062123; exited: 2026-11-28T10:01:02Z; ]\n",
		"cromwell":             "[2026-11-28 10:01:02,59] [error] WorkflowManagerActor Workflow 9184d53d failed (during ExecutingWorkflowState): Job align.bwa:NA:1 exited with return code 137 which has not been declared as a valid return code. See 'continueOnReturnCode' runtime attribute for more details.\n",
		"airflow":              "[2026-11-28, 10:01:02 UTC] {local_task_job_runner.py:228} INFO - Task exited with return code Negsignal.SIGKILL\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) != 1 || len(tl.Unparsed) == 0 {
			t.Errorf("%s: %+v %+v %+v", name, tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "SIGKILL") {
			t.Errorf("%s: %+v", name, res)
		}
	}
}

func TestH29dSchedulerCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"advice, request_memory":  "Set request_memory = 8000 so the job is not held with memory usage exceeded request_memory.\n",
		"advice, LSF":             "If you see TERM_MEMLIMIT: job killed after reaching LSF memory usage limit, raise -M.\n",
		"advice, PBS no figures":  "The docs say PBS: job killed: mem job total exceeded limit means more mem.\n",
		"condor placeholder":      "Common hold reasons:\n* \"Job has gone over memory limit of X\": look at the resource usage table\n- Error from slot1@host: memory usage exceeded request_memory\n",
		"condor guide, numbered":  "5.  `Job has gone over memory limit of 1 megabytes. Peak usage: 1 megabytes`\n",
		"condor if you see":       "If you see Job has gone over memory limit of 2048 megabytes. Peak usage: 2100 megabytes. raise request_memory.\n",
		"PBS walltime":            "=>> PBS: job killed: walltime 3650 exceeded limit 3600\n",
		"SGE h_rt":                "job 2231876.1 exceeds job hard limit \"h_rt\" of queue \"all.q@node05\" (3700.00000 > limit:3600.00000) - sending SIGKILL\n",
		"SGE soft limit":          "job 2231876.1 exceeds job soft limit \"s_vmem\" of queue \"all.q@node05\" (8589934592.00000 > limit:4294967296.00000) - sending SIGXCPU\n",
		"nextflow exit 1 retried": "[62/149eb0] NOTE: Process `STAR_ALIGN (WT_REP1)` terminated with an error exit status (1) -- Execution is retried (1)\n",
		"nextflow advice":         "If a Process `X` terminated with an error exit status (137) raise its memory.\n",
		"nextflow exit 1":         "Process `ALIGN (sample1)` terminated with an error exit status (1)\n",
		"airflow exit 0":          "[2026-11-28, 10:01:02 UTC] {local_task_job_runner.py:228} INFO - Task exited with return code 0\n",
		"PBS qstat -f healthy":    "Job Id: 1.pbs01\n    resources_used.mem = 3391232kb\n    Resource_List.mem = 8gb\n    Exit_status = 0\n",
		"PBS qstat -f walltime":   "Job Id: 1.pbs01\n    resources_used.walltime = 24:00:05\n    Exit_status = -29\n",
		"Galaxy probably":         "This job was cancelled probably because it used more memory than it was allocated.\n",
		"Galaxy in a sentence":    "Galaxy says This job was terminated because it used more memory than it was allocated. for large inputs\n",
		"cromwell rc 1":           "Job align.bwa:NA:1 exited with return code 1 which has not been declared as a valid return code.\n",
		"LSF cut":                 "TERM_MEMLIMIT: job killed after reaching\n",
		"qacct exit 0":            "category     -l h_vmem=8G\nfailed       0\nexit_status  0\nmaxvmem      7.990G\n",
		"condor healthy":          "005 (4172.000.000) 2026-11-28 09:51:02 Job terminated.\n\t(1) Normal termination (return value 0)\n\tPartitionable Resources :    Usage  Request Allocated\n\t   Memory (MB)          :     3012     4096      4096\n",
	} {
		tl := pasteTimeline(t, text)
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) > 0 {
			t.Errorf("%s: %+v %+v %+v", name, res.Findings, tl.RuntimeOOMs, tl.SigkillNotices)
		}
	}
	// A sentence in Argo's words is the author's statement (main's stated-OOM reader), not
	// Argo's node message.
	if tl := pasteTimeline(t, "the pod was OOMKilled (exit code 137) again yesterday\n"); len(tl.RuntimeOOMs) > 0 {
		t.Errorf("argo in a sentence: %+v", tl.RuntimeOOMs)
	}
}

// fix34d: a virtual-memory limit (PBS/Torque vmem and pvmem, SGE h_vmem, qstat's -26, the
// Torque mail's vmem over its request) counts the job's address space, not resident memory:
// the kill is named with its figures (Timeline.AddressSpaceKills and an artifact) and
// oom-kill is not checked, no warning; it says why. h29d read them as job-limit oom-kills
// (corpus 2945, 2946: healthy, must NOT report oom-kill).
func TestFix34dVirtualMemoryKillsAreNoOOM(t *testing.T) {
	for _, c := range []struct{ name, text, figure string }{
		{"Torque vmem", "=>> PBS: job killed: vmem 8589934592 exceeded limit 4294967296\n", "(vmem) 8589934592 bytes over its limit 4294967296 bytes"},
		{"PBS pvmem kb", "> =>> PBS: job killed: pvmem 2097152kb exceeded limit 1048576kb\n", "(pvmem) 2097152 kB over its limit 1048576 kB"},
		{"SGE execd h_vmem", "11/28/2026 10:14:22|  main|node05|W|job 2231876.1 exceeds job hard limit \"h_vmem\" of queue \"all.q@node05.cluster\" (8589934592.00000 > limit:8589934592.00000) - sending SIGKILL\n", "(h_vmem) 8192 MiB over its hard limit 8192 MiB"},
		{"SGE qacct -j h_vmem", "==============================================================\nqname        all.q\nhostname     node05.cluster\njobnumber    2231876\ncategory     -l h_vmem=8G,h_rt=86400\nfailed       100 : assumedly after job\nexit_status  137                  (Killed)\nmaxvmem      8.000G\n", "maxvmem 8.000G at the job's h_vmem 8G"},
		{"PBS qstat -f -26", "Job Id: 123456.pbs01\n    resources_used.vmem = 8391232kb\n    job_state = F\n    Resource_List.vmem = 8gb\n    Exit_status = -26\n", "JOB_EXEC_KILL_VMEM; resources_used.vmem 8391232kb; Resource_List.vmem 8gb"},
		{"Torque job mail, vmem", "> PBS Job Id: 75736704\nAborted by PBS Server\nJob exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted\nSee Administrator for help\nExit_status=-10\nresources_used.vmem=286793240kb\nresources_used.mem=37296368kb\nreq_information.memory.0=209715200kb\nreq_information.swap.0=209715200kb\n", "resources_used.vmem 286793240 kB over its request 209715200 kB, while resident mem was 37296368 kB"},
	} {
		tl := pasteTimeline(t, c.text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.AddressSpaceKills) != 1 || !strings.Contains(tl.AddressSpaceKills[0].Reporter, c.figure) {
			t.Errorf("%s: %+v %+v", c.name, tl.RuntimeOOMs, tl.AddressSpaceKills)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "virtual-memory (address-space) limit") {
			t.Errorf("%s: %+v", c.name, res)
		}
	}
	// A kernel OOM beside a vmem kill still fires; the vmem kill is not counted in it.
	tl := pasteTimeline(t, "=>> PBS: job killed: vmem 8589934592 exceeded limit 4294967296\n[ 5.000000] Out of memory: Killed process 4242 (java) total-vm:9000000kB, anon-rss:8000000kB, file-rss:0kB, shmem-rss:0kB\n")
	if res := run(t, "oom-kill", tl); len(res.Findings) != 1 || strings.Contains(res.Findings[0].Title, "vmem") || len(tl.AddressSpaceKills) != 1 {
		t.Errorf("kernel OOM with a vmem kill: %+v", res)
	}
}

// The Torque mail without figures says no limit: named, a SIGKILL notice, no kill; the mail's
// words in a sentence, a walltime abort and pbsnodes-like keys in prose are not read.
func TestFix34dTorqueMailCounterCases(t *testing.T) {
	tl := pasteTimeline(t, "Aborted by PBS Server\nJob exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted\nSee Administrator for help\n")
	if len(tl.RuntimeOOMs) > 0 || len(tl.AddressSpaceKills) > 0 || len(tl.SigkillNotices) != 1 {
		t.Errorf("mail without figures: %+v %+v %+v", tl.RuntimeOOMs, tl.AddressSpaceKills, tl.SigkillNotices)
	}
	for name, text := range map[string]string{
		"sentence":   "PBS says Job exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted, so I raised vmem.\n",
		"walltime":   "Job exceeded its walltime limit. Job was aborted\nSee Administrator for help\nExit_status=-11\nresources_used.vmem=286793240kb\n",
		"if you see": "If you see =>> PBS: job killed: vmem 3372163072 exceeded limit 2147483648 add vmem=40gb.\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.AddressSpaceKills) > 0 || len(tl.SigkillNotices) > 0 {
			t.Errorf("%s: %+v %+v %+v", name, tl.RuntimeOOMs, tl.AddressSpaceKills, tl.SigkillNotices)
		}
	}
}
