package model

import (
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
)

// Source kinds.
const (
	SourceLive    = "live"
	SourceArchive = "archive"
	SourceText    = "text"
	SourceCapture = "capture"
	SourceLab     = "lab"
)

// SourceInfo says where a Timeline came from.
type SourceInfo struct {
	Kind string `json:"kind"` // SourceLive, SourceArchive, SourceText, SourceCapture, SourceLab
	Name string `json:"name"` // host name, file name, scenario
	// NetView says whose network namespace the per-namespace files (/proc/net, the net.*
	// sysctls) were read in, for a live or captured host: "" when not known.
	NetView string `json:"net_view,omitempty"`
}

// Timeline is what every input becomes and all that rules read: the samples in order (each
// with its derived rates), the kernel log and the events parsed from it, phase markers, and
// what a pasted text held that is not a sample (profiles, settings it names). A rule never
// knows whether its numbers came from a live host, a recording, a forum post or the lab.
type Timeline struct {
	Source  SourceInfo `json:"source"`
	Host    Host       `json:"host"`
	Samples []Sample   `json:"samples,omitempty"`
	// Breaks are the indexes of samples whose counters need not continue the previous
	// sample's: the first sample of a recorder session after the first (a reboot may lie
	// between), the first sample of each text merged into one timeline. DeriveRates gives
	// no rate across a break.
	Breaks []int `json:"breaks,omitempty"`
	// OtherHost are the indexes of samples read from another machine than the samples
	// before them: a paste that compares two hosts' since-boot counters ("First the bad
	// machine: ... And now the good machine: ..."). No counter grows across one (CounterDelta,
	// DeriveRates): one host's count minus another's is no growth, and a smaller count on the
	// second host is no reset.
	OtherHost []int `json:"other_host,omitempty"`

	// Segments group samples that belong together in a pasted text: the rows of one vmstat
	// table, one buddyinfo series. Rules that compare phases (kernel-time-growth) compare
	// segments. A live or recorded timeline has one segment per marker-delimited phase.
	Segments []Segment `json:"segments,omitempty"`

	Events []Event `json:"events,omitempty"`
	// Log is the kernel log; a text's is kept packed (Log).
	Log Log `json:"log,omitzero"`

	// LogCurrentSince divides the kernel log of a live host into evidence of now and
	// history: records and events with a clock time before it happened since boot but not
	// recently (doctor's --log-since, default one hour before the first sample). Zero means
	// no division: every record counts as current, as for pasted text and recordings.
	LogCurrentSince time.Time `json:"log_current_since,omitzero"`
	// LogElsewhere counts the kernel log records a view made by SplitLogAt left to the
	// other view: the log was read, and an empty Log here means "nothing in this span",
	// not "no kernel log" (absent is not zero).
	LogElsewhere int      `json:"-"`
	Markers      []Marker `json:"markers,omitempty"`

	Settings []SettingMention `json:"settings,omitempty"`
	Profiles []Profile        `json:"profiles,omitempty"`
	// SlabTables are slab cache tables a text holds (slabtop, /proc/slabinfo): which caches
	// hold the kernel's memory, where meminfo's SUnreclaim only says how much.
	SlabTables []SlabTable `json:"slab_tables,omitempty"`
	// RouteCacheCounts are the IPv4 route cache's entries counted by lines (kernels before
	// 3.6: `ip route show cache | wc -l`, `cat /proc/net/rt_cache | wc -l`).
	RouteCacheCounts []RouteCacheCount `json:"route_cache_counts,omitempty"`

	// ZoneFragments are /proc/zoneinfo blocks a paste holds without their "Node N, zone
	// NAME" line (a block cut at its top, or only its pagesets and closing lines). The
	// numbers are the kernel's, but which zone they belong to is not printed, so they are kept
	// out of the samples, where a rule would judge them as a whole named zone; a rule that
	// needs no zone name (node-unreclaimable) reads them here.
	ZoneFragments []ZoneFragment `json:"zone_fragments,omitempty"`
	// MemDumps are show_mem dumps a text holds on their own, without the report header
	// that printed them (memdump.go).
	MemDumps []MemDump `json:"mem_dumps,omitempty"`

	Artifacts []Artifact `json:"artifacts,omitempty"`
	Unparsed  []Unparsed `json:"unparsed,omitempty"`
	// ReadInPart lists lines a reader took evidence from that also hold something headroom
	// could not read (a second, cut report header; a program's line whose meaning is named
	// unread; figures beyond a statement): the lines are read, and Why says what in them
	// was not (fix52a: the line account and the unread list agree).
	ReadInPart []Unparsed `json:"read_in_part,omitempty"`
	// UnparsedLeft is Unparsed without the ReadInPart lines, set only when there are some:
	// what the line account counts unread and the text report lists.
	UnparsedLeft []Unparsed `json:"-"`
	// Lines accounts for every line of a pasted text: what was read, what was prose or
	// noise, what could not be read (nil for live and recorded sources).
	Lines *LineAccount `json:"lines,omitempty"`

	// NotAvailable lists the interfaces a live or captured source could not read and why
	// ("/proc/pressure/memory: not supported here"), so reports say "not available"
	// instead of implying zero.
	NotAvailable []Unavailable `json:"not_available,omitempty"`

	// Netns is another network namespace read beside the host (doctor --netns, --pid):
	// its own TCP settings and counters, which rules compare with the host's.
	Netns *NetnsView `json:"netns,omitempty"`

	// Cgroups is the socket memory charged to each memory cgroup at the end of a live
	// run (kernel.ReadCgroupSockets), largest first.
	Cgroups []kernel.CgroupSock `json:"cgroups,omitempty"`

	// Kubelet is the kubelet's memory eviction threshold when a kubelet was found on a live
	// host, or its configuration given (doctor --kubelet-config).
	Kubelet *KubeletEviction `json:"kubelet,omitempty"`

	// CgroupMemory are memory cgroups' own files pasted as text (memory.stat, memory.events,
	// v1 memory.oom_control): where a container's memory, its TCP buffers among it, is
	// charged, and how often it hit its limit. Live hosts' per-cgroup socket memory is Cgroups.
	CgroupMemory []CgroupMemory `json:"cgroup_memory,omitempty"`

	// Beancounters are OpenVZ/Virtuozzo containers' resource counters pasted as text
	// (/proc/user_beancounters, `vzubc`): each resource's use against the container's own
	// barrier and limit, and failcnt, the charges the container's limit refused.
	Beancounters []Beancounter `json:"beancounters,omitempty"`

	// KubeletSignals are the kubelet eviction manager's observations a pasted log holds
	// ("threshold [signal=memory.available, quantity=100Mi] observed -2097758044639028Ki"),
	// and NodeConditions the node conditions pasted from `kubectl describe node` or that log:
	// what the kubelet measured and decided, which rules weigh against the kernel's numbers.
	KubeletSignals []KubeletSignal `json:"kubelet_signals,omitempty"`
	NodeConditions []NodeCondition `json:"node_conditions,omitempty"`

	// RuntimeOOMs are OOM kills that Kubernetes or a container runtime reported from the
	// kernel's (a SystemOOM or CgroupOOM event, docker's "container oom", a container's
	// OOMKilled state, cAdvisor's "Created an OOM event"): second-hand reports, kept apart
	// from the kernel's own OOM reports (Events), which say more when the text holds them.
	RuntimeOOMs []RuntimeOOM `json:"runtime_ooms,omitempty"`
	// FrameworkKills are kills of a framework's own workers by its own memory policy (Ray's
	// raylet memory monitor, dask's nanny, YARN's NodeManager relayed by Spark): no kernel
	// OOM and no statement about the host's memory; oom-kill names them when it is not
	// checked (Reporter, Count and Source as in RuntimeOOM; Scope unused).
	FrameworkKills []RuntimeOOM `json:"framework_kills,omitempty"`
	// SigkillNotices are a server's own notices that it reaped a child killed by SIGKILL
	// (Postfix's, Dovecot's and rspamd's masters): the kernel's OOM killer sends SIGKILL, so
	// does any kill -9; oom-kill names them when it is not checked (Reporter, Count, Source).
	SigkillNotices []RuntimeOOM `json:"sigkill_notices,omitempty"`
	// AddressSpaceKills are batch schedulers' kills of a job over a VIRTUAL-memory limit
	// (PBS/Torque vmem and pvmem, Grid Engine's h_vmem and virtual_free, qstat's Exit_status
	// -26 JOB_EXEC_KILL_VMEM): the job's address space as the scheduler sums it (reserved,
	// mapped and shared pages, never touched ones too) passed a limit, which says nothing of
	// resident memory, the host's or the job's; no kernel OOM and no memory shortage.
	// oom-kill names them when it is not checked (Reporter with the figures, Count, Source).
	AddressSpaceKills []RuntimeOOM `json:"address_space_kills,omitempty"`

	// UDPSockets are pasted /proc/net/udp tables: each socket's receive queue and its own
	// drop count (sk_drops), which say which socket lost datagrams when Udp RcvbufErrors
	// is not in the input.
	UDPSockets []UDPSocketTable `json:"udp_sockets,omitempty"`

	// ProgramListenFulls are programs' own reports of a full accept queue on their listening
	// socket (uWSGI's "listen queue of socket ... full !!! (Q/M)"), one per socket: queued
	// and backlog as the program read them, the kernel's counters not among them.
	ProgramListenFulls []ProgramListenFull `json:"program_listen_fulls,omitempty"`
	// ProgramBacklogs are programs' own listen backlog settings a text shows (uWSGI's --listen).
	ProgramBacklogs []ProgramBacklog `json:"program_backlogs,omitempty"`
	// ZFSARC is ZFS's ARC as a pasted arcstats or arc_summary shows it (zfsarc.go); nil: none.
	ZFSARC *ZFSARC `json:"zfs_arc,omitempty"`

	// Trace is what the kernel's tracepoints said during a live window (doctor --trace):
	// drops by the kernel's reason and location, reclaim and compaction stalls. Nil: not
	// traced.
	Trace *TraceWindow `json:"trace,omitempty"`
	// TraceParts are a recording's traced windows as written (record --trace writes one
	// every --trace-every); Trace is their sum, and a window of the recording (findings
	// placed in time) sums the parts that overlap it.
	TraceParts []TraceWindow `json:"-"`
}

