package tune

import (
	"context"
	"strings"

	"headroom/kernel"
)

// HostSampler reads the guards' counters from a live root: /proc/net/netstat and snmp
// (TcpExt, IpExt, Tcp) and /proc/net/dev of the namespace the changes were applied in, and
// /proc/vmstat, /proc/pressure/memory and the kernel log, which are host-wide.
//
// With Netns set, the network files are read from a thread inside the namespace
// (kernel.InNetns): /proc/net follows the thread group leader, /proc/thread-self/net the
// thread (fs/proc/proc_net.c).
type HostSampler struct {
	Root  kernel.Root
	Netns string
	// kmsg counts allocation failures logged since the sampler opened /dev/kmsg; nil when it
	// cannot be read (not root, kernel.dmesg_restrict, a capture root), and then the guard
	// is unknown.
	kmsg        *kernel.KmsgFollower
	allocFailed float64
}

// NewHostSampler opens the kernel log from now on (when it can) for the allocation-failure
// count. Close it when done.
func NewHostSampler(root kernel.Root, netns string) *HostSampler {
	h := &HostSampler{Root: root, Netns: netns}
	if root.IsHost() {
		if f, err := kernel.NewKmsgFollower(root, false); err == nil {
			h.kmsg = f
		}
	}
	return h
}

// Close releases the kernel log.
func (h *HostSampler) Close() error {
	if h.kmsg == nil {
		return nil
	}
	return h.kmsg.Close()
}

// Sample reads the counters now.
func (h *HostSampler) Sample(ctx context.Context) (Sample, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := Sample{}
	var err error
	if h.Netns != "" {
		err = kernel.InNetns(h.Netns, func(r kernel.Root) error { return sampleNet(r, s) })
	} else {
		err = sampleNet(h.Root, s)
	}
	if err != nil {
		return nil, err
	}
	sampleMemory(h.Root, s)
	if h.kmsg != nil {
		recs, err := h.kmsg.ReadNew()
		if err == nil {
			for _, r := range recs {
				// warn_alloc (mm/page_alloc.c): "%s: page allocation failure: order:%u, mode:..."
				if strings.Contains(r.Message, "page allocation failure") {
					h.allocFailed++
				}
			}
			s["kmsg.alloc_failures"] = h.allocFailed
		}
	}
	return s, nil
}

func sampleNet(root kernel.Root, s Sample) error {
	groups, err := kernel.ReadNetStat(root)
	if err != nil {
		return err
	}
	for _, gc := range [][2]string{{"TcpExt", "PruneCalled"}, {"TcpExt", "RcvPruned"}, {"TcpExt", "TCPRcvQDrop"},
		{"Tcp", "RetransSegs"}, {"Tcp", "OutSegs"}, {"IpExt", "InOctets"}, {"IpExt", "OutOctets"}} {
		if v, ok := groups.Get(gc[0], gc[1]); ok {
			s[gc[0]+"."+gc[1]] = float64(v)
		}
	}
	// /proc/net/dev's "drop" column is rx_dropped + rx_missed_errors and "fifo" is
	// rx_fifo_errors (dev_seq_printf_stats, net/core/net-procfs.c): the ring overruns a
	// larger ring is meant to stop are in their sum.
	devs, err := kernel.ReadNetDev(root)
	if err != nil {
		return err
	}
	for _, d := range devs {
		drop, ok1 := d.Counters.Get("rx_dropped")
		fifo, ok2 := d.Counters.Get("rx_fifo_errors")
		if ok1 && ok2 {
			s["netdev."+d.Name+".rx_drops"] = float64(drop + fifo)
		}
	}
	return nil
}

// sampleMemory leaves a counter out when its file is missing (PSI needs CONFIG_PSI and is
// off with psi=0): the guard is then "unknown", not zero.
func sampleMemory(root kernel.Root, s Sample) {
	if vm, err := kernel.ReadVMStat(root); err == nil {
		var stall int64
		have := false
		for i := 0; i < vm.Len(); i++ {
			name, v := vm.At(i)
			if strings.HasPrefix(name, "allocstall") {
				stall += v
				have = true
			}
		}
		if have {
			s["vmstat.allocstall"] = float64(stall)
		}
		if v, ok := vm.Get("compact_fail"); ok {
			s["vmstat.compact_fail"] = float64(v)
		}
	}
	if p, err := kernel.ReadPSI(root, "memory"); err == nil && p.Some != nil {
		s["psi.memory.some_usec"] = float64(p.Some.TotalUsec)
	}
}
