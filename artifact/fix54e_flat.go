package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Tables that a web page (a translated how-to, a vendor guide, a wiki that lost its <pre>)
// ran onto one line, as flattened.go's forms: the line is cut back into the lines the
// command printed and read by the command's own reader.
//
//	vmstat:        "# vmstat 5 3 procs -----------memory---------- ... r b swpd free ... st 3 0 384120 ..."
//	/proc/meminfo: "# cat /proc/meminfo MemTotal: 1882064 kB MemFree: 1376380 kB ..."
//	free:          "total used free shared buffers cached Mem: 1288720 ... -/+ buffers/cache: ... Swap: ..."
//	ethtool -g:    "Ring parameters for eth0: Pre-set maximums: RX: 4096 RX Mini: 2048 ... TX: 512"
//	user_beancounters: "[root@server]# cat /proc/user_beancounters Version: 2.5 uid resource held ..."
//	a kernel log:  "kernel: apache2 invoked oom-killer: ... kernel: Mem-Info: kernel: active_anon:31868 ..."
//
// Each form is told by its command's own words in their printed order, so a sentence that
// names a column ("the free column of vmstat") is none.

// unflattenTables returns the lines of one of the forms above, or nil.
func unflattenTables(s string) []string {
	switch {
	case strings.Contains(s, "swpd") && strings.Contains(s, " r b "):
		return unflattenVmstat(s)
	case strings.Contains(s, "MemTotal: ") && strings.Contains(s, " MemFree: "):
		return unflattenMeminfo(s)
	case strings.Contains(s, "total") && strings.Contains(s, " Mem: ") && strings.Contains(s, " Swap: "):
		return unflattenFree(s)
	case strings.Contains(s, "Ring parameters for ") && strings.Contains(s, "Pre-set maximums: "):
		return unflattenEthtoolRing(s)
	case strings.Contains(s, "/proc/user_beancounters "):
		return unflattenBeancounters(s)
	case strings.Count(s, "kernel: ") >= 3:
		return unflattenKernelLog(s)
	}
	return nil
}

// withHead puts the text before the output (the prompt and command, "# vmstat 5 3") on a
// line of its own ahead of the output's lines, and the text after it (prose the page ran
// on) after them.
func withHead(head string, out []string, tail string) []string {
	var ls []string
	if h := strings.TrimSpace(head); h != "" {
		ls = append(ls, h)
	}
	ls = append(ls, out...)
	if t := strings.TrimSpace(tail); t != "" {
		ls = append(ls, t)
	}
	return ls
}

// unflattenVmstat cuts procps vmstat output (vmstat.go's forms): the group line from
// "procs", the column line from "r b", then one row per as many numbers as there are
// columns. A last row the page cut short ("... 87 6 7 0 3 0 1113") is dropped: its
// columns cannot be told. nil without a whole row.
func unflattenVmstat(s string) []string {
	ws := strings.Fields(s)
	r := -1
	for k := 0; k+1 < len(ws); k++ {
		if ws[k] == "r" && ws[k+1] == "b" {
			r = k
			break
		}
	}
	if r < 0 {
		return nil
	}
	g := r
	for g > 0 && (ws[g-1] == "procs" || strings.HasPrefix(ws[g-1], "-")) {
		g--
	}
	j := r
	for j < len(ws) && vmstatColumns[ws[j]] {
		j++
	}
	cols := ws[r:j]
	if !isVMStatHeader(strings.Join(cols, " ")) {
		return nil
	}
	out := []string{}
	if g < r {
		out = append(out, strings.Join(ws[g:r], " "))
	}
	out = append(out, strings.Join(cols, " "))
	k := j
	for ; k+len(cols) <= len(ws); k += len(cols) {
		row := ws[k : k+len(cols)]
		if !allDigitWords(row) {
			break
		}
		out = append(out, strings.Join(row, " "))
	}
	if k == j {
		return nil
	}
	rest := ws[k:]
	if allDigitWords(rest) {
		rest = nil // a row cut short
	}
	return withHead(strings.Join(ws[:g], " "), out, strings.Join(rest, " "))
}

func allDigitWords(ws []string) bool {
	for _, w := range ws {
		if !isDigits(w) {
			return false
		}
	}
	return true
}

// unflattenMeminfo cuts /proc/meminfo (fs/proc/meminfo.c: "Name: value kB", the HugePages_
// counts without the unit) from "MemTotal:" on, one field a line, to the first word that is
// no field. nil with fewer than three fields.
func unflattenMeminfo(s string) []string {
	i := strings.Index(s, "MemTotal: ")
	ws := strings.Fields(s[i:])
	var out []string
	k := 0
	for k+1 < len(ws) {
		n := 2
		if k+2 < len(ws) && ws[k+2] == "kB" {
			n = 3
		}
		l := strings.Join(ws[k:k+n], " ")
		if !isMemInfoLine(l) {
			break
		}
		out = append(out, l)
		k += n
	}
	if len(out) < 3 {
		return nil
	}
	return withHead(s[:i], out, strings.Join(ws[k:], " "))
}

