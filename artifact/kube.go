package artifact

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Kubernetes text pasted into node-pressure tickets: the kubelet's eviction manager log
// lines and the Conditions rows of `kubectl describe node`. They say what the kubelet
// measured and decided; the kernel's own numbers come from the other artifacts.
const (
	KindKubeletEviction = "kubelet_eviction" // eviction manager log lines (klog)
	KindKubeNodeCond    = "kube_node_conditions"
	KindKubeAllocated   = "kube_allocated" // kubectl describe node's "Allocated resources"
	KindKubeEvicted     = "kube_evicted"   // the kubelet's eviction message on a pod or event
)

// KubeletEvictionLog is a run of the kubelet eviction manager's log lines.
type KubeletEvictionLog struct {
	Observations []KubeletObservation `json:"observations,omitempty"`
	// Conditions are the node conditions the manager reported ("node conditions -
	// observed: [MemoryPressure]").
	Conditions []string `json:"conditions,omitempty"`
	// Unobserved are the signals the manager has a threshold for but no observation of
	// ("eviction manager: no observation found for eviction signal
	// allocatableMemory.available", pkg/kubelet/eviction/helpers.go): it cannot evict on
	// them, and they say nothing about the node's memory.
	Unobserved []string `json:"unobserved,omitempty"`
	// Reclaiming are the resources the manager set out to reclaim ("eviction manager:
	// attempting to reclaim memory", since 1.19 '"Eviction manager: attempting to reclaim"
	// resourceName="memory"'): it does so only when a threshold of that resource is met,
	// the condition it reports as MemoryPressure (pkg/kubelet/eviction/eviction_manager.go
	// synchronize). Evicted are the pods it says it evicted.
	Reclaiming []string `json:"reclaiming,omitempty"`
	Evicted    []string `json:"evicted,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// reKubeletUnobserved is the manager's line for a signal it could not observe.
var reKubeletUnobserved = lazyre.New(`no observation found for eviction signal ([\w.]+)`)

// KubeletObservation is one "threshold [signal=S, quantity=Q] observed V" line.
type KubeletObservation struct {
	Line      int    `json:"line"`
	Signal    string `json:"signal"`
	Threshold string `json:"threshold"`
	Observed  string `json:"observed"`
	// ObservedKiB is Observed resolved to KiB (the unit the kubelet prints memory in), for
	// the memory signals; nil when it is not a byte quantity.
	ObservedKiB *int64 `json:"observed_kib,omitempty"`
	// Capacity is what an "observations:" line gives the signal's total as ("65973468Ki",
	// "204700Mi", an inode count); CapacityKiB it in KiB for byte quantities. Empty when the
	// line is a threshold line or was cut before its time.
	Capacity    string `json:"capacity,omitempty"`
	CapacityKiB *int64 `json:"capacity_kib,omitempty"`
	// ObservedCount and CapacityCount are a count signal's (inodesFree, pid.available).
	ObservedCount *int64 `json:"observed_count,omitempty"`
	CapacityCount *int64 `json:"capacity_count,omitempty"`
}

// The eviction manager's observation, as pkg/kubelet/eviction/helpers.go
// (debugLogThresholdsWithObservation) prints it through klog:
// "eviction manager: thresholds - updated stats: threshold [signal=memory.available,
// quantity=100Mi] observed -2097758044639028Ki".
var (
	reKubeletObservation = lazyre.New(`threshold \[signal=([\w.]+), quantity=([^\]\s]+)\] observed (\S+)`)
	// At -v=4 (debugLogObservations): "eviction manager: observations: signal=memory.available,
	// available: 60489772Ki, capacity: 65973468Ki, time: 2021-12-15 ...": what the manager
	// measured, without a threshold.
	reKubeletObservations = lazyre.New(`observations: signal=([\w.]+), available: (-?[\d.]+[A-Za-z]*)(?:, capacity: (-?[\d.]+[A-Za-z]*), time: )?`)
	reKubeletConditions   = lazyre.New(`node conditions - observed: \[([^\]]*)\]`)
)

// isKlogHeader: klog's "Lmmdd hh:mm:ss.uuuuuu threadid file:line] " (k8s.io/klog
// formatHeader): a severity letter, then month and day.
func isKlogHeader(ft string) bool {
	return len(ft) == 5 && strings.IndexByte("IWEF", ft[0]) >= 0 && isDigits(ft[1:])
}

// klogMessage returns the message after klog's header, or false.
func klogMessage(t string) (string, bool) {
	t = strings.TrimSpace(t)
	if !isKlogHeader(firstField(t)) {
		return "", false
	}
	end := strings.Index(t, "] ")
	if end < 0 {
		return "", false
	}
	return t[end+2:], true
}

func isEvictionManagerLine(t string) bool {
	m, ok := klogMessage(t)
	return ok && strings.HasPrefix(strings.ToLower(strings.TrimPrefix(m, `"`)), "eviction manager:")
}

