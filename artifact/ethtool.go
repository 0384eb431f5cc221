package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// ethtool -S prints "NIC statistics:" and "     name: value" lines with the driver's own
// names; ethtool -g prints the ring's pre-set maximums and current sizes. Loss counters are
// classified by kernel.ClassifyNICCounter (the table doctor and serve use too); Loss maps each
// to its cause: ring, refill, link, queue, stack. A pasted ethtool -S does not say whether the
// device is virtual; kernel.VirtualNICStats tells from the driver's own counter names.

// EthtoolStats is parsed ethtool -S output.
type EthtoolStats struct {
	Interface string            `json:"interface,omitempty"`
	Stats     kernel.Counters   `json:"stats"`
	Loss      map[string]string `json:"loss_counters,omitempty"` // counter → kernel.NICCause*
}

// reEthtoolCmd names the interface of an ethtool command, or of the file sosreport keeps
// its output in ("sos_commands/networking/ethtool_-S_eth0").
var reEthtoolCmd = lazyre.New(`ethtool(?:\s+|_)(?:-S|--statistics|-g|--show-ring)(?:\s+|_)([^\s|;'"<>]+)`)

// ethtoolCounter reads "     rx_missed_errors: 12   # a note" (a comment after the value,
// '#' or '//', is the paster's). ok is false for a line that is not a counter.
func ethtoolCounter(t string) (name string, v int64, ok bool) {
	return ethtoolCounterIn(t, false)
}

// ethtoolCounterIn is ethtoolCounter; inBlock allows the names some drivers print with spaces
// ("VF 0 Tx Packets: 1", the SR-IOV counters of Intel's out-of-tree ixgbe), which are read
// only inside a "NIC statistics:" block: outside one, "Total drops: 5" is prose.
func ethtoolCounterIn(t string, inBlock bool) (name string, v int64, ok bool) {
	s := strings.TrimSpace(t)
	// "DUT ens5:    bw_in_allowance_exceeded:  19 731 631": a label before the counter and
	// digits grouped by spaces, in a paste someone annotated. The counter is the last
	// "name: value" of the line, its digits joined when every group after the first has three.
	if c := strings.LastIndex(s, ": "); c > 0 {
		if joined, grouped := digitGroups(strings.TrimSpace(s[c+2:])); grouped {
			if f := fields(s[:c]); len(f) > 0 {
				s = f[len(f)-1] + ": " + joined
			}
		}
	}
	name, val, found := strings.Cut(s, ":")
	// "*bw_in_allowance_exceeded: 0", "**rx_missed_errors**: 12": a page's emphasis around the
	// name (no driver prints '*' in a counter's name).
	if t := strings.Trim(name, "*"); t != name && t != "" && !strings.ContainsAny(t, "* ") {
		name = t
	}
	if !found || name == "" || strings.Contains(name, " ") && !strings.HasPrefix(name, "[") && !(inBlock && spacedCounterName(name)) {
		return "", 0, false
	}
	val = strings.TrimSpace(val)
	// be2net prints per-queue counters as "rxq0: rx_drops_no_frags: 12": the queue, then
	// the counter; kept as "rxq0_rx_drops_no_frags".
	if sub, v2, two := strings.Cut(val, ":"); two && !strings.Contains(strings.TrimSpace(sub), " ") && strings.TrimSpace(sub) != "" {
		name, val = name+"_"+strings.TrimSpace(sub), strings.TrimSpace(v2)
	}
	if c := strings.Index(val, "#"); c >= 0 {
		val = strings.TrimSpace(val[:c])
	}
	if c := strings.Index(val, "//"); c >= 0 {
		val = strings.TrimSpace(val[:c])
	}
	v, ok = atoi(val)
	return strings.TrimSpace(name), v, ok
}

