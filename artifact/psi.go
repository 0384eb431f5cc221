package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Pressure stall information pasted from /proc/pressure (4.20+): the file's own lines
// ("some avg10=82.71 avg60=58.68 avg300=20.55 total=..."), under a line that names the
// resource ("----- Output from /proc/pressure/memory -----", "/proc/pressure # cat memory"),
// or with the path in front ("/proc/pressure/memory:  some avg10=0.00  full avg10=0.00").
// The values go through kernel.ParsePSI, the live reader's parser.
var (
	rePSIPath     = lazyre.New(`pressure/(cpu|memory|io|irq)\b`)
	rePSICat      = lazyre.New(`\bcat\s+(cpu|memory|io|irq)\s*$`)
	rePSILineHead = lazyre.New(`^(?:\S*pressure/(cpu|memory|io|irq):?\s+)?(some|full) avg10=`)
	// Prose that names the resource: "monitor the memory pressure", "The cpu file contains
	// one line:" (the PSI patch description and Documentation/accounting/psi.rst introduce
	// their examples so; an issue quoting them keeps the sentence before the quote).
	rePSIProse = lazyre.New(`(?i)\b(cpu|memory|io|irq)(?:\s+stall)?\s+(?:pressure|file)\b`)
)

func isPSILine(t string) bool { return rePSILineHead.MatchString(strings.TrimSpace(t)) }

// psiResourceBefore names the resource from the label lines before a block.
func psiResourceBefore(label string) string {
	if m := rePSIPath.FindStringSubmatch(label); m != nil {
		return m[1]
	}
	if m := rePSICat.FindStringSubmatch(label); m != nil {
		return m[1]
	}
	// Prose names the resource only when it names one: "cpu and memory pressure" does not
	// say which the lines are.
	res := ""
	for _, m := range rePSIProse.FindAllStringSubmatch(label, -1) {
		r := strings.ToLower(m[1])
		if res != "" && r != res {
			return ""
		}
		res = r
	}
	return res
}

func (d *doc) tryPSI(i int) int {
	k := i
	byRes := map[string][]string{}
	var order []string
	label := d.label(i)
	if dir, ok := cgroupPSIFile(label); ok {
		return d.tryCgroupPSI(i, dir)
	}
	for k < len(d.ls) && isPSILine(d.ls[k].Text) {
		s := strings.TrimSpace(d.ls[k].Text)
		res := ""
		if m := rePSILineHead.FindStringSubmatch(s); m[1] != "" {
			res = m[1]
			s = strings.TrimSpace(s[strings.Index(s, m[2]+" avg10="):])
		} else {
			res = psiResourceBefore(label)
		}
		if res == "" {
			d.unparsed(k, k, "pressure line without the resource it belongs to (cpu, memory, io)")
			k++
			continue
		}
		if _, ok := byRes[res]; !ok {
			order = append(order, res)
		}
		byRes[res] = append(byRes[res], psiLineParts(s)...)
		k++
	}
	if k == i {
		return 0
	}
	var ps []kernel.Pressure
	for _, res := range order {
		// A paste often keeps only the averages; the file always has total=, which the
		// kernel parser wants. Only the averages are read from a paste (one sample has no
		// rate to derive from total), so a missing total is given as 0.
		p, err := kernel.ParsePSI(res, strings.NewReader(psiPasteText(byRes[res])))
		if err != nil {
			d.unparsed(i, k-1, fmt.Sprintf("/proc/pressure/%s: %v", res, err))
			continue
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return k - i
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindPSI, label, first, last, []model.Sample{{Source: spanSource(first, last), PSI: ps}})
	d.addArtifact(KindPSI, first, last, ps)
	return k - i
}

// psiLineParts splits "some avg10=0.00        full avg10=0.00" (both on one line) into the
// file's two lines; any other line is one.
func psiLineParts(s string) []string {
	if j := strings.Index(s, " full avg10="); j > 0 && strings.HasPrefix(s, "some") {
		return []string{s[:j], strings.TrimSpace(s[j:])}
	}
	return []string{s}
}

// psiPasteText is pasted pressure lines as the file's text for kernel.ParsePSI. A paste often
// keeps only the averages; the file always has total=, which the kernel parser wants. Only
// the averages are read from a paste (one sample has no rate to derive from total), so a
// missing total is given as 0.
func psiPasteText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		if !strings.Contains(l, "total=") {
			b.WriteString(" total=0")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// cgroupPSIFile: the label's last line names a cgroup's memory.pressure ("$ cat
// /sys/fs/cgroup/system.slice/memory.pressure", "system/backup/memory.pressure"; corpus 6514),
// and the directory it is in ("" when the line names the file alone).
func cgroupPSIFile(label string) (string, bool) {
	if k := strings.LastIndex(label, " / "); k >= 0 {
		label = label[k+3:]
	}
	fs := fields(label)
	if len(fs) == 0 {
		return "", false
	}
	f := strings.TrimRight(strings.Trim(fs[len(fs)-1], "`'\""), ":")
	if f == "memory.pressure" {
		return "", true
	}
	dir, ok := strings.CutSuffix(f, "/memory.pressure")
	return dir, ok && dir != ""
}

// tryCgroupPSI reads the some and full lines under a cgroup's memory.pressure into that
// cgroup (model.CgroupMemory.Pressure): its tasks' stalls, never the host's.
func (d *doc) tryCgroupPSI(i int, dir string) int {
	k := i
	var lines []string
	for k < len(d.ls) && len(lines) < 2 {
		s := strings.TrimSpace(d.ls[k].Text)
		if m := rePSILineHead.FindStringSubmatch(s); m == nil || m[1] != "" {
			break
		}
		lines = append(lines, psiLineParts(s)...)
		k++
	}
	if k == i {
		return 0
	}
	at := -1
	for n := range d.tl.CgroupMemory {
		if c := &d.tl.CgroupMemory[n]; c.Version == 2 && c.Path == dir && c.Pressure == nil && c.Events == nil {
			at = n
		}
	}
	if at < 0 {
		d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: 2, Path: dir, Source: spanSource(d.ls[i].No, d.ls[k-1].No)})
		at = len(d.tl.CgroupMemory) - 1
	}
	d.setCgroupPressure(at, lines, d.ls[i].No, d.ls[k-1].No)
	return k - i
}