var (
	// reKubeletReclaim: "eviction manager: attempting to reclaim memory", "must evict
	// pod(s) to reclaim memory", and the structured form of 1.19+ with resourceName="memory".
	reKubeletReclaim = lazyre.New(`(?i)eviction manager: (?:attempting to reclaim|must evict pod\(s\) to reclaim)(?:\s+([\w-]+)|"\s+resourceName="([\w-]+)")`)
	// reKubeletEvicted: "eviction manager: pod web_default(uid) is evicted successfully",
	// '"Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=["default/web"]'.
	reKubeletEvicted     = lazyre.New(`(?i)eviction manager: pod (\S+) is evicted successfully`)
	reKubeletEvictedPods = lazyre.New(`(?i)eviction manager: pods evicted[^"]*" pods=\[([^\]]*)\]`)
)

// tryKubeletEviction reads the eviction manager lines from line i on. The memory threshold
// they print becomes the Timeline's kubelet threshold when nothing else gave one (a live
// host's configuration wins): the kubelet-eviction-below-reserve rule compares it with
// vm.min_free_kbytes.
func (d *doc) tryKubeletEviction(i int) int {
	k := i
	var ev KubeletEvictionLog
	negative := false
	for k < len(d.ls) && isEvictionManagerLine(d.ls[k].Text) {
		msg, _ := klogMessage(d.ls[k].Text)
		if m := reKubeletObservation.FindStringSubmatch(msg); m != nil {
			o := KubeletObservation{Line: d.ls[k].No, Signal: m[1], Threshold: m[2], Observed: m[3]}
			sig := model.KubeletSignal{Signal: o.Signal, Threshold: o.Threshold, Observed: o.Observed, Source: fmt.Sprintf("kubelet log line %d", o.Line)}
			if strings.HasPrefix(o.Signal, "memory.") || strings.HasPrefix(o.Signal, "allocatableMemory.") {
				if b, ok := kubeQuantityBytes(o.Observed); ok {
					kib := b / 1024
					o.ObservedKiB = &kib
					negative = negative || b < 0
					sig.ObservedBytes = &b
				}
				if b, ok := kubeQuantityBytes(o.Threshold); ok && !strings.HasSuffix(o.Threshold, "%") {
					sig.ThresholdBytes = &b
				}
				if o.Signal == "memory.available" && d.tl.Kubelet == nil && !strings.HasSuffix(o.Threshold, "%") {
					if b, ok := kubeQuantityBytes(o.Threshold); ok && b >= 0 {
						d.tl.Kubelet = &model.KubeletEviction{Threshold: o.Threshold, Bytes: b,
							Source: fmt.Sprintf("kubelet log line %d (eviction manager threshold; the log does not say hard or soft)", o.Line)}
					}
				}
			}
			ev.Observations = append(ev.Observations, o)
			d.tl.KubeletSignals = append(d.tl.KubeletSignals, sig)
		} else if m := reKubeletObservations.FindStringSubmatch(msg); m != nil {
			o := KubeletObservation{Line: d.ls[k].No, Signal: m[1], Observed: m[2], Capacity: m[3]}
			if strings.HasSuffix(o.Signal, ".available") && o.Signal != "pid.available" {
				o.ObservedKiB, o.CapacityKiB = kubeQuantityKiB(o.Observed), kubeQuantityKiB(o.Capacity)
			} else {
				// inodesFree, pid.available: counts.
				if v, ok := atoi(o.Observed); ok {
					o.ObservedCount = &v
				}
				if v, ok := atoi(o.Capacity); ok {
					o.CapacityCount = &v
				}
			}
			if o.ObservedKiB != nil && *o.ObservedKiB < 0 && (strings.HasPrefix(o.Signal, "memory.") || strings.HasPrefix(o.Signal, "allocatableMemory.")) {
				// Below zero is the impossible reading kubelet-eviction-signal names, threshold
				// or not.
				b := *o.ObservedKiB * 1024
				negative = true
				d.tl.KubeletSignals = append(d.tl.KubeletSignals, model.KubeletSignal{Signal: o.Signal, Observed: o.Observed, ObservedBytes: &b,
					Source: fmt.Sprintf("kubelet log line %d (eviction manager observations)", o.Line)})
			}
			ev.Observations = append(ev.Observations, o)
		} else if m := reKubeletUnobserved.FindStringSubmatch(msg); m != nil {
			if !slices.Contains(ev.Unobserved, m[1]) {
				ev.Unobserved = append(ev.Unobserved, m[1])
			}
		} else if m := reKubeletReclaim.FindStringSubmatch(msg); m != nil {
			res := strings.ToLower(m[1] + m[2])
			if !slices.Contains(ev.Reclaiming, res) {
				ev.Reclaiming = append(ev.Reclaiming, res)
				if res == "memory" {
					d.tl.NodeConditions = append(d.tl.NodeConditions, model.NodeCondition{Type: "MemoryPressure", Status: "True",
						Source: fmt.Sprintf("kubelet log line %d (eviction manager reclaiming memory: a memory threshold was met)", d.ls[k].No)})
				}
			}
		} else if m := reKubeletEvicted.FindStringSubmatch(msg); m != nil {
			ev.Evicted = append(ev.Evicted, m[1])
		} else if m := reKubeletEvictedPods.FindStringSubmatch(msg); m != nil {
			for _, p := range strings.Split(m[1], ",") {
				if p = strings.Trim(strings.TrimSpace(p), `"`); p != "" {
					ev.Evicted = append(ev.Evicted, p)
				}
			}
		} else if m := reKubeletConditions.FindStringSubmatch(msg); m != nil {
			// The eviction manager lists the conditions it observes as met: each is True.
			for _, c := range strings.Fields(m[1]) {
				ev.Conditions = append(ev.Conditions, c)
				d.tl.NodeConditions = append(d.tl.NodeConditions, model.NodeCondition{Type: c, Status: "True",
					Source: fmt.Sprintf("kubelet log line %d (eviction manager: node conditions - observed)", d.ls[k].No)})
			}
		}
		k++
	}
	if k == i || len(ev.Observations) == 0 && len(ev.Conditions) == 0 && len(ev.Unobserved) == 0 && len(ev.Reclaiming) == 0 && len(ev.Evicted) == 0 {
		return 0
	}
	if negative {
		// memory.available is the node's capacity minus the working set of the root
		// cgroup (pkg/kubelet/eviction/helpers.go makeSignalObservations, from the
		// summary API's node memory stats): below zero, the working set read was larger
		// than the machine, a broken statistics reading and not memory the kernel lacks.
		ev.Note = "memory.available observed below zero: impossible for the node's memory; the kubelet's stats reading was wrong (working set above capacity), so its MemoryPressure and evictions are not evidence of a kernel memory shortage"
	}
	d.segSeq++
	d.addArtifact(KindKubeletEviction, d.ls[i].No, d.ls[k-1].No, ev)
	return k - i
}

