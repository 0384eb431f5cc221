package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// A container's terminated state as a CI runner and a container engine print it (fix23a,
// corpus case 2042).
//
// GitLab Runner's Kubernetes executor fails a job whose build, helper or service container
// terminated with the error its podContainerError formats (executors/kubernetes):
// "Error in container %s: exit code: %d, reason: '%s'", alone or after the job's status
// ("ERROR: Job failed (system failure): Error in container build: exit code: 137, reason:
// 'OOMKilled'"). The reason and exit code are the container status's
// state.terminated.reason and exitCode: the same evidence as kubectl describe's "Reason:
// OOMKilled / Exit Code: 137" block (kube_pod.go), so a reason of OOMKilled is a runtime OOM
// (host or memory cgroup not said) and any other reason with 137 a SIGKILL, no OOM.
//
// docker inspect's State object holds the same bit as "OOMKilled": true (moby's
// container.State, set from containerd's TaskOOM event), on a line of its own in the
// indented output or inside `docker inspect --format '{{json .State}}'`'s one line.
//
// Nomad's task event for the same bit (its docker and exec drivers' oom_killed):
// "Exit Code: 137, Exit Message: \"OOM Killed\"" (Nomad writes it for Terminated events only)
// as the Description of `nomad alloc status`'s Recent Events row (the row's RFC 3339 time and
// its Type read as a log line's stamp and tag: the description is another program's
// message), or as the event's DisplayMessage field. Amazon
// ECS's container reason "OutOfMemoryError: Container killed due to memory usage" (the ECS
// agent's, from docker's State.OOMKilled) as describe-tasks' "reason" field or the console's
// "Stopped reason".
//
// Flyte's task error (fix34c; flyteplugins pod_helper.go ConvertPodFailureToError, shown in
// its console and by flytectl): "[NAME] terminated with exit code (137). Reason [Error].
// Message:" per container, the same state again: Reason [OOMKilled] an OOM, another reason
// with 137 a SIGKILL. A sentence about it ("the task terminated with exit code (137)") has
// no container's name in brackets at the line's start.
//
// A paste that lost its line breaks (h31d) puts docker inspect's State object on one line
// after its "State": key, its fields spaced as the indented output has them, and Nomad's
// Recent Events table on one line, the event's Type "Terminated" before its description:
// both read as the one-line forms do.
//
// fix43a (corpus 3629): the field as the person who ran docker inspect reports it, at the end
// of a sentence that names the command and what it printed, after a colon ("a docker inspect
// gave me :  \"OOMKilled\": true", "docker inspect shows: ..."): the output quoted, the same
// bit. Not a lead-in that asks, advises or supposes (should, check, if, whether, ...).
//
// Counter-cases, not read: the line quoted in a sentence or advice ("we get Error in
// container build: ...", "If you see ..."), "OOMKilled": false, and the key named in a
// sentence ("check \"OOMKilled\": true in docker inspect").
var (
	reRunnerContainerError = lazyre.New(`^(?:ERROR: Job failed(?: \([^)]*\))?: )?Error in container (\S+): exit code: (\d+), reason: '([A-Za-z]*)'`)
	reDockerStateOOM       = lazyre.New(`^(?:"OOMKilled":\s*true,?|(?:.*"State":\s*)?\{\s*"Status":\s*"[a-z]+",.*"OOMKilled":\s*true\b.*)$`)
	reDockerInspectSaid    = lazyre.New(`(?i)^(?:[^"?]{0,80}\s)?docker (?:container )?inspect\b[^"?]{0,60}?\b(?:gave|gives|give|shows?|showed|shown|says|said|returns?|returned|reports?|reported|prints?|printed|outputs?|tells?|told)(?: me| us)?\s*:\s*"OOMKilled":\s*true,?$`)
	reDockerInspectNotSaid = lazyre.New(`(?i)\b(?:should|would|could|might|may|must|if|whether|when|check|look|looking|make sure|expect|expected|does|do|did|not|never|no longer)\b`)
	reDockerExitCode       = lazyre.New(`"ExitCode":\s*(\d+)`)
	reDockerStateNoOOM     = lazyre.New(`^(?:"OOMKilled":\s*false,?|(?:.*"State":\s*)?\{\s*"Status":\s*"([a-z]+)",.*"OOMKilled":\s*false\b.*)$`)
	reDockerStatus         = lazyre.New(`^"Status":\s*"([a-z]+)",?$`)
	reNomadOOMEvent        = lazyre.New(`^(?:.*\bTerminated\s+)?(?:Exit Code: (\d+), Exit Message: "OOM Killed"|"?DisplayMessage"?:\s*['"]Exit Code: (\d+), Exit Message: \\?"OOM Killed\\?"['"],?)$`)
	reWingsOOM             = lazyre.New(`^(?:\[[A-Za-z]+ Daemon\]:?\s*)?Out of memory: (true|false)$`)
	reWingsExitCode        = lazyre.New(`^(?:\[[A-Za-z]+ Daemon\]:?\s*)?Exit code: (\d+)$`)
	reFlyteTerminated      = lazyre.New(`^\[([^\]\s]{1,253})\] terminated with exit code \((\d{1,3})\)\. Reason \[([A-Za-z]*)\]\. Message:`)
	reECSOOMReason         = lazyre.New(`^(?:"(?:reason|stoppedReason)":\s*"|(?:Stopped reason|Reason):\s+)OutOfMemoryError: [Cc]ontainer killed due to memory usage\b`)
)

