package tune

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// raiseOnly are the limits whose lower value gives the host less: buffer sizes, queue
// lengths, memory limits, reserves. A change that lowers one of them needs --allow-lower
// (Applier.AllowLower): an admin, a tool or the kernel itself may have raised it for a
// reason headroom cannot see (khugepaged raises min_free_kbytes with transparent hugepages,
// set_recommended_min_free_kbytes() in mm/khugepaged.c; TuneD users lost that when a profile
// lowered it: redhat-performance/tuned#752). Keys outside this set (tcp_adv_win_scale,
// swappiness, congestion control, ...) have no "more" direction and are not checked.
var raiseOnly = map[string]bool{
	"net.ipv4.tcp_rmem": true, "net.ipv4.tcp_wmem": true, "net.ipv4.tcp_mem": true, "net.ipv4.udp_mem": true,
	"net.core.rmem_max": true, "net.core.wmem_max": true, "net.core.rmem_default": true, "net.core.wmem_default": true,
	"net.ipv4.udp_rmem_min": true, "net.ipv4.udp_wmem_min": true, "net.core.optmem_max": true,
	"net.core.netdev_max_backlog": true, "net.core.netdev_budget": true, "net.core.netdev_budget_usecs": true,
	"net.core.dev_weight": true, "net.core.somaxconn": true, "net.ipv4.tcp_max_syn_backlog": true,
	"net.ipv4.tcp_max_orphans": true, "net.ipv4.tcp_max_tw_buckets": true,
	"vm.min_free_kbytes": true, "vm.watermark_scale_factor": true, "net.ipv4.tcp_notsent_lowat": true,
}

// notsentUnlimited is tcp_notsent_lowat's default, UINT_MAX: no limit. Setting a mark below
// it lowers nothing anybody raised, so it is not a lowering (the kernel default of
// sysctl_tcp_notsent_lowat, net/ipv4/tcp_ipv4.c).
const notsentUnlimited = "4294967295"

// Lowers says whether setting key (of kind) from cur to next lowers a raise-only limit, and
// how ("4194304 → 212992", "field 2 131072 → 87380"). Values that do not parse as the same
// number of integers are not compared.
func Lowers(kind, key, cur, next string) (string, bool) {
	switch kind {
	case model.ChangeSysctl:
		if !raiseOnly[key] || (key == "net.ipv4.tcp_notsent_lowat" && strings.TrimSpace(cur) == notsentUnlimited) {
			return "", false
		}
	case model.ChangeEthtool: // ring sizes: a smaller ring drops sooner
	default:
		return "", false
	}
	c, n := ints(cur), ints(next)
	if c == nil || len(c) != len(n) {
		return "", false
	}
	var parts []string
	for i := range c {
		if n[i] < c[i] {
			if len(c) == 1 {
				parts = append(parts, fmt.Sprintf("%d → %d", c[i], n[i]))
			} else {
				parts = append(parts, fmt.Sprintf("field %d %d → %d", i+1, c[i], n[i]))
			}
		}
	}
	return strings.Join(parts, ", "), len(parts) > 0
}

func ints(s string) []int64 {
	out, _ := kernel.SysctlInts(s)
	return out
}

// Usage is what the host uses now of the two limits that must never be set below their use:
// orphaned TCP sockets (tcp_max_orphans: above it the kernel resets closing connections,
// "too many orphaned sockets", tcp_check_oom() in net/ipv4/tcp.c) and TCP memory in pages
// (tcp_mem: at pressure the kernel shrinks every socket's buffers, at max it refuses
// allocations, __sk_mem_raise_allocated() in net/core/sock.c). Both are host-wide counters.
type Usage struct {
	Known       bool
	TCPOrphans  int64 // /proc/net/sockstat "TCP: orphan"
	TCPMemPages int64 // /proc/net/sockstat "TCP: mem"
}

// ReadUsage reads Usage from root's /proc/net/sockstat.
func ReadUsage(root kernel.Root) (Usage, error) {
	g, err := kernel.ReadSockStat(root)
	if err != nil {
		return Usage{}, err
	}
	o, ok1 := g.Get("TCP", "orphan")
	m, ok2 := g.Get("TCP", "mem")
	if !ok1 || !ok2 {
		return Usage{}, fmt.Errorf("/proc/net/sockstat: no TCP orphan or mem count")
	}
	return Usage{Known: true, TCPOrphans: o, TCPMemPages: m}, nil
}

// belowUse refuses to lower tcp_max_orphans or tcp_mem below what the host uses now, whatever
// --allow-lower says, and to lower them at all when the use cannot be read. It returns ""
// when the change is fine; a change that does not lower the current value always is.
func belowUse(key, cur, next string, u Usage) string {
	n := ints(next)
	var field int // the field compared with the use: the limit itself, or tcp_mem's pressure
	var use int64
	var unknown, below string
	switch {
	case key == "net.ipv4.tcp_max_orphans" && len(n) == 1:
		field, use = 0, u.TCPOrphans
		unknown = "the host's orphan count is unknown (/proc/net/sockstat unreadable), so lowering tcp_max_orphans could reset closing connections now"
		below = "tcp_max_orphans %d is below the %d orphaned sockets the host has now: the kernel would reset closing connections at once"
	case key == "net.ipv4.tcp_mem" && len(n) == 3:
		field, use = 1, u.TCPMemPages
		unknown = "the host's TCP memory use is unknown (/proc/net/sockstat unreadable), so lowering tcp_mem could put every socket under memory pressure now"
		below = "tcp_mem pressure %d pages is below the %d pages TCP uses now: every socket would be squeezed at once"
	default:
		return ""
	}
	// A raise is never refused, even one that stays below the use: it only helps.
	if _, lowers := Lowers(model.ChangeSysctl, key, cur, next); !lowers {
		return ""
	}
	if !u.Known {
		return unknown
	}
	if n[field] < use {
		return fmt.Sprintf(below, n[field], use)
	}
	return ""
}
