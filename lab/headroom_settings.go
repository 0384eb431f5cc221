package lab

import (
	"fmt"
	"os"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/model"
	"headroom/plan"

	"golang.org/x/sys/unix"
)

// computePlan asks package plan for the link: the lab's hosts both send and receive
// (RoleBoth), on this machine's kernel, architecture and page size, with memoryBytes of
// RAM (0: this machine's MemTotal).
func computePlan(rateBitsPerSec uint64, rtt time.Duration, streams int, memoryBytes int64) (plan.Plan, error) {
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		return plan.Plan{}, fmt.Errorf("lab: uname: %w", err)
	}
	if memoryBytes == 0 {
		m, err := memTotalBytes()
		if err != nil {
			return plan.Plan{}, err
		}
		memoryBytes = m
	}
	current := map[string]string{}
	for _, k := range []string{"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem", "net.core.rmem_max", "net.core.wmem_max", "net.ipv4.tcp_congestion_control", "net.ipv4.tcp_adv_win_scale", "net.ipv4.tcp_available_congestion_control"} {
		if v, err := netlab.ReadSysctl(k); err == nil {
			current[k] = v
		}
	}
	release := unix.ByteSliceToString(uts.Release[:])
	// Whether this kernel can pace loss-based flows (the fq qdisc): plan says so either way.
	fq, _ := kernel.QdiscAvailability(kernel.HostRoot(), release, "fq")
	p, err := plan.Compute(plan.Input{
		BandwidthBitsPerSec: float64(rateBitsPerSec),
		RTT:                 rtt,
		Streams:             streams,
		Role:                plan.RoleBoth,
		MTUBytes:            1500,
		MemoryBytes:         memoryBytes,
		PageSizeBytes:       os.Getpagesize(),
		KernelVersion:       release,
		Arch:                unix.ByteSliceToString(uts.Machine[:]),
		Current:             current,
		FQ:                  fq,
	})
	if err != nil {
		return plan.Plan{}, fmt.Errorf("lab: plan for %d bit/s, %v, %d streams: %w", rateBitsPerSec, rtt, streams, err)
	}
	return p, nil
}

// headroomSettings is the "headroom" settings set: the changes `headroom plan` recommends
// for this link.
func headroomSettings(rateBitsPerSec uint64, rtt time.Duration, streams int, memoryBytes int64) ([]model.Change, error) {
	p, err := computePlan(rateBitsPerSec, rtt, streams, memoryBytes)
	if err != nil {
		return nil, err
	}
	return p.Settings, nil
}

// memTotalBytes reads MemTotal from /proc/meminfo.
func memTotalBytes() (int64, error) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("lab: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				return 0, fmt.Errorf("lab: /proc/meminfo MemTotal %q: %w", strings.TrimSpace(rest), err)
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("lab: /proc/meminfo: no MemTotal")
}
