package artifact

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// BSD netstat -s (FreeBSD/NetBSD/OpenBSD usr.bin/netstat/inet.c udp_stats; also F-Stack's
// ff_netstat, which carries FreeBSD's stack into user space) prints its UDP section under a
// lowercase "udp:" header, one tab-indented "%ju sentence" per counter. Two of its counters
// are Linux's Udp counters under another sentence: "dropped due to full socket buffers"
// (udps_fullsock, the socket's receive buffer was full: Linux RcvbufErrors) and "dropped due
// to no socket" (udps_noport: Linux NoPorts); "datagrams received" (udps_ipackets) is the
// total the share is taken of. The other sentences (checksum, header and pcb counters,
// "delivered") are read and kept under the artifact's unmapped, not mapped. A book's unindented example or a translation is not this output.
var bsdUDPSentences = map[string]string{
	"% datagrams received":                                     "InDatagrams",
	"% dropped due to full socket buffers":                     "RcvbufErrors",
	"% dropped due to no socket":                               "NoPorts",
	"% datagrams output":                                       "OutDatagrams",
	"% with incomplete header":                                 "",
	"% with bad data length field":                             "",
	"% with bad checksum":                                      "",
	"% with no checksum":                                       "",
	"% broadcast/multicast datagrams undelivered":              "",
	"% broadcast/multicast datagrams dropped due to no socket": "",
	"% not for hashed pcb":                                     "",
	"% delivered":                                              "",
	"% times multicast source filter matched":                  "",
}

const bsdUDPLayout = "a BSD's netstat -s udp section (usr.bin/netstat inet.c udp_stats; F-Stack's ff_netstat): \"dropped due to full socket buffers\" read as RcvbufErrors, \"dropped due to no socket\" as NoPorts"

// tryBSDNetstatUDP reads a "udp:" header and its indented udp_stats sentences. It needs the
// full-buffers sentence among them: that line is what only this output prints.
func (d *doc) tryBSDNetstatUDP(i int) int {
	if strings.TrimRight(d.ls[i].Text, " \t\r") != "udp:" {
		return 0
	}
	g := kernel.Group{Name: "Udp"}
	var other []string // the sentences with no Linux counter, kept with their line
	full := false
	k := i + 1
	for ; k < len(d.ls); k++ {
		t := d.ls[k].Text
		if len(t) == 0 || (t[0] != ' ' && t[0] != '\t') {
			break
		}
		key, v, ok := sentenceKey(strings.TrimSpace(t))
		if !ok {
			break
		}
		name, known := bsdUDPSentences[key]
		if !known {
			break
		}
		if name == "RcvbufErrors" {
			full = true
		}
		if name != "" {
			g.Counters.Set(name, v)
		} else {
			other = append(other, fmt.Sprintf("line %d: %s", d.ls[k].No, strings.TrimSpace(t)))
		}
	}
	if !full {
		return 0
	}
	return d.addTable(KindNetstatS, i, k, model.Sample{NetStat: kernel.Groups{g}}, &NetstatS{Groups: kernel.Groups{g}, Unmapped: other, Layout: bsdUDPLayout})
}
