package artifact

import (
	"slices"
	"strings"
)

// netstat -i (net-tools lib/interface.c ife_print_short): "Iface MTU [Met] RX-OK RX-ERR
// RX-DRP RX-OVR TX-OK TX-ERR TX-DRP TX-OVR Flg" = rx_packets, rx_errors, rx_dropped,
// rx_fifo_errors, tx_packets, tx_errors, tx_dropped, tx_fifo_errors, read from
// /proc/net/dev (so RX-DRP includes rx_missed_errors, as ifconfig's "dropped").
var netstatIColumns = map[string]string{"RX-OK": "rx_packets", "RX-ERR": "rx_errors", "RX-DRP": "rx_dropped",
	"RX-OVR": "rx_fifo_errors", "TX-OK": "tx_packets", "TX-ERR": "tx_errors", "TX-DRP": "tx_dropped", "TX-OVR": "tx_fifo_errors"}

func isNetstatIHeader(t string) bool {
	fs := fields(t)
	return len(fs) >= 8 && fs[0] == "Iface" && strings.Contains(t, "RX-OK")
}

func netstatIAt(ls []Line, i int) ([]Iface, int) {
	cols := fields(ls[i].Text)
	var out []Iface
	k := i + 1
	for ; k < len(ls); k++ {
		fs := fields(ls[k].Text)
		if len(fs) < len(cols)-1 || !isDigits(fs[1]) {
			break
		}
		ifc := Iface{Name: fs[0]}
		ifc.MTU, _ = atoi(fs[1])
		for c := 2; c < len(cols) && c < len(fs); c++ {
			if key, ok := netstatIColumns[cols[c]]; ok {
				if v, ok := atoi(fs[c]); ok {
					ifc.Counters.Set(key, v)
				}
			}
		}
		out = append(out, ifc)
	}
	if len(out) == 0 {
		return nil, 0
	}
	return out, k - i
}

func (d *doc) tryNetstatI(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	start := i
	if t == "Kernel Interface table" && i+1 < len(d.ls) {
		start = i + 1
	}
	if !isNetstatIHeader(d.ls[start].Text) {
		return 0
	}
	ifs, n := netstatIAt(d.ls, start)
	if n == 0 {
		d.unparsed(start, start, "netstat -i header without readable rows")
		return start - i + 1
	}
	d.addIfaces(KindNetstatI, "netstat -i", i, n+start-i, ifs)
	return n + start - i
}

// VyOS's `show interfaces counters` and `show interfaces kernel statistics` (vyos-1x
// src/op_mode/interfaces.py _format_show_counters, show_kernel; tabulate's "simple" table
// under a dashed rule):
//
//	Interface      Rx Packets    Rx Bytes    Tx Packets    Tx Bytes    Rx Dropped    Tx Dropped    Rx Errors    Tx Errors
//	-----------  ------------  ----------  ------------  ----------  ------------  ------------  -----------  -----------
//	eth0             88776655  9876543210      23456789  1234567890        412345             0            0            0
//
// The header's words are fixed and the columns come in that order, so the cells are read by
// position. "Rx Errors" is rx_over_errors under `show interfaces counters` and rx_errors
// under `show interfaces kernel statistics`, the same header for both: it is kept as
// rx_errors, which no rule counts as a ring overrun (the table cannot say which it was).
// The counters are since the interface's last `clear interfaces counters`, at most since boot.
var vyosCounterHeader = []string{"Interface", "Rx", "Packets", "Rx", "Bytes", "Tx", "Packets", "Tx", "Bytes",
	"Rx", "Dropped", "Tx", "Dropped", "Rx", "Errors", "Tx", "Errors"}

var vyosCounterKeys = []string{"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_dropped", "tx_dropped", "rx_errors", "tx_errors"}

func (d *doc) tryVyOSCounters(i int) int {
	if !slices.Equal(fields(d.ls[i].Text), vyosCounterHeader) {
		return 0
	}
	k := i + 1
	if k < len(d.ls) && strings.HasPrefix(strings.TrimSpace(d.ls[k].Text), "---") {
		k++
	}
	var ifs []Iface
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) != 1+len(vyosCounterKeys) || !allNumeric(fs[1:]) {
			break
		}
		ifc := Iface{Name: fs[0]}
		for c, key := range vyosCounterKeys {
			if v, ok := atoi(fs[1+c]); ok {
				ifc.Counters.Set(key, v)
			}
		}
		ifs = append(ifs, ifc)
	}
	if len(ifs) == 0 {
		return 0
	}
	d.addIfaces(KindNetstatI, "VyOS show interfaces counters", i, k-i, ifs)
	return k - i
}
