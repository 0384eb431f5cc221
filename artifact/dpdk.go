package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// DPDK ports: the NIC belongs to a user-space poll-mode driver, so its losses never reach
// /proc/net/dev; the tools print rte_eth_stats instead (kernel/dpdk.go names them). Two
// layouts:
//
//	dpvs `dpip -s link show`: a header line, then grids of names over values
//	  "1: dpdk0: socket 0 mtu 1500 rx-queue 8 tx-queue 8"
//	  "    ierrors             oerrors             imissed             rx_nombuf"
//	  "    0                   0                   8488                0"
//	l2fwd / testpmd: a "statistics for port N" line, then "name: value" pairs, several a line
//	  "Statistics for port 0 ------------------------------"
//	  "ipackets:          6784279      opackets:          6784279 ..."
//	  "  RX-packets: 1000       RX-missed: 10         RX-bytes:  64000"
//
// Each block is one interface's reading (named dpdk0, or portN), read into the NetDev names
// the kernel's drivers use, so nic-rx-overruns judges imissed as it judges
// rx_missed_errors. Other numbers of the block (mbuf-avail, queue counts) stay in the
// artifact.

var (
	reDPIPHeader = lazyre.New(`^\d+:\s+(\S+):\s+socket\s+\d+`)
	reDPDKPort   = lazyre.New(`(?i)\bstatistics for port\s+(\d+)\b`)
	reDPDKPair   = lazyre.New(`([A-Za-z][\w-]*(?: [a-z]+)?):\s+(\d+)\b`)
)

// isDPDKStart: the first line of a dpip link block or of a port's statistics.
func isDPDKStart(_, t string) bool {
	return reDPIPHeader.MatchString(strings.TrimLeft(t, " \t")) || reDPDKPort.MatchString(t)
}

type dpdkPort struct {
	Tool      string           `json:"tool"`
	Interface Iface            `json:"interface"`
	Other     map[string]int64 `json:"other,omitempty"`
}

func (p *dpdkPort) set(name string, v int64) {
	if n, ok := kernel.DPDKStatName(name); ok {
		p.Interface.Counters.Set(n, v)
		return
	}
	if p.Other == nil {
		p.Other = map[string]int64{}
	}
	p.Other[strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(name))] = v
}

func (d *doc) tryDPDK(i int) int {
	t := d.ls[i].Text
	var p dpdkPort
	k := i + 1
	if m := reDPIPHeader.FindStringSubmatch(strings.TrimSpace(t)); m != nil {
		p.Tool = "dpip link show (dpvs)"
		p.Interface.Name = m[1]
		// "socket 0 mtu 1500 rx-queue 8 tx-queue 8": name-value words
		fs := fields(t)
		for j := 2; j+1 < len(fs); j++ {
			if v, ok := atoi(fs[j+1]); ok && !isDigits(fs[j]) {
				if fs[j] == "mtu" {
					p.Interface.MTU = v
				} else {
					p.set(fs[j], v)
				}
				j++
			}
		}
		// the block: the lines indented deeper than its header (the whole paste may be
		// indented, as a Markdown code block)
		indent := len(t) - len(strings.TrimLeft(t, " \t"))
		for k < len(d.ls) && !isBlank(d.ls[k].Text) && len(d.ls[k].Text)-len(strings.TrimLeft(d.ls[k].Text, " \t")) > indent {
			names := fields(d.ls[k].Text)
			if k+1 < len(d.ls) {
				vals := fields(d.ls[k+1].Text)
				if len(vals) == len(names) && len(vals) > 0 && isDigits(vals[0]) && !isDigits(names[0]) {
					for j := range names {
						if v, ok := atoi(vals[j]); ok {
							p.set(names[j], v)
						}
					}
					k += 2
					continue
				}
			}
			k++
		}
	} else {
		m := reDPDKPort.FindStringSubmatch(t)
		p.Tool = "DPDK port statistics (testpmd, l2fwd)"
		p.Interface.Name = "port" + m[1]
		for ; k < len(d.ls); k++ {
			u := d.ls[k].Text
			if isBlank(u) || isDPDKStart("", u) || strings.Contains(u, "====") || strings.Contains(u, "####") {
				break
			}
			ms := reDPDKPair.FindAllStringSubmatch(u, -1)
			if len(ms) == 0 {
				break
			}
			for _, m := range ms {
				if v, ok := atoi(m[2]); ok {
					p.set(m[1], v)
				}
			}
		}
	}
	if _, ok := p.Interface.Counters.Get("rx_missed_errors"); !ok {
		if _, ok := p.Interface.Counters.Get("rx_packets"); !ok {
			return 0 // no DPDK statistic in the block
		}
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	label := d.label(i)
	d.segSeq++
	nd := ifacesToNetDev([]Iface{p.Interface})
	nd[0].UserSpace = true
	d.addSamples(KindDPDK, label, first, last, []model.Sample{{Source: spanSource(first, last), NetDev: nd}})
	d.addArtifact(KindDPDK, first, last, p)
	return k - i
}
