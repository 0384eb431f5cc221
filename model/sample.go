package model

import (
	"time"

	"headroom/kernel"
)

// Sample is the raw values of one instant. Every field is optional: nil or empty means the
// source did not have it (a pasted vmstat row has no zoneinfo; a container has no ethtool),
// never zero. Live samples fill most fields; text sources fill what the text shows.
type Sample struct {
	Time   time.Time `json:"time,omitzero"`    // zero when the source has no clock (pasted tables)
	Source string    `json:"source,omitempty"` // where the values came from: "/proc", "lines 12-40"

	MemInfo    *kernel.Counters     `json:"meminfo,omitempty"` // kB
	VMStat     *kernel.Counters     `json:"vmstat,omitempty"`
	Buddy      []kernel.BuddyZone   `json:"buddyinfo,omitempty"`
	Zones      []kernel.Zone        `json:"zoneinfo,omitempty"`
	PageTypes  *kernel.PageTypeInfo `json:"pagetypeinfo,omitempty"`
	NetDev     []kernel.NetDev      `json:"netdev,omitempty"`
	NetStat    kernel.Groups        `json:"netstat,omitempty"`  // /proc/net/netstat and /proc/net/snmp together
	SockStat   kernel.Groups        `json:"sockstat,omitempty"` // sockstat and sockstat6 together
	Protocols  []kernel.Protocol    `json:"protocols,omitempty"`
	Softnet    []kernel.SoftnetCPU  `json:"softnet,omitempty"`
	PSI        []kernel.Pressure    `json:"psi,omitempty"`
	Stat       *kernel.Stat         `json:"stat,omitempty"`
	Interrupts *kernel.Interrupts   `json:"interrupts,omitempty"`
	LoadAvg    *kernel.LoadAvg      `json:"loadavg,omitempty"`
	Threads    []kernel.TaskStat    `json:"threads,omitempty"` // kswapd*, kcompactd*, ksoftirqd/*
	NICStats   []kernel.NICStats    `json:"nic_stats,omitempty"`
	// Conntrack is netfilter's connection tracking statistics summed over the CPUs, under the
	// kernel's names (insert_failed, drop, early_drop, search_restart ...: struct
	// ip_conntrack_stat, as `conntrack -S` and /proc/net/stat/nf_conntrack print them per CPU).
	Conntrack *kernel.Counters `json:"conntrack,omitempty"`

	// NetStatFrom says from when NetStat counts: since boot (the zero value) unless nstat
	// printed increments, or may have (CountedFrom).
	NetStatFrom CountedFrom `json:"netstat_from,omitempty"`

	// Sockets is the per-state summary of a socket dump (live) or of a pasted socket table;
	// SocketList holds the rows a text showed, or the top sockets of a live dump.
	Sockets    *kernel.SocketSummary `json:"sockets,omitempty"`
	SocketList []kernel.Socket       `json:"socket_list,omitempty"`

	// Rates are derived per-second values for the interval ending at this sample. The first
	// sample of a live or recorded timeline has none. A pasted vmstat or top row carries the
	// rates and shares its tool already computed, under the same keys.
	Rates Rates `json:"rates,omitempty"`
}

// NetStatValue returns a counter of /proc/net/netstat or snmp ("TcpExt", "PruneCalled").
func (s *Sample) NetStatValue(group, name string) (int64, bool) { return s.NetStat.Get(group, name) }

// Mem returns a /proc/meminfo value in kB.
func (s *Sample) Mem(name string) (int64, bool) {
	if s.MemInfo == nil {
		return 0, false
	}
	return s.MemInfo.Get(name)
}

// VM returns a /proc/vmstat value.
func (s *Sample) VM(name string) (int64, bool) {
	if s.VMStat == nil {
		return 0, false
	}
	return s.VMStat.Get(name)
}

// Zone returns the zoneinfo block of (node, zone), or nil.
func (s *Sample) Zone(node int, zone string) *kernel.Zone {
	for i := range s.Zones {
		if s.Zones[i].Node == node && s.Zones[i].Name == zone {
			return &s.Zones[i]
		}
	}
	return nil
}

// Pressure returns the PSI of a resource ("memory"), or nil.
func (s *Sample) Pressure(resource string) *kernel.Pressure {
	for i := range s.PSI {
		if s.PSI[i].Resource == resource {
			return &s.PSI[i]
		}
	}
	return nil
}

// CountedFrom says from when a sample's counters count.
type CountedFrom string

const (
	// SinceBoot ("") is the kernel's own counters: /proc/net/netstat and snmp, netstat -s,
	// nstat -a (absolute) and nstat -r (its history reset).
	SinceBoot CountedFrom = ""
	// SinceLastRun is nstat without -a: iproute2's misc/nstat.c prints each counter less
	// the value in its history file, the increment since nstat's previous run (since boot
	// only on its first run, when there is no history), over an interval the text does not
	// give.
	SinceLastRun CountedFrom = "nstat_previous_run"
	// SinceUnsaid is nstat's rows with no command line in the text: since boot if they came
	// from nstat -a, since its previous run if not.
	SinceUnsaid CountedFrom = "nstat_unsaid"
)
