package artifact

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// Numbers in prose are evidence too (issue 16, point 6). A report often states what the
// reporter measured without pasting the tool's output: "2 kswapd process eating 100% of cpu",
// "~1.5 Millions reclaims/s", "900K interrupts/second", "over GBit ethernet", "this value was
// something like 2000". Such statements become one sample marked as stated (its Source says
// "stated in the text"), so the rules read them as they read any sample, and the registry
// keeps a finding that rests on them alone below critical: a sentence is weaker evidence than
// a counter.
//
// The patterns are for classes of statement, each tied to the quantity a rule reads; a
// sentence that matches none is left alone.

// statedMaxLines bounds the prose kept for this: a 200 MB text of prose must not be held
// twice.
const statedMaxLines = 20000

type proseLine struct {
	no   int
	text string
}

const numRe = `(\d+(?:[.,]\d+)?)\s*(k|K|m|M|[Mm]illions?|[Tt]housands?)?`

var (
	// "2 kswapd (...) process eating 100% of cpu", "kswapd0 at 99% CPU", "kswapd is using 100% of a core"
	reStatedKswapd = regexp.MustCompile(`(?i)(?:\b(\d+)\s+)?kswapd\w*\b[^.%]{0,100}?(\d{1,3}(?:\.\d+)?)\s*%`)
	// "~1.5 Millions reclaims/s", "200k pages scanned per second"
	reStatedReclaim = regexp.MustCompile(`(?i)` + numRe + `\s*(?:page\s+)?(reclaims?|pages?\s+reclaimed|page\s+scans?|pages?\s+scanned)\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?)`)
	// "900K interrupts/second", "1.2M TLB shootdowns per second", "50K IPIs/s"
	reStatedIntr = regexp.MustCompile(`(?i)` + numRe + `\s*(tlb[- ]?(?:shootdowns?|flush(?:es)?)|ipis?|interrupts?)\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?)`)
	// "GBit ethernet", "gigabit", "10GbE", "2*40G ethernet", "25 Gbps NIC"
	reStatedLink = regexp.MustCompile(`(?i)(?:\b(\d+)\s*[*x×]\s*)?\b(\d+(?:\.\d+)?)?\s*(g|m|giga|mega)(?:bit|b|bps|be)?(?:/s)?\s*(?:ethernet|nics?|links?|ports?|interfaces?|network\s+cards?)\b|\b(gigabit|gbe)\b`)
	// "this value was something like 2000", "the current value is 65536"
	reStatedValue = regexp.MustCompile(`(?i)\b(?:this|the|its|current|default)\s+(?:current\s+)?value\s+(?:was|is)\s+(?:something\s+like\s+|about\s+|around\s+|approximately\s+|roughly\s+|~\s*)?(\d+)\b`)
)

// keepProse remembers a prose line for stated.
func (d *doc) keepProse(i int) {
	d.acct.Prose++
	if len(d.proseLines) < statedMaxLines {
		d.proseLines = append(d.proseLines, proseLine{no: d.ls[i].No, text: d.ls[i].Text})
	}
}

// scale reads "1.5" "M" as 1.5e6.
func scale(num, unit string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.Replace(num, ",", ".", 1), 64)
	if err != nil {
		return 0, false
	}
	switch strings.ToLower(strings.TrimSuffix(strings.ToLower(unit), "s")) {
	case "k", "thousand":
		v *= 1e3
	case "m", "million":
		v *= 1e6
	}
	return v, true
}

