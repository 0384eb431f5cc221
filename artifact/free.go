package artifact

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// free (procps free.c, BusyBox free):
//
//	procps ≥ 3.3.10:  "total used free shared buff/cache available" / "Mem: ..." / "Swap: ..."
//	procps < 3.3.10:  "total used free shared buffers cached" / "Mem: ..." /
//	                  "-/+ buffers/cache: used free" / "Swap: ..."
//	BusyBox:          "total used free shared buffers [cached]" (older) or the procps 3.3.10
//	                  columns (1.25+), with "-/+ buffers:" in old ones
//	-l:               "Low:" and "High:" rows (32-bit HighMem split); -t: a "Total:" row
//	2.4 /proc/meminfo: "        total:    used:    free:  shared: buffers:  cached:" /
//	                  "Mem:  6341193728 6131351552 ..." / "Swap: ..." in bytes, before the
//	                  "MemTotal:" lines (fs/proc/proc_misc.c meminfo_read_proc, 2.4; free
//	                  of that time read this table)
//
// The unit is a flag (-b bytes, -k KiB, the default, -m MiB, -g GiB, -h human with a suffix
// on every value), so it is read from the command line before the table or from the values'
// suffixes. Without either, a Mem total of 2,000,000 or more is taken as KiB (a 2 GiB host,
// rather than 2 TiB in MiB) and anything smaller leaves the unit unknown: the artifact keeps
// the numbers and no memory figure reaches the rules.

// FreeTable is one parsed free table.
type FreeTable struct {
	Columns []string           `json:"columns"`
	Rows    map[string][]int64 `json:"rows"` // "Mem", "Swap", "Low", "High", "Total", "-/+ buffers/cache"; kB when the unit is known, as printed otherwise
	Unit    string             `json:"unit"` // "KiB", "MiB", "GiB", "bytes", "human" or "unknown"
	// Printed are the rows as printed when Rows converted them to kB (-m, -g, -b, -h, 2.4's
	// bytes): what the operator reads, and what the conversion rounded.
	Printed map[string][]float64 `json:"printed,omitempty"`
	Note    string               `json:"note,omitempty"`
	Label   string               `json:"label,omitempty"`
}

var freeColumns = map[string]bool{"total": true, "used": true, "free": true, "shared": true, "buffers": true,
	"cached": true, "buff/cache": true, "available": true, "buff": true, "cache": true}

// procps-ng's translations of free's header words and row names (po/*.po of the locales
// posts come in: de, ru, zh_CN, zh_TW, ja, fr, es, it, pl), mapped to the English ones. A
// header in another language names the same columns in the same order.
var freeColumnWords = map[string]string{
	"gesamt": "total", "insgesamt": "total", "всего": "total", "总计": "total", "總計": "total", "合計": "total", "totale": "total", "razem": "total",
	"benutzt": "used", "belegt": "used", "занято": "used", "использовано": "used", "已用": "used", "使用済み": "used", "utilisé": "used", "usado": "used", "usati": "used", "używane": "used",
	"frei": "free", "свободно": "free", "空闲": "free", "空閒": "free", "空き領域": "free", "libre": "free", "liberi": "free", "wolne": "free",
	"gemeinsam": "shared", "общая": "shared", "共享": "shared", "共用": "shared", "共有": "shared", "partagé": "shared", "compartido": "shared", "condivisi": "shared", "dzielone": "shared",
	"zwischen": "buff/cache", "puffer/cache": "buff/cache", "буф./врем.": "buff/cache", "缓冲/缓存": "buff/cache", "緩衝/快取": "buff/cache", "バッファ/キャッシュ": "buff/cache", "tamp/cache": "buff/cache", "búf/caché": "buff/cache", "buff/cache": "buff/cache",
	"verfügbar": "available", "доступно": "available", "可用": "available", "使用可能": "available", "disponible": "available", "disponibili": "available", "dostępne": "available",
	"puffer": "buffers", "буферы": "buffers", "缓冲": "buffers", "cache": "cache", "缓存": "cache", "кэш": "cache",
}

