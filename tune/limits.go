package tune

import (
	"bufio"
	"bytes"
	"fmt"
	"headroom/plan"
	"os"
	"strconv"
	"strings"

	"headroom/kernel"
)

// ReadLimits reads the host facts the bounds need: MemTotal from proc/meminfo under root,
// and this process's page size (tcp_mem and udp_mem count pages of the running kernel).
func ReadLimits(root kernel.Root) (plan.Limits, error) {
	l := plan.Limits{PageSizeBytes: uint64(os.Getpagesize())}
	b, err := root.ReadFile("proc/meminfo")
	if err != nil {
		return l, err
	}
	kb, err := parseMemTotalKB(b)
	if err != nil {
		return l, fmt.Errorf("/proc/meminfo: %w", err)
	}
	l.MemTotalKB = kb
	return l, nil
}

// parseMemTotalKB finds "MemTotal: N kB" (the first line of /proc/meminfo on every kernel
// since 2.6; fs/proc/meminfo.c).
func parseMemTotalKB(b []byte) (uint64, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			v, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("line %d: MemTotal %q: %w", line, f[1], err)
			}
			if len(f) >= 3 && f[2] != "kB" {
				return 0, fmt.Errorf("line %d: MemTotal unit %q, want kB", line, f[2])
			}
			return v, nil
		}
	}
	return 0, fmt.Errorf("no MemTotal line")
}
