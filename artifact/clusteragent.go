package artifact

import "strings"

// Cluster and configuration-management agents (pre-round 25, h25c; each form written from the
// program's source): HashiCorp Consul, Nomad and Vault, SaltStack, Puppet, Ansible and Docker
// Swarm. Their daemons log under their own syslog tags, which no reader took: a paste of their
// lines exited 3 even where a line held a kernel-counted fact (memberlist's UDP send refused
// with ENOBUFS) or the kernel's kill at second hand (Nomad's task event "OOM Killed").
//
//   - The agents' tags (isClusterAgentTag) are handed to the readers of another program's
//     line (isAgentTag): memberlist's "[ERR] memberlist: Failed to send UDP ping: write udp
//     A->B: sendto: no buffer space available" (state.go; "Failed to send gossip to %s: %s"
//     likewise) is a UDP send refused with ENOBUFS (vpnudpsend.go, udp-rcvbuf-errors' send
//     side); "accept4: too many open files" is EMFILE (unreaderrno.go); the Go runtime's
//     "fatal error: runtime: out of memory" its own (unreadappoom.go).
//   - Nomad's task runner logs every task event through hclog (client/allocrunner/taskrunner
//     task_runner.go EmitEvent: logger.Info("Task event", "type", ..., "msg",
//     event.DisplayMessage, "failed", ...)): "Task event: alloc_id=A task=T type=Terminated
//     msg="Exit Code: 137, Exit Message: \"OOM Killed\"" failed=false", or with log_json
//     "@message":"Task event" and "msg":"Exit Code: 137, Exit Message: \"OOM Killed\"". The
//     same DisplayMessage as `nomad alloc status`'s Recent Events row (kube_runner.go): the
//     driver's oom_killed bit, a container's state (nomadTaskEventOOM).
//   - The agents' own lines of this domain that no rule reads (clusterForms), named with what
//     they prove.
//
// Gated: clusterOwnLine runs behind webAppOwnLine's IndexAny (clusterGate) and on the agents'
// tags; nomadTaskEventOOM behind the prose loop's "OOM Killed" test. No regexp.

// isClusterAgentTag: the syslog tags of the agents' units and commands.
func isClusterAgentTag(tag string) bool {
	switch tag {
	case "consul", "nomad", "vault", "serf", "consul-template",
		"salt-master", "salt-minion", "salt-api", "salt-syndic", "salt-call",
		"puppet", "puppet-agent", "puppetserver", "puppetdb",
		"ansible", "ansible-playbook", "ansible-pull",
		// Fedora CoreOS's and Silverblue's update stack, abrt's daemon: their errno lines.
		"rpm-ostree", "rpm-ostreed", "zincati", "abrtd", "abrt-server":
		return true
	}
	return false
}

// swarmTaskErrorHanded: dockerd's line of swarmkit's task error (the node agent's
// taskmanager: level=error msg="fatal task error" error="task: non-zero exit (137)"), whose
// tag no reader takes.
func swarmTaskErrorHanded(l *Line) bool {
	return l.Syslog && l.Tag == "dockerd" && strings.Contains(l.Text, "task: non-zero exit (")
}

