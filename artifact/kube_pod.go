package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// KindKubeTerminated is a container's terminated state as Kubernetes shows it: `kubectl
// describe pod`'s "Last State: Terminated" block, the pod's status JSON ("lastState":
// {"terminated": {...}}), or a `kubectl get pods` row whose STATUS is OOMKilled.
const KindKubeTerminated = "kube_container_terminated"

// KubeTerminated is one terminated state.
type KubeTerminated struct {
	Reason   string `json:"reason,omitempty"` // OOMKilled, Error, Completed
	ExitCode *int   `json:"exit_code,omitempty"`
	// Signal is what an exit code above 128 says: the signal that ended the process
	// (137 = 128 + 9, SIGKILL: the OOM killer's, or any kill -9).
	Signal   string `json:"signal,omitempty"`
	Finished string `json:"finished,omitempty"`
	Pod      string `json:"pod,omitempty"` // a get pods row's name
	// Container is the container's name where the line gives it (a CI runner's error).
	Container string `json:"container,omitempty"`
	// Reporter names who reported an OOMKilled state where it is not the container
	// runtime's own output (Pterodactyl Wings' crash notice); empty: the container's state.
	Reporter string `json:"-"`
	// Platform, LimitMiB and UsedMiB: a platform's own notice of a kill at a workload's
	// memory limit (platformoom.go): who (Heroku, Cloud Run, ...), the limit and the memory
	// used as the notice gives them, 0 when it does not.
	Platform string `json:"platform,omitempty"`
	LimitMiB int64  `json:"limit_mib,omitempty"`
	UsedMiB  int64  `json:"used_mib,omitempty"`
}

var (
	// The block's start: describe's "Last State: Terminated", the status JSON's
	// "terminated": {, or `kubectl get pod -o yaml`'s "terminated:" key alone on its line
	// (its fields indented below it, h31d).
	reKubeTermStart = lazyre.New(`^(?:Last State|State):\s+Terminated\b|"terminated":\s*\{|^terminated:$`)
	// The fields on the start's own line (h31d): the status JSON on one line (`kubectl get pod
	// -o json | jq -c`, the API's response) or describe's block flattened onto one line by a
	// paste ("Last State: Terminated Reason: OOMKilled Exit Code: 137"). Only the object that
	// "terminated" opens, or the fields right after "Terminated", in describe's order.
	reKubeTermJSONObj   = lazyre.New(`"terminated":\s*\{([^{}]*)\}`)
	reKubeTermJSONField = lazyre.New(`"(reason|exitCode|finishedAt)":\s*"?([^",}]*)"?`)
	reKubeTermFlat      = lazyre.New(`\bState:\s+Terminated\s+Reason:\s+([A-Za-z]+)\s+Exit Code:\s+(\d{1,3})\b`)
	reKubeTermField     = lazyre.New(`^(?:"?(reason|exitCode|finishedAt|startedAt|containerID|message|signal)"?:\s*"?([^",]*)"?,?|(Reason|Exit Code|Finished|Started|Signal|Message):\s+(.+))$`)
	// kubectl get pods: NAME READY STATUS RESTARTS AGE.
	reKubePodOOMRow = lazyre.New(`^(\S+)\s+\d+/\d+\s+OOMKilled\s+\d+`)
)

// kubePodStates reads, from the prose lines, the terminated states of containers: a reason
// of OOMKilled is the runtime's word that the container's processes were OOM-killed (an OOM
// in the container's memory cgroup, at its limit or chosen by the host's killer: the state
// does not say which); an exit code alone (137 with reason Error) is a SIGKILL, no OOM.
func (d *doc) kubePodStates() {
	ps := d.proseLines
	for k := 0; k < len(ps); k++ {
		t := strings.TrimSpace(ps[k].text)
		if m := reKubePodOOMRow.FindStringSubmatch(t); m != nil {
			d.addKubeTerminated(KubeTerminated{Reason: "OOMKilled", Pod: m[1]}, ps[k].no, ps[k].no)
			continue
		}
		oomOnly := strings.HasPrefix(t, "Reason:") && strings.HasSuffix(t, "OOMKilled")
		if !oomOnly && !reKubeTermStart.MatchString(t) && !kubeTermFlatLine(t) {
			continue
		}
		// The block's fields: the prose lines that follow it, while they are consecutive
		// and fields ("Reason: OOMKilled" is itself the first field of a block cut above it).
		s := KubeTerminated{}
		first, last := ps[k].no, ps[k].no
		if !oomOnly && kubeTermInline(t, &s) {
			d.addKubeTerminated(s, first, last)
			continue
		}
		j, prev := k+1, ps[k].no
		if oomOnly {
			j, prev = k, ps[k].no-1
		}
		for start := j; j < len(ps) && ps[j].no == prev+1 && j-start < 8; j++ {
			m := reKubeTermField.FindStringSubmatch(strings.TrimSpace(ps[j].text))
			if m == nil {
				break
			}
			name, val := m[1]+m[3], strings.TrimSpace(m[2]+m[4])
			switch name {
			case "reason", "Reason":
				s.Reason = val
			case "exitCode", "Exit Code":
				if n, err := strconv.Atoi(val); err == nil {
					s.ExitCode = &n
				}
			case "finishedAt", "Finished":
				s.Finished = val
			}
			prev, last = ps[j].no, ps[j].no
		}
		if s.Reason == "" && s.ExitCode == nil {
			continue
		}
		d.addKubeTerminated(s, first, last)
		k = max(k, j-1)
	}
}

