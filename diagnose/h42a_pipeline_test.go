package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// h42a (blind to the next round): workflow orchestrators' notices that a step's or a flow
// run's process died, in the forms operators paste them, read from the programs' sources.
//
//   - Dagster's multiprocess executor (dagster-io/dagster,
//     python_modules/dagster/dagster/_core/executor/multiprocess.py; the newer wording from
//     get_run_crash_explanation in dagster/_utils/__init__.py): "Multiprocess executor: child
//     process for step STEP unexpectedly exited with code -9" and "... was terminated by
//     signal 9 (SIGKILL). This usually indicates that the process was killed by the
//     operating system due to running out of memory. ..."
//   - Prefect's process worker (PrefectHQ/prefect, src/prefect/workers/process.py):
//     "Process PID exited with status code: -9; This indicates that the process exited due
//     to a SIGKILL signal. Typically, this is either caused by manual cancellation or high
//     memory usage causing the operating system to terminate the process."; its crash report
//     (src/prefect/workers/base.py _propose_crashed_state): "Reported flow run 'ID' as
//     crashed: Flow run infrastructure exited with non-zero status code 137."
//
// Each is a SIGKILL without its cause (the OOM killer's and any kill -9's): read, named, kept
// as a SIGKILL notice with a worker_sigkill artifact; no OOM kill, and the program's guess
// ("running out of memory", "high memory usage") is no statement of the author's.
func TestH42aOrchestratorSigkills(t *testing.T) {
	for _, c := range []struct {
		name, text, program, process string
		code                         float64
	}{
		{"dagster, before 1.0", "2023-05-02 04:11:09 +0000 - dagster - ERROR - etl_job - 5b1c - load_step - STEP_FAILURE - Execution of step \"load_step\" failed.\n\ndagster._core.executor.child_process_executor.ChildProcessCrashException: Multiprocess executor: child process for step load_step unexpectedly exited with code -9\n",
			"dagster", "step load_step", -9},
		{"dagster, with its guess", "2024-03-12 10:15:32 +0000 - dagster - ERROR - etl_job - 5b1c - load_step - ENGINE_EVENT - Multiprocess executor: child process for step load_step was terminated by signal 9 (SIGKILL). This usually indicates that the process was killed by the operating system due to running out of memory. Possible solutions include increasing the amount of memory available to the run, reducing the amount of memory used by the ops in the run, or configuring the executor to run fewer ops concurrently.\n",
			"dagster", "step load_step", -9},
		{"prefect worker, with its help", "10:15:32.123 | ERROR   | prefect.flow_runs.worker - Process 4112 exited with status code: -9; This indicates that the process exited due to a SIGKILL signal. Typically, this is either caused by manual cancellation or high memory usage causing the operating system to terminate the process.\n",
			"prefect", "process 4112", -9},
		{"prefect worker, 247", "10:15:32.123 | ERROR   | prefect.flow_runs.worker - Process 4112 exited with status code: 247; This indicates that the process was terminated due to high memory usage.\n",
			"prefect", "process 4112", 247},
		{"prefect crash report, 137", "15:46:17.295 | INFO    | prefect.agent - Reported flow run 'f1b53a94-9f52-45b9-a0a3-e8f315639bb4' as crashed: Flow run infrastructure exited with non-zero status code 137.\n",
			"prefect", "flow run 'f1b53a94-9f52-45b9-a0a3-e8f315639bb4'", 137},
		{"prefect state message", "Flow run infrastructure exited with non-zero status code -9.\n",
			"prefect", "the flow run's infrastructure", -9},
	} {
		tl := pasteTimeline(t, c.text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) != 1 || len(tl.Unparsed) != 1 {
			t.Errorf("%s: %+v %+v %+v", c.name, tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
			continue
		}
		var got map[string]any
		for _, a := range tl.Artifacts {
			if a.Kind == artifact.KindWorkerSigkill {
				got, _ = a.Data.(map[string]any)
			}
		}
		if got["program"] != c.program || got["process"] != c.process || got["exit_code"] != c.code || got["signal"] != float64(9) {
			t.Errorf("%s: artifact %+v", c.name, got)
		}
		if h42aStatedOOM(tl) {
			t.Errorf("%s: the program's guess read as the author's OOM", c.name)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "SIGKILL") {
			t.Errorf("%s: %+v", c.name, res)
		}
	}
}

// Another code or signal is no SIGKILL: named, no notice.
func TestH42aOrchestratorOtherExits(t *testing.T) {
	for name, text := range map[string]string{
		"dagster SIGTERM": "Multiprocess executor: child process for step load_step was terminated by signal 15 (SIGTERM).\n",
		"dagster code 1":  "Multiprocess executor: child process for step load_step unexpectedly exited with code 1\n",
		"prefect code 1":  "10:15:32.123 | ERROR   | prefect.flow_runs.worker - Process 4112 exited with status code: 1\n",
		"prefect 143":     "Reported flow run 'abc' as crashed: Flow run infrastructure exited with non-zero status code 143.\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) > 0 || len(tl.Unparsed) != 1 {
			t.Errorf("%s: %+v %+v %+v", name, tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
		}
	}
}

// The programs' help texts alone, a question, advice and a like line of another program are
// not read as a kill or an OOM.
func TestH42aOrchestratorCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"dagster help alone":  "This usually indicates that the process was killed by the operating system due to running out of memory. Possible solutions include increasing the amount of memory available to the run, reducing the amount of memory used by the ops in the run, or configuring the executor to run fewer ops concurrently.\n",
		"prefect help alone":  "This indicates that the process exited due to a SIGKILL signal. Typically, this is either caused by manual cancellation or high memory usage causing the operating system to terminate the process.\n",
		"prefect new hint":    "Process exited due to a SIGKILL signal. Typically caused by the operating system terminating the process for exceeding memory limits, or by manual cancellation.\n",
		"question":            "What does \"Process 4112 exited with status code: -9\" mean in Prefect?\n",
		"if you see":          "If you see Multiprocess executor: child process for step load unexpectedly exited with code -9, raise the run's memory.\n",
		"advice":              "Set the memory limit of the flow run's container to 1 GB.\n",
		"another program":     "Process 4112 exited with code -9 after the deploy.\n",
		"dagster, other text": "The child process for step load_step unexpectedly exited, I think.\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) > 0 || h42aStatedOOM(tl) {
			t.Errorf("%s: %+v %+v", name, tl.RuntimeOOMs, tl.SigkillNotices)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 {
			t.Errorf("%s: %+v", name, res.Findings)
		}
	}
}