// CgroupMemory is one pasted memory-cgroup file. Stat holds memory.stat as printed (bytes
// for sizes, counts for events; the v2 "sock" is the TCP and other socket buffers charged to
// the cgroup); Events holds memory.events (v2: low, high, max, oom, oom_kill,
// oom_group_kill) or v1 memory.oom_control (oom_kill_disable, under_oom, oom_kill).
type CgroupMemory struct {
	Version int              `json:"cgroup_version"`
	Path    string           `json:"path,omitempty"` // the cgroup's directory when the text names it
	Stat    *kernel.Counters `json:"stat,omitempty"`
	Events  *kernel.Counters `json:"events,omitempty"`
	// Files holds the one-value files read by cat (v1 memory.usage_in_bytes,
	// memory.max_usage_in_bytes, memory.limit_in_bytes, memory.failcnt; v2 memory.current,
	// memory.peak, memory.max), by file name, in bytes.
	Files *kernel.Counters `json:"files,omitempty"`
	// Pressure is the cgroup's memory.pressure (cgroup v2, 4.20+): the stalls of the
	// cgroup's own tasks, never the host's /proc/pressure/memory.
	Pressure       *kernel.Pressure `json:"pressure,omitempty"`
	PressureSource string           `json:"pressure_source,omitempty"` // its lines
	Source         string           `json:"source"`                    // "lines 3-9"
}