// spacedCounterName: a driver's counter name of a few words separated by single spaces, each
// of letters, digits, '_', '.' or '-' ("VF 0 Tx Packets"; a word may end in '#', vmxnet3's
// "Rx Queue#"), the first starting with a letter.
func spacedCounterName(name string) bool {
	ws := strings.Split(name, " ")
	if len(ws) > 6 {
		return false
	}
	for i, w := range ws {
		if w == "" {
			return false
		}
		for j := 0; j < len(w); j++ {
			c := w[j]
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if i == 0 && j == 0 && !letter {
				return false
			}
			if c == '#' && j == len(w)-1 && j > 0 {
				continue // vmxnet3's "Rx Queue#: 0", the queue's index (vmxnet3_rq_dev_stats)
			}
			if !letter && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-' {
				return false
			}
		}
	}
	return true
}

func isCommentLine(t string) bool {
	s := strings.TrimSpace(t)
	return strings.HasPrefix(s, "#") || strings.HasPrefix(s, "//")
}

// ethtoolStatsAt reads the counters after "NIC statistics:" at ls[i], or, when bare, the
// counter lines starting at ls[i] (`ethtool -S eth0 | grep drop` keeps no header). A comment
// line is skipped; a line that is neither, between counters, is returned as a problem rather
// than ending the block, so no counter after it goes unseen.
func ethtoolStatsAt(ls []Line, i int, bare bool) (*EthtoolStats, int, []int) {
	return ethtoolStatsRead(ls, i, bare, !bare)
}

// ethtoolStatsRead is ethtoolStatsAt; spaced allows the names drivers print with spaces
// (vmxnet3's "rx buf alloc fail"), inside a "NIC statistics:" block or under the ethtool -S
// command that vouches for them. A name the driver prints more than once (vmxnet3 repeats
// its names for every queue, vmxnet3_get_strings) is kept each time, the later ones as
// "name#2", "name#3", as the live reader keeps them (kernel/ethtool.go strings): a second
// queue's count must not replace the first's.
func ethtoolStatsRead(ls []Line, i int, bare, spaced bool) (*EthtoolStats, int, []int) {
	k := i
	if !bare {
		s := strings.TrimSpace(ls[i].Text)
		if s != "NIC statistics:" && !(strings.HasPrefix(s, "NIC statistics:") && isCommentLine(s[len("NIC statistics:"):])) {
			return nil, 0, nil
		}
		k++
	}
	es := &EthtoolStats{Loss: map[string]string{}}
	var bad []int
	end := k
	for ; k < len(ls); k++ {
		if isBlank(ls[k].Text) {
			break
		}
		if isCommentLine(ls[k].Text) {
			continue
		}
		name, v, ok := ethtoolCounterIn(ls[k].Text, spaced)
		if !ok {
			// A shell prompt ("root@host:~# ethtool -S eth1 | grep drop") starts the next
			// command's output: the block ends there, whatever follows.
			if f := strings.Fields(ls[k].Text); len(f) > 0 && opensSomething(ls[k].Text, f[0]) {
				break
			}
			// Unreadable: a problem when counters follow it, else the block's end.
			if k+1 < len(ls) {
				if _, _, next := ethtoolCounterIn(ls[k+1].Text, spaced); next && es.Stats.Len() > 0 {
					bad = append(bad, k)
					continue
				}
			}
			break
		}
		if es.Stats.Has(name) {
			for c := 2; ; c++ {
				if again := name + "#" + strconv.Itoa(c); !es.Stats.Has(again) {
					name = again
					break
				}
			}
		}
		es.Stats.Set(name, v)
		end = k + 1
	}
	if es.Stats.Len() == 0 {
		return nil, 0, nil
	}
	for _, l := range kernel.ClassifyNICStats(&es.Stats, false) {
		es.Loss[l.Name] = l.Cause
	}
	return es, end - i, bad
}

// ParseEthtoolStats parses ethtool -S output.
func ParseEthtoolStats(text string) (*EthtoolStats, error) {
	ls := SplitLines(text)
	for i := range ls {
		if es, n, _ := ethtoolStatsAt(ls, i, false); n > 0 {
			return es, nil
		}
	}
	return nil, fmt.Errorf("artifact: no ethtool -S output in the text")
}

// EthtoolRing is parsed ethtool -g output.
type EthtoolRing struct {
	Interface string      `json:"interface,omitempty"`
	Ring      kernel.Ring `json:"ring"`
}

