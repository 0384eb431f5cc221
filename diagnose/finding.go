package diagnose

import (
	"encoding/json"
	"fmt"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// Severity of a finding. Info is context an operator should know (a kernel limit, a value
// that is unusual but not harmful now); Warning is suboptimal and likely to hurt under load;
// Critical is hurting now or has hurt (failures, drops, exhaustion).
type Severity int

const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Critical:
		return "critical"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalJSON writes the name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads the name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	switch name {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "critical":
		*s = Critical
	default:
		return fmt.Errorf("unknown severity %q", name)
	}
	return nil
}

// Evidence is one number a finding rests on and where it came from.
type Evidence struct {
	What   string `json:"what"`
	Value  string `json:"value"`
	Source string `json:"source"` // "line 14", "/proc/buddyinfo", "/proc/net/netstat TcpExt"
	// Fact is the id of the kernel fact (kernelFacts, mem_kernel_limits.go) this line
	// states, "" for any other line: the story keeps or drops a kernel limit by it.
	Fact string `json:"-"`
	// Role says what the line does for the story's choice of a link's proof (story.go).
	Role EvidenceRole `json:"-"`
}

// EvidenceRole says what an evidence line does for the story: the proof of a link is its
// finding's first Factor line, else its first line with a number that is not Background.
type EvidenceRole uint8

const (
	// Measured: a number read or computed, or a note (the default).
	Measured EvidenceRole = iota
	// Background: context no link is proved by: the kernel release, the decoding of a
	// request's mode, a count that was not in the input.
	Background
	// Factor: the factor of a change ("0.24% → 2.32% (9.7×)"), which proves a growth better
	// than either end of it.
	Factor
)

// Interval places a finding in time (recordings and live runs).
type Interval struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Finding is data, not a log line: what is wrong, the numbers that prove it, why it matters,
// and the changes that fix it.
type Finding struct {
	ID          string         `json:"id"`
	Severity    Severity       `json:"severity"`
	Title       string         `json:"title"`
	Evidence    []Evidence     `json:"evidence"`
	Explanation string         `json:"explanation"`
	Changes     []model.Change `json:"changes"`
	When        *Interval      `json:"when,omitempty"`
	// Facts are what the story needs of this finding, typed (issue 31). Not written to the
	// JSON: the story computed from them is.
	Facts Facts `json:"-"`
}

