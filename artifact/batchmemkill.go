package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Batch schedulers' and workflow managers' own reports of a job killed at its memory limit
// (h29d, written from the programs' sources, blind to round 29's batches). Read beside
// Slurm's (slurmoom.go, called from slurmLine): each is the job's limit reached, never the
// host's memory.
//
//	HTCondor condor_starter (src/condor_starter.V6.1/vanilla_proc.cpp outOfMemoryEvent, the
//	  job's cgroup OOM event): "Job has gone over memory limit of %d megabytes. Peak usage:
//	  %d megabytes." (the hold reason; condor_q -hold's HOLD_REASON after "Error from
//	  SLOT@HOST: ", the event log's 012 "Job was held." body, HoldReason = "..."); the docker
//	  universe (docker_proc.cpp, the container's OOMKilled): "Docker job has gone over memory
//	  limit of %d Mb". The kernel's OOM killer in the job's memory cgroup: a memory-cgroup
//	  OOM (oom-kill, warning).
//	HTCondor's SYSTEM_PERIODIC_HOLD policy (the HOLD_IF_MEMORY_EXCEEDED metaknob): "Error from
//	  SLOT: memory usage exceeded request_memory": the schedd's hold of a job whose measured
//	  MemoryUsage passed RequestMemory, HTCondor's own kill.
//	PBS Pro and Torque pbs_mom (mom_mach.c, the job's polled usage over its -l mem/vmem):
//	  "=>> PBS: job killed: mem %lukb exceeded limit %lukb" (Torque "mem job total %lu kb
//	  exceeded limit %lu kb"; vmem, pmem, pvmem alike), the MoM's own SIGKILL.
//	LSF (lsbatch.h TERM_MEMLIMIT, the job report mailed or written to -o): "TERM_MEMLIMIT: job
//	  killed after reaching LSF memory usage limit." with the report's "Max Memory :" and
//	  "Total Requested Memory :" below it; LSF's own kill at the job's -M limit.
//	SGE/UGE sge_execd (execd_ck_to_do.c MSG_JOB_EXCEEDHLIM_USSFF): "job %u exceeds job hard
//	  limit \"%s\" of queue \"%s\" (%8.5f > limit:%8.5f) - sending SIGKILL" in the execd's
//	  messages file (date|execd|host|W|...); a memory limit (h_vmem, h_rss, h_data) only.
//
//	Torque pbs_server's job mail (msg_momjobovermemlimit with msg_job_end_stat): "Job exceeded
//	  a memory resource limit (vmem, pvmem, etc.). Job was aborted" then "Exit_status=-10"
//	  (JOB_EXEC_OVERLIMIT_MEM) and the job's resources_used.mem/vmem and req_information
//	  lines: which limit it was is in those figures, not in the message (fix34d).
//
// A VIRTUAL-memory limit (PBS/Torque vmem and pvmem, Grid Engine's h_vmem and virtual_free,
// qstat's Exit_status -26 JOB_EXEC_KILL_VMEM, the Torque mail's resources_used.vmem over its
// request) counts the job's address space: mapped and reserved pages never touched, shared
// libraries and JVM or MPI reservations count in full, so a job at a quarter of its resident
// request passes it (fix34d, corpus 2945, 2946). Such a kill is the scheduler enforcing an
// accounting limit on address space, not the job, the node or the kernel out of memory: it is
// kept in Timeline.AddressSpaceKills with its figures (an artifact each), never as an OOM
// kill; oom-kill names it when not checked. Resident limits (mem, pmem, h_rss, LSF's
// TERM_MEMLIMIT, HTCondor's) stay job-limit kills.
//
// The schedulers' own kills (HTCondor's policy, PBS, LSF, SGE) are kills for memory by a
// killer other than the kernel's, as Slurm's jobacct_gather's (scope low-memory killer), with
// the limit and the peak in the reporter. A sentence that names the message ("if you see
// Job has gone over memory limit of X") has another start and stays prose.
//
// Read, no kill: an exit status 137 alone is SIGKILL (128+9), any kill -9 as well as the OOM
// killer's: Nextflow's "Process `NAME (1)` terminated with an error exit status (137)"
// (nextflow TaskProcessor) and Airflow's "Task exited with return code Negsignal.SIGKILL"
// (local_task_job_runner) are named and kept as SIGKILL notices; so are Celery's (the
// executor of Airflow's CeleryExecutor and of many job queues; fix34c) from billiard's
// pool.py: the MainProcess's "[stamp: ERROR/MainProcess] Process 'ForkPoolWorker-N' pid:P
// exited with 'signal 9 (SIGKILL)'" and the task's "WorkerLostError: Worker exited
// prematurely: signal 9 (SIGKILL) Job: N." (a sentence that quotes either has another
// start; another signal or an exit code is no SIGKILL). Argo Workflows' node
// message "OOMKilled (exit code 137)" (workflow/controller/operator.go, the pod's terminated
// reason and code) is the container's OOMKilled state at second hand (kube_pod.go's).
var (
	reCondorOOMHold = lazyre.New(`(Error from (\S+@\S+): )?(Docker )?[Jj]ob has gone over (?:cgroup )?memory limit of (\d{1,12}) (?:megabytes|Mb|MB)(?:\.\s+(?:Peak|Last measured) usage: (\d{1,12}) megabytes)?\.?(?:\s+This occurred while the job was checkpointing\.)?`)
	reCondorPolicy  = lazyre.New(`Error from (\S+@\S+): [Mm]emory usage exceeded request_memory`)
	reCondorRowLead = lazyre.New(`^\s*(?:\d+\.\d+\s+\S+\s+\d+/\d+\s+\d+:\d+\s+)?(?:HoldReason\s*=\s*"|Hold ?[Rr]eason:\s*)?$`)
	rePBSMemKill    = lazyre.New(`(?:^\s*|=>>\s*)PBS: job killed: (p?v?mem) (?:job total )?(\d{1,20}) ?(kb|KB|b)? exceeded limit (\d{1,20}) ?(?:kb|KB|b)?(?:\s|$)`)
	reLSFMemLimit   = lazyre.New(`TERM_MEMLIMIT: job killed after reaching(?: LSF memory usage limit[.;]?)?`)
	reLSFReportMem  = lazyre.New(`(Max Memory|Total Requested Memory)\s*:\s+([\d.]+ [KMGT]?B)`)
	reLSFMaxMem     = lazyre.New(`^MAX MEM: ([\d.]+ [KMGT]?bytes);`)
	reLSFLimitVal   = lazyre.New(`^\s*[\d.]+ ?[KMGT]?\s*$`)
	rePBSExitKill   = lazyre.New(`^\s*Exit_status = -2([67])\s*$`)
	rePBSQstatMem   = lazyre.New(`^\s*(resources_used\.v?mem|Resource_List\.v?mem) = (\d+[kmgt]?b)\s*$`)
	reGalaxyOOM     = lazyre.New(`^\s*["'` + "`" + `]?This job was terminated because it used more memory than it was allocated\.["'` + "`" + `]?\s*$`)
	reCromwell137   = lazyre.New(`Job (\S+) exited with return code 137 which has not been declared as a valid return code`)
	reQacctExit137  = lazyre.New(`^exit_status\s+137(?:\s+\(Killed\))?\s*$`)
	reQacctMaxvmem  = lazyre.New(`^\s*maxvmem\s+([\d.]+[KMGT]?)\s*$`)
	reQacctHVmem    = lazyre.New(`^\s*(?:category|hard resource_list:)\s+.*\bh_vmem=([\d.]+[kKmMgGtT]?)\b`)
	reSGEHardLimit  = lazyre.New(`job (\d+(?:\.\d+)?) exceeds job hard limit "(h_vmem|h_rss|h_data|mem_free|virtual_free)" of queue "([^"]+)" \(([\d.]+) > limit:([\d.]+)\) - sending SIGKILL`)
	reNextflow137   = lazyre.New(`(?:^\s*(?:NOTE: |Caused by:\s+)?|\[[0-9a-f]{2}/[0-9a-f]{6}\] NOTE: )Process ` + "`" + `([^` + "`" + `]{1,200})` + "`" + ` terminated with an error exit status \(137\)(?:\s+--\s+(?:Execution is retried \(\d+\)|Error is ignored))?\s*$`)
	reNextflowTask  = lazyre.New(`TaskHandler\[(?:jobId: \S+; )?id: \d+; name: ([^;]{1,200}); status: COMPLETED; exit: 137;`)
	reAirflowKill   = lazyre.New(`(?:^|\} |\] )(?:INFO - )?Task exited with return code (?:Negsignal\.SIGKILL|-9)\s*$`)
	reCeleryKill    = lazyre.New(`(?:^\s*|/[A-Za-z]+Process\] )(?:Process '([^']{1,100})' pid:(\d{1,10}) exited with 'signal 9 \(SIGKILL\)'|(?:billiard\.exceptions\.)?WorkerLostError\(?['"]?:? ?Worker exited prematurely: signal 9 \(SIGKILL\)(?: Job: \d+)?\.?['"]?\)?)\s*$`)
	// reGunicornSig: gunicorn 20's arbiter (arbiter.py reap_workers, WIFSIGNALED): "Worker
	// with pid %s was terminated due to signal %s", after its "[stamp] [PID] [WARNING] " or
	// alone; a sentence quoting it in backticks keeps the level before it.
	reGunicornSig   = lazyre.New(`(?:^\s*|\[(?:WARNING|INFO|ERROR|CRITICAL)\] )Worker with pid (\d{1,10}) was terminated due to signal (\d{1,3})(?:\s*$|[` + "`" + `'".,;)])`)
	reArgoOOMKilled = lazyre.New(`(?:\S\s{2,}|message:\s*|"message":\s*")OOMKilled \(exit code 137\)"?,?\s*$`)
	// reQuoteLead: a sentence that offers the message as an example or a condition, not
	// as what this job printed.
	reTorqueMemAbort = lazyre.New(`^\s*>?\s*Job exceeded a memory resource limit \(vmem, pvmem, etc\.\)\. Job was aborted\s*$`)
	// reTorqueMailMem: the mail's figures below the message, "key=value" (qstat -f's are
	// "key = value"), in kb as Torque prints them; Exit_status=-10 is JOB_EXEC_OVERLIMIT_MEM.
	reTorqueMailMem = lazyre.New(`^\s*>?\s*(resources_used\.v?mem|Resource_List\.v?mem|req_information\.(?:total_)?(?:memory|swap)\.0|Exit_status)\s*=\s*(-?\d{1,15})(kb|mb|gb|b)?\s*$`)
	reQuoteLead     = lazyre.New(`(?i)\b(?:if (?:you|your|a|the)|e\.g\b|such as|for example|for instance|means|when (?:you|a|the))\b`)
)