func ethtoolRingAt(ls []Line, i int) (*EthtoolRing, int) {
	s := strings.TrimSpace(ls[i].Text)
	if !strings.HasPrefix(s, "Ring parameters for ") {
		return nil, 0
	}
	er := &EthtoolRing{Interface: strings.TrimSuffix(strings.TrimPrefix(s, "Ring parameters for "), ":")}
	section := ""
	k := i + 1
	seen := 0
	for ; k < len(ls); k++ {
		s := strings.TrimSpace(ls[k].Text)
		switch {
		case s == "Pre-set maximums:":
			section = "max"
			continue
		case s == "Current hardware settings:":
			section = "cur"
			continue
		case s == "":
			// A blank line ends the output, unless the next section follows it (a paste
			// that spaced the two sections). It used to end the reading at the end of the
			// text, which took every line after a ring and a blank line as the ring's
			// (g266's 5828: a blog's netstat -s a hundred lines later was never read).
			if k+1 < len(ls) && section != "" {
				if n := strings.TrimSpace(ls[k+1].Text); n == "Current hardware settings:" || n == "Pre-set maximums:" {
					continue
				}
			}
		}
		if s == "" {
			break
		}
		name, val, ok := strings.Cut(s, ":")
		if !ok || section == "" {
			break
		}
		v, num := atoi(strings.TrimSpace(val))
		if !num {
			if strings.TrimSpace(val) == "n/a" {
				continue
			}
			continue // "TX Push: off", "TCP data split: n/a" and other newer lines
		}
		seen++
		r := &er.Ring
		// set stores v in the section's field of a ring: "Pre-set maximums" or "Current".
		set := func(cur, mx *int64) {
			if section == "max" {
				*mx = v
			} else {
				*cur = v
			}
		}
		switch name {
		case "RX":
			set(&r.Rx, &r.RxMax)
		case "RX Mini":
			set(&r.RxMini, &r.RxMiniMax)
		case "RX Jumbo":
			set(&r.RxJumbo, &r.RxJumboMax)
		case "TX":
			set(&r.Tx, &r.TxMax)
		}
	}
	for k > i+1 && isBlank(ls[k-1].Text) {
		k--
	}
	if seen == 0 {
		return nil, 0
	}
	return er, k - i
}

// ParseEthtoolRing parses ethtool -g output.
func ParseEthtoolRing(text string) (*EthtoolRing, error) {
	ls := SplitLines(text)
	for i := range ls {
		if er, n := ethtoolRingAt(ls, i); n > 0 {
			return er, nil
		}
	}
	return nil, fmt.Errorf("artifact: no ethtool -g output in the text")
}

func (d *doc) tryEthtool(i int) int {
	s := strings.TrimSpace(d.ls[i].Text)
	iface := ""
	if m := reEthtoolCmd.FindStringSubmatch(d.label(i)); m != nil {
		iface = m[1]
	}
	if es, n, bad := ethtoolStatsAt(d.ls, i, false); n > 0 {
		es.Interface = iface
		for _, b := range bad {
			d.unparsed(b, b, "ethtool -S: a line between counters that is not \"name: number\"")
		}
		first, last := d.ls[i].No, d.ls[i+n-1].No
		stats := es.Stats.Clone()
		d.segSeq++
		d.addSamples(KindEthtoolS, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last),
			NICStats: []kernel.NICStats{{Name: iface, Stats: &stats}}}})
		d.addArtifact(KindEthtoolS, first, last, es)
		return n
	}
	if strings.HasPrefix(s, "Ring parameters for ") {
		er, n := ethtoolRingAt(d.ls, i)
		if n == 0 && unflattenEthtoolRing(s) != nil {
			return 0 // the whole output on the title's line: read as flattened (fix54e_flat.go)
		}
		if n == 0 {
			d.unparsed(i, i, "ethtool -g header without readable ring sizes")
			return 1
		}
		first, last := d.ls[i].No, d.ls[i+n-1].No
		ring := er.Ring
		d.segSeq++
		d.addSamples(KindEthtoolG, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last),
			NICStats: []kernel.NICStats{{Name: er.Interface, Ring: &ring}}}})
		d.addArtifact(KindEthtoolG, first, last, er)
		return n
	}
	return 0
}

