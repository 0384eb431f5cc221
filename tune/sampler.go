package tune

import (
	"context"
	"strings"

	"headroom/kernel"
)

// HostSampler reads the guards' counters from a live root: /proc/net/netstat and snmp
// (TcpExt, IpExt, Tcp) and /proc/net/dev of the namespace the changes were applied in, and
// /proc/vmstat and /proc/pressure/memory, which are host-wide.
//
// With Netns set, the network files are read from a thread inside the namespace
// (kernel.InNetns): /proc/net follows the thread group leader, /proc/thread-self/net the
// thread (fs/proc/proc_net.c).
func HostSampler(root kernel.Root, netns string) Sampler {
	return func(ctx context.Context) (Sample, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := Sample{}
		var err error
		if netns != "" {
			err = kernel.InNetns(netns, func(r kernel.Root) error { return sampleNet(r, s) })
		} else {
			err = sampleNet(root, s)
		}
		if err != nil {
			return nil, err
		}
		sampleMemory(root, s)
		return s, nil
	}
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
