package artifact

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// KindKubeEvents is an Events table of `kubectl describe node` or `describe pod` ("Type
// Reason Age From Message"), or the rows of `kubectl get events` ("LAST SEEN TYPE REASON
// OBJECT MESSAGE"): what the kubelet and the node-problem-detector recorded about the node
// or the pod.
const KindKubeEvents = "kube_events"

// KubeEvent is one row of an Events table.
type KubeEvent struct {
	Type   string `json:"type"` // Normal, Warning
	Reason string `json:"reason"`
	Age    string `json:"age,omitempty"`
	// Count and Over are the repeats the Age cell prints ("23m (x4 over 2d5h)": the event
	// happened 4 times in 2d5h, the last 23m ago; kubectl describe.go translateTimestampSince
	// and the event's count); Count is 1 when the cell has none.
	Count   int    `json:"count"`
	Over    string `json:"over,omitempty"`
	Message string `json:"message,omitempty"`
	// Victim and PID are the process a SystemOOM or CgroupOOM event names ("victim process:
	// stress, pid: 470521").
	Victim string `json:"victim,omitempty"`
	PID    int    `json:"pid,omitempty"`
}

var (
	// reKubeEventReason is an event's Reason, one CamelCase word (Evicted, SystemOOM,
	// NodeHasInsufficientMemory).
	reKubeEventReason = lazyre.New(`^[A-Z][A-Za-z]+$`)
	// reKubeAge is an event's age as kubectl prints it (duration.HumanDuration: "28s",
	// "7m48s", "2d5h", "3y"), or what it prints for a zero or future time.
	reKubeAge    = lazyre.New(`^(?:(?:\d+(?:ms|[smhdy]))+|<unknown>|<invalid>)$`)
	reKubeRepeat = lazyre.New(`\(x(\d+) over ([^)\s]+)\)`)
	// reKubeOOMVictim: the kubelet's SystemOOM and CgroupOOM messages (pkg/kubelet/oom
	// oom_watcher_linux.go: "System OOM encountered, victim process: %s, pid: %d").
	reKubeOOMVictim = lazyre.New(`OOM encountered, victim process: ([^,\s]+), pid: (\d+)`)
	// reKubeKilledProcess: the kernel's line that node-problem-detector's OOMKilling event
	// carries ("Memory cgroup out of memory: Kill process 1234 (java) score 1000 ...",
	// "Killed process 1234 (java) total-vm:...").
	reKubeKilledProcess = lazyre.New(`(?:Kill|Killed) process (\d+) \(([^)]*)\)`)
)

// kubeEventRow reads one row: its Type (Normal or Warning) is the first field (describe) or
// follows the age (get events), the Reason comes next.
func kubeEventRow(t string) (KubeEvent, bool) {
	fs := strings.Fields(t)
	if len(fs) < 3 {
		return KubeEvent{}, false
	}
	j := -1
	switch {
	case fs[0] == "Normal" || fs[0] == "Warning":
		j = 0
	case reKubeAge.MatchString(fs[0]):
		// kubectl get events: LAST SEEN, then (since 1.14) TYPE; older ones print
		// FIRSTSEEN and COUNT and more before it.
		for k := 1; k < min(len(fs)-1, 9); k++ {
			if fs[k] == "Normal" || fs[k] == "Warning" {
				j = k
				break
			}
		}
	}
	if j < 0 || j+1 >= len(fs) || !reKubeEventReason.MatchString(fs[j+1]) {
		return KubeEvent{}, false
	}
	e := KubeEvent{Type: fs[j], Reason: fs[j+1], Count: 1}
	rest := fs[j+2:]
	if j == 0 {
		// describe: Age comes next, and a row always has one.
		if len(rest) == 0 || !reKubeAge.MatchString(rest[0]) {
			return KubeEvent{}, false
		}
		e.Age = rest[0]
		rest = rest[1:]
	} else {
		e.Age = fs[0]
	}
	line := strings.Join(rest, " ")
	if m := reKubeRepeat.FindStringSubmatchIndex(line); m != nil && m[0] == 0 {
		n, _ := strconv.Atoi(line[m[2]:m[3]])
		e.Count, e.Over = max(n, 1), line[m[4]:m[5]]
		line = strings.TrimSpace(line[m[1]:])
	}
	// From (describe: "kubelet, node1", "default-scheduler"; get events: the object) and
	// the Message are told apart by the cells the row was printed in (describe: Type,
	// Reason, Age, From, Message; get events: Last Seen, Type, Reason, Object, Message); a
	// row cut before its message has fewer, and one whose columns a page collapsed to
	// single spaces has one: its Message keeps the From.
	cells := 5 // Type, Reason, Age, From, Message
	if j > 0 {
		cells = j + 4 // the columns before Type, then Type, Reason, Object, Message
	}
	switch cs := spacedCells(t); {
	case len(cs) >= cells:
		e.Message = cs[len(cs)-1]
	case len(cs) == 1:
		e.Message = line
	}
	if m := reKubeOOMVictim.FindStringSubmatch(t); m != nil {
		e.Victim = m[1]
		e.PID, _ = strconv.Atoi(m[2])
	} else if m := reKubeKilledProcess.FindStringSubmatch(t); m != nil && e.Reason == "OOMKilling" {
		e.PID, _ = strconv.Atoi(m[1])
		e.Victim = m[2]
	}
	return e, true
}