// kubeTermFlatLine: describe's block flattened onto one line, anywhere in it (a paste that
// lost its line breaks puts the pod's name and its other fields before it
// ..., describe's own fields before it). Advice that spells the block out ("if describe
// shows Last State: Terminated Reason: OOMKilled Exit Code: 137, raise the limit") has no
// field of describe's before it.
func kubeTermFlatLine(t string) bool {
	if !strings.Contains(t, "Terminated") || !strings.Contains(t, "Exit Code:") {
		return false
	}
	loc := reKubeTermFlat.FindStringIndex(t)
	if loc == nil {
		return false
	}
	head := strings.TrimSpace(t[:loc[0]])
	head = strings.TrimSuffix(head, "Last")
	if strings.TrimSpace(head) == "" {
		return true
	}
	for _, f := range [...]string{"Name:", "Containers:", "Container ID:", "Image:", "Image ID:", "State:", "Started:", "Ready:", "Port:"} {
		if strings.Contains(head, f) {
			return true
		}
	}
	return false
}

// kubeTermInline reads the terminated state's fields from its start's own line: the JSON
// object "terminated" opens, or describe's flattened "State: Terminated Reason: R Exit Code:
// N". It says whether the line held them.
func kubeTermInline(t string, s *KubeTerminated) bool {
	if strings.Contains(t, `"terminated"`) {
		m := reKubeTermJSONObj.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		for _, f := range reKubeTermJSONField.FindAllStringSubmatch(m[1], -1) {
			switch f[1] {
			case "reason":
				s.Reason = f[2]
			case "exitCode":
				s.ExitCode = atoiPtr(strings.TrimSpace(f[2]))
			case "finishedAt":
				s.Finished = f[2]
			}
		}
		return s.Reason != "" || s.ExitCode != nil
	}
	m := reKubeTermFlat.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	s.Reason, s.ExitCode = m[1], atoiPtr(m[2])
	return s.ExitCode != nil
}

func (d *doc) addKubeTerminated(s KubeTerminated, first, last int) {
	if s.ExitCode != nil && *s.ExitCode > 128 && *s.ExitCode < 128+65 {
		s.Signal = fmt.Sprintf("signal %d", *s.ExitCode-128)
		if *s.ExitCode == 137 {
			s.Signal = "SIGKILL (128+9): the OOM killer's signal, or any kill -9"
		}
	}
	d.addArtifact(KindKubeTerminated, first, last, s)
	if s.Reason != "OOMKilled" {
		return
	}
	// The runtime sets OOMKilled when the container's cgroup reported an OOM kill
	// (containerd's TaskOOM, docker's State.OOMKilled); v2's memory.events oom_kill counts
	// kills by any OOM killer, so the state does not say whether the host or the cgroup ran
	// out.
	name := s.Pod
	if s.Container != "" {
		name = s.Container
	}
	reporter := "the container's state (Reason: OOMKilled)"
	if s.Reporter != "" {
		reporter = s.Reporter
	}
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: reporter, Container: name,
		Source: fmt.Sprintf("container state at line %d", first)})
}