// Beancounter is one row of an OpenVZ/Virtuozzo container's user beancounters (kernel/bc
// proc.c: "uid resource held maxheld barrier limit failcnt"). Pages for the *pages rows,
// bytes for the sizes and buffers, counts for the rest; LONG_MAX (9223372036854775807) is
// unlimited. A vzubc row carries the same figures humanized (Held and the rest then bytes
// or pages as vzubc scaled them, Failcnt exact).
type Beancounter struct {
	Container string `json:"container"` // "101" (CTID; "0" the host)
	Resource  string `json:"resource"`  // "tcpsndbuf", "privvmpages", ...
	Held      int64  `json:"held"`
	MaxHeld   int64  `json:"maxheld"`
	Barrier   int64  `json:"barrier"`
	Limit     int64  `json:"limit"`
	Failcnt   int64  `json:"failcnt"`
	Source    string `json:"source"`
}

// KubeletSignal is one eviction-manager observation: a signal, its threshold and the value
// the kubelet observed, as printed, and in bytes when they are byte quantities.
type KubeletSignal struct {
	Signal         string `json:"signal"` // "memory.available", "allocatableMemory.available"
	Threshold      string `json:"threshold"`
	Observed       string `json:"observed"`
	ThresholdBytes *int64 `json:"threshold_bytes,omitempty"` // nil for a percentage or a non-byte signal
	ObservedBytes  *int64 `json:"observed_bytes,omitempty"`
	Source         string `json:"source"` // "kubelet log line 21"
}