// tryEthtoolBare reads counter lines without "NIC statistics:" when the command line before
// them is ethtool -S (a grep of its output), so the labelled command vouches for the names.
func (d *doc) tryEthtoolBare(i int) int {
	label := d.label(i)
	underCommand := strings.Contains(label, "ethtool -S") || strings.Contains(label, "ethtool --statistics") || strings.Contains(label, "ethtool_-S_") ||
		isVmxnet3QueueHeader(d.ls[i].Text)
	if !underCommand {
		// Without the command, only names that are NIC loss counters vouch for the block
		// ("rx_missed_errors: 22637793" quoted alone in a reply).
		if name, _, ok := ethtoolCounter(d.ls[i].Text); !ok || !isNICLossName(name) {
			return 0
		}
	}
	es, n, bad := ethtoolStatsRead(d.ls, i, true, underCommand)
	if n < 1 {
		return 0
	}
	if !underCommand {
		for _, name := range es.Stats.Names() {
			if !isNICLossName(name) && name != "rx_packets" && name != "tx_packets" {
				return 0
			}
		}
	}
	if m := reEthtoolCmd.FindStringSubmatch(label); m != nil {
		es.Interface = m[1]
	}
	for _, b := range bad {
		d.unparsed(b, b, "ethtool -S: a line between counters that is not \"name: number\"")
	}
	first, last := d.ls[i].No, d.ls[i+n-1].No
	stats := es.Stats.Clone()
	d.segSeq++
	d.addSamples(KindEthtoolS, label, first, last, []model.Sample{{Source: spanSource(first, last),
		NICStats: []kernel.NICStats{{Name: es.Interface, Stats: &stats}}}})
	d.addArtifact(KindEthtoolS, first, last, es)
	return n
}

// isVmxnet3QueueHeader: vmxnet3's own "Tx Queue#: N" / "Rx Queue#: N" line, which
// vmxnet3_get_ethtool_stats' strings (drivers/net/vmxnet3/vmxnet3_ethtool.c: vmxnet3_tq_dev_stats
// and vmxnet3_rq_dev_stats begin each queue's block with it) print before each queue's
// counters: no other program prints it, so a paste that starts there is vmxnet3's ethtool -S
// even without the command above it.
func isVmxnet3QueueHeader(t string) bool {
	s := strings.TrimSpace(t)
	if !strings.HasPrefix(s, "Rx Queue#:") && !strings.HasPrefix(s, "Tx Queue#:") {
		return false
	}
	return isDigits(strings.TrimSpace(s[len("Rx Queue#:"):]))
}

// isNICLossName: a driver or link counter of the NIC loss table (kernel/nicloss.go).
func isNICLossName(name string) bool {
	_, ok := kernel.ClassifyNICCounter(name, false)
	return ok
}

// digitGroups joins "19 731 631" into "19731631": a first group of one to three digits and
// then groups of exactly three.
func digitGroups(v string) (string, bool) {
	g := fields(v)
	if len(g) < 2 || len(g[0]) > 3 || !isDigits(g[0]) {
		return "", false
	}
	for _, x := range g[1:] {
		if len(x) != 3 || !isDigits(x) {
			return "", false
		}
	}
	return strings.Join(g, ""), true
}