var freeRowWords = map[string]string{
	"Speicher": "Mem", "Память": "Mem", "Пам": "Mem", "内存": "Mem", "記憶體": "Mem", "メモリ": "Mem", "Mém": "Mem", "Mem.": "Mem", "Pamięć": "Mem",
	"Auslagerungsspeicher": "Swap", "Swap": "Swap", "Подкачка": "Swap", "交换": "Swap", "置換": "Swap", "スワップ": "Swap", "Inter.": "Swap", "Intercambio": "Swap",
}

// freeHeaderLocalized reads a header in another language: every word a known translation
// of free's columns, starting with total, used, free.
func freeHeaderLocalized(t string) []string {
	fs := fields(strings.ToLower(t))
	if len(fs) < 3 || len(fs) > 8 {
		return nil
	}
	cols := make([]string, len(fs))
	for i, f := range fs {
		c, ok := freeColumnWords[f]
		if !ok {
			return nil
		}
		cols[i] = c
	}
	if cols[0] != "total" || cols[1] != "used" || cols[2] != "free" {
		return nil
	}
	return cols
}

// freeRowName is a row's English name ("Speicher:" and "内存：" are "Mem").
func freeRowName(name string) string {
	if en, ok := freeRowWords[strings.TrimSpace(name)]; ok {
		return en
	}
	if en, ok := freeRowNameSpaced(strings.TrimSpace(name)); ok {
		return en // "스  왑" (free_locales.go)
	}
	return name
}

// isFreeLocalizedHeader is the registry's test; the first field is looked up first, so the
// other lines of a text cost one map look-up.
func isFreeLocalizedHeader(ft, t string) bool {
	return freeColumnWords[strings.ToLower(ft)] == "total" && freeHeaderLocalized(t) != nil
}

func isFreeHeader(t string) bool {
	fs, _ := freeHeader(t)
	return fs != nil
}

// freeHeaderJoined: the header and the Mem row on one line, as a page or a terminal that
// lost the line break between them prints them ("total used free shared buff/cache
// available Mem: 7817 6910 225 139 681 412"): the header's columns and the row ("Mem: ...").
func freeHeaderJoined(t string) ([]string, string) {
	k := strings.Index(t, " Mem:")
	if k < 0 {
		return nil, ""
	}
	cols, colons := freeHeader(t[:k])
	row := strings.TrimSpace(t[k:])
	if vals := fields(row[len("Mem:"):]); cols == nil || colons || len(vals) == 0 || !allNumericish(vals) {
		return nil, "" // "... available Mem: is what free prints" is a sentence
	}
	return cols, row
}

// freeHeaderAfterCommand: the command and the header on one line, as a forum's code block
// that lost the line break after the prompt prints them ("# free -h total used free shared
// buff/cache available"): the header's columns and the command, which names the unit.
func freeHeaderAfterCommand(t string) ([]string, string) {
	t = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t), "#$"))
	fs := fields(t)
	if len(fs) < 4 || fs[0] != "free" {
		return nil, ""
	}
	k := 1
	for k < len(fs) && strings.HasPrefix(fs[k], "-") {
		k++
	}
	cols, colons := freeHeader(strings.Join(fs[k:], " "))
	if cols == nil || colons {
		return nil, ""
	}
	return cols, strings.Join(fs[:k], " ")
}

// freeHeader returns the columns of a free header, and whether it is 2.4 /proc/meminfo's
// ("total:    used:    free: ..."), whose rows are in bytes.
func freeHeader(t string) ([]string, bool) {
	fs := fields(t)
	colons := len(fs) > 0 && strings.HasSuffix(fs[0], ":")
	if colons {
		for i, f := range fs {
			if !strings.HasSuffix(f, ":") {
				return nil, false
			}
			fs[i] = strings.TrimSuffix(f, ":")
		}
	}
	if len(fs) < 3 || fs[0] != "total" || fs[1] != "used" || fs[2] != "free" {
		return nil, false
	}
	for _, f := range fs {
		if !freeColumns[f] {
			return nil, false
		}
	}
	return fs, colons
}

