package diagnose

import (
	"slices"
	"sort"
	"strings"
)

// What to collect next: when the input cannot decide between the causes the edges allow for
// a root, or cannot show the consequence the edges predict, the story names the exact
// commands that would, each with the question it answers. The commands are per rule: the
// input each rule needs.

type collectSpec struct {
	commands []string
	answers  string
}

var collectFor = map[string]collectSpec{
	"min-free-too-low":          {[]string{"sysctl vm.min_free_kbytes", "grep -E 'Node|min|low|high|free ' /proc/zoneinfo"}, "is the reserve (min_free_kbytes, the zones' min watermark) too small for the link?"},
	"memory-fragmented":         {[]string{"cat /proc/buddyinfo"}, "is free memory there but split into blocks smaller than the order asked (fragmentation), or simply short (reserve)?"},
	"compaction-failing":        {[]string{"grep -E '^compact_' /proc/vmstat"}, "does compaction run and fail to rebuild large blocks?"},
	"slab-unreclaimable-growth": {[]string{"grep -E 'Slab|SReclaimable|SUnreclaim' /proc/meminfo", "slabtop -o -s c | head -20"}, "do kernel caches (slab) grow and hold the memory?"},
	"conntrack-full":            {[]string{"sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max"}, "does the connection-tracking table grow toward its limit?"},
	"tcp-mem-oversized":         {[]string{"sysctl net.ipv4.tcp_mem net.ipv4.tcp_rmem net.ipv4.tcp_wmem", "cat /proc/net/sockstat"}, "how much memory may TCP take, and how much does it hold?"},
	"tcp-buffers-exceed-budget": {[]string{"sysctl net.ipv4.tcp_rmem net.ipv4.tcp_wmem", "ss -s"}, "can per-socket buffers × connections exceed the memory?"},
	"orphan-send-queues":        {[]string{"ss -tnoe state fin-wait-1", "cat /proc/net/sockstat"}, "do closed connections hoard send queues?"},
	"nic-ring-below-max":        {[]string{"ethtool -g eth0"}, "is the RX ring below the maximum the NIC allows?"},
	"nic-rx-overruns":           {[]string{"ethtool -S eth0", "ip -s link show eth0"}, "does the NIC drop frames because the ring is full (overruns)?"},
	"softnet-squeeze":           {[]string{"cat /proc/net/softnet_stat"}, "do receive polls run out of budget or time?"},
	"softnet-backlog-drops":     {[]string{"cat /proc/net/softnet_stat"}, "does the per-CPU backlog drop packets?"},
	"tcp-memory-pressure":       {[]string{"nstat -az", "cat /proc/net/sockstat"}, "does TCP enter memory pressure (TCPMemoryPressures, prune and collapse counters)?"},
	"swap-under-load":           {[]string{"vmstat 1 30"}, "does the box swap (si/so) while it receives?"},
	"kswapd-saturated":          {[]string{"vmstat 1 30", "grep -E 'pgscan|pgsteal|allocstall' /proc/vmstat", "top -b -n1 | grep kswapd"}, "does kswapd keep up with allocation?"},
	"tlb-shootdown-storm":       {[]string{"grep TLB /proc/interrupts"}, "does reclaim cost a TLB flush on every CPU?"},
	"overcommit-exposed":        {[]string{"grep -E 'Committed_AS|CommitLimit' /proc/meminfo", "sysctl vm.overcommit_memory"}, "are commitments beyond what memory and swap can back?"},
	"allocator-churn":           {[]string{"perf top -g (or readprofile on 2.4)"}, "does per-packet allocation take the kernel's time?"},
	"direct-reclaim-stalls":     {[]string{"grep -E 'allocstall|pgscan_direct' /proc/vmstat", "cat /proc/pressure/memory"}, "do allocating tasks stall in direct reclaim?"},
	"retransmit-rate":           {[]string{"nstat -az"}, "are segments retransmitted (RetransSegs against OutSegs)?"},
	"rcvq-pruning":              {[]string{"nstat -az", "ss -tnm"}, "are receive queues pruned or collapsed?"},
}

// extraCollect are questions a finding raises that no rule answers yet: the evidence an
// expert asks for before naming a cause.
var extraCollect = map[string][]Collect{
	"kernel-time-growth": {
		{Command: "ss -s", Answers: "do TIME_WAIT and other closing sockets pile up after the floods?"},
		{Command: "perf record -a -g -- sleep 30; perf report (readprofile on 2.4)", Answers: "where does the extra kernel time go (a kernel profile before and after the floods)?"},
		{Command: "headroom recovery --target HOST:PORT", Answers: "does the service recover: baseline, flood, idle, re-measure, the same procedure every time"},
	},
}

// A port that a user-space driver owns (DPDK) loses frames when its poll loop does not
// return descriptors to the NIC in time: the RX descriptors per queue (nb_rxd, given to
// rte_eth_rx_queue_setup), the mbuf pool that refills them (rx_nombuf counts its misses) and
// the core that polls. None of the kernel's knobs (ethtool -G, netdev_budget, min_free_kbytes)
// reaches it, so the questions are the application's. A poll-mode core shows 100% CPU
// whether it keeps up or not: top cannot answer the last one.
const userSpaceOpen = "the port is driven from user space (DPDK), so the kernel's ring, softnet and allocator are not on its path; what is open is the RX descriptors per queue, the mbuf pool and whether the polling core keeps up"