// isKubeEventsHeader: "Events:", describe's "Type Reason Age From Message", get events'
// "LAST SEEN TYPE REASON ..." (and "LASTSEEN FIRSTSEEN COUNT ..." before 1.14), and the
// dashes under describe's header.
func isKubeEventsHeader(t string) bool {
	t = strings.TrimSpace(t)
	if t == "Events:" {
		return true
	}
	fs := strings.Fields(t)
	switch {
	case len(fs) >= 5 && fs[0] == "Type" && fs[1] == "Reason" && fs[2] == "Age":
		return true
	case len(fs) >= 4 && (fs[0] == "LAST" && fs[1] == "SEEN" || fs[0] == "LASTSEEN") && strings.Contains(t, "REASON"):
		return true
	}
	return false
}

func isDashes(t string) bool {
	t = strings.TrimSpace(t)
	return t != "" && strings.Trim(t, "- \t") == ""
}

// tryKubeEvents reads an Events table from line i: its header lines, when present, and the
// rows that follow ("<none>" when there are none). The node's memory events become node
// conditions (a MemoryPressure transition, an eviction threshold met on memory), and the
// kubelet's OOM events OOM kills as it reported them (Timeline.RuntimeOOMs).
func (d *doc) tryKubeEvents(i int) int {
	k := i
	for k < len(d.ls) && k-i < 3 && (isKubeEventsHeader(d.ls[k].Text) || k > i && isDashes(d.ls[k].Text)) {
		k++
	}
	head := k - i
	var evs []KubeEvent
	first := -1
	for ; k < len(d.ls); k++ {
		t := d.ls[k].Text
		if head > 0 && len(evs) == 0 && strings.TrimSpace(t) == "<none>" {
			k++
			break
		}
		e, ok := kubeEventRow(t)
		if !ok {
			break
		}
		if first < 0 {
			first = k
		}
		if isKubeEvictedLine(t) {
			d.tryKubeEvicted(k) // the eviction message's own reading (threshold, available)
		}
		d.kubeEventFacts(e, d.ls[k].No)
		evs = append(evs, e)
	}
	if len(evs) == 0 && (head == 0 || k == i+head) {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindKubeEvents, d.ls[i].No, d.ls[k-1].No, evs)
	return k - i
}

// maxRuntimeOOMs bounds the reports kept (a paste of a long event stream); the count of the
// ones beyond goes to the last kept. The node conditions events give are bounded alike: the
// rule needs one.
const maxRuntimeOOMs = 256

// addRuntimeOOM keeps one OOM kill that Kubernetes or a container runtime reported.
func (d *doc) addRuntimeOOM(o model.RuntimeOOM) {
	o.Count = max(o.Count, 1)
	if n := len(d.tl.RuntimeOOMs); n >= maxRuntimeOOMs {
		d.tl.RuntimeOOMs[n-1].Count += o.Count
		return
	}
	d.tl.RuntimeOOMs = append(d.tl.RuntimeOOMs, o)
}

// addEventCondition keeps a condition an event gave, up to maxRuntimeOOMs; beyond, only the
// first True of its type, which is what the rule needs.
func (d *doc) addEventCondition(c model.NodeCondition) {
	if len(d.tl.NodeConditions) >= maxRuntimeOOMs && (c.Status != "True" ||
		slices.ContainsFunc(d.tl.NodeConditions, func(x model.NodeCondition) bool { return x.Type == c.Type && x.Status == "True" })) {
		return
	}
	d.tl.NodeConditions = append(d.tl.NodeConditions, c)
}

