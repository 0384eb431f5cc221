package netlab

import (
	"errors"
	"fmt"

	"headroom/kernel"
)

// Measurements of the kernel as a lab host sees it, shared by the workloads here and the
// scenarios built on top: the readers themselves are package kernel's; what lives here is
// which view (namespace) they read and the lab's wording of what is missing.

// Read runs fn inside h's namespace with the root that shows h's own /proc/net and
// /proc/sys/net (kernel.InNetns says which files follow the thread and how).
func (h *Host) Read(fn func(root kernel.Root) error) error {
	return h.Do(func() error { return fn(kernel.HostRoot().InThreadNetns()) })
}

// NetStat reads /proc/net/netstat and /proc/net/snmp as h sees them: their counters are per
// namespace (net->mib, include/net/netns/mib.h), so a fresh host starts them at zero and
// two readings around a workload count what it did.
func (h *Host) NetStat() (kernel.Groups, error) {
	var g kernel.Groups
	err := h.Read(func(root kernel.Root) (err error) {
		g, err = kernel.ReadNetStat(root)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("lab: netstat in %s: %w", h.Netns(), err)
	}
	return g, nil
}

// DevCounters reads dev's line of /proc/net/dev in h (per namespace, like the device).
func (h *Host) DevCounters(dev string) (kernel.Counters, error) {
	var c kernel.Counters
	found := false
	err := h.Read(func(root kernel.Root) error {
		devs, err := kernel.ReadNetDev(root)
		for _, d := range devs {
			if d.Name == dev {
				c, found = d.Counters, true
			}
		}
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("no device %s", dev)
	}
	if err != nil {
		return kernel.Counters{}, fmt.Errorf("lab: /proc/net/dev in %s: %w", h.Netns(), err)
	}
	return c, nil
}

// TCPMemPages reads the "mem" field of the TCP line of /proc/net/sockstat. That field is
// proto_memory_allocated(&tcp_prot) (net/ipv4/proc.c: sockstat_seq_show): one counter for
// the whole kernel, not per namespace, in pages, and the same number tcp_mem is compared
// against. So it is read from the host's view; it includes TCP memory of everything else on
// the machine (RunBulk reports that separately as the baseline).
func TCPMemPages() (int64, error) {
	g, err := kernel.ReadSockStat(kernel.HostRoot())
	if err != nil {
		return 0, fmt.Errorf("lab: %w", err)
	}
	v, ok := g.Get("TCP", "mem")
	if !ok {
		return 0, errors.New("lab: /proc/net/sockstat: no TCP mem field")
	}
	return v, nil
}