// Pressure records printed as structured fields by a program that parsed /proc/pressure:
// a Rust Debug print ("some: PressureRecord {" then "avg10: 0.0," ... "total: 727036,"),
// JSON ("\"some\": {" ... "\"avg10\": 0.0,") or YAML ("some:" then "avg10: 0.0"). The
// fields are the file's own (kernel/sched/psi.c psi_show: some/full, avg10, avg60, avg300,
// total in microseconds); the resource comes from the label above ("memory pressure:
// Ok(", "\"memory\": {"), as for the file's lines.
var (
	rePSIRecordHead = lazyre.New(`^"?(some|full)"?\s*:\s*(?:[A-Za-z_]\w*\s*)?\{?\s*$`)
	rePSIField      = lazyre.New(`^"?(avg10|avg60|avg300|total)"?\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*,?\s*$`)
	rePSIRecordEnd  = lazyre.New(`^[}\])]+\s*,?\s*$`)
)

func isPSIRecordStart(ft, t string) bool {
	return (strings.HasPrefix(ft, "some") || strings.HasPrefix(ft, `"some`) || strings.HasPrefix(ft, "full") || strings.HasPrefix(ft, `"full`)) &&
		rePSIRecordHead.MatchString(strings.TrimSpace(t))
}

// psiRecord reads one record from line k: its head, its four fields, and a closing brace
// if any. It returns the record as the file's line and the lines it took, 0 when the lines
// are not one.
func (d *doc) psiRecord(k int) (string, int) {
	if k >= len(d.ls) {
		return "", 0
	}
	m := rePSIRecordHead.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
	if m == nil {
		return "", 0
	}
	vals := map[string]string{}
	j := k + 1
	for ; j < len(d.ls) && len(vals) < 4; j++ {
		f := rePSIField.FindStringSubmatch(strings.TrimSpace(d.ls[j].Text))
		if f == nil || vals[f[1]] != "" {
			break
		}
		vals[f[1]] = f[2]
	}
	if vals["avg10"] == "" || vals["avg60"] == "" || vals["avg300"] == "" {
		return "", 0
	}
	if vals["total"] == "" {
		vals["total"] = "0" // only the averages are read from a paste (tryPSI)
	}
	if j < len(d.ls) && rePSIRecordEnd.MatchString(strings.TrimSpace(d.ls[j].Text)) {
		j++
	}
	return fmt.Sprintf("%s avg10=%s avg60=%s avg300=%s total=%s", m[1], vals["avg10"], vals["avg60"], vals["avg300"], vals["total"]), j - k
}

func (d *doc) tryPSIRecords(i int) int {
	var lines []string
	k := i
	for {
		l, n := d.psiRecord(k)
		if n == 0 {
			break
		}
		lines = append(lines, l)
		k += n
	}
	if len(lines) == 0 {
		return 0
	}
	label := d.label(i)
	res := psiResourceBefore(label)
	if res == "" {
		d.unparsed(i, k-1, "pressure records without the resource they belong to (cpu, memory, io)")
		return k - i
	}
	p, err := kernel.ParsePSI(res, strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/pressure/%s: %v", res, err))
		return k - i
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindPSI, label, first, last, []model.Sample{{Source: spanSource(first, last), PSI: []kernel.Pressure{p}}})
	d.addArtifact(KindPSI, first, last, []kernel.Pressure{p})
	return k - i
}