// UDPSocketTable is one /proc/net/udp (or udp6) table read from a text.
type UDPSocketTable struct {
	Rows   []kernel.UDPSocketRow `json:"rows"`
	Source string                `json:"source"` // "lines 8-17 (/proc/net/udp)"
}

// NodeCondition is one Kubernetes node condition (MemoryPressure True ...).
type NodeCondition struct {
	Type   string `json:"type"`
	Status string `json:"status"` // "True", "False", "Unknown"
	Reason string `json:"reason,omitempty"`
	Source string `json:"source"`
}

// RuntimeOOM is one OOM kill as Kubernetes or a container runtime reported it.
type RuntimeOOM struct {
	// Scope is where the killer ran as the reporter tells it: OOMScopeHost (the kubelet's
	// SystemOOM: cAdvisor found the OOM's cgroup to be the root, a global OOM), OOMScopeCgroup
	// (a container's memory cgroup at its limit: CgroupOOM, docker's "container oom"), or ""
	// when the report does not say (OOMKilled, cAdvisor's log line).
	Scope    string `json:"scope,omitempty"`
	Reporter string `json:"reporter"` // "kubelet event SystemOOM", "docker events", ...
	Victim   string `json:"victim,omitempty"`
	PID      int    `json:"pid,omitempty"`
	// Container is the container the report is about (docker's name or ID, a pod's
	// container), when it names one.
	Container string `json:"container,omitempty"`
	// Count is how many times the report says it happened (an event's "x4 over 25m"), at
	// least 1.
	Count int `json:"count"`
	// OOMScoreAdj is the victim's oom_score_adj as a low-memory killer printed it (Android's
	// lowmemorykiller and lmkd: 900 and above are cached apps, killed by design), nil when
	// not printed.
	OOMScoreAdj *int `json:"oom_score_adj,omitempty"`
	// Badness and VmRSSMiB are the victim's score and resident size as earlyoom printed them
	// in its kill line ("badness 757, VmRSS 637 MiB"; "oom_score" since 1.7), nil and 0 when
	// not printed (fix33a).
	Badness  *int   `json:"badness,omitempty"`
	VmRSSMiB int64  `json:"vm_rss_mib,omitempty"`
	Source   string `json:"source"`
}

// The scopes of a RuntimeOOM.
const (
	OOMScopeHost   = "host"
	OOMScopeCgroup = "cgroup"
	// OOMScopeLowMemKiller: a kill for memory by a killer other than the kernel's OOM killer,
	// before it ran: Android's in-kernel lowmemorykiller and its successor lmkd (free
	// memory or pressure below a per-oom_score_adj limit), systemd-oomd (a cgroup's PSI or
	// swap above its limit), earlyoom (MemAvailable and SwapFree below their limits).
	OOMScopeLowMemKiller = "low-memory killer"
	// OOMScopeJobLimit: a batch scheduler's own kill of a job whose memory, as the scheduler
	// sampled it, passed the limit the job requested (Slurm's jobacct_gather, PBS's MoM, LSF's
	// TERM_MEMLIMIT, Grid Engine's execd, HTCondor's periodic hold): neither the kernel's OOM
	// killer nor the host's memory.
	OOMScopeJobLimit = "job limit"
	// OOMScopeAddressSpace: a batch scheduler's kill of a job whose VIRTUAL size passed a
	// limit (vmem, pvmem, h_vmem): kept in Timeline.AddressSpaceKills, never counted as an
	// OOM kill (fix34d).
	OOMScopeAddressSpace = "address-space limit"
)