// freeValue reads "7822", "7.6Gi", "512M", "1,5G" into KiB (unit "human") or as printed.
func freeValue(s, unit string) (int64, bool) {
	if unit != "human" {
		return atoi(s)
	}
	mult := 1.0 / 1024 // bytes ("B") to KiB
	num := s
	if n := len(s); n > 0 {
		suf := strings.TrimLeft(s, "0123456789.,")
		num = s[:n-len(suf)]
		switch strings.TrimSuffix(suf, "i") {
		case "", "B":
		case "K":
			mult = 1
		case "M":
			mult = 1024
		case "G":
			mult = 1024 * 1024
		case "T":
			mult = 1024 * 1024 * 1024
		default:
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(strings.Replace(num, ",", ".", 1), 64)
	if err != nil {
		return 0, false
	}
	return int64(math.Round(v * mult)), true
}

// LinuxGSM's details (lgsm/modules/info_messages.sh, its Memory block, h23a): the header
// row is named "Mem:" and the memory row "Physical:", "Mem: total used free cached
// available" / "Physical: 3.8GB 3.6GB 78MB 145MB 78MB" / "Swap: 2.0GB 1.9GB 84MB", the
// values from info_distro.sh: numfmt --to=iec of /proc/meminfo's kB with a "B" suffix (or
// free -h's where numfmt is missing). Its "free" is MemAvailable where numfmt is present
// and MemFree otherwise, so that column is kept under another name and not read as MemFree;
// "cached" is Cached + SReclaimable.
func lgsmMemHeader(t string) []string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(t), "Mem:")
	if !ok {
		return nil
	}
	cols, colons := freeHeader(rest)
	if cols == nil || colons || len(cols) != 5 || cols[3] != "cached" || cols[4] != "available" {
		return nil
	}
	cols[2] = "free (LinuxGSM: MemAvailable or MemFree)"
	return cols
}