// KubeEvicted is the message the kubelet puts on a pod it evicted (its status.message, the
// "Evicted" event, `kubectl describe pod`'s Message:, a jsonpath print of them):
// "The node was low on resource: memory. Threshold quantity: 100Mi, available: 95Mi."
// (pkg/kubelet/eviction/helpers.go nodeLowMessageFmt and thresholdMetMessageFmt; kubelets
// before 1.19 print no threshold). Resource is the one the manager was reclaiming: memory,
// ephemeral-storage, pids; only memory says anything about the node's memory.
type KubeEvicted struct {
	Resource  string `json:"resource,omitempty"`
	Threshold string `json:"threshold,omitempty"`
	Available string `json:"available,omitempty"`
	// ThresholdKiB and AvailableKiB are the quantities in KiB (the unit the kubelet prints
	// memory and storage in); nil when not a byte quantity (pids).
	ThresholdKiB *int64 `json:"threshold_kib,omitempty"`
	AvailableKiB *int64 `json:"available_kib,omitempty"`
	// Containers are the message's "Container C was using 2456Ki, request is 0" parts
	// (containerMessageFmt), one per container the kubelet ranked.
	Containers []KubeEvictedContainer `json:"containers,omitempty"`
	// Conditions are the node conditions an admission refusal names ("The node had
	// condition: [MemoryPressure]."), which carries no resource of its own.
	Conditions []string `json:"conditions,omitempty"`
}

