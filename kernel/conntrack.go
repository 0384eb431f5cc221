package kernel

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// /proc/net/stat/nf_conntrack is netfilter's connection tracking statistics, one row a
// possible CPU under a header naming the columns (net/netfilter/nf_conntrack_standalone.c
// ct_cpu_seq_show: the header on SEQ_START_TOKEN, then "%08x  %08x ..." of the table's count
// and the CPU's struct ip_conntrack_stat):
//
//	entries  clashres found new invalid ignore delete chainlength insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart
//	00000000  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000  00000000 00000000 00000000 00000000
//
// Kernels renamed columns (searched -> clashres, delete_list -> chainlength in 5.x), so the
// names are read from the header. entries is the table's count, printed on every row; the
// others are per-CPU counters (unsigned int) that a reading sums. The file exists only while
// nf_conntrack is loaded (or built in), and each network namespace has its own (the module
// registers it per netns in nf_conntrack_standalone_init_proc). It is the one home of the
// format: the pasted-text reader (artifact) uses ConntrackStatHeader and ConntrackStatRow.

// ConntrackStatFile is the file's name under a root's net directory (Root.NetPath).
const ConntrackStatFile = "stat/nf_conntrack"

// ConntrackStatHeader returns the column names of the file's header line; ok is false unless
// the line is that header ("entries" first, insert_failed among the names).
func ConntrackStatHeader(line string) (names []string, ok bool) {
	names = strings.Fields(line)
	if len(names) < 4 || names[0] != "entries" || !strings.Contains(line, "insert_failed") {
		return nil, false
	}
	return names, true
}

// ConntrackStatRow reads one CPU's row of n hex counters into vals (reused); ok is false
// unless the row has exactly n fields, each a hex number of at most 15 digits (the kernel
// prints "%08x" of an unsigned int).
func ConntrackStatRow(line string, n int, vals []int64) ([]int64, bool) {
	return conntrackRow(line, n, vals)
}

// conntrackRow is ConntrackStatRow for a string or the sampler's read buffer, without
// allocating beyond vals.
func conntrackRow[T string | []byte](line T, n int, vals []int64) ([]int64, bool) {
	vals = vals[:0]
	i := 0
	for {
		for i < len(line) && isConntrackBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return vals, len(vals) == n
		}
		if len(vals) == n {
			return vals, false
		}
		var v int64
		digits := 0
		for ; i < len(line) && !isConntrackBlank(line[i]); i++ {
			c := line[i]
			var h byte
			switch {
			case c >= '0' && c <= '9':
				h = c - '0'
			case c >= 'a' && c <= 'f':
				h = c - 'a' + 10
			case c >= 'A' && c <= 'F':
				h = c - 'A' + 10
			default:
				return vals, false
			}
			if digits++; digits > 15 {
				return vals, false
			}
			v = v<<4 | int64(h)
		}
		vals = append(vals, v)
	}
}

func isConntrackBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// SumConntrackStats adds each counter over the CPUs' readings into c (reset first), in name
// order: "entries" (the table's count, on every row) is its largest value, not a sum, and a
// "cpu" key (conntrack -S's CPU number) is not a counter.
func SumConntrackStats(c *Counters, cpus []map[string]int64) {
	tot := map[string]int64{}
	for _, m := range cpus {
		for k, v := range m {
			switch k {
			case "cpu":
			case "entries":
				tot[k] = max(tot[k], v)
			default:
				tot[k] += v
			}
		}
	}
	names := make([]string, 0, len(tot))
	for k := range tot {
		names = append(names, k)
	}
	sort.Strings(names)
	c.Reset()
	for _, k := range names {
		c.Set(k, tot[k])
	}
}

// ParseConntrackStatInto reads the file into c: each column summed over the CPUs' rows
// ("entries", the table's count on every row, is its largest value), in the header's order.
// c keeps its names while the header does not change, so a sampler's steady-state reading
// allocates nothing. A file without its header or with no full row is an error.
func ParseConntrackStatInto(c *Counters, data []byte) error {
	line, rest, _ := bytes.Cut(data, []byte{'\n'})
	if !bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte("entries")) || !bytes.Contains(line, []byte("insert_failed")) {
		return fmt.Errorf("nf_conntrack statistics: no header line naming entries and insert_failed")
	}
	if !sameConntrackNames(c, line) {
		c.Reset()
		for f := range strings.FieldsSeq(string(line)) {
			c.Set(f, 0)
		}
	}
	names := c.Names()
	for j := range names {
		c.Set(names[j], 0)
	}
	var buf [32]int64
	rows := 0
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		vals, ok := conntrackRow(line, len(names), buf[:0])
		if !ok {
			return fmt.Errorf("nf_conntrack statistics: row %d is not %d hex counters", rows+1, len(names))
		}
		rows++
		for j, v := range vals {
			old := c.values[j]
			if names[j] == "entries" {
				c.values[j] = max(old, v)
			} else {
				c.values[j] = old + v
			}
		}
	}
	if rows == 0 {
		return fmt.Errorf("nf_conntrack statistics: a header without rows")
	}
	return nil
}

// sameConntrackNames reports whether c holds exactly the header's names, in its order.
func sameConntrackNames(c *Counters, header []byte) bool {
	names := c.Names()
	j := 0
	for i := 0; ; {
		for i < len(header) && isConntrackBlank(header[i]) {
			i++
		}
		if i == len(header) {
			return j == len(names)
		}
		k := i
		for k < len(header) && !isConntrackBlank(header[k]) {
			k++
		}
		if j == len(names) || string(header[i:k]) != names[j] {
			return false
		}
		i, j = k, j+1
	}
}