// batchQuoted: the text before a scheduler's message on its line offers it as an example
// (a list's row, stated.go's listItemStart: a list of common errors; "if you see ..."), not as this job's.
func batchQuoted(line, pre string) bool {
	return listItemStart(line) || reQuoteLead.MatchString(pre)
}

// placeholderSlot: a guide's "slot1@host" for a real slot's name.
func placeholderSlot(slot string) bool {
	_, host, _ := strings.Cut(slot, "@")
	switch strings.ToLower(strings.Trim(host, "<>")) {
	case "host", "hostname", "machine", "node", "example.com":
		return true
	}
	return false
}

// batchMemLine reads line i as one of the schedulers' lines above. A line flattened from
// several (condor_q's rows, a job report pasted onto one line) counts each message in it.
func (d *doc) batchMemLine(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "mem") && !strings.Contains(t, "137") && !strings.Contains(t, "Task exited") && !strings.Contains(t, "Exit_status") && !strings.Contains(t, "MEMLIMIT") && !strings.HasPrefix(t, "exit_status") && !strings.Contains(t, "hard limit") && !strings.Contains(t, "(SIGKILL)") && !strings.Contains(t, "due to signal") {
		return false // every form holds one of these (a cheap test before any regexp)
	}
	src := fmt.Sprintf("line %d", d.ls[i].No)
	var found []model.RuntimeOOM
	var vfound []vmemKill
	switch {
	case strings.Contains(t, "physmem=") && strings.Contains(t, "availmem="):
		return d.pbsnodesStatus(i) // Torque's pbsnodes (pbsnodes.go)
	case strings.Contains(t, "ob has gone over "):
		for _, m := range reCondorOOMHold.FindAllStringSubmatchIndex(t, 16) {
			pre, rest := t[:m[0]], strings.Trim(t[m[1]:], " \t\"'”")
			switch {
			case m[2] >= 0 && !placeholderSlot(t[m[4]:m[5]]): // "Error from SLOT@HOST: ": the starter's hold reason, anywhere
			case rest == "" && reCondorRowLead.MatchString(pre): // the reason alone, a row's or HoldReason's
			case m[10] >= 0 && !batchQuoted(t, pre): // the whole message with its figures, quoted as this job's
			default:
				continue
			}
			limit, peak := t[m[8]:m[9]], ""
			if m[10] >= 0 {
				peak = t[m[10]:m[11]]
			}
			rep := "HTCondor's starter (the job's memory cgroup over its limit of " + limit + " MB"
			if peak != "" {
				rep += ", peak usage " + peak + " MB"
			}
			if m[6] >= 0 {
				rep = "HTCondor's docker universe (the job's container OOMKilled at its limit of " + limit + " MB"
			}
			slot := ""
			if m[4] >= 0 {
				slot = t[m[4]:m[5]]
			}
			found = append(found, model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: rep + "; the job held)", Container: slot, Source: src})
		}
	case strings.Contains(t, "exceeded request_memory"):
		for _, m := range reCondorPolicy.FindAllStringSubmatchIndex(t, 16) {
			if batchQuoted(t, t[:m[0]]) || placeholderSlot(t[m[2]:m[3]]) {
				continue
			}
			found = append(found, model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: "HTCondor's periodic hold (the job's MemoryUsage over its request_memory, held by HTCondor on " + t[m[2]:m[3]] + ")", Source: src})
		}
	case strings.Contains(t, "PBS: job killed: "):
		for _, m := range rePBSMemKill.FindAllStringSubmatch(t, 16) {
			if at := strings.Index(t, m[0]); batchQuoted(t, t[:at]) {
				continue // "if you see =>> PBS: job killed: ...": an example, not this job's
			}
			unit := " kB"
			if m[3] == "b" || m[3] == "" && !strings.Contains(strings.ToLower(m[0]), "kb") {
				unit = " bytes"
			}
			if strings.Contains(m[1], "v") {
				vfound = append(vfound, vmemKill{model.RuntimeOOM{Scope: model.OOMScopeAddressSpace, Reporter: "PBS's MoM (the job's virtual memory, its address space (" + m[1] + ") " + m[2] + unit + " over its limit " + m[4] + unit + ", killed by PBS)", Source: src},
					map[string]any{"scheduler": "PBS/Torque pbs_mom", "limit": m[1], "used": atoi64(m[2]), "limit_value": atoi64(m[4]), "unit": strings.TrimSpace(unit)}})
				continue
			}
			found = append(found, model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: "PBS's MoM (the job's memory (" + m[1] + ") " + m[2] + unit + " over its limit " + m[4] + unit + ", killed by PBS)", Source: src})
		}
	case strings.Contains(t, "TERM_MEMLIMIT: "):
		loc := reLSFMemLimit.FindStringIndex(t)
		if loc == nil {
			return false
		}
		pre, rest := strings.TrimSpace(t[:loc[0]]), strings.TrimSpace(t[loc[1]:])
		wrapped := rest == "" && !strings.HasSuffix(t[:loc[1]], " limit") && i+1 < len(d.ls) && strings.HasPrefix(strings.TrimSpace(d.ls[i+1].Text), "LSF memory usage limit")
		if strings.Trim(pre, "-`'\">") != "" && !strings.HasPrefix(rest, "Exited with exit code ") && !strings.HasSuffix(pre, "Completed <exit>;") {
			return false // a sentence naming the reason; the job report's line, bjobs -l's and bhist -l's, or a flattened copy only
		}
		if !wrapped && strings.HasSuffix(t[:loc[1]], "reaching") {
			return false // cut before its end
		}
		rep := "LSF (TERM_MEMLIMIT: the job reached its memory limit, killed by LSF"
		for _, m := range reLSFReportMem.FindAllStringSubmatch(rest, 2) {
			rep += "; " + m[1] + " " + m[2] // the report flattened onto this line
		}
		for k := i + 1; (rest == "" || rest == ";") && k < len(d.ls) && k <= i+30; k++ {
			// The figures below it: the job report's "Max Memory :" and "Total Requested
			// Memory :", bjobs -l's "MAX MEM: 48 Gbytes;" and its MEMLIMIT table's value.
			lt := strings.TrimSpace(d.ls[k].Text)
			if m := reLSFReportMem.FindStringSubmatch(lt); m != nil && strings.HasPrefix(lt, m[1]) {
				rep += "; " + m[1] + " " + m[2]
				d.used[k] = true
			} else if m := reLSFMaxMem.FindStringSubmatch(lt); m != nil {
				rep += "; MAX MEM " + m[1]
				d.used[k] = true
			} else if lt == "MEMLIMIT" && k+1 < len(d.ls) && reLSFLimitVal.MatchString(d.ls[k+1].Text) {
				rep += "; MEMLIMIT " + strings.TrimSpace(d.ls[k+1].Text)
				d.used[k], d.used[k+1] = true, true
			}
		}
		if wrapped {
			d.used[i+1] = true
		}
		found = append(found, model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: rep + ")", Source: src})
	case strings.Contains(t, "Exit_status = -2"):
		// PBS Pro's qstat -f of a finished job: JOB_EXEC_KILL_VMEM (-26), JOB_EXEC_KILL_MEM (-27).
		m := rePBSExitKill.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		what := "mem, JOB_EXEC_KILL_MEM"
		if m[1] == "6" {
			what = "vmem, JOB_EXEC_KILL_VMEM"
		}
		rep := "PBS (qstat -f Exit_status = -2" + m[1] + ": the job killed over its " + what
		for k := max(0, i-80); k < len(d.ls) && k <= i+80; k++ {
			if f := rePBSQstatMem.FindStringSubmatch(d.ls[k].Text); f != nil {
				rep += "; " + f[1] + " " + f[2]
			}
		}
		if m[1] == "6" {
			vfound = append(vfound, vmemKill{model.RuntimeOOM{Scope: model.OOMScopeAddressSpace, Reporter: rep + ")", Source: src}, map[string]any{"scheduler": "PBS qstat -f", "exit_status": -26}})
			break
		}
		found = append(found, model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: rep + ")", Source: src})
	case strings.Contains(t, "exceeded a memory resource limit"):
		if !reTorqueMemAbort.MatchString(t) {
			return false
		}
		if d.torqueMemAbort(i) {
			return true
		}
	case strings.Contains(t, "used more memory than it was allocated"):
		if !reGalaxyOOM.MatchString(t) {
			return false
		}
		if n := len(d.tl.RuntimeOOMs); n > 0 && strings.HasPrefix(d.tl.RuntimeOOMs[n-1].Reporter, "slurmstepd") {
			d.used[i] = true
			return true // Slurm's own line above counted the kill
		}
		found = append(found, model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: "Galaxy's Slurm runner (the job's state OUT_OF_MEMORY: Slurm's memory cgroup at the job's limit)", Source: src})
	case strings.Contains(t, "with return code 137 which has not been declared"):
		m := reCromwell137.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.batchSigkill(i, "Cromwell's job "+m[1]+" (return code 137)", "Cromwell's report that a job's command ended with return code 137 (128+9): it died by SIGKILL, which the kernel's OOM killer, a memory cgroup's, the backend's kill at the job's limit and any kill -9 all send; which one is not in this line")
		return true
	case strings.Contains(t, " exceeds job hard limit "):
		for _, m := range reSGEHardLimit.FindAllStringSubmatch(t, 16) {
			if m[2] == "h_vmem" || m[2] == "virtual_free" {
				used, _ := strconv.ParseFloat(m[4], 64)
				limit, _ := strconv.ParseFloat(m[5], 64)
				vfound = append(vfound, vmemKill{model.RuntimeOOM{Scope: model.OOMScopeAddressSpace, Reporter: "Grid Engine's execd (job " + m[1] + "'s virtual memory, its address space (" + m[2] + ") " + sgeBytes(m[4]) + " over its hard limit " + sgeBytes(m[5]) + " in queue " + m[3] + ", killed by SGE)",
					Container: "job " + m[1], Source: src}, map[string]any{"scheduler": "Grid Engine execd", "limit": m[2], "used": int64(used), "limit_value": int64(limit), "unit": "bytes"}})
				continue
			}
			found = append(found, model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: "Grid Engine's execd (job " + m[1] + "'s " + m[2] + " " + sgeBytes(m[4]) + " over its hard limit " + sgeBytes(m[5]) + " in queue " + m[3] + ", killed by SGE)",
				Container: "job " + m[1], Source: src})
		}
	case strings.Contains(t, "error exit status (137)"):
		m := reNextflow137.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.batchSigkill(i, "Nextflow's task "+m[1]+" (exit status 137)", nextflow137Why)
		return true
	case strings.Contains(t, "; exit: 137;"):
		m := reNextflowTask.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.batchSigkill(i, "Nextflow's task "+m[1]+" (exit status 137)", nextflow137Why)
		return true
	case strings.HasPrefix(t, "exit_status") && strings.Contains(t, "137"):
		// Grid Engine's qacct -j: exit_status 137 with maxvmem at the job's h_vmem is the
		// execd's kill at that limit; without the figures a SIGKILL.
		if !reQacctExit137.MatchString(t) {
			return false
		}
		maxv, limit := "", ""
		for k := max(0, i-40); k < len(d.ls) && k <= i+40; k++ {
			if m := reQacctMaxvmem.FindStringSubmatch(d.ls[k].Text); m != nil {
				maxv = m[1]
			} else if m := reQacctHVmem.FindStringSubmatch(d.ls[k].Text); m != nil {
				limit = m[1]
			}
		}
		mv, ok1 := sgeSize(maxv)
		lv, ok2 := sgeSize(limit)
		if !ok1 || !ok2 || mv < lv*98/100 {
			d.batchSigkill(i, "Grid Engine's qacct (exit_status 137)", "Grid Engine's accounting of a job that ended with exit status 137 (128+9): it died by SIGKILL, which the execd's kill at a hard limit, the kernel's OOM killer and any kill -9 all send; its maxvmem at the job's h_vmem would say which")
			return true
		}
		vfound = append(vfound, vmemKill{model.RuntimeOOM{Scope: model.OOMScopeAddressSpace, Reporter: "Grid Engine (qacct -j: exit_status 137 with maxvmem " + maxv + " at the job's h_vmem " + limit + ", its address space; killed by the execd)", Source: src},
			map[string]any{"scheduler": "Grid Engine qacct", "limit": "h_vmem", "used": int64(mv), "limit_value": int64(lv), "unit": "bytes"}})
	case strings.Contains(t, "Task exited with return code "):
		if !reAirflowKill.MatchString(t) {
			return false
		}
		d.batchSigkill(i, "Airflow's task runner (return code Negsignal.SIGKILL)", "Airflow's task runner reporting its task process died by SIGKILL (Negsignal.SIGKILL, return code -9): the kernel's OOM killer sends it, and so does any kill -9; which one is not in this line")
		return true
	case strings.Contains(t, "signal 9 (SIGKILL)"):
		m := reCeleryKill.FindStringSubmatch(stampedMsg(&d.ls[i]))
		if m == nil || d.exampleLog(i) {
			return false
		}
		if m[2] != "" {
			d.addArtifact(KindWorkerSigkill, d.ls[i].No, d.ls[i].No, map[string]any{"program": "celery", "worker": m[1], "pid": float64(atoi64(m[2])), "signal": float64(9)})
		}
		d.batchSigkill(i, "Celery's worker pool (billiard: a pool child exited with signal 9 (SIGKILL))", celeryKillWhy)
		return true
	case strings.Contains(t, " was terminated due to signal "):
		m := reGunicornSig.FindStringSubmatchIndex(t)
		if m == nil || batchQuoted(t, t[:m[0]]) || d.exampleLog(i) {
			return false
		}
		pid, sig := t[m[2]:m[3]], t[m[4]:m[5]]
		d.addArtifact(KindWorkerSigkill, d.ls[i].No, d.ls[i].No, map[string]any{"program": "gunicorn", "pid": float64(atoi64(pid)), "signal": float64(atoi64(sig))})
		if sig != "9" {
			d.unparsedUnread(i, "gunicorn's arbiter reaped worker "+pid+" ended by signal "+sig+" (arbiter.py reap_workers: \"Worker with pid N was terminated due to signal S\"): not SIGKILL, so no OOM kill; headroom has no reader for this log")
			return true
		}
		d.batchSigkill(i, "gunicorn's arbiter (worker pid "+pid+" terminated by signal 9, SIGKILL)", gunicornKillWhy)
		return true
	case strings.Contains(t, "OOMKilled (exit code 137)"):
		if !reArgoOOMKilled.MatchString(t) {
			return false
		}
		found = append(found, model.RuntimeOOM{Reporter: "Argo Workflows (the step's pod container terminated OOMKilled, exit code 137)", Source: src})
	}
	if len(found) == 0 && len(vfound) == 0 {
		return false
	}
	if d.exampleLog(i) {
		d.keepProse(i) // a guide's example of the message, not this job's
		return true
	}
	for _, o := range found {
		d.addRuntimeOOM(o)
	}
	for _, v := range vfound {
		d.addAddressSpaceKill(i, v)
	}
	d.used[i] = true
	return true
}

