package report

import (
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// Summary is the host summary printed above the findings: the numbers an operator checks
// first. Fields are absent (nil or empty) when the source did not have them.
type Summary struct {
	Samples        int              `json:"samples"`
	SpanSeconds    float64          `json:"span_seconds,omitempty"`
	MemTotalKB     *int64           `json:"mem_total_kb,omitempty"`
	MemAvailableKB *int64           `json:"mem_available_kb,omitempty"`
	MemFreeKB      *int64           `json:"mem_free_kb,omitempty"`
	SwapUsedKB     *int64           `json:"swap_used_kb,omitempty"`
	Zones          []ZoneSummary    `json:"zones,omitempty"`
	NICs           []NICSummary     `json:"nics,omitempty"`
	TCPMem         *TCPMemSummary   `json:"tcp_mem,omitempty"`
	Sockets        map[string]int64 `json:"sockets,omitempty"`
	Orphans        *int64           `json:"orphans,omitempty"`
}

// ZoneSummary is one zone's free memory against its watermarks, in kB.
type ZoneSummary struct {
	Node             int    `json:"node"`
	Zone             string `json:"zone"`
	FreeKB           int64  `json:"free_kb"`
	MinKB            int64  `json:"min_kb"`
	LowKB            int64  `json:"low_kb"`
	HighKB           int64  `json:"high_kb"`
	ManagedKB        *int64 `json:"managed_kb,omitempty"`
	HighestFreeOrder *int   `json:"highest_free_order,omitempty"` // from buddyinfo; -1 none free
}

// NICSummary is one interface: speed, MTU, ring against its maximum.
type NICSummary struct {
	Name      string `json:"name"`
	Driver    string `json:"driver,omitempty"`
	SpeedMbps int64  `json:"speed_mbps"`
	MTU       int64  `json:"mtu"`
	Virtual   bool   `json:"virtual"`
	RxRing    *int64 `json:"rx_ring,omitempty"`
	RxRingMax *int64 `json:"rx_ring_max,omitempty"`
	Ring      string `json:"ring_status,omitempty"` // why the ring is absent
}

// TCPMemSummary is TCP memory against tcp_mem, in pages.
type TCPMemSummary struct {
	Pages    *int64  `json:"pages,omitempty"`
	Limits   []int64 `json:"limits,omitempty"` // tcp_mem min pressure max
	PageSize int     `json:"page_size"`
}

// Summarize computes the summary from the newest values of the timeline.
func Summarize(tl *model.Timeline) Summary {
	var s Summary
	s.Samples = len(tl.Samples)
	s.SpanSeconds = tl.Span().Seconds()
	i64 := func(v int64) *int64 { return &v }
	if tl.Host.MemTotalKB > 0 {
		s.MemTotalKB = i64(tl.Host.MemTotalKB)
	}
	if last := tl.LastWith(func(x *model.Sample) bool { return x.MemInfo != nil }); last != nil {
		if v, ok := last.Mem("MemTotal"); ok {
			s.MemTotalKB = i64(v)
		}
		if v, ok := last.Mem("MemAvailable"); ok {
			s.MemAvailableKB = i64(v)
		}
		if v, ok := last.Mem("MemFree"); ok {
			s.MemFreeKB = i64(v)
		}
		tot, ok1 := last.Mem("SwapTotal")
		free, ok2 := last.Mem("SwapFree")
		if used, ok := last.Mem("SwapUsed"); ok {
			// The tool's own "used" (free, top, swapon): total - free of free -h's rounded
			// figures ("Swap: 11Gi 242Mi 11Gi") is 0 where 242 MiB is used.
			s.SwapUsedKB = i64(used)
		} else if ok1 && ok2 {
			s.SwapUsedKB = i64(tot - free)
		}
	}
	pageKB := int64(tl.Host.PageSize / 1024)
	if pageKB <= 0 {
		pageKB = 4
	}
	if last := tl.LastWith(func(x *model.Sample) bool { return len(x.Zones) > 0 }); last != nil {
		for _, z := range last.ZoneWatermarks() {
			if !z.HasFree || z.Present == 0 {
				continue // zones with no memory (Movable, Device on most hosts)
			}
			zs := ZoneSummary{Node: z.Node, Zone: z.Zone, FreeKB: z.Free * pageKB, MinKB: z.Min * pageKB, LowKB: z.Low * pageKB, HighKB: z.High * pageKB}
			if z.HasManaged {
				zs.ManagedKB = i64(z.Managed * pageKB)
			}
			if z.HasBuddy {
				o := z.LargestFreeOrder
				zs.HighestFreeOrder = &o
			}
			s.Zones = append(s.Zones, zs)
		}
	}
	ethtool := tl.AllNICStats()
	for _, n := range tl.Host.NICs {
		ns := NICSummary{Name: n.Name, Driver: n.Driver, SpeedMbps: n.SpeedMbps, MTU: n.MTU, Virtual: n.Virtual}
		for _, e := range ethtool {
			if e.Name != n.Name {
				continue
			}
			if e.Ring != nil {
				ns.RxRing, ns.RxRingMax = i64(e.Ring.Rx), i64(e.Ring.RxMax)
			} else if e.RingErr != "" {
				ns.Ring = shortReason(e.RingErr)
			}
		}
		s.NICs = append(s.NICs, ns)
	}
	if last := tl.LastWith(func(x *model.Sample) bool { return len(x.SockStat) > 0 }); last != nil {
		t := &TCPMemSummary{PageSize: tl.Host.PageSize}
		if v, ok := last.SockStat.Get("TCP", "mem"); ok {
			t.Pages = i64(v)
		}
		if v, ok := last.SockStat.Get("TCP", "orphan"); ok {
			s.Orphans = i64(v)
		}
		t.Limits = sysctlInts(tl, "net.ipv4.tcp_mem")
		s.TCPMem = t
	} else if lim := sysctlInts(tl, "net.ipv4.tcp_mem"); lim != nil {
		s.TCPMem = &TCPMemSummary{Limits: lim, PageSize: tl.Host.PageSize}
	}
	if last := tl.LastWith(func(x *model.Sample) bool { return x.Sockets != nil }); last != nil {
		s.Sockets = map[string]int64{}
		for st, tot := range last.Sockets.ByState {
			s.Sockets[st] = tot.Count
		}
	}
	return s
}

func sysctlInts(tl *model.Timeline, key string) []int64 {
	v, _, ok := tl.Sysctl(key)
	if !ok {
		return nil
	}
	out, _ := kernel.SysctlInts(v)
	return out
}

// sortedStates orders socket states the way ss lists them, unknown ones last.
func sortedStates(m map[string]int64) []string {
	order := map[string]int{"ESTABLISHED": 0, "SYN_SENT": 1, "SYN_RECV": 2, "FIN_WAIT1": 3, "FIN_WAIT2": 4, "TIME_WAIT": 5, "CLOSE": 6, "CLOSE_WAIT": 7, "LAST_ACK": 8, "LISTEN": 9, "CLOSING": 10}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		oi, ok1 := order[keys[i]]
		oj, ok2 := order[keys[j]]
		if !ok1 {
			oi = 99
		}
		if !ok2 {
			oj = 99
		}
		if oi != oj {
			return oi < oj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// shortReason reduces a reader's error to what the summary table has room for.
func shortReason(err string) string {
	switch {
	case strings.Contains(err, "not supported"):
		return "not supported"
	case strings.Contains(err, "permission denied"), strings.Contains(err, "operation not permitted"):
		return "needs root"
	}
	return err
}
