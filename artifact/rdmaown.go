package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// RDMA user-space libraries' own lines about locked memory (h19c, written from rdma-core's
// and UCX's sources, blind to round 19's batches).
//
// rdma-core's libibverbs warns at load, for a non-root process whose RLIMIT_MEMLOCK is 32 KiB
// or less (libibverbs/init.c check_memlock_limit):
//
//	"libibverbs: Warning: RLIMIT_MEMLOCK is %llu bytes.\n    This will severely limit memory registrations.\n"
//
// UCX logs a failed memory registration or a verbs object it could not create
// (uct/ib/base/ib_md.c, ib_iface.c) in its own log format "[%lu.%06lu] [%s:%d:%d] %16s:%-4u
// %-4s %-5s %s" (time, host:pid:thread, file:line, "UCX", level), the message e.g.
// "ibv_reg_mr(address=%p, length=%zu, access=0x%lx) failed: %m", with ENOMEM followed by
// " : Please set max locked memory (ulimit -l) to 'unlimited' (current: %llu kbytes)" (older
// ". Please set ..."). Its stamp reads like dmesg's: without this reader the line was taken
// for a kernel line, and the kernel rules found a clean log in it.
//
// Pinning pages for the HCA (ib_umem_get: mm->pinned_vm against RLIMIT_MEMLOCK) fails with
// ENOMEM at the process's lock limit (ulimit -l, limits.conf memlock, systemd's LimitMEMLOCK,
// a container runtime's default, Slurm's PropagateResourceLimits) or at the HCA's own
// translation tables, not for want of the host's free memory: no rule of headroom's applies,
// and the lines are named, never counted as the host's memory or its clean kernel log.
//
// NCCL's verbs wrapper (src/misc/ibvwrap.cc, fix24a) warns in its own format "HOST:PID:TID
// [DEV] misc/ibvwrap.cc:LINE NCCL WARN Call to ibv_reg_mr failed with error %s" (ibv_reg_mr,
// ibv_reg_mr_iova2, ibv_reg_dmabuf_mr ...): with strerror's "Cannot allocate memory" the same
// pinning at the lock limit as UCX's, named with UCX's reason. Another NCCL WARN, or the error
// named in a sentence, stays as it was.
var (
	reUCXLine     = lazyre.New(`^\s*(?:\[\d{6,12}\.\d{1,9}\]\s+)?\[[\w.-]+:\d+ *:\d+\]\s+\S+:\d+\s+UCX\s+(ERROR|WARN|DIAG|INFO|DEBUG)\s`)
	reNCCLVerbsNo = lazyre.New(`^\s*(?:#{1,6}\s+)?(?:[\w.-]+:\d+:\d+\s+(?:\[\d+\]\s+)?)?(?:[\w/.-]+\.cc:\d+\s+)?NCCL WARN Call to (ibv_\w+) failed with error (Cannot allocate memory)\s*$`)
	reVerbsMemlck = lazyre.New(`^\s*libibverbs: Warning: RLIMIT_MEMLOCK is \d+ bytes\.\s*$`)
)

const (
	ucxLockedWhy  = "UCX's own error: opening the device, registering memory or creating a verbs object failed with ENOMEM (Cannot allocate memory): pinned pages counted against the process's RLIMIT_MEMLOCK (ulimit -l, limits.conf memlock, LimitMEMLOCK, the container runtime's or Slurm's propagated limit) or the HCA's own resources (translation tables, UARs: the firmware's \"limits exceeded\"); a process's or the device's limit, not the host's free memory: no rule applies"
	ncclLockedWhy = "NCCL's verbs wrapper (misc/ibvwrap.cc): a memory registration failed with ENOMEM (Cannot allocate memory): pinned pages counted against the process's RLIMIT_MEMLOCK (ulimit -l, limits.conf memlock, LimitMEMLOCK, the container runtime's or Slurm's propagated limit) or the HCA's own resources; a process's or the device's limit, not the host's free memory: no rule applies"
	ucxLineWhy    = "UCX's own log line (its time, host:pid:thread, file:line, level): the library's message, not the kernel's log"
	verbsMemlkWhy = "libibverbs' start-up warning that the process's RLIMIT_MEMLOCK is 32 KiB or less (rdma-core check_memlock_limit): memory registrations will fail at the lock limit (ulimit -l, limits.conf memlock, LimitMEMLOCK); a process limit, not the host's memory: no rule applies"
)

// rdmaOwnHanded: a line the fast path must hand to the loop (a kernel-stamped UCX line).
func rdmaOwnHanded(l *Line) bool {
	t := l.Text
	return len(t) > 0 && (t[0] == '[' || t[0] == ' ') && strings.Contains(t, " UCX ")
}

// rdmaOwnLine names line text t as one of the libraries' lines above.
func rdmaOwnLine(t string) (string, bool) {
	switch {
	case strings.Contains(t, " UCX "):
		t = mpirunOutputTail(t) // Open MPI's --timestamp-output/--tag-output prefix (fix50d, unreadhpc.go)
		m := reUCXLine.FindStringSubmatch(t)
		if m == nil {
			return "", false
		}
		if ucxNoMemory(t) {
			return ucxNoMemoryWhy, true // fix50d (unreadhpc.go)
		}
		if strings.Contains(t, "Cannot allocate memory") || strings.Contains(t, "max locked memory") {
			return ucxLockedWhy, true
		}
		return ucxLineWhy, true
	case strings.Contains(t, "NCCL WARN Call to ibv_"):
		if reNCCLVerbsNo.MatchString(t) {
			return ncclLockedWhy, true
		}
	case strings.Contains(t, "libibverbs: "):
		if reVerbsMemlck.MatchString(t) {
			return verbsMemlkWhy, true
		}
	case strings.Contains(t, "This will severely limit memory registrations."):
		if strings.TrimSpace(t) == "This will severely limit memory registrations." {
			return verbsMemlkWhy, true
		}
	}
	return "", false
}