// runnerContainerStates reads, from the prose lines, the runners' and docker's terminated
// states (cheap tests on a fixed string before any regexp).
func (d *doc) runnerContainerStates() {
	ps := d.proseLines
	for k, p := range ps {
		t := strings.TrimSpace(p.text)
		if strings.Contains(t, "Error in container ") {
			m := reRunnerContainerError.FindStringSubmatch(t)
			if m == nil {
				continue
			}
			code, err := strconv.Atoi(m[2])
			if err != nil || code > 255 {
				continue
			}
			d.addKubeTerminated(KubeTerminated{Reason: m[3], ExitCode: &code, Container: m[1]}, p.no, p.no)
			continue
		}
		if strings.Contains(t, "] terminated with exit code (") {
			// Flyte's task error (flyteplugins pod_helper.go ConvertPodFailureToError): one
			// line per terminated container, "[NAME] terminated with exit code (N). Reason
			// [R]. Message:", the container status's terminated state as kubectl shows it.
			if m := reFlyteTerminated.FindStringSubmatch(t); m != nil && !d.exampleLines[p.no] {
				d.addKubeTerminated(KubeTerminated{Reason: m[3], ExitCode: atoiPtr(m[2]), Container: m[1]}, p.no, p.no)
				if m[2] == "137" && m[3] != "OOMKilled" {
					d.addSigkillNoticeNo(p.no, "Flyte's task error (container "+m[1]+" terminated with exit code 137, reason "+m[3]+")")
				}
			}
			continue
		}
		if strings.Contains(t, "OOM Killed") {
			if m := reNomadOOMEvent.FindStringSubmatch(t); m != nil {
				d.addKubeTerminated(KubeTerminated{Reason: "OOMKilled", ExitCode: atoiPtr(m[1] + m[2])}, p.no, p.no)
			} else {
				d.nomadTaskEvent(t, p.no)
			}
			continue
		}
		if strings.Contains(t, "Task event") {
			d.nomadTaskEvent(t, p.no) // Nomad's hclog "Task event" record without the OOM bit (clusteragent.go)
			continue
		}
		if strings.Contains(t, "OutOfMemoryError: ") {
			if reECSOOMReason.MatchString(t) {
				d.addKubeTerminated(KubeTerminated{Reason: "OOMKilled"}, p.no, p.no)
			}
			continue
		}
		if strings.HasPrefix(t, "Out of memory: ") || strings.Contains(t, "Daemon]") && strings.Contains(t, "Out of memory: ") {
			if s, first, ok := wingsCrashState(ps, k, t); ok && !d.exampleLines[p.no] {
				d.addKubeTerminated(s, first, p.no)
			}
			continue
		}
		if !strings.Contains(t, `"OOMKilled":`) || d.exampleLines[p.no] {
			continue
		}
		if m := reDockerInspectSaid.FindStringIndex(t); m != nil && !reDockerInspectNotSaid.MatchString(t[:strings.LastIndex(t, `"OOMKilled"`)]) {
			d.addKubeTerminated(KubeTerminated{Reason: "OOMKilled", Reporter: "docker inspect's State.OOMKilled, as its output is quoted"}, p.no, p.no)
			continue
		}
		if !reDockerStateOOM.MatchString(t) {
			if s, last, ok := dockerStateNoOOM(ps, k, t); ok {
				d.addKubeTerminated(s, p.no, last)
			}
			continue
		}
		s := KubeTerminated{Reason: "OOMKilled"}
		last := p.no
		// The exit code: in the one-line object, or a few consecutive fields below
		// (Dead, Pid, ExitCode follow OOMKilled in the State object).
		if m := reDockerExitCode.FindStringSubmatch(t); m != nil {
			s.ExitCode = atoiPtr(m[1])
		} else {
			for j := k + 1; j < len(ps) && j <= k+4 && ps[j].no == ps[j-1].no+1; j++ {
				if m := reDockerExitCode.FindStringSubmatch(ps[j].text); m != nil {
					s.ExitCode, last = atoiPtr(m[1]), ps[j].no
					break
				}
			}
		}
		d.addKubeTerminated(s, p.no, last)
	}
	for _, p := range d.otherLines {
		if t := strings.TrimSpace(p.text); strings.HasSuffix(t, `"OOM Killed"`) {
			if m := reNomadOOMEvent.FindStringSubmatch(t); m != nil {
				d.addKubeTerminated(KubeTerminated{Reason: "OOMKilled", ExitCode: atoiPtr(m[1] + m[2])}, p.no, p.no)
			}
		} else if strings.Contains(t, "Task event") {
			d.nomadTaskEvent(t, p.no) // Nomad's hclog "Task event" record (clusteragent.go)
		}
	}
}