// Facts are what the story (the edges' conditions, edges.go; the changes and the questions,
// story_*.go) needs to know of a finding, each set by the rule that knows it. The story reads
// these and never a finding's title, explanation or evidence text: a rule may reword its
// prose without changing which edge holds. The zero value states nothing: a condition that
// needs a fact does not hold on a finding that does not state it, and one that excludes a
// fact (globalOOM: not a cgroup's kill) holds unless the finding states it.
type Facts struct {
	// Memory is the memory the finding is about or measured against.
	Memory MemoryDomain
	// Share is the part (0 to 1) of Memory that the finding's subject holds (unreclaimable
	// slab); 0 when not measured.
	Share float64
	// DayGrowthShare is the part of Memory the finding's subject grows by in a day, as
	// stated (slab-unreclaimable-growth from a sentence); 0 when not known.
	DayGrowthShare float64
	// UnreclaimableKB is the slab no shrinker frees, in kB, when it was measured without the
	// memory size it is a share of (slab-unreclaimable-growth from a slab table); 0 otherwise.
	UnreclaimableKB int64
	// SlabOwner names the one cache that holds more than half of the unreclaimable slab
	// measured, when the network stack does not allocate from it (not skbuff, sockets,
	// conntrack or kmalloc: isNetworkCache); "" otherwise.
	SlabOwner string
	// OOM says where the OOM killer ran (oom-kill).
	OOM OOMScope
	// CgroupCache: a slab cache that could not grow is a memory cgroup's copy, named
	// "cache(id:cgroup)" before 5.9 (slab-alloc-failure).
	CgroupCache bool
	// CacheUnnamed: no failure of the finding names its cache (the SLUB message without its
	// "cache:" line, as a title or a cut paste quotes it): whose cache it was is open
	// (slab-alloc-failure).
	CacheUnnamed bool
	// BelowMin: a zone's free pages are below its min watermark now (zone-reserve-low).
	BelowMin bool
	// HeldBytes is the memory the finding's subject holds (orphan-send-queues: the closing
	// sockets' send queues); 0 when not measured.
	HeldBytes int64
	// CPUBusy: the CPU was saturated or waiting on I/O around the finding's counters.
	CPUBusy bool
	// UserSpacePort: the finding's counters are a port that a user-space driver owns (DPDK):
	// none of the kernel's causes of a NIC's loss is on its path (kernel.NetDev.UserSpace).
	UserSpacePort bool
	// MeantKeys are the keys that settings written under a key no kernel has were most
	// likely meant as, for those that never took effect; StatedWorked: the text says such a
	// setting worked all the same (sysctl-unknown-key).
	MeantKeys    []string
	StatedWorked bool
	// ZoneState: the finding carries the zones' state at the failure (an alloc-fail-* rule
	// read the Mem-Info dump).
	ZoneState bool
	// OutsideSlab: at least one of the finding's allocation failures printed a call trace
	// that is no slab cache growing (a NIC's receive refill, a page fragment): a slab cache
	// that could not grow does not account for it (fix62d).
	OutsideSlab bool
	// Counted is how many events the finding's counter counted (listen-overflow: handshakes
	// dropped at a full accept queue, TcpExt ListenOverflows; retransmit-rate: segments
	// retransmitted, Tcp RetransSegs), over the uptime when CountedSinceBoot, else over the
	// sampled window; 0 when not read.
	Counted          int64
	CountedSinceBoot bool
	// OrderOfFailure: the order memory-fragmented judged is the one the input's allocation
	// failures asked for (no NIC's MTU), so its buddy lists are those failures' state: the
	// failure leads the story, as when its own Mem-Info shows the lists (edges.go, fix22d).
	OrderOfFailure bool
	// Foreign: the finding rests only on another machine's numbers (weighStated), so it is
	// context, no link of this host's story.
	Foreign bool
	// NoLoss: the finding is a setting that could matter and the input shows no loss it
	// caused (nic-ring-below-max without lost frames). At the same severity a finding that
	// measured a loss or a failure comes first in the story (graph.rank).
	NoLoss bool
	// RefusedAtLimit: the finding counts allocations a commit limit refused with ENOMEM
	// (an OpenVZ container's privvmpages): the limit held, so nothing was promised that the
	// memory could not back and no OOM kill follows from it (overcommit-exposed).
	RefusedAtLimit bool
	// Kernel is the release kernel-known-limits judged (Known false when none); the
	// evidence lines of the limits it found carry their fact ids (Evidence.Fact).
	Kernel kernel.KernelVersion
}

// MemoryDomain is the memory a finding is about.
type MemoryDomain string

const (
	// MemoryAll: all of the host's memory (MemTotal): no HighMem split.
	MemoryAll MemoryDomain = "all"
	// MemoryLowmem: lowmem, the zones a 32-bit HighMem kernel maps permanently, where
	// socket buffers, slab and page tables must live.
	MemoryLowmem MemoryDomain = "lowmem"
)

// OOMScope says where the OOM killer ran.
type OOMScope string

const (
	// OOMHost: for the whole host (out_of_memory), in no memory cgroup.
	OOMHost OOMScope = "host"
	// OOMCgroup: inside memory cgroups at their limit (mem_cgroup_out_of_memory) only.
	OOMCgroup OOMScope = "cgroup"
	// OOMHostAndCgroup: both.
	OOMHostAndCgroup OOMScope = "host and cgroup"
	// OOMUndecided: kills whose report does not say host or cgroup (the task table alone).
	OOMUndecided OOMScope = "undecided"
)

// Status of one rule's run.
type Status string

const (
	StatusFinding    Status = "finding"     // the rule fired
	StatusOK         Status = "ok"          // the rule had its data and found nothing wrong
	StatusNotChecked Status = "not-checked" // the rule lacked data; Why says what
)

// Check is the outcome of one rule, whether or not it fired.
type Check struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	Why    string `json:"why,omitempty"` // what was missing, or what was checked
}

// Result is what a rule returns. Exactly one of: Findings non-empty (fired); NotChecked set
// (lacked data); neither (checked, healthy — Checked may say what was looked at).
type Result struct {
	Findings   []Finding
	NotChecked string
	Checked    string
}

// NotChecked is a Result for a rule that lacked data.
func NotChecked(format string, args ...any) Result {
	return Result{NotChecked: fmt.Sprintf(format, args...)}
}

// Healthy is a Result for a rule that looked and found nothing wrong.
func Healthy(format string, args ...any) Result {
	return Result{Checked: fmt.Sprintf(format, args...)}
}

// Fired is a Result with findings.
func Fired(f ...Finding) Result { return Result{Findings: f} }
