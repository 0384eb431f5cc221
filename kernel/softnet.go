package kernel

import (
	"fmt"
	"io"
)

// SoftnetCPU is one line of /proc/net/softnet_stat (net/core/net-procfs.c softnet_seq_show;
// net/core/dev.c before 3.9), hex columns, one line per online CPU. The column count grew
// with the kernel:
//
//	 9  2.4           total, dropped, time_squeeze, throttled, four fastroute counters
//	                  (CONFIG_NET_FASTROUTE), cpu_collision (net/core/dev.c dev_proc_stats)
//	 9  2.6.0-2.6.34  processed, dropped, time_squeeze, five zero columns ("was
//	                  fastroute"), cpu_collision
//	10  2.6.35        + received_rps (RPS, "rps: Receive Packet Steering")
//	11  3.11          + flow_limit_count (CONFIG_NET_FLOW_LIMIT; 0 without it)
//	13  5.10          + backlog length and the CPU index (commit 7d58e6555870, "net-sysfs:
//	                  add backlog len and CPU id to softnet data")
//	15  6.4           + input_pkt_queue and process_queue lengths separately (commit
//	                  59da2d7b0e99, "net-sysfs: display two backlog queue len separately")
//
// No mainline kernel printed 12 columns; the parser accepts any count from 9 up, fills what
// is printed and ignores columns beyond 15. cpu_collision still has its column but has been
// printed as 0 ("was cpu_collision") since softnet_data lost the field between 4.4 and 4.8.
// Columns says how many were printed; fields beyond it are absent, not zero. CPU is the
// index column when printed, else the line number (which is wrong when CPUs are offline,
// since offline CPUs have no line: say so where it matters).
//
// The counters are unsigned 32-bit in the kernel ("%08x" of unsigned int) and wrap; a rate
// across a wrap must be dropped, not negative.
type SoftnetCPU struct {
	CPU          int   `json:"cpu"`
	Columns      int   `json:"columns"`
	Processed    int64 `json:"processed"`
	Dropped      int64 `json:"dropped"`
	TimeSqueeze  int64 `json:"time_squeeze"`
	CPUCollision int64 `json:"cpu_collision"`
	// Throttled is column 4: on 2.4 the number of times netif_rx throttled this CPU's backlog
	// (netdev_rx_stat.throttled); printed as 0 since 2.6.
	Throttled      int64 `json:"throttled,omitempty"`
	ReceivedRPS    int64 `json:"received_rps"`
	FlowLimitCount int64 `json:"flow_limit_count"`
	// BacklogLen is input_pkt_queue + process_queue, the packets waiting in this CPU's
	// backlog (bounded by net.core.netdev_max_backlog). A gauge, not a counter.
	BacklogLen int64 `json:"backlog_len"`
	// InputQueueLen and ProcessQueueLen are the two parts of BacklogLen (6.4+, 15 columns).
	InputQueueLen   int64 `json:"input_queue_len"`
	ProcessQueueLen int64 `json:"process_queue_len"`
}

// Softnet columns (0-based) of the fields the kernel has printed.
const (
	softnetMinColumns = 9
	softnetIndexCol   = 12
)

// ReadSoftnet reads /proc/net/softnet_stat. The numbers are per CPU and global, but the file
// lives under /proc/net, so it is read through root.NetPath like the other network files.
func ReadSoftnet(root Root) ([]SoftnetCPU, error) {
	return parseFile(root, root.NetPath("softnet_stat"), ParseSoftnet)
}

// ParseSoftnet parses /proc/net/softnet_stat text.
func ParseSoftnet(r io.Reader) ([]SoftnetCPU, error) {
	return parseText(r, ParseSoftnetInto)
}

// ParseSoftnetInto parses /proc/net/softnet_stat text into *dst, reusing the slice (see
// ParseMemInfoInto).
func ParseSoftnetInto(dst *[]SoftnetCPU, data []byte) error {
	if k := softnetSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	cpus := (*dst)[:0]
	defer func() { *dst = cpus }()
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		var col [15]int64
		n := 0
		rest := line
		for {
			var tok []byte
			tok, rest = txtField(rest)
			if len(tok) == 0 {
				break
			}
			v, ok := txtHex(tok)
			if !ok {
				return lines.errorf("column %d: %q is not hexadecimal", n+1, tok)
			}
			if n < len(col) {
				col[n] = v
			}
			n++
		}
		if n < softnetMinColumns {
			return lines.errorf("%d columns, want at least %d", n, softnetMinColumns)
		}
		c, ok := softnetRow(&col, n, len(cpus))
		if !ok {
			return lines.errorf("CPU index %#x out of range", col[softnetIndexCol])
		}
		cpus = append(cpus, c)
	}
	if len(cpus) == 0 {
		return fmt.Errorf("softnet_stat: no CPUs")
	}
	return nil
}

// softnetRow makes the row of line number i (from 0) out of its n columns. ok is false when
// the CPU index column is out of range.
func softnetRow(col *[15]int64, n, i int) (c SoftnetCPU, ok bool) {
	c = SoftnetCPU{
		CPU:          i,
		Columns:      n,
		Processed:    col[0],
		Dropped:      col[1],
		TimeSqueeze:  col[2],
		Throttled:    col[3],
		CPUCollision: col[8],
	}
	if n > 9 {
		c.ReceivedRPS = col[9]
	}
	if n > 10 {
		c.FlowLimitCount = col[10]
	}
	if n > 11 {
		c.BacklogLen = col[11]
	}
	if n > softnetIndexCol {
		if col[softnetIndexCol] > 1<<22 { // far above any CONFIG_NR_CPUS
			return c, false
		}
		c.CPU = int(col[softnetIndexCol])
	}
	if n > 13 {
		c.InputQueueLen = col[13]
	}
	if n > 14 {
		c.ProcessQueueLen = col[14]
	}
	return c, true
}

// softnetSameLayout is the fast path of ParseSoftnetInto (see txtIntAt): as many lines as
// cpus up to its capacity (as in netStatSameLayout), each with as many columns as before,
// every column "%08x" and a space or the end of the line after it, as softnet_seq_show
// prints them. It returns the number of lines, 0 when the text does not fit.
func softnetSameLayout(cpus []SoftnetCPU, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(cpus) {
			return 0
		}
		n := cpus[k].Columns
		if n < softnetMinColumns {
			return 0
		}
		var col [15]int64
		q := p
		for i := range n {
			if i > 0 {
				if !txtAt(data, q, " ") {
					return 0
				}
				q++
			}
			if q+8 > len(data) || (q+8 < len(data) && data[q+8] != ' ' && data[q+8] != '\n') {
				return 0
			}
			v, ok := txtHex(data[q : q+8])
			if !ok {
				return 0
			}
			if i < len(col) {
				col[i] = v
			}
			q += 8
		}
		c, ok := softnetRow(&col, n, k)
		if !ok {
			return 0
		}
		if p, ok = txtEOL(data, q); !ok {
			return 0
		}
		cpus[k] = c
	}
	return k
}