// KubeEvictedContainer is one container an eviction message names.
type KubeEvictedContainer struct {
	Name     string `json:"name"`
	Using    string `json:"using"`
	UsingKiB *int64 `json:"using_kib,omitempty"`
	Request  string `json:"request"`
}

var reKubeEvictedContainer = lazyre.New(`Container (\S+) was using (-?[\d.]+[A-Za-z]*), (?:request is|which exceeds its request of) ([^,.\s]+(?:\.\d+)?[A-Za-z]*)`)

// kubeQuantityKiB is a quantity in KiB, for the artifact; false when it is not one.
func kubeQuantityKiB(q string) *int64 {
	if strings.HasSuffix(q, "%") {
		return nil
	}
	b, ok := kubeQuantityBytes(q)
	if !ok {
		return nil
	}
	kib := b / 1024
	return &kib
}

var reKubeEvicted = lazyre.New(`The node was low on resource: ([\w-]+)\.(?:\s*Threshold quantity: ([^,\s]+), available: (-?[\d.]+[A-Za-z]*))?`)

// reKubeNodeHadCondition is the message of a pod the kubelet's eviction admission refused
// (pkg/kubelet/eviction/helpers.go nodeConditionMessageFmt, "The node had condition: %v. "):
// the conditions the node was under, printed as a Go slice.
var reKubeNodeHadCondition = lazyre.New(`The node had condition: \[([A-Za-z ]+)\]`)

func isKubeEvictedLine(t string) bool {
	return strings.Contains(t, "was low on resource: ") || strings.Contains(t, "had condition: [")
}