// clusterForms: the agents' own lines that no rule reads.
var clusterForms = []ownLineForm{
	// Ruby's Errno::ENOMEM from Process.fork (a Puppet agent's exec, a Chef run; Ruby's
	// SystemCallError message "Cannot allocate memory - fork(2)"): the kernel refused the
	// child. fork returns ENOMEM when the copy of the parent's private writable mappings
	// cannot be committed (mm/mmap.c dup_mmap → security_vm_enough_memory_mm:
	// vm.overcommit_memory 2 past CommitLimit, or 0's heuristic for a large parent) or the
	// new task's kernel memory is not had. A refusal, no kill.
	{"Cannot allocate memory - fork(2)", "", false, "Ruby's Errno::ENOMEM from fork(2) (a Puppet agent's or Chef's exec: \"Cannot allocate memory - fork(2)\"): the kernel refused the child, most often because the parent's private writable memory could not be committed again (mm/mmap.c dup_mmap, __vm_enough_memory: vm.overcommit_memory 2 past CommitLimit, or mode 0's heuristic for a large parent); a refusal, no kill by the OOM killer; overcommit-exposed reads /proc/meminfo's Committed_AS and CommitLimit and vm.overcommit_memory, not in the line"},
	// Ansible's result of a module (or its command) ended by SIGKILL: "fatal: [H]: FAILED! =>
	// {... "module_stdout": "Killed\r\n", "msg": "MODULE FAILURE ...", "rc": 137}" (the
	// remote shell's 128+9), or the command module's "rc": -9 (Python's subprocess returns
	// -signal). Who sent the SIGKILL is not said.
	{"FAILED! => ", `"rc": 137`, false, ansibleKilledWhy},
	{"FAILED! => ", `"rc": -9`, false, ansibleKilledWhy},
	// swarmkit's exit error (agent/exec/dockerapi controller.go exitError: "task: non-zero
	// exit (%v)"), the ERROR column of `docker service ps`: the container's exit code only.
	{"task: non-zero exit (137)", "", false, "Docker Swarm's task error (swarmkit exitError: \"task: non-zero exit (137)\"): the task's container exited with 137, 128+9, a SIGKILL: the kernel's OOM killer (or a memory cgroup's), a `docker stop` past its grace period or a kill -9; Swarm does not say which (docker inspect's State.OOMKilled of the task's container, or the node's kernel log \"Killed process N\", would); no rule reads an exit code alone"},
	// Vault's (and its forks', Boundary's) start-up error when mlockall fails (command/server.go:
	// "Failed to lock memory: %v\n\nThis usually means that the mlock syscall is not
	// available."); Go prints ENOMEM "cannot allocate memory".
	{"Failed to lock memory: ", "cannot allocate memory", false, "Vault's start-up error: mlockall(MCL_CURRENT|MCL_FUTURE) failed with ENOMEM (command/server.go \"Failed to lock memory: cannot allocate memory\"): the process's locked memory would pass RLIMIT_MEMLOCK (mm/mlock.c: LimitMEMLOCK=, ulimit -l; CAP_IPC_LOCK lifts it), not the host's free memory; Vault's fix is the limit or disable_mlock; no rule applies"},
	// SaltStack's salt/utils/verify.py check_max_open_files: "The number of accepted minion
	// keys(N) should be lower than 1/4 of the max open files soft setting(S). [salt-master
	// will crash pretty soon! ]...Please consider raising this value."
	{"should be lower than 1/4 of the max open files soft setting(", "", false, "the salt-master's check of its descriptors (salt/utils/verify.py check_max_open_files: \"The number of accepted minion keys(N) should be lower than 1/4 of the max open files soft setting(S)\"): each minion holds descriptors on the master, and RLIMIT_NOFILE (max_open_files, LimitNOFILE=) is the limit, not memory; EMFILE (\"Too many open files\") follows past it; no rule applies"},
}

const ansibleKilledWhy = "Ansible's result of a module or its command ended by SIGKILL (\"FAILED! => {... \\\"rc\\\": 137}\" with \"Killed\" and \"MODULE FAILURE\": 128+9 from the remote shell; \"rc\": -9 from the command module): who sent it is not said: on the managed host the kernel's OOM killer is the usual sender, which its own log (\"Out of memory: Killed process N (python3)\") would show; an exit code alone is no OOM report, and the managed host need not be the one pasted"