const celeryKillWhy = "Celery's worker pool (billiard's pool.py, in the MainProcess's log \"Process 'ForkPoolWorker-N' pid:P exited with 'signal 9 (SIGKILL)'\", or the task's WorkerLostError \"Worker exited prematurely: signal 9 (SIGKILL)\") saw a pool child die by SIGKILL: the kernel's OOM killer (a container's memory cgroup at its limit or the host's), a supervisor's kill or any kill -9 sends it; which one is not in this line: the kernel's \"Killed process P\" with that pid, or the pod's OOMKilled state, would say"

const gunicornKillWhy = "gunicorn's arbiter reaped a worker that died by SIGKILL (arbiter.py reap_workers: \"Worker with pid N was terminated due to signal 9\"): the kernel's OOM killer (a container's memory cgroup at its limit or the host's) sends it, and so does gunicorn's own arbiter after a WORKER TIMEOUT and any kill -9; which one is not in this line: the kernel's \"Killed process N\" with that pid, or the pod's OOMKilled state, would say"

// stampedMsg is line l's message whole when the line reader took the first word after an
// RFC 3339 stamp for a host: docker logs -t and kubectl logs --timestamps print
// "2022-10-19T22:31:02.250717044Z MESSAGE", no host and no tag.
func stampedMsg(l *Line) string {
	if l.Tag == "" && l.Host != "" && strings.Contains(l.Stamp, "T") {
		return l.Host + " " + l.Text
	}
	return l.Text
}