// tryKubeEvicted reads the eviction message a line holds, wherever in the line (after an
// event's "Warning Evicted 28s kubelet", after "Message:", after a pod name and tabs). A
// memory message is the kubelet's observation of memory.available against the threshold it
// crossed, as its eviction manager's own log line would be (tryKubeletEviction).
func (d *doc) tryKubeEvicted(i int) int {
	m := reKubeEvicted.FindStringSubmatch(d.ls[i].Text)
	if m == nil {
		return d.tryKubeNodeHadCondition(i)
	}
	e := KubeEvicted{Resource: m[1], Threshold: m[2], Available: m[3]}
	if e.Resource != "pids" {
		if e.Threshold != "" {
			e.ThresholdKiB, e.AvailableKiB = kubeQuantityKiB(e.Threshold), kubeQuantityKiB(e.Available)
		}
		for _, c := range reKubeEvictedContainer.FindAllStringSubmatch(d.ls[i].Text, -1) {
			e.Containers = append(e.Containers, KubeEvictedContainer{Name: c[1], Using: c[2], UsingKiB: kubeQuantityKiB(c[2]), Request: c[3]})
		}
	}
	no := d.ls[i].No
	if e.Resource == "memory" && e.Threshold != "" {
		sig := model.KubeletSignal{Signal: "memory.available", Threshold: e.Threshold, Observed: e.Available,
			Source: fmt.Sprintf("line %d (the kubelet's eviction message on a pod)", no)}
		if b, ok := kubeQuantityBytes(e.Available); ok {
			sig.ObservedBytes = &b
		}
		if b, ok := kubeQuantityBytes(e.Threshold); ok && !strings.HasSuffix(e.Threshold, "%") {
			sig.ThresholdBytes = &b
			if d.tl.Kubelet == nil && b >= 0 {
				d.tl.Kubelet = &model.KubeletEviction{Threshold: e.Threshold, Bytes: b,
					Source: fmt.Sprintf("line %d (the threshold an eviction crossed; the message does not say hard or soft)", no)}
			}
		}
		d.tl.KubeletSignals = append(d.tl.KubeletSignals, sig)
	} else if e.Resource == "memory" {
		// A kubelet before 1.19 prints no threshold, but it evicts for memory only while a
		// memory threshold is met, the state its MemoryPressure condition reports
		// (pkg/kubelet/eviction/eviction_manager.go synchronize), as its "attempting to
		// reclaim memory" log line does (tryKubeletEviction).
		d.addEventCondition(model.NodeCondition{Type: "MemoryPressure", Status: "True", Reason: "Evicted",
			Source: fmt.Sprintf("line %d (the kubelet's eviction message on a pod, without its threshold: a memory threshold was met)", no)})
	}
	d.segSeq++
	d.addArtifact(KindKubeEvicted, no, no, e)
	return 1
}

// tryKubeNodeHadCondition reads the eviction admission's refusal: each condition it names
// was True on the node when the pod was refused.
func (d *doc) tryKubeNodeHadCondition(i int) int {
	m := reKubeNodeHadCondition.FindStringSubmatch(d.ls[i].Text)
	if m == nil {
		return 0
	}
	no := d.ls[i].No
	var e KubeEvicted
	for _, c := range strings.Fields(m[1]) {
		if !isKubeCondType(c) {
			continue
		}
		e.Conditions = append(e.Conditions, c)
		d.addEventCondition(model.NodeCondition{Type: c, Status: "True", Reason: "Evicted",
			Source: fmt.Sprintf("line %d (the kubelet refused a pod: the node had condition %s)", no, c)})
	}
	if len(e.Conditions) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindKubeEvicted, no, no, e)
	return 1
}

// kubeQuantityBytes resolves a Kubernetes resource quantity ("100Mi", "-2097758044639028Ki",
// "1G", "512") to bytes; the sign is kept, since the kubelet prints what it computed.
func kubeQuantityBytes(q string) (int64, bool) {
	num, mult := q, 1.0
	for _, u := range [...]struct {
		s string
		m float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}} {
		if n, ok := strings.CutSuffix(q, u.s); ok {
			num, mult = n, u.m
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f*mult) > math.MaxInt64/2 {
		return 0, false
	}
	return int64(f * mult), true
}

// KubeNodeCondition is one row of `kubectl describe node`'s Conditions table.
type KubeNodeCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// kubectl describe node prints the conditions through a tabwriter (k8s.io/kubectl
// pkg/describe/describe.go describeNode, "  %v \t%v \t%s \t%s \t%v \t%v\n": Type, Status,
// LastHeartbeatTime, LastTransitionTime, Reason, Message): tabs when copied raw, runs of
// spaces when copied from a terminal.
const kubeCondCells = 6