// The kubelet's log of an OOM (cAdvisor's manager.go: "Created an OOM event in container %q
// at %v", the container being the victim's cgroup; the kubelet's oom watcher: "Got sys oom
// event", a SystemOOM). The victim's cgroup "/" is the root, which has no limit: the host ran
// out.
var (
	reKubeletOOMEvent    = lazyre.New(`Created an OOM event(?: in container "([^"]*)")?`)
	reKubeletSysOOMEvent = lazyre.New(`Got sys oom event`)
)

// kubeletOOMLine reads line i as a kubelet klog line that reports an OOM.
func (d *doc) kubeletOOMLine(i int) bool {
	msg, ok := klogMessage(d.ls[i].Text)
	if !ok {
		return false
	}
	no := d.ls[i].No
	o := model.RuntimeOOM{Source: fmt.Sprintf("kubelet log line %d", no)}
	if m := reKubeletOOMEvent.FindStringSubmatch(msg); m != nil {
		o.Reporter = "the kubelet's cAdvisor (Created an OOM event)"
		if m[1] == "/" {
			o.Scope = model.OOMScopeHost
		} else if m[1] != "" {
			o.Container = m[1]
		}
	} else if reKubeletSysOOMEvent.MatchString(msg) {
		o.Reporter, o.Scope = "the kubelet's OOM watcher (Got sys oom event)", model.OOMScopeHost
	} else {
		return false
	}
	d.segSeq++
	d.addArtifact(KindKubeletOOM, no, no, map[string]any{"message": msg, "reporter": o.Reporter})
	d.addRuntimeOOM(o)
	return true
}

// KindKubeletOOM is a kubelet log line that reports an OOM (kubeletOOMLine).
const KindKubeletOOM = "kubelet_oom"

func (d *doc) tryKubeletOOM(i int) int {
	if d.kubeletOOMLine(i) {
		return 1
	}
	return 0
}

// A container's terminated state as the Kubernetes Python client prints it (h42a): its
// models' to_str is pprint.pformat(to_dict()) with the Python attribute names
// (kubernetes-client/python, kubernetes/client/models/v1_container_state_terminated.py:
// container_id, exit_code, finished_at, message, reason, signal, started_at), so Airflow's
// KubernetesPodOperator and KubernetesExecutor logs, which print the failed pod's V1Pod,
// hold "'terminated': {'container_id': ..., 'exit_code': 137, ..., 'reason': 'OOMKilled',
// ...}" over several lines, the pod's container status at first hand: the same state as
// describe's block. 'terminated': None is no state.
var (
	reKubePyTermStart = lazyre.New(`'terminated': \{'`)
	reKubePyExitCode  = lazyre.New(`'exit_code': (\d{1,3})\b`)
	reKubePyReason    = lazyre.New(`'reason': '([A-Za-z]{1,40})'`)
	reKubePyName      = lazyre.New(`^\s*'name': '([^']{1,100})',?\s*$`)
)

// kubePyReprState reads line i, a prose line, as the start of a Python client's terminated
// state (above), with the object's lines below it in the segment; true when it did.
func (d *doc) kubePyReprState(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "'terminated': {") {
		return false
	}
	loc := reKubePyTermStart.FindStringIndex(t)
	if loc == nil {
		return false
	}
	// The object from its brace to the brace that closes it, at most 12 lines on.
	var b strings.Builder
	depth, j := 0, i
	closed := false
scan:
	for ; j < len(d.ls) && j <= i+12; j++ {
		s := d.ls[j].Text
		if j == i {
			s = s[loc[1]-2:]
		}
		for k := 0; k < len(s); k++ {
			switch s[k] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					b.WriteString(s[:k])
					closed = true
					break scan
				}
			}
		}
		b.WriteString(s)
		b.WriteByte(' ')
	}
	if !closed {
		return false
	}
	obj := b.String()
	s := KubeTerminated{}
	if m := reKubePyReason.FindStringSubmatch(obj); m != nil {
		s.Reason = m[1]
	}
	if m := reKubePyExitCode.FindStringSubmatch(obj); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			s.ExitCode = &n
		}
	}
	if s.Reason == "" && s.ExitCode == nil {
		return false
	}
	for k := i - 1; k >= 0 && k >= i-10; k-- {
		if m := reKubePyName.FindStringSubmatch(d.ls[k].Text); m != nil {
			s.Container = m[1] // the container status's name, sorted before its state
			break
		}
	}
	for k := i; k <= j; k++ {
		d.used[k] = true
	}
	d.addKubeTerminated(s, d.ls[i].No, d.ls[j].No)
	return true
}
