package artifact

import (
	"strconv"
	"strings"
)

// h42c (corpus 3859): a shell script's xtrace of a memory check. bash's `set -x` prints a
// command substitution's pipeline one level deeper ("++") before the assignment ("+"), its
// parts in any order:
//
//	++ awk '{print $2}'
//	++ grep '^Mem'
//	++ free
//	+ MEM=1020272
//
// `free | grep ^Mem | awk '{print $2}'` is the "total" column of free's Mem row (procps
// free(1): KiB by default, -m MiB, -g GiB, -b bytes): this host's MemTotal, as the
// script read it at that moment (YunoHost's app install scripts check RAM so). Read as the
// host's memory when nothing better gave it. The Swap row, another column, free -h's or
// --si's rounded cells, and a pipeline without free are not read.

// xtraceBody: the xtrace depth ("+" count) and the command of line t, after any log prefix
// ("2019-08-05 09:01:51,159: DEBUG - ").
func xtraceBody(t string) (int, string, bool) {
	for p := 0; p < len(t); p++ {
		if t[p] != '+' || (p > 0 && t[p-1] != ' ' && t[p-1] != '\t') {
			continue
		}
		n := p
		for n < len(t) && t[n] == '+' {
			n++
		}
		if n < len(t) && t[n] == ' ' {
			return n - p, strings.TrimSpace(t[n+1:]), true
		}
		return 0, "", false
	}
	return 0, "", false
}

// freeUnitKB: the factor from free's printed unit (by its options) to KiB; 0 when the
// options print rounded or decimal cells.
func freeUnitKB(cmd string) (num, den int64) {
	f := strings.Fields(cmd)
	if len(f) == 0 || f[0] != "free" {
		return 0, 1
	}
	num, den = 1, 1
	for _, o := range f[1:] {
		switch o {
		case "-k", "--kibi", "-w", "--wide", "-l", "--lohi", "-t", "--total":
		case "-m", "--mebi":
			num = 1024
		case "-g", "--gibi":
			num = 1024 * 1024
		case "-b", "--bytes":
			num, den = 1, 1024
		default:
			return 0, 1 // -h, --si, --mega, --giga, a count: rounded or decimal
		}
	}
	return num, den
}

// xtraceFreeMemory finds the first such assignment in lines: the host's MemTotal in KiB.
func xtraceFreeMemory(lines []proseLine) (kb int64, first, last int, ok bool) {
	for i, p := range lines {
		depth, body, found := xtraceBody(p.text)
		if !found || depth != 1 {
			continue
		}
		eq := strings.IndexByte(body, '=')
		if eq <= 0 || strings.ContainsAny(body[:eq], " $") {
			continue
		}
		v := body[eq+1:]
		if v == "" || len(v) > 12 || strings.Trim(v, "0123456789") != "" {
			continue
		}
		var num, den int64
		var grepMem, awk2, other bool
		top := i
		for j := i - 1; j >= 0 && j >= i-4; j-- {
			dd, b, f := xtraceBody(lines[j].text)
			if !f || dd != 2 || lines[j].no != lines[j+1].no-1 {
				break
			}
			top = j
			switch {
			case b == "free" || strings.HasPrefix(b, "free "):
				num, den = freeUnitKB(b)
			case strings.HasPrefix(b, "grep ") && (strings.Contains(b, "^Mem") || strings.Contains(b, " Mem")):
				grepMem = true
			case strings.HasPrefix(b, "awk ") && strings.Contains(b, "print $2}"):
				awk2 = true
			default:
				other = true // another command in the pipeline: another figure
			}
		}
		if num == 0 || !grepMem || !awk2 || other {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue
		}
		kb = n * num / den
		if kb < 32*1024 || kb > 1<<36 {
			continue
		}
		return kb, lines[top].no, p.no, true
	}
	return 0, 0, 0, false
}

// xtraceHostMemory takes xtraceFreeMemory's figure from the other programs' log lines or
// the prose as this host's memory.
func (d *doc) xtraceHostMemory(sub *subjects) bool {
	for _, ls := range [][]proseLine{d.otherLines, d.proseLines} {
		if kb, first, last, ok := xtraceFreeMemory(ls); ok {
			d.setHostMemory(sub, kb, first, last, "a script's xtrace of free's Mem total (++ free, ++ grep '^Mem', ++ awk '{print $2}', + VAR=N)")
			return true
		}
	}
	return false
}