// KubeletEviction is the kubelet's hard eviction threshold on memory.available: the kubelet
// evicts pods when the node's available memory falls below it.
type KubeletEviction struct {
	Threshold string `json:"threshold"` // as written: "100Mi", "5%"
	Bytes     int64  `json:"bytes"`     // resolved; a percentage of MemTotal
	// Source says where it was read: "/var/lib/kubelet/config.yaml evictionHard",
	// "kubelet --eviction-hard (pid 812)", or "the kubelet's default (no evictionHard in ...)".
	Source string `json:"source"`
}

// NetnsView is what one network namespace holds of its own: the per-namespace sysctls
// (kernel.NetnsSysctls) and its TCP counters.
type NetnsView struct {
	Name     string            `json:"name"` // "netns blue", "pid 4242"
	Sysctls  map[string]string `json:"sysctls"`
	SockStat kernel.Groups     `json:"sockstat,omitempty"`
	Netstat  kernel.Groups     `json:"netstat,omitempty"`
	// Unavailable lists what could not be read in the namespace ("sysctl net.core.somaxconn: ...").
	Unavailable []string `json:"unavailable,omitempty"`
}

// Segment is a run of consecutive samples from one table or phase.
type Segment struct {
	Name  string `json:"name"`  // "vmstat table at lines 52-60", "flood 1"
	Kind  string `json:"kind"`  // "vmstat", "buddyinfo", "phase", ...
	First int    `json:"first"` // index of the first sample
	Last  int    `json:"last"`  // index of the last sample (inclusive)
	// Label is the text right before the table in a paste ("at the end of 4 runs"), which
	// often names the phase.
	Label string `json:"label,omitempty"`
}

// Marker is a phase marker: "flood start", set by record --mark or a lab scenario.
type Marker struct {
	Time  time.Time `json:"time,omitzero"`
	Index int       `json:"index"` // the first sample at or after the marker
	Text  string    `json:"text"`
}

// SettingMention is a setting a text names: a `sysctl -w` command, a sysctl.conf line, a
// "tcp_rmem = 4096 87380 1048576" in prose. It is what the author had or tried, not
// necessarily what the host runs; rules say so when they cite it.
type SettingMention struct {
	Key    string `json:"key"` // as written, normalised to dots ("vm.min_kbytes_free")
	Value  string `json:"value"`
	Form   string `json:"form"` // "sysctl-w", "sysctl.conf", "sysctl-a", "prose"
	Line   int    `json:"line"`
	Source string `json:"source,omitempty"`
	// What the reader resolved (NewSettingMention): the kernel key the mention names
	// (kernel.SysctlMeans), whether some kernel has Key as written, and for a key none has,
	// the known key the author most likely meant.
	Means   string `json:"means,omitempty"`
	Known   bool   `json:"known,omitempty"`
	Suggest string `json:"suggest,omitempty"`
	// Subject is whose value the text gives (artifact/stated.go): "" this host's (or what its
	// author ran on it), SubjectOther another machine's, SubjectAdvice a recommendation,
	// SubjectOutcome a value the author set with its stated result.
	Subject string `json:"subject,omitempty"`
}