// saltMaxOpenFilesWhy: the salt-master's start-up report of its descriptor limit (salt/master.py
// Master.__set_max_open_files): "Current values for max open files soft/hard setting: S/H",
// "The value for the 'max_open_files' setting, C, is higher than what the user running salt
// is allowed to raise to, H. Defaulting to H." (newer: "... than the highest value the user
// running salt is allowed to set (H). Defaulting to H."), "Raising max open files value to
// C", "New values for max open files soft/hard values: S/H".
const saltMaxOpenFilesWhy = "the salt-master's report of its descriptor limit at start-up (salt/master.py __set_max_open_files: \"Current values for max open files soft/hard setting: S/H\", \"The value for the 'max_open_files' setting, C, is higher than ... Defaulting to H\"): getrlimit(RLIMIT_NOFILE) of the master's process (LimitNOFILE= of its unit, ulimit -n) against salt's max_open_files option; a process limit, not memory or a kernel-wide table (fs.file-max); no failure is stated and no rule applies"

// saltMaxOpenFilesLine says whether t is one of those lines with its figure: the fixed words,
// then a number (not the source's "%s/%s" or "{0}/{1}", not a sentence naming the option).
func saltMaxOpenFilesLine(t string) bool {
	for _, p := range [...]string{"Current values for max open files soft/hard setting: ", "New values for max open files soft/hard values: ", "The value for the 'max_open_files' setting, ", "Raising max open files value to "} {
		if k := strings.Index(t, p); k >= 0 {
			return startsWithDigit(t[k+len(p):])
		}
	}
	return false
}

// clusterGate: bytes one of which every clusterForms needle holds ('k' "fork", "task",
// "lock", "keys"; '!' "FAILED!").
const clusterGate = "k!"

// clusterOwnLine says why t is one of clusterForms' lines.
func clusterOwnLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if strings.Contains(t, "max open files") || strings.Contains(t, "'max_open_files'") {
		if saltMaxOpenFilesLine(t) {
			return saltMaxOpenFilesWhy, true
		}
	}
	if strings.IndexAny(t, clusterGate) < 0 {
		return "", false
	}
	for k := range clusterForms {
		if why, ok := clusterForms[k].match(t); ok {
			return why, true
		}
	}
	return "", false
}

// nomadTaskEventTerminated reads Nomad's hclog "Task event" of a Terminated task: its exit
// code, the task's name and whether the exit message is the driver's "OOM Killed" (any other,
// "Docker container exited with non-zero exit code: 137", is the exit without the bit).
// Counter-cases: another event type, the event named in a sentence (no "Task event: " record
// of type Terminated), a message that is not "Exit Code: N, Exit Message: ...".
func nomadTaskEventTerminated(t string) (code int, task string, oom, ok bool) {
	// The record itself: hclog's "Task event: k=v ..." or log_json's "@message":"Task event",
	// of a Terminated event (Nomad words an OOM kill for those only).
	hclog := strings.Contains(t, "Task event: ") && strings.Contains(t, " type=Terminated ")
	if !hclog && !(strings.Contains(t, `"@message":"Task event"`) && strings.Contains(t, `"type":"Terminated"`)) {
		return 0, "", false, false
	}
	k := strings.Index(t, "Exit Code: ")
	if k < 5 {
		return 0, "", false, false
	}
	// The message is the record's msg field: hclog's msg="..." or log_json's "msg":"...".
	if !strings.HasSuffix(t[:k], `msg="`) && !strings.HasSuffix(t[:k], `"msg":"`) {
		return 0, "", false, false
	}
	rest := t[k+len("Exit Code: "):]
	n := leadingDigits(rest)
	if n == "" || len(n) > 3 || !strings.HasPrefix(rest[len(n):], `, Exit Message: \"`) {
		return 0, "", false, false
	}
	oom = strings.HasPrefix(rest[len(n):], `, Exit Message: \"OOM Killed\""`)
	for _, c := range n {
		code = code*10 + int(c-'0')
	}
	if j := strings.Index(t, " task="); j >= 0 {
		task = t[j+len(" task="):]
	} else if j := strings.Index(t, `"task":"`); j >= 0 {
		task = t[j+len(`"task":"`):]
	}
	if e := strings.IndexAny(task, " \","); e >= 0 {
		task = task[:e]
	}
	return code, task, oom, true
}
