package plan

import (
	"math"
	"time"
)

// BacklogDrainInterval is how long plan assumes packets may wait in a CPU's input backlog
// (net.core.netdev_max_backlog, the queue enqueue_to_backlog() fills for RPS, veth, tun and
// non-NAPI drivers, net/core/dev.c) before process_backlog() drains it. When softirq work
// overruns MAX_SOFTIRQ_TIME (2 ms) it is deferred to ksoftirqd, an ordinary thread that waits
// its turn behind runnable tasks; 20 ms is two ticks at HZ=100 and the order of CFS's
// scheduling period on a small SMP box. An assumption, stated so it can be challenged.
const BacklogDrainInterval = 20 * time.Millisecond

// DefaultNetdevBudgetUsecs is net.core.netdev_budget_usecs' default when the host's value is
// unknown: 2000 µs since 4.12 (commit 7acf8a1e8a28, which replaced "2 jiffies").
const DefaultNetdevBudgetUsecs = 2000

// NetdevMaxBacklogPackets is the backlog that holds line-rate arrivals for one drain
// interval: ⌈pps × BacklogDrainInterval⌉. The kernel default is 1000.
func NetdevMaxBacklogPackets(packetsPerSec float64) int64 {
	return int64(math.Ceil(packetsPerSec * BacklogDrainInterval.Seconds()))
}

// NetdevBudgetPackets matches net.core.netdev_budget (packets per net_rx_action() round,
// default 300) to the round's time budget at line rate: ⌈pps × budget_usecs⌉. A packet
// budget below that ends rounds with work left (time_squeeze in /proc/net/softnet_stat) while
// the NIC ring keeps filling.
func NetdevBudgetPackets(packetsPerSec float64, budgetUsecs int64) int64 {
	if budgetUsecs <= 0 {
		budgetUsecs = DefaultNetdevBudgetUsecs
	}
	return int64(math.Ceil(packetsPerSec * float64(budgetUsecs) / 1e6))
}

// RingMillis is how long an RX ring of the given entries lasts at a packet rate: the time
// the CPU may be away before the NIC drops (rx_missed_errors / overruns).
func RingMillis(ringEntries int64, packetsPerSec float64) float64 {
	if packetsPerSec <= 0 {
		return 0
	}
	return float64(ringEntries) / packetsPerSec * 1000
}
