package source

import (
	"fmt"

	"headroom/kernel"
	"headroom/plan"
)

// ReadPlanHost reads what `headroom plan` needs of the host under root, with the readers
// doctor uses: MemTotal and LowTotal, kernel release, machine and page size, the sysctls,
// the receiving NICs with their rings and losses (plan.ReceivingNICs) and, for a plan of
// this host (meminfo), /proc/meminfo.
func ReadPlanHost(root kernel.Root, meminfo bool) plan.ThisHost {
	nicFacts, _ := kernel.ReadNICs(root)
	host, _ := ReadHost(root, nicFacts)
	if host.MemTotalKB == 0 {
		return plan.ThisHost{Host: host, Err: fmt.Errorf("/proc/meminfo: no MemTotal")}
	}
	devs, _ := kernel.ReadNetDev(root)
	var eth kernel.Ethtool
	if root.IsHost() {
		if e, err := kernel.NewEthtool(); err == nil {
			eth = e
			defer e.Close()
		}
	}
	h := plan.ThisHost{Host: host, NICs: plan.ReceivingNICs(nicFacts, devs, kernel.ReadNICStats(root, eth, nicFacts))}
	h.FQ, _ = kernel.QdiscAvailability(root, host.Kernel, "fq")
	if meminfo {
		if mi, err := kernel.ReadMemInfo(root); err == nil {
			h.MemInfoKB = map[string]int64{}
			for i := 0; i < mi.Len(); i++ {
				k, v := mi.At(i)
				h.MemInfoKB[k] = v
			}
		}
	}
	return h
}