func (d *doc) tryFree(i int) int {
	cols, meminfo24 := freeHeader(d.ls[i].Text)
	joined := ""
	lgsm := false
	if cols == nil {
		if cols = lgsmMemHeader(d.ls[i].Text); cols != nil {
			lgsm = true
		}
	}
	if cols == nil {
		cols, joined = freeHeaderJoined(d.ls[i].Text)
	}
	command := ""
	if cols == nil {
		cols, command = freeHeaderAfterCommand(d.ls[i].Text)
	}
	if cols == nil {
		if cols = freeHeaderLocalized(d.ls[i].Text); cols == nil {
			return 0
		}
	}
	k := i + 1
	if joined != "" {
		k = i // the Mem row is read from the header's line
	}
	// A header wrapped by a mail client: "total used free shared buffers" / "cached".
	for k < len(d.ls) && joined == "" {
		more := fields(d.ls[k].Text)
		if len(more) == 0 || len(more) > 3 || !freeColumns[more[0]] {
			break
		}
		cols = append(cols, more...)
		k++
	}
	tb := &FreeTable{Columns: cols, Rows: map[string][]int64{}, Label: d.label(i)}
	if command != "" {
		tb.Label = command
	}
	unit := freeUnitFromLabel(tb.Label)
	if meminfo24 {
		unit = "bytes"
	}
	var raw [][]string
	var names []string
	for ; k < len(d.ls); k++ {
		t := strings.Replace(strings.TrimSpace(d.ls[k].Text), "：", ":", 1) // zh's full-width colon
		if k == i {
			t = joined
		}
		name, rest, ok := strings.Cut(t, ":")
		if !ok || t == "" {
			break
		}
		name = freeRowName(name)
		if lgsm && name == "Physical" {
			name = "Mem"
		}
		switch name {
		case "Mem", "Swap", "Low", "High", "Total", "-/+ buffers/cache", "-/+ buffers":
		default:
			k-- // not a row of free's
			goto done
		}
		vals := fields(rest)
		// A row wrapped the same way: its last values alone on the next line.
		if name == "Mem" && len(vals) < len(cols) && k+1 < len(d.ls) {
			if more := fields(d.ls[k+1].Text); len(more) > 0 && len(vals)+len(more) <= len(cols) && allNumericish(more) {
				vals = append(vals, more...)
				k++
			}
		}
		if len(vals) == 0 || len(vals) > len(cols) {
			d.unparsed(k, k, fmt.Sprintf("free: the %s row has %d values for %d columns", name, len(vals), len(cols)))
			continue
		}
		if unit == "" && strings.TrimLeft(vals[0], "0123456789.,") != "" {
			unit = "human"
		}
		names = append(names, name)
		raw = append(raw, vals)
	}
	k--
done:
	if len(raw) == 0 {
		d.unparsed(i, i, "free: the header has no Mem row under it")
		return 1
	}
	for r, vals := range raw {
		row := make([]int64, 0, len(vals))
		for _, v := range vals {
			if lgsm && len(v) > 2 && strings.HasSuffix(v, "B") && strings.IndexByte("KMGT", v[len(v)-2]) >= 0 {
				v = v[:len(v)-1] // numfmt --to=iec --suffix=B: "3.8GB" is 3.8 GiB
			}
			n, ok := freeValue(v, unit)
			if unit == "human" && siLabel(tb.Label) {
				n, ok = freeValueSI(v)
			}
			if !ok {
				at := i + 1 + r
				if joined != "" {
					at-- // the rows start on the header's line
				}
				d.unparsed(at, at, fmt.Sprintf("free: %q is not a number", v))
				n = -1
			}
			row = append(row, n)
		}
		tb.Rows[names[r]] = row
	}
	mult := int64(1)
	switch unit {
	case "human", "KiB":
	case "MiB":
		mult = 1024
	case "GiB":
		mult = 1024 * 1024
	case "bytes":
		mult = -1024 // divide
	case "":
		if m := tb.Rows["Mem"]; len(m) > 0 && m[0] >= 2_000_000 {
			unit = "KiB"
			tb.Note = "no command line or unit suffix: a Mem total this large is taken as KiB (free's default)"
		} else {
			unit = "unknown"
			tb.Note = "no command line (free -m, -g, -h) or unit suffix says the unit: the numbers are kept as printed and not used as memory figures"
		}
	}
	tb.Unit = unit
	first, last := d.ls[i].No, d.ls[k].No
	d.segSeq++
	var ss []model.Sample
	if unit != "unknown" {
		if unit != "KiB" {
			tb.Printed = map[string][]float64{}
			for r, vals := range raw {
				var p []float64
				for _, v := range vals {
					f, ok := atof(strings.TrimRight(v, "BKMGTi"))
					if !ok {
						f = -1 // as Rows marks a value that is not a number
					}
					p = append(p, f)
				}
				tb.Printed[names[r]] = p
			}
		}
		for name, row := range tb.Rows {
			for c := range row {
				if row[c] < 0 {
					continue
				}
				if mult > 0 {
					row[c] *= mult
				} else {
					row[c] /= -mult
				}
			}
			tb.Rows[name] = row
		}
		if mem := freeMemInfo(tb); mem.Len() > 0 {
			ss = append(ss, model.Sample{Source: spanSource(first, last), MemInfo: mem})
			if v, ok := mem.Get("MemTotal"); ok {
				d.host.memTotal(v, 3) // as top's "Mem: total"
			}
		}
	}
	d.addSamples(KindFree, tb.Label, first, last, ss)
	d.addArtifact(KindFree, first, last, tb)
	return k - i + 1
}

