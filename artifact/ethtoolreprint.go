package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// A program's re-print of ethtool's statistics and features under its own log prefix (fix52d,
// corpus 4338): tailscale's `tailscale bugreport --diagnose` (doctor/ethtool, ethtoolImpl and
// printStats) asks the kernel for each interface's ethtool -S counters and ethtool -k features
// through the ethtool netlink/ioctl API and logs, per interface, under the prefix
// "ethtool: IFACE: " (behind the bugreport's own "diag: "):
//
//	diag: ethtool: ens5: features: [rx-gro tx-scatter-gather ...]
//	diag: ethtool: ens5: warning: pps_allowance_exceeded = 99 > 0         (2024, the PR's form)
//	diag: ethtool: ens5: stats: warning: bw_in_allowance_exceeded = 1865 > 0  (later releases)
//	diag: ethtool: ens5: stats: warning: conntrack_allowance_available = 0 == 0
//	diag: ethtool: ens5: stats: error: operation not supported
//
// The counters are the driver's own ethtool -S values (the program prints a counter only when
// it is non-zero, or, for conntrack_allowance_available, zero), so they are read as an
// ethtool -S of that interface: the NIC rules judge them as they judge the command's output.
// A feature list is the interface's enabled offloads, kept as ethtool -k's are (no rule judges
// them). The form is the program's template: "ethtool: ", an interface name, then "features: "
// or "[stats: ]warning: NAME = N > 0|== 0" or "stats: error:"; a sentence that names a counter
// with '=' ("set pps_allowance_exceeded = 0 to ..."), a question or another program's
// "warning: x = 1" has no such template and is not read.

// ethtoolReprintLine splits a line of the re-print: the interface and the rest after it
// ("features: [...]", "warning: ...", "stats: ..."). ok is false for any other line.
func ethtoolReprintLine(t string) (iface, rest string, ok bool) {
	k := strings.Index(t, "ethtool: ")
	if k < 0 {
		return "", "", false
	}
	// What comes before "ethtool: " is the carrying program's prefix: empty or ending in ": "
	// or a space (a log stamp), never a word glued to "ethtool".
	if k > 0 && t[k-1] != ' ' {
		return "", "", false
	}
	s := t[k+len("ethtool: "):]
	c := strings.Index(s, ": ")
	if c <= 0 || !ifaceName(s[:c]) {
		return "", "", false
	}
	return s[:c], strings.TrimSpace(s[c+2:]), true
}

// ifaceName: a Linux interface name as the kernel allows it (at most 15 bytes, no white
// space, no '/' or ':').
func ifaceName(s string) bool {
	if s == "" || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == '/' || c == ':' || c >= 0x7f {
			return false
		}
	}
	return true
}

// ethtoolReprintCounter reads "warning: NAME = N > 0" or "stats: warning: NAME = N == 0".
func ethtoolReprintCounter(rest string) (name string, v int64, ok bool) {
	rest = strings.TrimPrefix(rest, "stats: ")
	body, found := strings.CutPrefix(rest, "warning: ")
	if !found {
		return "", 0, false
	}
	name, val, found := strings.Cut(body, " = ")
	if !found || name == "" || !counterIdent(name) {
		return "", 0, false
	}
	num, cmp, _ := strings.Cut(val, " ")
	if cmp != "> 0" && cmp != "== 0" {
		return "", 0, false
	}
	v, ok = atoi(num)
	if !ok || cmp == "== 0" && v != 0 || cmp == "> 0" && v <= 0 {
		return "", 0, false
	}
	return name, v, true
}

// counterIdent: a driver's counter name as ethtool -S prints it without spaces.
func counterIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// ethtoolReprintFeatures reads "features: [a b c]" (the enabled features, sorted) or
// "features: error: ...".
func ethtoolReprintFeatures(rest string) ([]string, bool) {
	body, found := strings.CutPrefix(rest, "features: ")
	if !found {
		return nil, false
	}
	if strings.HasPrefix(body, "error: ") {
		return nil, true
	}
	if !strings.HasPrefix(body, "[") || !strings.HasSuffix(body, "]") {
		return nil, false
	}
	return strings.Fields(body[1 : len(body)-1]), true
}

// ethtoolReprintKnown: a line of the re-print's template (a counter, a feature list or an
// error), not just a line with the prefix.
func ethtoolReprintKnown(t string) (iface, rest string, ok bool) {
	iface, rest, ok = ethtoolReprintLine(t)
	if !ok {
		return "", "", false
	}
	if _, _, c := ethtoolReprintCounter(rest); c {
		return iface, rest, true
	}
	if _, f := ethtoolReprintFeatures(rest); f {
		return iface, rest, true
	}
	if strings.HasPrefix(rest, "stats: error: ") {
		return iface, rest, true
	}
	return "", "", false
}

// isEthtoolReprintStart is the format's detect: a line of the template.
func isEthtoolReprintStart(_, t string) bool {
	if !strings.Contains(t, "ethtool: ") {
		return false
	}
	_, _, ok := ethtoolReprintKnown(t)
	return ok
}

// tryEthtoolReprint reads the run of template lines at i: one sample with each interface's
// counters (the program read them all at one moment), an ethtool -S artifact per interface
// with counters, an ethtool -k artifact per feature list. A run of feature lists alone is
// read too (the block is the program's), with no sample.
func (d *doc) tryEthtoolReprint(i int) int {
	type ifaceRead struct {
		stats       kernel.Counters
		first, last int
	}
	var order []string
	reads := map[string]*ifaceRead{}
	k := i
	for ; k < len(d.ls); k++ {
		iface, rest, ok := ethtoolReprintKnown(d.ls[k].Text)
		if !ok {
			break
		}
		no := d.ls[k].No
		if feats, f := ethtoolReprintFeatures(rest); f {
			if len(feats) > 0 {
				m := make(map[string]string, len(feats))
				for _, n := range feats {
					m[n] = "on"
				}
				d.addArtifact(KindEthtoolK, no, no, map[string]any{"interface": iface, "features": m, "printed_by": "a program's ethtool re-print (tailscale bugreport --diagnose)"})
			}
			continue
		}
		name, v, c := ethtoolReprintCounter(rest)
		if !c {
			continue // "stats: error: ...": the program could not read the counters
		}
		r := reads[iface]
		if r == nil {
			r = &ifaceRead{first: no}
			reads[iface] = r
			order = append(order, iface)
		}
		r.stats.Set(name, v)
		r.last = no
	}
	if k == i {
		return 0
	}
	if len(order) > 0 {
		first, last := d.ls[i].No, d.ls[k-1].No
		var nics []kernel.NICStats
		for _, iface := range order {
			r := reads[iface]
			es := &EthtoolStats{Interface: iface, Stats: r.stats.Clone(), Loss: map[string]string{}}
			for _, l := range kernel.ClassifyNICStats(&es.Stats, false) {
				es.Loss[l.Name] = l.Cause
			}
			d.addArtifact(KindEthtoolS, r.first, r.last, es)
			st := r.stats.Clone()
			nics = append(nics, kernel.NICStats{Name: iface, Stats: &st})
		}
		d.segSeq++
		d.addSamples(KindEthtoolS, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last) + " (ethtool counters re-printed by a program)", NICStats: nics}})
	}
	return k - i
}
