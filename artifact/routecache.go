package artifact

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"headroom/model"
)

// The IPv4 route cache (kernels before 3.6) counted by its lines, as router operators do
// beside the ip_dst_cache slab row when the kernel logs "dst cache overflow":
//
//	$ ip route show cache | grep cache | wc -l      (iproute2 prints "cache" on each entry)
//	2247
//	$ cat /proc/net/rt_cache | wc -l                (one entry a line after a header,
//	2159                                             net/ipv4/route.c rt_cache_seq_show)
//
// The commands may be one shell line of several, each ended by ';' (the shell's
// continuation lines are joined by SplitLines): every "| wc -l" prints one number, so the
// bare numbers after the block pair with the counting commands in order, when the block's
// other commands are greps of /proc/slabinfo (rows, never a bare number) and the numbers
// are as many as the counting commands.

// routeCacheCount: cmd counts the route cache's entries by lines.
func routeCacheCount(cmd string) bool {
	parts := strings.Split(cmd, "|")
	if len(parts) < 2 || strings.Join(fields(parts[len(parts)-1]), " ") != "wc -l" {
		return false
	}
	for _, p := range parts[1 : len(parts)-1] {
		// Only iproute2's own "cache" word may be filtered on: another filter counts a part.
		if strings.Join(fields(p), " ") != "grep cache" {
			return false
		}
	}
	fs := fields(parts[0])
	switch {
	case len(fs) == 2 && fs[0] == "cat" && fs[1] == "/proc/net/rt_cache":
		return true
	case len(fs) >= 3 && path.Base(fs[0]) == "ip":
		k := 1
		for k < len(fs) && strings.HasPrefix(fs[k], "-") {
			k++
		}
		if k >= len(fs) || !strings.HasPrefix("route", fs[k]) {
			return false
		}
		k++
		if k < len(fs) && fs[k] != "cache" {
			if !strings.HasPrefix("show", fs[k]) && !strings.HasPrefix("list", fs[k]) && fs[k] != "ls" {
				return false
			}
			k++
		}
		return k == len(fs)-1 && fs[k] == "cache"
	}
	return false
}

// isRouteCacheCountLine: a line that may hold such a command (cheap: both words present).
func isRouteCacheCountLine(_, t string) bool {
	return strings.Contains(t, "wc -l") && strings.Contains(t, "cache")
}

// blockCommand is a line of a command block without its prompt (PS1's "$ " or "# ", PS2's
// "> " of a continued line), its continuation backslash and its ';'.
func blockCommand(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.Index(t, "$ "); i >= 0 {
		t = t[i+2:]
	} else if strings.HasPrefix(t, "# ") {
		t = t[2:]
	}
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(t[1:])
	}
	t = strings.TrimSpace(strings.TrimSuffix(t, "\\"))
	return strings.TrimSpace(strings.TrimSuffix(t, ";"))
}

// endsCommand: the line ends a command of a one-liner that goes on (';', a backslash).
func endsCommand(t string) bool {
	t = strings.TrimSpace(t)
	t = strings.TrimSpace(strings.TrimSuffix(t, "\\"))
	return strings.HasSuffix(t, ";")
}

// blockLine: the line k steps from i in direction dir, stepping over one blank line when
// spaced (a double-spaced paste: a blank line after every line); -1 when none.
func (d *doc) blockLine(i, dir int, spaced bool) int {
	k := i + dir
	if spaced && k >= 0 && k < len(d.ls) && strings.TrimSpace(d.ls[k].Text) == "" {
		k += dir
	}
	if k < 0 || k >= len(d.ls) {
		return -1
	}
	return k
}

func (d *doc) tryRouteCacheCount(i int) int {
	if !routeCacheCount(blockCommand(d.ls[i].Text)) {
		return 0
	}
	// A double-spaced paste: the line before or after i is blank and the one beyond is a
	// command of the block.
	spaced := i > 1 && strings.TrimSpace(d.ls[i-1].Text) == "" && endsCommand(d.ls[i-2].Text) ||
		endsCommand(d.ls[i].Text) && i+2 < len(d.ls) && strings.TrimSpace(d.ls[i+1].Text) == "" && strings.Contains(d.ls[i+2].Text, "|")
	// The block: the lines before i that end a command (the same shell line), i, and the
	// lines after it while the previous one ended a command.
	block := []int{i}
	for k := d.blockLine(i, -1, spaced); k >= 0 && len(block) < 6 && endsCommand(d.ls[k].Text); k = d.blockLine(k, -1, spaced) {
		block = append([]int{k}, block...)
	}
	for k := i; len(block) < 12 && endsCommand(d.ls[k].Text); {
		n := d.blockLine(k, 1, spaced)
		if n < 0 || !strings.Contains(d.ls[n].Text, "|") {
			break
		}
		block = append(block, n)
		k = n
	}
	for _, k := range block {
		if k >= i {
			break
		}
		if routeCacheCount(blockCommand(d.ls[k].Text)) {
			return 0 // the block was read at its first such command
		}
	}
	var counts []bool // per line-counting command: does it count the route cache
	for _, k := range block {
		c := blockCommand(d.ls[k].Text)
		switch {
		case strings.HasSuffix(c, "wc -l"):
			counts = append(counts, routeCacheCount(c))
		case strings.Contains(c, "/proc/slabinfo") && strings.Contains(c, "grep"):
		default:
			return 0 // a command whose output may hold bare numbers of its own
		}
	}
	// The output: up to a blank line (two in a double-spaced paste); its bare numbers, one
	// per counting command.
	var nums []int
	last := block[len(block)-1]
	for k, blanks := last+1, 0; k < len(d.ls) && k <= last+24; k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if t == "" {
			blanks++
			if !spaced || blanks > 1 {
				break
			}
			continue
		}
		blanks = 0
		if d.ls[k].Kernel {
			break
		}
		if isDigits(t) {
			nums = append(nums, k)
		}
	}
	if len(nums) != len(counts) {
		return 0
	}
	j := 0
	for _, k := range block {
		c := blockCommand(d.ls[k].Text)
		if !strings.HasSuffix(c, "wc -l") {
			continue
		}
		if counts[j] {
			n, err := strconv.ParseInt(strings.TrimSpace(d.ls[nums[j]].Text), 10, 64)
			if err == nil {
				d.tl.RouteCacheCounts = append(d.tl.RouteCacheCounts, model.RouteCacheCount{Entries: n, Command: c, Source: fmt.Sprintf("line %d", d.ls[nums[j]].No)})
			}
		}
		j++
	}
	// Nothing is taken: the block's lines (a slabinfo row among them) stay the other
	// readers'; the counts are recorded once, at the block's first counting command.
	return 0
}
