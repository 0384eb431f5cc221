package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"headroom/artifact"
)

// h19c (pre-round 19, RDMA and HPC clusters, blind to the batches): Slurm's, sacct's, seff's
// and scontrol's reports of a step's memory, UCX's and libibverbs' locked-memory lines, mlx5
// firmware command statuses, mlx5 counters and RX refill; each snippet built from the
// programs' format strings in the forms users paste.

func TestH19cSlurmOOMKill(t *testing.T) {
	for _, c := range []struct {
		name, text string
		count      int
	}{
		{"17.11 bare", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=123456.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.\n", 1},
		{"17.11 step cgroup, syslog", "Mar 14 17:14:38 node01 slurmstepd[22311]: error: Detected 3 oom-kill event(s) in step 4411.0 cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.\n", 3},
		{"20.11 job log", "[2024-03-14T17:14:38.784] error: Detected 2 oom_kill events in StepId=22035606.1. Some of the step tasks have been OOM Killed.\nsrun: error: nid005475: task 0: Out Of Memory\nsrun: Force Terminated StepId=22035606.1\n", 2},
		{"multiple-slurmd, quoted", "> slurmstepd-node03: error: Detected 1 oom_kill event in StepId=1054.0. Some of the step tasks have been OOM Killed.\n> srun: error: node03: task 0: Out Of Memory\n", 1},
		{"compose", "slurmctld-1  | slurmstepd: error: Detected 2 oom_kill events in StepId=9.0. Some of the step tasks have been OOM Killed.\n", 2},
		{"17.02 step and job", "slurmstepd: error: Exceeded step memory limit at some point.\nslurmstepd: error: Exceeded job memory limit at some point.\n", 1},
		{"srun alone", "srun: error: c12: tasks 0-3: Out Of Memory\n", 1},
		{"seff", "Job ID: 123456\nCluster: hpc\nState: OUT_OF_MEMORY (exit code 0)\nMemory Utilized: 15.99 GB\nMemory Efficiency: 99.94% of 16.00 GB\n", 1},
		{"scontrol", "JobId=77 JobName=train\n   JobState=OUT_OF_MEMORY Reason=OutOfMemory Dependency=(null)\n", 1},
		{"sacct", "JobID           JobName     ReqMem     MaxRSS    Elapsed      State ExitCode\n------------ ---------- ---------- ---------- ---------- ---------- --------\n8812              train        16G              00:12:31 OUT_OF_ME+    0:125\n8812.batch        batch             16768912K   00:12:31 OUT_OF_ME+    0:125\n8812.extern      extern                 1024K   00:12:31  COMPLETED      0:0\n", 1},
		{"sacct --parsable2", "JobID|JobName|ReqMem|MaxRSS|State|\n555|python|8G||OUT_OF_MEMORY|\n555.batch|batch||8388000K|OUT_OF_MEMORY|\n", 1},
	} {
		tl := pasteTimeline(t, c.text)
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if f.Facts.OOM != OOMCgroup || !strings.Contains(f.Title, fmt.Sprintf("ran %d×", c.count)) || !evidenceHas(f, "memory-cgroup OOM kill reported by", "") {
			t.Errorf("%s: %q %+v %+v", c.name, f.Title, f.Facts, f.Evidence)
		}
	}
	// jobacct_gather's own kill: another killer than the kernel's, its figures kept.
	tl := pasteTimeline(t, "Nov 30 10:00:01 c01 slurmstepd[4411]: error: Job 4411 exceeded memory limit (10485760 > 8388608), being killed\n")
	if f := mustFire(t, run(t, "oom-kill", tl), Warning); !strings.Contains(f.Title, "10485760 over its limit 8388608") || !strings.Contains(f.Title, "not the kernel's OOM killer") {
		t.Errorf("jobacct kill: %q", f.Title)
	}
}

func TestH19cSlurmCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"ordinary job lines": "slurmstepd: error: *** JOB 4242 ON node07 CANCELLED AT 2024-03-14T12:00:00 DUE TO TIME LIMIT ***\nsrun: job 4243 queued and waiting for resources\nsrun: job 4243 has been allocated resources\n",
		"advice":             "If you see \"Detected 1 oom-kill event(s) in StepId=7.batch\" you should raise --mem.\nSet --mem=32G: the step reported Exceeded step memory limit at some point.\nSome of your processes may have been killed by the cgroup out-of-memory handler.\n",
		"healthy sacct":      "JobID           JobName     ReqMem     MaxRSS    Elapsed      State ExitCode\n------------ ---------- ---------- ---------- ---------- ---------- --------\n99                train        16G              00:12:31  COMPLETED      0:0\n99.batch          batch              8123456K   00:12:31  COMPLETED      0:0\n",
		"limit hit, no kill": "slurmstepd: error: task/cgroup: task_cgroup_memory_check_oom: StepId=88.0 hit memory limit at least once during execution. This may or may not result in some failure.\n",
		"seff completed":     "Job ID: 99\nState: COMPLETED (exit code 0)\nMemory Utilized: 7.75 GB\nMemory Efficiency: 48.44% of 16.00 GB\n",
	} {
		tl := pasteTimeline(t, text)
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%s: %+v %+v", name, res.Findings, tl.RuntimeOOMs)
		}
	}
	// The healthy table is read, not left as nothing read.
	tl := pasteTimeline(t, "JobID|JobName|ReqMem|MaxRSS|State|\n99|train|16G||COMPLETED|\n99.batch|batch||8123456K|COMPLETED|\n")
	if artifact.NothingRead(tl) || len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != artifact.KindSlurmSacct {
		t.Errorf("healthy sacct not read: %+v", tl.Artifacts)
	}
}