// Whose numbers a text states (issue 29): only the host's are evidence of its state; an
// outcome ("after changing it to 20000 the problem went away") weighs between causes; the
// rest is context.
const (
	SubjectOther   = "other"
	SubjectAdvice  = "advice"
	SubjectOutcome = "outcome"
	// ForeignMark is what a source says when its numbers are another machine's that the
	// text describes (a `>` quote of another message, a test box, a slide about other
	// machines): shown as context, never as this host's state.
	ForeignMark = "another machine's, in the text"
	// StatedMark is what a source says when its numbers come from a sentence of the input,
	// not a counter (artifact/stated.go); diagnose keeps such findings below critical.
	StatedMark = "stated in the text"
	// RunMeanMark is what a source says when its values are a tool's means over a whole run
	// (a test report's table): a rate that held over the run, weighed as many samples.
	RunMeanMark = "means over the test's run"
	// OwnLogMark (fix50a) names, in a stated source, a program's own log line the statement
	// was read from rather than the author's words: "line 11 (stated in the text: RouterOS's
	// own log line, not the author's words)". StatedBy returns it.
	OwnLogMark = "own log line"
)

// OwnLogSource is the source of a statement read from a program's own log line at line no.
func OwnLogSource(no int, program string) string {
	return "line " + strconv.Itoa(no) + " (" + StatedMark + ": " + program + "'s " + OwnLogMark + ", not the author's words)"
}

// StatedBy is who states a stated source's figures: "RouterOS's own log line" for an
// OwnLogSource, "" for the author's words.
func StatedBy(source string) string {
	i := strings.Index(source, StatedMark+": ")
	if i < 0 {
		return ""
	}
	rest := source[i+len(StatedMark)+2:]
	k := strings.Index(rest, "'s "+OwnLogMark)
	if k <= 0 {
		return ""
	}
	return rest[:k+len("'s "+OwnLogMark)]
}

// NewSettingMention resolves a key as written once, where the text is read, so every rule
// asks the same question of the same answer (Names).
func NewSettingMention(written, value, form string, line int, source string) SettingMention {
	m := SettingMention{Key: kernel.NormaliseSysctlKey(written), Value: value, Form: form, Line: line, Source: source}
	m.Known, m.Suggest = kernel.KnownSysctl(m.Key)
	m.Means = kernel.SysctlMeans(m.Key)
	return m
}

// Names is the kernel key the mention is about, "" when it names none. A mention built
// without NewSettingMention (an older recording) is resolved here, by the same function.
func (m SettingMention) Names() string {
	if m.Means != "" || m.Known {
		return m.Means
	}
	return kernel.SysctlMeans(m.Key)
}

// SlabTable is one slab cache table.
type SlabTable struct {
	Tool   string      `json:"tool"` // "slabtop", "slabinfo"
	Source string      `json:"source"`
	Caches []SlabCache `json:"caches"`
	// Series are the caches the table prints more than once: /proc/slabinfo dumps taken at
	// several times and pasted as one table (one dump after another, or their rows sorted
	// together). Caches then holds each cache's last reading as printed, not their sum.
	Series []SlabSeries `json:"series,omitempty"`
	// Unreclaimable: every cache the table lists is one no shrinker frees (an OOM report's
	// "Unreclaimable slab info", which dump_unreclaimable_slab in mm/slab_common.c prints for
	// the caches without SLAB_RECLAIM_ACCOUNT only).
	Unreclaimable bool `json:"unreclaimable,omitempty"`
}

// SlabSeries is one cache read several times in one table, its readings in the order printed
// (the dumps' times are not in the text).
type SlabSeries struct {
	Name       string  `json:"name"`
	ActiveObjs []int64 `json:"active_objs"`
	ActiveKB   []int64 `json:"active_kb"` // active_objs × objsize: the memory its objects in use take
}

// RouteCacheCount is one count of the IPv4 route cache's entries by a line-counting command.
type RouteCacheCount struct {
	Entries int64  `json:"entries"`
	Command string `json:"command"`
	Source  string `json:"source"` // "line 41"
}

// SlabCache is one cache of a SlabTable: its name and the memory its objects take.
type SlabCache struct {
	Name   string `json:"name"`
	Objs   int64  `json:"objs"`
	SizeKB int64  `json:"size_kb"` // slabtop's CACHE SIZE; num_objs × objsize for slabinfo
}