// unflattenFree cuts procps free's table: the header from "total", then a row at each label
// free prints (procps free.c: "Mem:", "Low:"/"High:" with -l, "-/+ buffers/cache:" before
// procps-ng 3.3.10, "Swap:", "Total:" with -t), each with its numbers (as printed, "1.2G"
// with -h). nil without a "Mem:" row of as many values as the header has columns.
func unflattenFree(s string) []string {
	ws := strings.Fields(s)
	t := -1
	for k := 0; k+2 < len(ws); k++ {
		if ws[k] == "total" && ws[k+1] == "used" && ws[k+2] == "free" {
			t = k
			break
		}
	}
	if t < 0 {
		return nil
	}
	m := t
	for m < len(ws) && ws[m] != "Mem:" {
		m++
	}
	hdr := ws[t:m]
	if m == len(ws) || len(hdr) < 3 || len(hdr) > 7 {
		return nil
	}
	out := []string{strings.Join(hdr, " ")}
	k := m
	for k < len(ws) {
		label := ws[k]
		n := 1
		if label == "-/+" && k+1 < len(ws) && ws[k+1] == "buffers/cache:" {
			label, n = "-/+ buffers/cache:", 2
		} else if label != "Mem:" && label != "Low:" && label != "High:" && label != "Swap:" && label != "Total:" {
			break
		}
		e := k + n
		for e < len(ws) && e-k-n < len(hdr) && isFreeValue(ws[e]) {
			e++
		}
		if e-k-n < 2 || label == "Mem:" && e-k-n != len(hdr) {
			break
		}
		out = append(out, label+" "+strings.Join(ws[k+n:e], " "))
		k = e
	}
	if len(out) < 2 {
		return nil
	}
	return withHead(strings.Join(ws[:t], " "), out, strings.Join(ws[k:], " "))
}

// isFreeValue: a number as free prints it, bare or with -h's unit ("1.2G", "512M", "0B").
func isFreeValue(w string) bool {
	w = strings.TrimRight(w, "BKMGTPi")
	return w != "" && strings.Trim(w, "0123456789.,") == ""
}

// reFlatRingField starts each line of ethtool -g (ethtool.c dump_ring: the two section
// titles, then "RX:", "RX Mini:", "RX Jumbo:", "TX:" and, since ethtool 5.x, "RX Buf Len:",
// "CQE Size:", "TX Push:", "RX Push:", "TX push buff len:", "TCP data split:").
var reFlatRingField = lazyre.New(`\s+(Pre-set maximums:|Current hardware settings:|RX Mini:|RX Jumbo:|RX Buf Len:|CQE Size:|TX Push:|RX Push:|TX push buff len:|TCP data split:|RX:|TX:)`)

// unflattenEthtoolRing cuts ethtool -g from its "Ring parameters for" title: a line at each
// section title and field, each field keeping one value; words after the last field's value
// are the page's prose. nil without both sections.
func unflattenEthtoolRing(s string) []string {
	i := strings.Index(s, "Ring parameters for ")
	ls := strings.Split(reFlatRingField.ReplaceAllString(s[i:], "\n$1"), "\n")
	if len(ls) < 4 {
		return nil
	}
	tail := ""
	last := ls[len(ls)-1]
	if c := strings.Index(last, ": "); c > 0 {
		ws := strings.Fields(last[c+2:])
		if len(ws) > 1 {
			ls[len(ls)-1] = last[:c+2] + ws[0]
			tail = strings.Join(ws[1:], " ")
		}
	}
	return withHead(s[:i], ls, tail)
}

// unflattenKernelLog cuts a kernel log that a page ran onto one line, each record after the
// "kernel: " its syslog line started with ("kernel: apache2 invoked oom-killer: ... kernel:
// Mem-Info: kernel: active_anon:31868 ..."), into one record a line; the text before the
// first record is a line of its own.
func unflattenKernelLog(s string) []string {
	i := strings.Index(s, "kernel: ")
	if i > 0 && s[i-1] != ' ' {
		return nil
	}
	var out []string
	for _, r := range strings.Split(s[i+len("kernel: "):], " kernel: ") {
		out = append(out, "kernel: "+strings.TrimSpace(r))
	}
	return withHead(s[:i], out, "")
}

// unflattenBeancounters cuts the prompt and command off /proc/user_beancounters run onto one
// line ("[root@server]# cat /proc/user_beancounters Version: 2.5 uid resource held ..."): the
// file's own line, from "Version:" or its header, is what flatBeancounters reads.
func unflattenBeancounters(s string) []string {
	c := strings.Index(s, "/proc/user_beancounters ")
	h := strings.Index(s, " uid resource held maxheld barrier limit failcnt ")
	if c < 0 || h < c {
		return nil
	}
	rest := strings.Fields(s[c+len("/proc/user_beancounters "):])
	out := []string{}
	if len(rest) > 2 && rest[0] == "Version:" {
		out, rest = append(out, "Version: "+rest[1]), rest[2:]
	}
	if len(rest) == 0 || rest[0] != "uid" {
		return nil
	}
	return withHead(s[:c+len("/proc/user_beancounters")], append(out, strings.Join(rest, " ")), "")
}