// stampedKillHanded: a line under an RFC 3339 stamp with no tag (stampedMsg) that may be a
// pool's SIGKILL notice batchMemLine reads.
func stampedKillHanded(l *Line) bool {
	return l.Tag == "" && l.Syslog && strings.Contains(l.Stamp, "T") && (strings.Contains(l.Text, "signal 9 (SIGKILL)") || strings.Contains(l.Text, " was terminated due to signal "))
}

// vmemKill is a scheduler's kill at a virtual-memory limit and its figures as printed.
type vmemKill struct {
	o    model.RuntimeOOM
	data map[string]any
}

// addAddressSpaceKill keeps v (line i) in Timeline.AddressSpaceKills, with its artifact.
func (d *doc) addAddressSpaceKill(i int, v vmemKill) {
	v.o.Count = max(v.o.Count, 1)
	v.data["reporter"] = v.o.Reporter
	v.data["why"] = "a limit on the job's address space (virtual size), not on resident memory: no OOM kill and no memory shortage of the job or the host"
	d.addArtifact(KindBatchVmemKill, d.ls[i].No, d.ls[i].No, v.data)
	if n := len(d.tl.AddressSpaceKills); n >= maxRuntimeOOMs {
		d.tl.AddressSpaceKills[n-1].Count += v.o.Count
		return
	}
	d.tl.AddressSpaceKills = append(d.tl.AddressSpaceKills, v.o)
}

