package artifact

import (
	"fmt"
	"regexp"
	"strings"

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

var reEthtoolCmd = regexp.MustCompile(`ethtool\s+(?:-S|--statistics|-g|--show-ring)\s+(\S+)`)

func ethtoolStatsAt(ls []Line, i int) (*EthtoolStats, int) {
	if strings.TrimSpace(ls[i].Text) != "NIC statistics:" {
		return nil, 0
	}
	es := &EthtoolStats{Loss: map[string]string{}}
	k := i + 1
	for ; k < len(ls); k++ {
		s := strings.TrimSpace(ls[k].Text)
		name, val, ok := strings.Cut(s, ":")
		if !ok || strings.Contains(name, " ") && !strings.HasPrefix(name, "[") {
			break
		}
		v, ok := atoi(strings.TrimSpace(val))
		if !ok {
			break
		}
		name = strings.TrimSpace(name)
		es.Stats.Set(name, v)
	}
	if es.Stats.Len() == 0 {
		return nil, 0
	}
	for _, l := range kernel.ClassifyNICStats(&es.Stats, false) {
		es.Loss[l.Name] = l.Cause
	}
	return es, k - i
}

// ParseEthtoolStats parses ethtool -S output.
func ParseEthtoolStats(text string) (*EthtoolStats, error) {
	ls := SplitLines(text)
	for i := range ls {
		if es, n := ethtoolStatsAt(ls, i); n > 0 {
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
			k = len(ls) + 1
			continue
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
		switch name {
		case "RX":
			if section == "max" {
				r.RxMax = v
			} else {
				r.Rx = v
			}
		case "RX Mini":
			if section == "max" {
				r.RxMiniMax = v
			} else {
				r.RxMini = v
			}
		case "RX Jumbo":
			if section == "max" {
				r.RxJumboMax = v
			} else {
				r.RxJumbo = v
			}
		case "TX":
			if section == "max" {
				r.TxMax = v
			} else {
				r.Tx = v
			}
		}
	}
	if k > len(ls) {
		k = len(ls)
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
	if es, n := ethtoolStatsAt(d.ls, i); n > 0 {
		es.Interface = iface
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