// Profile is a kernel profile table from readprofile or perf report.
type Profile struct {
	Tool   string       `json:"tool"` // "readprofile", "perf"
	Source string       `json:"source"`
	Label  string       `json:"label,omitempty"` // text before the table that says what was run
	Total  int64        `json:"total,omitempty"` // the "total" row when printed
	Rows   []ProfileRow `json:"rows"`
}

// ProfileRow is one symbol of a profile.
type ProfileRow struct {
	Symbol  string  `json:"symbol"`
	Ticks   int64   `json:"ticks"`     // samples or clock ticks
	Share   float64 `json:"share"`     // percent as printed by perf, or readprofile's normalised load
	SharePc float64 `json:"share_pct"` // ticks as a percent of the total
	Module  string  `json:"module,omitempty"`
}

// ZoneFragment is a zoneinfo block without its header. Zone.Node is -1 and Zone.Name ""
// unless the text around it decided them, which NodeWhy then says.
type ZoneFragment struct {
	Zone    kernel.Zone `json:"zone"`
	Source  string      `json:"source"` // "lines 2-118"
	NodeWhy string      `json:"node_why,omitempty"`
}

// Artifact is one parsed segment of a pasted text, for the report.
type Artifact struct {
	Kind      string `json:"kind"`
	FirstLine int    `json:"first_line"`
	LastLine  int    `json:"last_line"`
	Data      any    `json:"data"`
}

// Unparsed is a segment that looked like kernel or command output but could not be read.
// LineAccount says where each line of a pasted text went. Read is every line that is not
// blank, prose, another program's log line or unparsed: kernel log records and reports,
// command output, /proc files, settings.
type LineAccount struct {
	Total    int `json:"total"`
	Read     int `json:"read"`
	Prose    int `json:"prose"`     // sentences, prompts without output, headings
	Blank    int `json:"blank"`     // empty lines and Markdown fences
	Other    int `json:"other_log"` // syslog lines of programs other than the kernel
	Unparsed int `json:"unparsed"`  // recognised as output but not readable: see Unparsed
}

type Unparsed struct {
	FirstLine int    `json:"first_line"`
	LastLine  int    `json:"last_line"`
	Why       string `json:"why"`
}

// Unavailable is an interface that could not be read on a live or captured host.
type Unavailable struct {
	What string `json:"what"` // "/proc/pressure/memory", "ethtool eth0 ring"
	Why  string `json:"why"`
}

// Last returns the newest sample, or nil.
func (t *Timeline) Last() *Sample {
	if len(t.Samples) == 0 {
		return nil
	}
	return &t.Samples[len(t.Samples)-1]
}

// First returns the oldest sample, or nil.
func (t *Timeline) First() *Sample {
	if len(t.Samples) == 0 {
		return nil
	}
	return &t.Samples[0]
}

// LastWith returns the newest sample for which has is true, or nil.
func (t *Timeline) LastWith(has func(*Sample) bool) *Sample {
	for i := len(t.Samples) - 1; i >= 0; i-- {
		if has(&t.Samples[i]) {
			return &t.Samples[i]
		}
	}
	return nil
}

// FirstWith returns the oldest sample for which has is true, or nil.
func (t *Timeline) FirstWith(has func(*Sample) bool) *Sample {
	for i := range t.Samples {
		if has(&t.Samples[i]) {
			return &t.Samples[i]
		}
	}
	return nil
}

// CounterDelta returns the growth of a 64-bit counter over the samples that have it, the
// seconds between the first and the last of them (0 when the times are unknown), and whether
// at least two samples had it. The growth is summed sample to sample with Delta, so a counter
// that was reset in between (a reboot inside a recording, a re-created interface) adds its
// count since the reset instead of a negative last-first. Past a sample of another machine
// (OtherHost) only that machine's samples count.
func (t *Timeline) CounterDelta(get func(*Sample) (int64, bool)) (delta int64, seconds float64, ok bool) {
	return t.counterDelta(get, false)
}