var reSpacedCells = lazyre.New(`\s*\t\s*|\s{2,}`)

// spacedCells splits a row a tabwriter or a terminal aligned into its cells: at tabs or
// runs of two blanks or more.
func spacedCells(t string) []string {
	cs := reSpacedCells.Split(strings.TrimSpace(t), -1)
	out := cs[:0]
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func isKubeCondType(s string) bool {
	switch s {
	case "MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable", "Ready", "OutOfDisk":
		return true
	}
	return false
}

// kubeCondRow reads the row at ls[i], joining the next line when the row was wrapped inside
// a cell (a ticket's width cut "KubeletHasInsufficientM" / "emory"): it returns the row and
// the lines it took.
func kubeCondRow(ls []Line, i int) (KubeNodeCondition, int, bool) {
	cs := spacedCells(ls[i].Text)
	if len(cs) == 1 {
		if c, ok := kubeCondFlattened(ls[i].Text); ok {
			return c, 1, true
		}
	}
	if len(cs) < 2 || !isKubeCondType(cs[0]) || (cs[1] != "True" && cs[1] != "False" && cs[1] != "Unknown") {
		return KubeNodeCondition{}, 0, false
	}
	n := 1
	if len(cs) < kubeCondCells && i+1 < len(ls) && !isBlank(ls[i+1].Text) {
		next := spacedCells(ls[i+1].Text)
		if len(next) > 0 && len(cs)+len(next)-1 == kubeCondCells && !isKubeCondType(next[0]) {
			// Wrapped inside a word: the cell goes on at the next line's start.
			cs = append(cs[:len(cs)-1], append([]string{cs[len(cs)-1] + next[0]}, next[1:]...)...)
			n = 2
		}
	}
	c := KubeNodeCondition{Type: cs[0], Status: cs[1]}
	if len(cs) == kubeCondCells {
		c.Reason, c.Message = cs[4], cs[5]
	}
	return c, n, true
}

// reKubeReason is a condition's Reason, one CamelCase word of two humps or more
// (KubeletHasInsufficientMemory, KubeletReady); a heartbeat time's words ("Mon,", "Jan",
// "2024") are not.
var reKubeReason = lazyre.New(`^[A-Z][a-z]+(?:[A-Z][a-z]*)+$`)

// kubeCondFlattened reads a Conditions row whose cell separators a web page collapsed to
// single spaces ("MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient
// memory available", the time columns sometimes dropped): type and status, then the reason
// is the first CamelCase word and the message the rest.
func kubeCondFlattened(t string) (KubeNodeCondition, bool) {
	fs := strings.Fields(t)
	if len(fs) < 2 || !isKubeCondType(fs[0]) || (fs[1] != "True" && fs[1] != "False" && fs[1] != "Unknown") {
		return KubeNodeCondition{}, false
	}
	c := KubeNodeCondition{Type: fs[0], Status: fs[1]}
	for j := 2; j < len(fs); j++ {
		if reKubeReason.MatchString(fs[j]) {
			c.Reason, c.Message = fs[j], strings.Join(fs[j+1:], " ")
			break
		}
	}
	return c, true
}

// tryKubeNodeConditions reads Conditions rows (with their header line, when present).
func (d *doc) tryKubeNodeConditions(i int) int {
	k := i
	if cs := spacedCells(d.ls[k].Text); len(cs) == kubeCondCells && cs[0] == "Type" && cs[1] == "Status" {
		k++
	}
	var conds []KubeNodeCondition
	for k < len(d.ls) {
		c, n, ok := kubeCondRow(d.ls, k)
		if !ok {
			break
		}
		conds = append(conds, c)
		d.tl.NodeConditions = append(d.tl.NodeConditions, model.NodeCondition{Type: c.Type, Status: c.Status, Reason: c.Reason,
			Source: fmt.Sprintf("kubectl describe node, line %d", d.ls[k].No)})
		k += n
	}
	if len(conds) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindKubeNodeCond, d.ls[i].No, d.ls[k-1].No, conds)
	return k - i
}

