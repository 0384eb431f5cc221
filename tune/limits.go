package tune

import (
	"fmt"
	"os"

	"headroom/kernel"
	"headroom/plan"
)

// ReadLimits reads the host facts the bounds need: MemTotal from proc/meminfo under root
// (kernel.ReadMemInfo, the reader every command uses), and this process's page size (tcp_mem
// and udp_mem count pages of the running kernel).
func ReadLimits(root kernel.Root) (plan.Limits, error) {
	l := plan.Limits{PageSizeBytes: uint64(os.Getpagesize())}
	mi, err := kernel.ReadMemInfo(root)
	if err != nil {
		return l, err
	}
	kb, ok := mi.Get("MemTotal")
	if !ok || kb <= 0 {
		return l, fmt.Errorf("/proc/meminfo: no MemTotal")
	}
	l.MemTotalKB = uint64(kb)
	return l, nil
}
