package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Workflow orchestrators' own notices that a step's or a flow run's process died by a
// signal (h42a, written from the programs' sources, blind to the next round). Each says how
// the child ended, never why: the kernel's OOM killer (the host's or a container's memory
// cgroup), the orchestrator's own cancellation and any kill -9 all send SIGKILL. They are
// named and kept as SIGKILL notices (no OOM kill by themselves), with a worker_sigkill
// artifact carrying the program, the step or process and the signal.
//
//	Dagster's multiprocess executor (python_modules/dagster/dagster/_core/executor/
//	  multiprocess.py, on a ChildProcessCrashException): "Multiprocess executor: child
//	  process for step STEP unexpectedly exited with code -9" (before 1.0), and since then
//	  get_run_crash_explanation (dagster/_utils/__init__.py) with that prefix: "... was
//	  terminated by signal 9 (SIGKILL). This usually indicates that the process was killed by
//	  the operating system due to running out of memory. Possible solutions include ...":
//	  Dagster's own guess and advice after the signal, not a report of the kernel's kill.
//	Prefect's process worker (src/prefect/workers/process.py, and the older
//	  infrastructure/process.py): "Process PID exited with status code: -9; This indicates
//	  that the process exited due to a SIGKILL signal. Typically, this is either caused by
//	  manual cancellation or high memory usage causing the operating system to terminate the
//	  process." (247, the -9 of a wrapper's 8-bit exit status, has "terminated due to high
//	  memory usage": the same guess); the worker's crash report (src/prefect/workers/base.py
//	  _propose_crashed_state): "Reported flow run 'ID' as crashed: Flow run infrastructure
//	  exited with non-zero status code 137." (137 = 128+9 from Docker or Kubernetes
//	  infrastructure, -9 from a process).
//
// Another exit code or signal (SIGTERM -15 or 143: a cancellation or a shutdown) is named as
// no kill for memory. A sentence that offers the line as an example ("if you see ...") or a
// list's item is not read; nor is the guess or the help text alone.
var (
	reDagsterChild = lazyre.New(`(?:^|[\s:'"(])Multiprocess executor: child process for step ([A-Za-z0-9_.\[\]-]{1,200}) (?:unexpectedly exited with code (-?\d{1,3})\b|was terminated by signal (\d{1,2}) \((SIG[A-Z0-9]+)\))`)
	rePrefectProc  = lazyre.New(`(?:^\s*|\S - |\| )Process(?: (\d{1,10})| '([^']{1,200})')? exited with status code: (-?\d{1,10})(?:;|\s*$)`)
	rePrefectCrash = lazyre.New(`(?:^\s*|\S - |\| )(?:Reported flow run '([^']{1,200})' as crashed: )?Flow run infrastructure exited with non-zero status code (-?\d{1,10})\.?(?:\s|$)`)
)

// pipelineKillLine reads line i as one of the orchestrators' notices above.
func (d *doc) pipelineKillLine(i int) bool {
	t := d.ls[i].Text
	var m []int
	var prog, who, code, sig string
	switch {
	case strings.Contains(t, "Multiprocess executor: child process for step "):
		if m = reDagsterChild.FindStringSubmatchIndex(t); m == nil {
			return false
		}
		prog, who = "dagster", "step "+t[m[2]:m[3]]
		if m[4] >= 0 {
			code = t[m[4]:m[5]]
		} else {
			code, sig = "-"+t[m[6]:m[7]], t[m[8]:m[9]]
		}
	case strings.Contains(t, " exited with status code: "):
		if m = rePrefectProc.FindStringSubmatchIndex(t); m == nil {
			return false
		}
		prog, who, code = "prefect", "the flow run's process", t[m[6]:m[7]]
		if m[2] >= 0 {
			who = "process " + t[m[2]:m[3]]
		} else if m[4] >= 0 {
			who = "process '" + t[m[4]:m[5]] + "'"
		}
	case strings.Contains(t, "Flow run infrastructure exited with non-zero status code "):
		if m = rePrefectCrash.FindStringSubmatchIndex(t); m == nil {
			return false
		}
		prog, who, code = "prefect", "the flow run's infrastructure", t[m[4]:m[5]]
		if m[2] >= 0 {
			who = "flow run '" + t[m[2]:m[3]] + "'"
		}
	default:
		return false
	}
	if batchQuoted(t, t[:m[0]]) || d.exampleLog(i) {
		return false // an example of the message, or a guide's: prose
	}
	name := map[string]string{"dagster": "Dagster's multiprocess executor", "prefect": "Prefect's worker"}[prog]
	data := map[string]any{"program": prog, "process": who, "exit_code": float64(atoi64(code))}
	switch code {
	case "-9", "137", "247":
		data["signal"] = float64(9)
		d.addArtifact(KindWorkerSigkill, d.ls[i].No, d.ls[i].No, data)
		why := name + " reporting that " + who + " died by SIGKILL (exit code " + code + "): the kernel's OOM killer (the host's, or a container's memory cgroup at its limit) sends it, and so do a cancellation and any kill -9; the program's own sentence after it (\"high memory usage\", \"running out of memory\") is its guess, not a report of the kill; which one it was is not in this line: the kernel's \"Killed process\" line, or the pod's OOMKilled state, would say; headroom has no reader for this log"
		if guess := strings.Contains(t[m[1]:], "memory"); guess && d.ucmd.entries < maxUnreadEntries {
			// The line goes on with the program's guess: named here and not kept for the
			// stated readers, which would take the guess for the author's word.
			d.ucmd.entries++
			d.unparsed(i, i, why)
		} else {
			d.unparsedUnread(i, why)
		}
		d.addSigkillNotice(i, name+" ("+who+" killed by SIGKILL, exit code "+code+")")
		return true
	case "-15", "143":
		data["signal"] = float64(15)
		d.addArtifact(KindWorkerSigkill, d.ls[i].No, d.ls[i].No, data)
		d.unparsedUnread(i, name+" reporting that "+who+" ended by SIGTERM (exit code "+code+"): a cancellation or a shutdown asked it to stop, no kill for memory; headroom has no reader for this log")
		return true
	}
	if sig != "" || strings.HasPrefix(code, "-") {
		data["signal"] = float64(-atoi64(code))
		d.addArtifact(KindWorkerSigkill, d.ls[i].No, d.ls[i].No, data)
		d.unparsedUnread(i, name+" reporting that "+who+" ended by signal "+strings.TrimPrefix(code, "-")+": not SIGKILL, so no OOM kill; headroom has no reader for this log")
		return true
	}
	d.unparsedUnread(i, name+" reporting that "+who+" exited with code "+code+": the program's own exit status, no signal and no kill; headroom has no reader for this log")
	return true
}

// orchestratorGuessText: s holds an orchestrator's own help text after a SIGKILL (Dagster's
// get_run_crash_explanation, Prefect's process worker's help message and its exit-code
// hints): the program's guess at the cause, printed for every -9 whatever sent it, never
// the author saying memory ran out; the stated readers leave it (frameworkKillText, h42a).
func orchestratorGuessText(s string) bool {
	return strings.Contains(s, "indicates that the process was killed by the operating system due to running out of memory") ||
		strings.Contains(s, "high memory usage causing the operating system to terminate the process") ||
		strings.Contains(s, "operating system terminating the process for exceeding memory limits")
}