// ethtoolRate reads a counter line a watch tool printed as a per-second rate ("rx_nodesc_drop_cnt:
// 451.3k/s", "rx-3.rx_packets: 0.5/s"): the name and the rate.
func ethtoolRate(t string) (name string, perSec float64, ok bool) {
	s := stripListMarker(strings.TrimSpace(t)) // a list item's marker left by a page (the tool's own "- " kept under it)
	name, val, found := strings.Cut(s, ":")
	val = strings.TrimSpace(val)
	if !found || name == "" || strings.ContainsAny(name, " \t") || !strings.HasSuffix(val, "/s") {
		return "", 0, false
	}
	val = strings.TrimSuffix(val, "/s")
	mult := 1.0
	if n := len(val); n > 0 {
		switch val[n-1] {
		case 'k', 'K':
			mult, val = 1e3, val[:n-1]
		case 'M':
			mult, val = 1e6, val[:n-1]
		case 'G':
			mult, val = 1e9, val[:n-1]
		}
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil || v < 0 {
		return "", 0, false
	}
	return name, v * mult, true
}

// tryEthtoolRates reads ethtool -S counters a watch tool printed as per-second rates, under
// the ethtool -S command line: the ring-loss counters' rates (kernel.ClassifyNICCounter)
// become RateNICRxRingLossPerSec, the sum of the block's (a rate, never a since-boot
// counter); the other names are kept in the artifact.
func (d *doc) tryEthtoolRates(i int) int {
	if _, _, ok := ethtoolRate(d.ls[i].Text); !ok {
		return 0
	}
	label := d.label(i)
	if !strings.Contains(label, "ethtool -S") && !strings.Contains(label, "ethtool --statistics") {
		return 0
	}
	rates := map[string]float64{}
	var loss float64
	var lossNames []string
	n := 0
	for k := i; k < len(d.ls); k++ {
		name, v, ok := ethtoolRate(d.ls[k].Text)
		if !ok {
			break
		}
		rates[name] = v
		if l, ok := kernel.ClassifyNICCounter(name, false); ok && l.RxOverrun() {
			loss += v
			lossNames = append(lossNames, name)
		}
		n++
	}
	first, last := d.ls[i].No, d.ls[i+n-1].No
	data := map[string]any{"per_second": rates}
	if m := reEthtoolCmd.FindStringSubmatch(label); m != nil {
		data["interface"] = m[1]
	}
	d.addArtifact(KindEthtoolS, first, last, data)
	if len(lossNames) > 0 {
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (ethtool -S rates per second: " + strings.Join(lossNames, ", ") + ")",
			Rates: model.Rates{model.RateNICRxRingLossPerSec: loss}})
	}
	return n
}

// ethtoolFeature reads a line of ethtool -k: "generic-receive-offload: on",
// "\ttx-checksum-sctp: off [fixed]", "generic-segmentation-offload: off [requested on]".
// The state is "on" or "off" with ethtool's note kept.
func ethtoolFeature(t string) (name, state string, ok bool) {
	name, val, found := strings.Cut(strings.TrimSpace(t), ": ")
	if !found || name == "" || strings.ContainsAny(name, " \t") {
		return "", "", false
	}
	val = strings.TrimSpace(val)
	if on, _, _ := strings.Cut(val, " "); on != "on" && on != "off" {
		return "", "", false
	}
	return name, val, true
}

// tryEthtoolFeatures reads ethtool -k output ("Features for eth0:" and a "name: on|off
// [fixed]" line per feature, sub-features tab-indented), to its end, a blank line, or an
// ellipsis where the paste was cut. Offloads bear on the buffers the stack allocates
// (GRO and LRO build large skbs from many frames; scatter-gather lets the driver use page
// fragments instead of one contiguous buffer), so they are kept as the NIC's features; no
// rule judges them.
func (d *doc) tryEthtoolFeatures(i int) int {
	s := strings.TrimSpace(d.ls[i].Text)
	iface, ok := strings.CutPrefix(s, "Features for ")
	if !ok || !strings.HasSuffix(iface, ":") {
		return 0
	}
	iface = strings.TrimSuffix(iface, ":")
	feats := map[string]string{}
	k := i + 1
	for ; k < len(d.ls); k++ {
		name, state, ok := ethtoolFeature(d.ls[k].Text)
		if !ok {
			if t := strings.TrimSpace(d.ls[k].Text); t == "..." || t == "…" {
				k++ // the paste's own cut: part of the block
			}
			break
		}
		feats[name] = state
	}
	if len(feats) == 0 {
		return 0
	}
	d.addArtifact(KindEthtoolK, d.ls[i].No, d.ls[k-1].No, map[string]any{"interface": iface, "features": feats})
	return k - i
}