func atoi64(s string) int64 {
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

// torqueMemAbort reads Torque's job mail at line i ("Job exceeded a memory resource limit
// (vmem, pvmem, etc.). Job was aborted"): the figures within 40 lines say which limit. Used
// resident mem at its request is a job-limit kill; used vmem over its request (vmem, which
// Torque 6 keeps as req_information's swap) with mem below is an address-space kill;
// without the figures the message is named and kept as a SIGKILL notice, no OOM kill.
func (d *doc) torqueMemAbort(i int) bool {
	fig := map[string]int64{}
	var lines []int
	for k := max(0, i-5); k < len(d.ls) && k <= i+40; k++ {
		m := reTorqueMailMem.FindStringSubmatch(d.ls[k].Text)
		if m == nil {
			continue
		}
		v := atoi64(m[2])
		switch m[3] {
		case "b":
			v >>= 10
		case "mb":
			v <<= 10
		case "gb":
			v <<= 20
		}
		key := strings.Replace(strings.Replace(m[1], "total_", "", 1), "Resource_List.", "req.", 1)
		key = strings.NewReplacer("req_information.memory.0", "req.mem", "req_information.swap.0", "req.vmem").Replace(key)
		if _, ok := fig[key]; !ok {
			fig[key] = v
		}
		lines = append(lines, k)
	}
	src := fmt.Sprintf("line %d", d.ls[i].No)
	mem, vmem := fig["resources_used.mem"], fig["resources_used.vmem"]
	memReq, vmemReq := fig["req.mem"], fig["req.vmem"]
	data := map[string]any{"scheduler": "Torque pbs_server (job mail)", "unit": "kB"}
	for k, v := range fig {
		data[strings.ToLower(strings.ReplaceAll(k, ".", "_"))] = v
	}
	mark := func() {
		d.used[i] = true
		for _, k := range lines {
			d.used[k] = true
		}
	}
	switch {
	case d.exampleLog(i):
		d.keepProse(i)
	case memReq > 0 && mem >= memReq*98/100:
		d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: fmt.Sprintf("Torque (the job aborted over a memory resource limit: resources_used.mem %d kB at its request %d kB, killed by Torque)", mem, memReq), Source: src})
		mark()
	case vmemReq > 0 && vmem > vmemReq:
		rep := fmt.Sprintf("Torque (the job aborted over its virtual memory, its address space: resources_used.vmem %d kB over its request %d kB", vmem, vmemReq)
		if mem > 0 {
			rep += fmt.Sprintf(", while resident mem was %d kB", mem)
		}
		d.addAddressSpaceKill(i, vmemKill{model.RuntimeOOM{Scope: model.OOMScopeAddressSpace, Reporter: rep + "; killed by Torque)", Source: src}, data})
		mark()
	default:
		d.batchSigkill(i, "Torque's job mail (aborted over a memory resource limit)", "Torque's mail that it aborted the job over a memory resource limit (JOB_EXEC_OVERLIMIT_MEM): mem, pmem, vmem or pvmem, and which one is not said without the job's resources_used and requested figures; a virtual-memory limit is address space, not memory in use")
	}
	return true
}