var userSpaceCollect = []Collect{
	{Command: "testpmd> show port info 0; show rxq info 0 0", Answers: "RX descriptors per queue (\"Number of RXDs\") against the port's maximum (\"Max possible number of RXDs per queue\"): the application sets them (nb_rxd), not ethtool -G"},
	{Command: "testpmd> show port xstats 0 (or dpdk-proc-info -- --xstats)", Answers: "rx_nombuf and the per-queue errors: did the mbuf pool run dry, or did the poll loop fall behind with buffers to spare?"},
}

// mem-info question: an allocation failure without the zones' state cannot tell a reserve
// too small from fragmentation.
var memInfoCollect = Collect{
	Command: "dmesg | grep -A 60 'page allocation failure'",
	Answers: "the Mem-Info that follows the failure: each zone's free memory against min, and free blocks per order: reserve or fragmentation?",
}

func tellNextEvidence(s *Story, g *graph, checks map[string]Status) {
	if len(s.Chains) == 0 {
		return
	}
	seen := map[string]bool{}
	appOnly := map[string]bool{} // asked of an application, not of the host: capture cannot answer
	add := func(c Collect) {
		if seen[c.Command] {
			for i := range s.NextEvidence {
				if s.NextEvidence[i].Command == c.Command {
					s.NextEvidence[i].For = mergeIDs(s.NextEvidence[i].For, c.For)
				}
			}
			return
		}
		seen[c.Command] = true
		s.NextEvidence = append(s.NextEvidence, c)
	}
	unknown := func(id string) bool {
		if checks == nil {
			return true
		}
		st, ok := checks[id]
		return !ok || st == StatusNotChecked
	}
	for ci, c := range s.Chains {
		root := c.Root
		if g.nodes[root].f.Severity == Info {
			continue // since-boot notes raise no question worth a command
		}
		rf := g.nodes[root].f
		if rf.Facts.UserSpacePort {
			s.Undecided = append(s.Undecided, root+": "+userSpaceOpen)
			for _, x := range userSpaceCollect {
				x.For = []string{root}
				add(x)
				appOnly[x.Command] = true
			}
			continue
		}
		// Causes the edges allow for the root that the input could not check.
		var open []string
		for _, e := range edges {
			if e.Effect != root || e.Aggravates || g.nodes[e.Cause] != nil || !unknown(e.Cause) || e.RuledOut != nil && e.RuledOut(rf) {
				continue
			}
			if _, ok := collectFor[e.Cause]; ok && !contains(open, e.Cause) {
				open = append(open, e.Cause)
			}
		}
		// An address-space or impossible-order failure is decided without the zones: no
		// free memory serves it, so their state leaves nothing open.
		if strings.HasPrefix(root, "alloc-fail-") && root != classNotPhysical && !rf.Facts.ZoneState {
			why := "so a reserve too small and fragmentation fit alike"
			if root == "alloc-fail-reserve" {
				// Its reports are of order 0 (or inferred so), which fragmentation cannot fail.
				why = "so how far the zones were below min, and what held their memory, is unknown"
			}
			s.Undecided = append(s.Undecided, root+": the input has no zone state after the failure, "+why)
			mi := memInfoCollect
			mi.For = []string{root}
			add(mi)
		}
		if len(open) > 0 {
			s.Undecided = append(s.Undecided, root+": what made it happen is not in the input ("+strings.Join(open, ", ")+" could not be checked)")
		}
		for _, id := range open {
			spec := collectFor[id]
			add(Collect{Command: strings.Join(spec.commands, "; "), Answers: spec.answers, For: []string{root, id}})
		}
		for _, x := range extraCollect[root] {
			x.For = []string{root}
			add(x)
		}
		// The main chain alone: a root with no consequence in the input, whose predicted
		// consequences could not be checked (does the slow allocator overrun the ring?).
		if ci == 0 && len(c.Links) == 1 {
			var effects []string
			for _, e := range edges {
				if e.Cause != root || e.Aggravates || g.nodes[e.Effect] != nil || !unknown(e.Effect) {
					continue
				}
				if spec, ok := collectFor[e.Effect]; ok {
					if !contains(effects, e.Effect) {
						effects = append(effects, e.Effect)
					}
					add(Collect{Command: strings.Join(spec.commands, "; "), Answers: spec.answers, For: []string{e.Effect}})
				}
			}
			if len(effects) > 0 {
				s.Undecided = append(s.Undecided, root+": what it leads to is not in the input ("+strings.Join(effects, ", ")+" could not be checked)")
			}
		}
		if ci == 0 && len(s.NextEvidence) == 0 {
			break // a decided main story: independent problems do not add questions
		}
	}
	if slices.ContainsFunc(s.NextEvidence, func(c Collect) bool { return !appOnly[c.Command] }) {
		add(Collect{Command: "headroom capture -o host.txtar", Answers: "all of the above from the host at once, in one file to attach"})
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func mergeIDs(a, b []string) []string {
	for _, x := range b {
		if !contains(a, x) {
			a = append(a, x)
		}
	}
	sort.Strings(a)
	return a
}