// freeMemInfo gives the rows the /proc/meminfo names free read them from (free.c: total =
// MemTotal, free = MemFree, buffers = Buffers, cached = Cached (+ SReclaimable in 3.3.10+),
// available = MemAvailable; Swap total/free = SwapTotal/SwapFree). buff/cache is a sum and
// maps to no one line.
func freeMemInfo(tb *FreeTable) *kernel.Counters {
	mem := &kernel.Counters{}
	col := func(row []int64, name string) (int64, bool) {
		for c, n := range tb.Columns {
			if n == name && c < len(row) && row[c] >= 0 {
				return row[c], true
			}
		}
		return 0, false
	}
	if m, ok := tb.Rows["Mem"]; ok {
		for _, nk := range [][2]string{{"total", "MemTotal"}, {"free", "MemFree"}, {"buffers", "Buffers"}, {"available", "MemAvailable"}} {
			if v, ok := col(m, nk[0]); ok {
				mem.Set(nk[1], v)
			}
		}
		if v, ok := col(m, "cached"); ok {
			mem.Set("Cached", v)
		}
		// buff/cache (Buffers + Cached + SReclaimable) is no meminfo line; it is kept under
		// its own name, an upper bound of the page cache (diagnose's file pages).
		if v, ok := col(m, "buff/cache"); ok {
			mem.Set("BuffCache", v)
		}
	}
	if s, ok := tb.Rows["Swap"]; ok {
		if v, ok := col(s, "total"); ok {
			mem.Set("SwapTotal", v)
		}
		if v, ok := col(s, "free"); ok {
			mem.Set("SwapFree", v)
		}
		if v, ok := col(s, "used"); ok {
			mem.Set("SwapUsed", v)
		}
	}
	return mem
}

// freeUnitFromLabel reads free's unit flag from the command line before the table.
func freeUnitFromLabel(label string) string {
	i := strings.Index(label, "free")
	if i < 0 {
		return ""
	}
	rest := label[i+4:]
	if strings.HasPrefix(rest, "_-") {
		// sosreport names the file it keeps a command's output in after the command, its
		// spaces made '_' (sos's _mangle_command): "sos_commands/memory/free_-m".
		rest = strings.ReplaceAll(rest, "_", " ")
	}
	for _, f := range fields(rest) {
		if !strings.HasPrefix(f, "-") || strings.HasPrefix(f, "--") {
			continue
		}
		switch {
		case strings.Contains(f, "h"):
			return "human"
		case strings.Contains(f, "m"):
			return "MiB"
		case strings.Contains(f, "g"):
			return "GiB"
		case strings.Contains(f, "b"):
			return "bytes"
		case strings.Contains(f, "k"):
			return "KiB"
		}
	}
	if strings.HasPrefix(strings.TrimLeft(rest, " "), "|") || strings.TrimSpace(rest) == "" {
		return "KiB" // "free" alone: its default
	}
	return ""
}

// allNumericish: every field is a number, with or without a unit suffix ("7.6Gi").
func allNumericish(fs []string) bool {
	for _, f := range fs {
		if f == "" || f[0] < '0' || f[0] > '9' {
			return false
		}
	}
	return true
}

// siLabel: free's command line before the table asks for powers of 1000 ("free -h --si").
// procps free(1): "--si  Use kilo, mega, giga etc (power of 1000) instead of kibi, mebi,
// giga etc (power of 1024)"; with -h it prints "67G", "3.3G", "0B" (no "i"), so "G" there
// is 10^9 bytes (h40c).
func siLabel(label string) bool {
	i := strings.Index(label, "free")
	return i >= 0 && strings.Contains(label[i:], "--si")
}

// freeValueSI reads a cell of "free -h --si" into KiB: its suffixes are powers of 1000; a
// cell with a binary suffix ("62Gi") keeps its binary reading.
func freeValueSI(s string) (int64, bool) {
	suf := strings.TrimLeft(s, "0123456789.,")
	if strings.HasSuffix(suf, "i") {
		return freeValue(s, "human")
	}
	mult, ok := map[string]float64{"": 1, "B": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}[suf]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.Replace(s[:len(s)-len(suf)], ",", ".", 1), 64)
	if err != nil {
		return 0, false
	}
	return int64(math.Round(v * mult / 1024)), true
}