// nomadTaskEvent adds Nomad's logged event of a terminated task as the task's state: the
// driver's OOM kill, or a signal's exit (above 128) without it, a SIGKILL no OOM (as a
// container's state with another reason is).
func (d *doc) nomadTaskEvent(t string, no int) {
	code, task, oom, ok := nomadTaskEventTerminated(t)
	if !ok || d.exampleLines[no] || !oom && code <= 128 {
		return
	}
	reason := "OOMKilled"
	if !oom {
		reason = "Error"
	}
	d.addKubeTerminated(KubeTerminated{Reason: reason, ExitCode: &code, Container: task}, no, no)
}

// Pterodactyl's Wings (and its forks, Pelican's) reports a game server's container that
// stopped unexpectedly in the server's console (server/crash.go handleServerCrash):
// "---------- Detected server process in a crashed state! ----------", "Exit code: %d",
// "Out of memory: %t", each published by PublishConsoleOutputFromDaemon with the prefix
// "[Pterodactyl Daemon]:" (the panel's name; whitelabelled panels replace it). The code and
// the bit are the environment's ExitState: docker's State.ExitCode and State.OOMKilled (h23a).
// So "Out of memory: true" is the container runtime's OOMKilled (a memory-cgroup or host OOM
// kill reached the container), and "Out of memory: false" a crash without one, whatever the
// exit code (137 is any SIGKILL: a stop after the grace period, a kill -9).
//
// Read only as the block: the "Out of memory" line right after its "Exit code: N" line (the
// prefix the same or absent on both), the whole line each. Counter-cases: a sentence ("it says
// Out of memory: true in the console"), the kernel's "Out of memory: Killed process N" (not
// true/false), an "Out of memory: true" without the exit code above it.
func wingsCrashState(ps []proseLine, k int, t string) (KubeTerminated, int, bool) {
	m := reWingsOOM.FindStringSubmatch(t)
	if m == nil || k == 0 || ps[k-1].no != ps[k].no-1 {
		return KubeTerminated{}, 0, false
	}
	c := reWingsExitCode.FindStringSubmatch(strings.TrimSpace(ps[k-1].text))
	if c == nil {
		return KubeTerminated{}, 0, false
	}
	code := atoiPtr(c[1])
	if code == nil {
		return KubeTerminated{}, 0, false
	}
	s := KubeTerminated{ExitCode: code}
	if m[1] == "true" {
		s.Reason, s.Reporter = "OOMKilled", "Pterodactyl Wings' crash notice (Out of memory: true, docker's State.OOMKilled)"
	}
	return s, ps[k-1].no, true
}

// dockerStateNoOOM reads docker inspect's State object of a container that ended without an
// OOM kill (fix24c): "OOMKilled": false beside its "ExitCode", on the line of its own in the
// indented output (Dead, Pid, ExitCode follow it; Status comes four lines above) or in
// `docker inspect --format '{{json .State}}'`'s one line. The runtime records the bit from
// the container's cgroup OOM events, so false says no OOM kill reached it, whatever its
// exit code (137 is any SIGKILL). Only a container that ended: Status "exited" or "dead",
// or, where the paste cut the Status, an exit code other than 0 (a running container's
// State reads "ExitCode": 0). A sentence naming the key ("it says \"OOMKilled\": false")
// is no State object: the field must be the whole line.
func dockerStateNoOOM(ps []proseLine, k int, t string) (KubeTerminated, int, bool) {
	m := reDockerStateNoOOM.FindStringSubmatch(t)
	if m == nil {
		return KubeTerminated{}, 0, false
	}
	status, last := m[1], ps[k].no
	var code *int
	if c := reDockerExitCode.FindStringSubmatch(t); c != nil {
		code = atoiPtr(c[1])
	} else {
		for j := k + 1; j < len(ps) && j <= k+4 && ps[j].no == ps[j-1].no+1; j++ {
			if c := reDockerExitCode.FindStringSubmatch(ps[j].text); c != nil {
				code, last = atoiPtr(c[1]), ps[j].no
				break
			}
		}
		for j := k - 1; status == "" && j >= 0 && j >= k-5 && ps[j].no == ps[j+1].no-1; j-- {
			if c := reDockerStatus.FindStringSubmatch(strings.TrimSpace(ps[j].text)); c != nil {
				status = c[1]
			}
		}
	}
	if code == nil || !(status == "exited" || status == "dead" || status == "" && *code != 0) {
		return KubeTerminated{}, 0, false
	}
	return KubeTerminated{ExitCode: code}, last, true
}

func atoiPtr(s string) *int {
	n, err := strconv.Atoi(s)
	if err != nil || n > 255 {
		return nil
	}
	return &n
}