// stated reads the kept prose, paragraph by paragraph (a statement wraps across lines), into
// one stated sample, stated NICs and stated setting values.
func (d *doc) stated() {
	if len(d.proseLines) == 0 {
		return
	}
	tlbText := false
	for _, p := range d.proseLines {
		if strings.Contains(p.text, "TLB") || strings.Contains(strings.ToLower(p.text), "shootdown") {
			tlbText = true
			break
		}
	}
	rates := model.Rates{}
	var from []int
	linkCount := map[int64]int{}
	add := func(key string, v float64, no int) {
		if old, ok := rates[key]; !ok || v > old {
			rates[key] = v
		}
		from = append(from, no)
	}
	for start := 0; start < len(d.proseLines); {
		end := start + 1
		for end < len(d.proseLines) && d.proseLines[end].no == d.proseLines[end-1].no+1 {
			end++
		}
		para, lineAt := joinParagraph(d.proseLines[start:end])
		for _, m := range reStatedKswapd.FindAllStringSubmatchIndex(para, -1) {
			sentence := sentenceAround(para, m[0], m[1])
			if !strings.Contains(strings.ToLower(sentence), "cpu") && !strings.Contains(strings.ToLower(sentence), "core") {
				continue
			}
			pct, _ := strconv.ParseFloat(para[m[4]:m[5]], 64)
			threads := 1.0
			if m[2] >= 0 {
				if n, err := strconv.Atoi(para[m[2]:m[3]]); err == nil && n > 0 && n <= 64 {
					threads = float64(n)
				}
			}
			if pct > 0 && pct <= 100 {
				add(model.RateKswapdCPUPct, threads*pct, lineAt(m[0]))
			}
		}
		for _, m := range reStatedReclaim.FindAllStringSubmatch(para, -1) {
			v, ok := scale(m[1], m[2])
			if !ok {
				continue
			}
			idx := strings.Index(para, m[0])
			if !strings.Contains(strings.ToLower(m[3]), "scan") {
				add(model.RatePgstealKswapdPerSec, v, lineAt(idx))
			}
			// A reclaimed page was scanned first: the scan rate is at least this.
			add(model.RatePgscanKswapdPerSec, v, lineAt(idx))
		}
		for _, m := range reStatedIntr.FindAllStringSubmatch(para, -1) {
			v, ok := scale(m[1], m[2])
			word := strings.ToLower(m[3])
			if !ok || !(strings.HasPrefix(word, "tlb") || strings.HasPrefix(word, "ipi") || tlbText) {
				continue
			}
			add(model.RateTLBShootdownPerSec, v, lineAt(strings.Index(para, m[0])))
		}
		for _, m := range reStatedLink.FindAllStringSubmatch(para, -1) {
			if n, ok := statedLinkMbps(m); ok {
				count := 1
				if m[1] != "" {
					count, _ = strconv.Atoi(m[1])
				}
				// A speed named again is the same link; "2*40G" names two.
				linkCount[n] = max(linkCount[n], min(count, 8))
			}
		}
		for _, m := range reStatedValue.FindAllStringSubmatchIndex(para, -1) {
			no := lineAt(m[0])
			if key, ok := d.lastKeyBefore(no, d.proseLines[start].no); ok {
				v := para[m[2]:m[3]]
				d.tl.Settings = append(d.tl.Settings, model.NewSettingMention(key, v, "prose", no,
					fmt.Sprintf("line %d (stated in the text: the value it had)", no)))
			}
		}
		start = end
	}
	if len(rates) > 0 {
		first, last := from[0], from[0]
		for _, n := range from {
			first, last = min(first, n), max(last, n)
		}
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (stated in the text)", Rates: rates})
		d.addArtifact(KindStated, first, last, rates)
	}
	var nics []kernel.NIC
	for _, speed := range slices.Sorted(maps.Keys(linkCount)) {
		for k := 0; k < linkCount[speed]; k++ {
			nics = append(nics, kernel.NIC{Name: fmt.Sprintf("(stated %d)", len(nics)+1), SpeedMbps: speed})
		}
	}
	if len(nics) > 0 && len(d.tl.Host.NICs) == 0 {
		d.tl.Host.NICs = nics
		d.addArtifact(KindStated, d.proseLines[0].no, d.proseLines[len(d.proseLines)-1].no, map[string]any{"nics": nics})
	}
}