// KubeAllocated is `kubectl describe node`'s "Allocated resources" table: the sum of the
// pods' requests and limits, with their share of the node's allocatable.
type KubeAllocated struct {
	CPURequestsM     float64 `json:"cpu_requests_m"`
	CPULimitsM       float64 `json:"cpu_limits_m"`
	MemoryRequestsMi float64 `json:"memory_requests_mi"`
	MemoryLimitsMi   float64 `json:"memory_limits_mi"`
	// Pct are the printed shares in the order above.
	Pct [4]float64 `json:"pct"`
}

// reKubeAllocCell: "11590m (48%)", "72888Mi (56%)", "0 (0%)".
var reKubeAllocCell = lazyre.New(`^(\S+) \((\d+)%\)$`)

// tryKubeAllocated reads the table in either layout describe.go has printed
// (describeNodeResource): before 1.10 one row under "CPU Requests  CPU Limits  Memory
// Requests  Memory Limits" and a dashed line; since, "Resource Requests Limits" with a row
// per resource ("cpu  11590m (48%)  9500m (39%)").
func (d *doc) tryKubeAllocated(i int) int {
	head := spacedCells(d.ls[i].Text)
	var a KubeAllocated
	var k int
	switch {
	case len(head) == 4 && head[0] == "CPU Requests" && head[3] == "Memory Limits":
		if i+2 >= len(d.ls) || strings.Trim(d.ls[i+1].Text, "- \t") != "" {
			return 0
		}
		cells := spacedCells(d.ls[i+2].Text)
		if len(cells) != 4 || !a.set(0, cells[0], cells[1]) || !a.set(1, cells[2], cells[3]) {
			return 0
		}
		k = i + 3
	case len(head) == 3 && head[0] == "Resource" && head[1] == "Requests" && head[2] == "Limits":
		k = i + 1
		if k < len(d.ls) && strings.Trim(d.ls[k].Text, "- \t") == "" && !isBlank(d.ls[k].Text) {
			k++
		}
		got := 0
		for ; k < len(d.ls); k++ {
			cells := spacedCells(d.ls[k].Text)
			if len(cells) != 3 {
				break
			}
			switch cells[0] {
			case "cpu":
				if !a.set(0, cells[1], cells[2]) {
					return 0
				}
				got++
			case "memory":
				if !a.set(1, cells[1], cells[2]) {
					return 0
				}
				got++
			}
		}
		if got == 0 {
			return 0
		}
	default:
		return 0
	}
	d.segSeq++
	d.addArtifact(KindKubeAllocated, d.ls[i].No, d.ls[k-1].No, a)
	return k - i
}

// set fills the requests and limits of resource r (0 cpu, 1 memory) from two cells.
func (a *KubeAllocated) set(r int, req, lim string) bool {
	for n, cell := range [2]string{req, lim} {
		m := reKubeAllocCell.FindStringSubmatch(cell)
		if m == nil {
			return false
		}
		pct, _ := strconv.ParseFloat(m[2], 64)
		var v float64
		if r == 0 {
			// cpu: "11590m" millicores or "2" cores
			if milli, ok := strings.CutSuffix(m[1], "m"); ok {
				f, err := strconv.ParseFloat(milli, 64)
				if err != nil {
					return false
				}
				v = f
			} else {
				f, err := strconv.ParseFloat(m[1], 64)
				if err != nil {
					return false
				}
				v = f * 1000
			}
		} else {
			b, ok := kubeQuantityBytes(m[1])
			if !ok {
				return false
			}
			v = float64(b) / (1 << 20)
		}
		switch r*2 + n {
		case 0:
			a.CPURequestsM = v
		case 1:
			a.CPULimitsM = v
		case 2:
			a.MemoryRequestsMi = v
		case 3:
			a.MemoryLimitsMi = v
		}
		a.Pct[r*2+n] = pct
	}
	return true
}