const nextflow137Why = "Nextflow's report that a task's command ended with exit status 137 (128+9): it died by SIGKILL, which the kernel's OOM killer, a memory cgroup's, the scheduler's kill at the job's limit and any kill -9 all send; which one is not in this line"

// batchSigkill names line i unread and keeps it as a SIGKILL notice (no OOM by itself).
func (d *doc) batchSigkill(i int, rep, why string) {
	d.unparsedUnread(i, why+"; headroom has no reader for this log")
	d.addSigkillNotice(i, rep)
}

// sgeSize reads Grid Engine's memory figure ("8.000G", "8G", "512m"): upper-case units
// are powers of 1024, lower-case of 1000 (sge_parse_num_val).
func sgeSize(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	mult := 1.0
	switch c := s[len(s)-1]; c {
	case 'K', 'M', 'G', 'T':
		mult = float64(uint64(1) << (10 * (strings.IndexByte("KMGT", c) + 1)))
		s = s[:len(s)-1]
	case 'k', 'm', 'g', 't':
		mult = 1
		for range strings.IndexByte("kmgt", c) + 1 {
			mult *= 1000
		}
		s = s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	return f * mult, err == nil
}

// sgeBytes prints SGE's "%8.5f" byte figure in MiB.
func sgeBytes(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return fmt.Sprintf("%.0f MiB", f/(1<<20))
}