// statedLinkMbps reads a link-speed match in Mbit/s.
func statedLinkMbps(m []string) (int64, bool) {
	if m[4] != "" { // "gigabit", "GbE"
		return 1000, true
	}
	unit := strings.ToLower(m[3])
	v := 1.0
	if m[2] != "" {
		var err error
		if v, err = strconv.ParseFloat(m[2], 64); err != nil {
			return 0, false
		}
	}
	switch unit {
	case "g", "giga":
		v *= 1000
	case "m", "mega":
	default:
		return 0, false
	}
	if v < 10 || v > 800_000 {
		return 0, false
	}
	return int64(math.Round(v)), true
}

// joinParagraph joins lines with spaces and returns a function from an offset in the joined
// text to the line it came from.
func joinParagraph(ps []proseLine) (string, func(int) int) {
	var b strings.Builder
	starts := make([]int, len(ps))
	for k, p := range ps {
		if k > 0 {
			b.WriteByte(' ')
		}
		starts[k] = b.Len()
		b.WriteString(p.text)
	}
	return b.String(), func(off int) int {
		k := 0
		for k+1 < len(starts) && starts[k+1] <= off {
			k++
		}
		return ps[k].no
	}
}

// sentenceAround returns the sentence holding text[a:b].
func sentenceAround(text string, a, b int) string {
	s := strings.LastIndexAny(text[:a], ".!?") + 1
	e := strings.IndexAny(text[b:], ".!?")
	if e < 0 {
		return text[s:]
	}
	return text[s : b+e]
}

// lastKeyBefore is the sysctl key the text named last at or before line no, within the
// paragraph that starts at line from: "this value" refers to it.
func (d *doc) lastKeyBefore(no, from int) (string, bool) {
	for k := len(d.tl.Settings) - 1; k >= 0; k-- {
		m := d.tl.Settings[k]
		if m.Line <= no && m.Line >= from {
			return m.Key, true
		}
	}
	return "", false
}

// reKernelShaped: a line shaped like a kernel message without a timestamp: a subsystem or
// device, a colon, the message ("EXT3-fs: mounted ...", "skge eth0: Link is up ...",
// "saa7133[0]: gpio: ...", "NET: Registered protocol family 10").
var reKernelShaped = regexp.MustCompile(`^[A-Za-z][\w./\[\]-]{1,30}(?: [\w./\[\]-]{1,30})?: \S`)

// notKernelShaped are the words before a colon that start mail headers and prose labels.
var notKernelShaped = map[string]bool{"From": true, "To": true, "Cc": true, "Subject": true, "Date": true, "Re": true,
	"Note": true, "Update": true, "Edit": true, "Example": true, "Output": true, "Result": true, "Error": true, "Q": true, "A": true}

// unstampedLog reads a kernel log printed without timestamps (kernels without
// CONFIG_PRINTK_TIME, or dmesg -t): a run of at least five prose lines of which half are
// shaped like kernel messages becomes log records, so a healthy boot log reads as one (half:
// the rest are messages such as "kjournald starting.").
func (d *doc) unstampedLog() {
	for start := 0; start < len(d.proseLines); {
		end := start + 1
		for end < len(d.proseLines) && d.proseLines[end].no == d.proseLines[end-1].no+1 {
			end++
		}
		shaped := 0
		for _, p := range d.proseLines[start:end] {
			if kernelShaped(p.text) {
				shaped++
			}
		}
		if n := end - start; n >= 5 && shaped*2 >= n {
			for _, p := range d.proseLines[start:end] {
				l := Line{No: p.no, Text: p.text, UptimeUsec: -1, Priority: -1, Kernel: true}
				d.appendPlainLog(&l)
				d.acct.Prose--
			}
			d.logOrder = true
		}
		start = end
	}
}

func kernelShaped(t string) bool {
	if !reKernelShaped.MatchString(t) {
		return false
	}
	word, _, _ := strings.Cut(t, ":")
	word, _, _ = strings.Cut(word, " ")
	return !notKernelShaped[word]
}