// The Kubernetes Python client's container state (kubernetes-client/python,
// kubernetes/client/models/v1_container_state_terminated.py, printed by pprint as Airflow's
// KubernetesPodOperator and KubernetesExecutor log a failed pod): reason OOMKilled is the
// container's OOM kill at first hand, as describe's block; exit code 137 with reason Error
// is a SIGKILL, no OOM; 'terminated': None is no state.
const h42aPyPod = `[2023-05-02, 04:11:09 UTC] {pod_manager.py:400} ERROR - Pod etl-load-7f3c2a returned a failure:
 'container_statuses': [{'container_id': 'containerd://4f2a',
                         'image': 'apache/airflow:2.6.0',
                         'last_state': {'running': None, 'terminated': None, 'waiting': None},
                         'name': 'base',
                         'ready': False,
                         'restart_count': 0,
                         'state': {'running': None,
                                   'terminated': {'container_id': 'containerd://4f2a',
                                                  'exit_code': 137,
                                                  'finished_at': datetime.datetime(2023, 5, 2, 4, 11, 9, tzinfo=tzlocal()),
                                                  'message': None,
                                                  'reason': 'REASON',
                                                  'signal': None,
                                                  'started_at': datetime.datetime(2023, 5, 2, 4, 1, 2, tzinfo=tzlocal())},
                                   'waiting': None}}],
`

func TestH42aPythonClientPodState(t *testing.T) {
	tl := pasteTimeline(t, strings.Replace(h42aPyPod, "REASON", "OOMKilled", 1))
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Container != "base" || len(tl.Unparsed) != 0 {
		t.Fatalf("%+v %+v", tl.RuntimeOOMs, tl.Unparsed)
	}
	var s artifact.KubeTerminated
	for _, a := range tl.Artifacts {
		if a.Kind == artifact.KindKubeTerminated {
			s, _ = a.Data.(artifact.KubeTerminated)
		}
	}
	if s.Reason != "OOMKilled" || s.ExitCode == nil || *s.ExitCode != 137 || s.Container != "base" {
		t.Errorf("artifact %+v", s)
	}
	mustFire(t, run(t, "oom-kill", tl), Warning)

	tl = pasteTimeline(t, strings.Replace(h42aPyPod, "REASON", "Error", 1))
	if len(tl.RuntimeOOMs) != 0 || h42aKinds(tl, artifact.KindKubeTerminated) != 1 {
		t.Errorf("reason Error: %+v %+v", tl.RuntimeOOMs, tl.Artifacts)
	}
	for name, text := range map[string]string{
		"none":   " 'state': {'running': None, 'terminated': None, 'waiting': None},\n",
		"advice": "If the pod's 'terminated' state says 'reason': 'OOMKilled', raise its memory limit.\n",
	} {
		if tl := pasteTimeline(t, text); len(tl.RuntimeOOMs) != 0 || h42aKinds(tl, artifact.KindKubeTerminated) != 0 {
			t.Errorf("%s: %+v", name, tl.RuntimeOOMs)
		}
	}
}

// h42aKinds counts tl's artifacts of kind.
func h42aKinds(tl *model.Timeline, kind string) (n int) {
	for _, a := range tl.Artifacts {
		n += map[bool]int{true: 1}[a.Kind == kind]
	}
	return n
}

func h42aStatedOOM(tl *model.Timeline) bool {
	return tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedOOM] > 0 }) != nil
}