// kubeEventFacts turns the events that say something of the node's memory into the facts
// the rules read.
func (d *doc) kubeEventFacts(e KubeEvent, no int) {
	times := ""
	if e.Count > 1 {
		times = fmt.Sprintf(", %d× over %s", e.Count, e.Over)
	}
	src := fmt.Sprintf("kubectl event %s at line %d%s", e.Reason, no, times)
	switch e.Reason {
	case "NodeHasInsufficientMemory", "NodeHasSufficientMemory":
		// The kubelet's record of a MemoryPressure transition (pkg/kubelet/nodestatus
		// setters.go MemoryPressureCondition: recordEventFunc(v1.EventTypeNormal,
		// "NodeHasInsufficientMemory") when it turns True).
		st := "True"
		if e.Reason == "NodeHasSufficientMemory" {
			st = "False"
		}
		d.addEventCondition(model.NodeCondition{Type: "MemoryPressure", Status: st, Reason: e.Reason, Source: src})
	case "EvictionThresholdMet":
		// The eviction manager met a threshold and set out to reclaim the resource
		// (pkg/kubelet/eviction/eviction_manager.go synchronize: "Attempting to reclaim %s");
		// on memory, the condition it reports is MemoryPressure.
		if strings.Contains(e.Message, "reclaim memory") {
			d.addEventCondition(model.NodeCondition{Type: "MemoryPressure", Status: "True", Reason: e.Reason, Source: src})
		}
	case "SystemOOM", "CgroupOOM", "OOMKilling":
		// SystemOOM: cAdvisor's oomparser found the OOM's cgroup to be the root, the
		// killer ran for the whole node (pkg/kubelet/oom oom_watcher_linux.go); CgroupOOM:
		// another cgroup, a container at its limit. OOMKilling is node-problem-detector's
		// event, whose message is the kernel's line.
		o := model.RuntimeOOM{Reporter: "kubelet event " + e.Reason, Victim: e.Victim, PID: e.PID, Count: e.Count, Source: src}
		switch {
		case e.Reason == "SystemOOM":
			o.Scope = model.OOMScopeHost
		case e.Reason == "CgroupOOM", strings.Contains(e.Message, "Memory cgroup out of memory"):
			o.Scope = model.OOMScopeCgroup
		case strings.Contains(e.Message, "Out of memory: Kill"):
			o.Scope = model.OOMScopeHost
		}
		if e.Reason == "OOMKilling" {
			o.Reporter = "node-problem-detector event OOMKilling"
		}
		d.addRuntimeOOM(o)
	}
}

// fix39a (corpus 3283): the kubelet's SystemOOM event shown by its message alone, the Type,
// Reason and Age cells left out (a dashboard's or a chat's copy of the event, the From cell
// kept or not): "kubelet     System OOM encountered, victim process: php, pid: 27824". The
// message is the kubelet's own (pkg/kubelet/oom oom_watcher_linux.go Start: "System OOM
// encountered" with ", victim process: %s, pid: %d" when cAdvisor named the victim), and the
// kubelet records it only for an OOM whose cgroup is the root: the whole node ran out. The
// whole line must be the message, after the From cell ("kubelet" or "kubelet, NODE"): a
// sentence that quotes it ("if you see System OOM encountered, victim process: ...") or asks
// about it is not the event. A list item's bullet ("- ", "* ") may stand before it: a post
// that lists the events it saw.
var reKubeSystemOOMMessage = lazyre.New(`^(?:[-*]\s+)?(?:kubelet(?:,\s*\S+)?\s+)?System OOM encountered, victim process: ([^,\s]+), pid: (\d+)\s*$`)

// KindKubeEventMessage is a kubelet event's message shown without its Events table cells.
const KindKubeEventMessage = "kube_event_message"

func isKubeSystemOOMMessage(t string) bool {
	return strings.Contains(t, "System OOM encountered") && reKubeSystemOOMMessage.MatchString(strings.TrimSpace(t))
}

// tryKubeSystemOOMMessage reads line i as the kubelet's SystemOOM event's message.
func (d *doc) tryKubeSystemOOMMessage(i int) int {
	m := reKubeSystemOOMMessage.FindStringSubmatch(strings.TrimSpace(d.ls[i].Text))
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(m[2])
	no := d.ls[i].No
	e := KubeEvent{Type: "Warning", Reason: "SystemOOM", Count: 1, Message: strings.TrimSpace(d.ls[i].Text), Victim: m[1], PID: pid}
	d.segSeq++
	d.addArtifact(KindKubeEventMessage, no, no, []KubeEvent{e})
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: "kubelet event SystemOOM", Victim: e.Victim, PID: e.PID, Count: 1,
		Scope: model.OOMScopeHost, Source: fmt.Sprintf("kubelet event message SystemOOM at line %d", no)})
	return 1
}