// NetStatDelta is CounterDelta for a /proc/net/netstat or snmp counter (group "TcpExt", name
// "ListenOverflows"). A later sample that holds nstat's increments (SinceLastRun) is itself
// the growth since the sample before it, so its value is added, not differenced.
func (t *Timeline) NetStatDelta(group, name string) (delta int64, seconds float64, ok bool) {
	return t.counterDelta(func(s *Sample) (int64, bool) { return s.NetStat.Get(group, name) }, true)
}

func (t *Timeline) counterDelta(get func(*Sample) (int64, bool), netstat bool) (delta int64, seconds float64, ok bool) {
	var first, last *Sample
	var prev int64
	prevIdx := -1
	for i := range t.Samples {
		v, has := get(&t.Samples[i])
		if !has {
			continue
		}
		if first == nil || t.hostChangedBetween(prevIdx, i) {
			// Another machine's count starts the growth over: only its own samples count.
			first, delta = &t.Samples[i], 0
		} else if netstat && t.Samples[i].NetStatFrom == SinceLastRun {
			delta += v
		} else {
			d, _ := Delta(prev, v, Width64)
			delta += d
		}
		last, prev, prevIdx = &t.Samples[i], v, i
	}
	if first == nil || first == last {
		return 0, 0, false
	}
	if !first.Time.IsZero() && !last.Time.IsZero() {
		seconds = last.Time.Sub(first.Time).Seconds()
	}
	return delta, seconds, true
}

// hostChangedBetween reports whether a sample of another machine (OtherHost) lies after
// sample a and at or before sample b.
func (t *Timeline) hostChangedBetween(a, b int) bool {
	for _, o := range t.OtherHost {
		if o > a && o <= b {
			return true
		}
	}
	return false
}

// Sysctl returns a sysctl value of the host and where it came from.
func (t *Timeline) Sysctl(key string) (value, source string, ok bool) {
	v, ok := t.Host.Sysctls[key]
	if !ok {
		return "", "", false
	}
	src := t.Host.SysctlSource[key]
	if src == "" {
		src = "/proc/sys/" + dotsToSlashes(key)
	}
	return v, src, true
}

func dotsToSlashes(key string) string {
	b := []byte(key)
	for i, c := range b {
		if c == '.' {
			b[i] = '/'
		}
	}
	return string(b)
}

// AllNICStats returns the ethtool stats of the newest sample that has any.
func (t *Timeline) AllNICStats() []kernel.NICStats {
	if s := t.LastWith(func(s *Sample) bool { return len(s.NICStats) > 0 }); s != nil {
		return s.NICStats
	}
	return nil
}

// SplitHistory returns two views of t: current, with the log records and events logged at
// or after LogCurrentSince (or without a clock time), and history, holding only the host
// facts and the older records and events. With no LogCurrentSince, current is t and history
// is nil. The views share t's samples and facts; they are for reading.
func (t *Timeline) SplitHistory() (current, history *Timeline) {
	if t.LogCurrentSince.IsZero() {
		return t, nil
	}
	return t.SplitLogAt(t.LogCurrentSince)
}

// SplitLogAt returns two views of t: after, with the log records and events logged at or
// after at (or without a clock time), and before, holding only the host facts and the older
// records and events; before is nil (and after is t) when no record is older. The views
// share t's samples and facts; they are for reading.
func (t *Timeline) SplitLogAt(at time.Time) (after, before *Timeline) {
	old := func(tm time.Time) bool { return !tm.IsZero() && tm.Before(at) }
	cur := *t
	cur.Log, cur.Events = Log{}, nil
	hist := &Timeline{Source: t.Source, Host: t.Host}
	for _, r := range t.Log.All() {
		if old(r.Time()) {
			hist.Log.Append(r)
		} else {
			cur.Log.Append(r)
		}
	}
	for _, e := range t.Events {
		if old(e.Time) {
			hist.Events = append(hist.Events, e)
		} else {
			cur.Events = append(cur.Events, e)
		}
	}
	if hist.Log.Len() == 0 && len(hist.Events) == 0 {
		return t, nil
	}
	cur.LogElsewhere = t.LogElsewhere + hist.Log.Len()
	hist.LogElsewhere = t.LogElsewhere + cur.Log.Len()
	return &cur, hist
}