// UCX's and libibverbs' lines are named: no kernel log is made of them, so no rule of the
// kernel's memory is healthy on a failed registration.
func TestH19cRDMALibrariesNamed(t *testing.T) {
	for name, text := range map[string]string{
		"ucx reg_mr": "[1765653660.705652] [magi175:640743:0]          ib_md.c:287  UCX  ERROR ibv_reg_mr(address=0x15213b956010, length=65536, access=0xf) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 524288 kbytes)\n",
		"ucx cq":     "[1744644100.553280] [024ac696037d:188662:0]        ib_iface.c:1230 UCX  ERROR mlx5_0: ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)\n",
		"libibverbs": "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.\n    This will severely limit memory registrations.\n",
	} {
		tl := pasteTimeline(t, text)
		if tl.Log.Len() != 0 || len(tl.Unparsed) == 0 || !strings.Contains(tl.Unparsed[0].Why, "RLIMIT_MEMLOCK") {
			t.Errorf("%s: log %d, unparsed %+v", name, tl.Log.Len(), tl.Unparsed)
		}
		for _, id := range []string{"alloc-fail-reserve", "oom-kill", "slab-alloc-failure"} {
			if res := run(t, id, tl); res.NotChecked == "" {
				t.Errorf("%s: %s checked on a library's line: %+v", name, id, res)
			}
		}
	}
}

// mlx5: the RX refill's page allocation failure reaches the alloc-fail family, its counters
// reach nic-rx-overruns; a zero ethtool -S stays healthy.
func TestH19cMlx5(t *testing.T) {
	refill := `[1234567.123456] ksoftirqd/12: page allocation failure: order:0, mode:0x480020(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0-1
[1234567.123460] CPU: 12 PID: 70 Comm: ksoftirqd/12 Not tainted 5.4.0-150-generic #167-Ubuntu
[1234567.123462] Call Trace:
[1234567.123465]  dump_stack+0x6d/0x8b
[1234567.123468]  warn_alloc.cold+0x7b/0xdf
[1234567.123470]  __alloc_pages_slowpath+0xe17/0xe50
[1234567.123472]  __alloc_pages_nodemask+0x2d0/0x320
[1234567.123475]  mlx5e_alloc_rx_wqes+0x1a2/0x3c0 [mlx5_core]
[1234567.123477]  mlx5e_post_rx_wqes+0x7e/0xd0 [mlx5_core]
[1234567.123479]  mlx5e_napi_poll+0x12c/0x6c0 [mlx5_core]
[1234567.123481]  net_rx_action+0x142/0x390
`
	f := mustFire(t, run(t, "alloc-fail-reserve", pasteTimeline(t, refill)), Critical)
	if !evidenceHas(f, "call trace", "mlx5e_alloc_rx_wqes") {
		t.Errorf("refill: %+v", f.Evidence)
	}
	bad := "# ethtool -S ens1f0\nNIC statistics:\n     rx_packets: 98123456789\n     rx_buff_alloc_err: 18234\n     rx_out_of_buffer: 5623411\n     rx_discards_phy: 1289334\n     rx_buffer_passed_thres_phy: 88123\n     rx_packets_phy: 98200000000\n"
	if f := mustFire(t, run(t, "nic-rx-overruns", pasteTimeline(t, bad)), Warning); !evidenceHas(f, "rx_discards_phy", "1289334") {
		t.Errorf("counters: %+v", f.Evidence)
	}
	ok := strings.NewReplacer("18234", "0", "5623411", "0", "1289334", "0", "88123", "0").Replace(bad)
	mustBeHealthy(t, run(t, "nic-rx-overruns", pasteTimeline(t, ok)))
	// A firmware command's "limits exceeded" (-ENOMEM) is the device's, not a failed
	// allocation of the host's; alloc_system_page's "failed to allocate page" is one.
	fw := "[ 8123.441230] mlx5_core 0000:3b:00.0: mlx5_cmd_out_err:838:(pid 812): MANAGE_PAGES(0x108) op_mod(0x1) failed, status limits exceeded(0x8), syndrome (0x3c6a4), err(-12)\n[ 8123.441240] mlx5_core 0000:3b:00.0: give_pages:393:(pid 812): func_id 0x0, npages 2048, err -12\n"
	if res := run(t, "alloc-fail-reserve", pasteTimeline(t, fw)); strings.Contains(res.NotChecked, "failed allocation") || len(res.Findings) > 0 {
		t.Errorf("firmware status taken for an allocation failure: %+v", res)
	}
	host := "[ 8123.441200] mlx5_core 0000:3b:00.0: alloc_system_page:291:(pid 812): failed to allocate page\n"
	mustNotCheck(t, run(t, "alloc-fail-reserve", pasteTimeline(t, host)), "failed allocation")
}
