package artifact

import (
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// An snmpwalk (net-snmp) of a host's IF-MIB, as LibreNMS, Observium and Cacti users paste it
// to show what the poller graphs: one row per column and ifIndex, the OID by name, by -Os's
// short name or numerically (without the MIBs installed Debian's snmpwalk prints "iso.3…").
//
//	IF-MIB::ifDescr.2 = STRING: eth0
//	IF-MIB::ifInDiscards.2 = Counter32: 2345678
//	ifHCInUcastPkts.2 = Counter64: 912345678
//	iso.3.6.1.2.1.2.2.1.13.2 = Counter32: 2345678
//
// On Linux net-snmp's agent reads /proc/net/dev for these (if-mib/data_access/
// interface_linux.c: the "drop" column is ifInDiscards, "errs" ifInErrors), so a walk whose
// interfaces carry Linux names is that file's counters: ifInDiscards becomes rx_dropped,
// ifInErrors rx_errors, the unicast, multicast and broadcast packets (the 64-bit HC columns
// when walked) rx_packets. A walk of a router or switch ("GigabitEthernet0/1", "ge-0/0/0",
// names with "/" or spaces, which the kernel's dev_valid_name refuses) or without ifDescr or
// ifName is no Linux host's and is named as not read.

// snmpIfColumns maps IF-MIB's column names to the ifTable (2.2.1.N) and ifXTable (31.1.1.1.N)
// numbers.
var snmpIfColumns = map[string]string{
	"2.2.1.2": "ifDescr", "2.2.1.10": "ifInOctets", "2.2.1.11": "ifInUcastPkts", "2.2.1.12": "ifInNUcastPkts",
	"2.2.1.13": "ifInDiscards", "2.2.1.14": "ifInErrors", "2.2.1.19": "ifOutDiscards", "2.2.1.20": "ifOutErrors",
	"31.1.1.1.1": "ifName", "31.1.1.1.2": "ifInMulticastPkts", "31.1.1.1.3": "ifInBroadcastPkts",
	"31.1.1.1.6": "ifHCInOctets", "31.1.1.1.7": "ifHCInUcastPkts", "31.1.1.1.8": "ifHCInMulticastPkts",
	"31.1.1.1.9": "ifHCInBroadcastPkts",
}

var snmpIfNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range snmpIfColumns {
		m[n] = true
	}
	return m
}()

// snmpIfRow splits "OID = TYPE: VALUE" into the IF-MIB column, the ifIndex and the value;
// ok is false for another MIB's row.
func snmpIfRow(t string) (col, idx, val string, ok bool) {
	oid, rest, found := strings.Cut(strings.TrimSpace(t), " = ")
	if !found {
		return "", "", "", false
	}
	dot := strings.LastIndexByte(oid, '.')
	if dot <= 0 || !isDigits(oid[dot+1:]) {
		return "", "", "", false
	}
	name, idx := oid[:dot], oid[dot+1:]
	name = strings.TrimPrefix(name, "IF-MIB::")
	for _, p := range []string{"iso.3.6.1.2.1.", ".1.3.6.1.2.1.", "1.3.6.1.2.1.", "SNMPv2-SMI::mib-2."} {
		if strings.HasPrefix(name, p) {
			name = snmpIfColumns[name[len(p):]]
			break
		}
	}
	if !snmpIfNames[name] {
		return "", "", "", false
	}
	_, v, _ := strings.Cut(rest, ": ")
	return name, idx, strings.Trim(strings.TrimSpace(v), `"`), true
}

// isSNMPIfLine: the first field names an IF-MIB column (a cheap test of its first bytes
// before the split).
func isSNMPIfLine(ft, t string) bool {
	if !(strings.HasPrefix(ft, "IF-MIB::") || strings.HasPrefix(ft, "if") || strings.HasPrefix(ft, "iso.3.6.1.2.1.") ||
		strings.HasPrefix(ft, ".1.3.6.1.2.1.") || strings.HasPrefix(ft, "1.3.6.1.2.1.") || strings.HasPrefix(ft, "SNMPv2-SMI::mib-2.")) {
		return false
	}
	_, _, _, ok := snmpIfRow(t)
	return ok
}

// isSNMPCommand: a net-snmp command line between the walks of one paste.
func isSNMPCommand(t string) bool {
	return strings.Contains(t, "snmpwalk") || strings.Contains(t, "snmpbulkwalk") || strings.Contains(t, "snmpget")
}

// SNMPIfData is a walk's interfaces, their columns as read.
type SNMPIfData struct {
	Interfaces []SNMPIf `json:"interfaces"`
	LinuxNames bool     `json:"linux_names"` // every name is one the kernel accepts: read as /proc/net/dev
}

// SNMPIf is one ifIndex's columns.
type SNMPIf struct {
	Index   string           `json:"index"`
	Name    string           `json:"name,omitempty"`
	Columns map[string]int64 `json:"columns"`
}

// linuxIfName: a name dev_valid_name (net/core/dev.c) accepts: at most 15 bytes, not "." or
// "..", no "/", ":" or white space.
func linuxIfName(n string) bool {
	return n != "" && len(n) < 16 && n != "." && n != ".." && !strings.ContainsAny(n, "/: \t")
}

func (d *doc) trySNMPIf(i int) int {
	byIdx := map[string]*SNMPIf{}
	var order []string
	k, end := i, i
	for k < len(d.ls) {
		t := d.ls[k].Text
		col, idx, val, ok := snmpIfRow(t)
		if !ok {
			if strings.TrimSpace(t) == "" || isSNMPCommand(t) {
				k++
				continue
			}
			break
		}
		k++
		end = k
		r := byIdx[idx]
		if r == nil {
			r = &SNMPIf{Index: idx, Columns: map[string]int64{}}
			byIdx[idx] = r
			order = append(order, idx)
		}
		if col == "ifDescr" || col == "ifName" {
			if r.Name == "" || col == "ifName" {
				r.Name = val
			}
			continue
		}
		if n, err := strconv.ParseInt(firstField(val), 10, 64); err == nil && n >= 0 {
			r.Columns[col] = n
		}
	}
	if end == i {
		return 0
	}
	data := SNMPIfData{LinuxNames: true}
	named := 0
	for _, idx := range order {
		r := byIdx[idx]
		data.Interfaces = append(data.Interfaces, *r)
		if r.Name != "" {
			named++
			data.LinuxNames = data.LinuxNames && linuxIfName(r.Name)
		}
	}
	data.LinuxNames = data.LinuxNames && named > 0
	first, last := d.ls[i].No, d.ls[end-1].No
	d.addArtifact(KindSNMPIf, first, last, data)
	if !data.LinuxNames {
		d.unparsed(i, end-1, "SNMP IF-MIB walk: the interfaces' counters as the agent reports them; without ifDescr or ifName "+
			"naming Linux interfaces (eth0, ens3) they are no Linux host's /proc/net/dev (a router's or switch's, or not known), "+
			"so headroom does not read them as the kernel's: `ip -s link` on the host gives its drops")
		return end - i
	}
	var s model.Sample
	for _, idx := range order {
		r := byIdx[idx]
		if r.Name == "" || len(r.Columns) == 0 {
			continue
		}
		dev := kernel.NetDev{Name: r.Name}
		c := r.Columns
		set := func(name string, cols ...string) {
			for _, col := range cols {
				if v, ok := c[col]; ok {
					dev.Counters.Set(name, v)
					return
				}
			}
		}
		set("rx_dropped", "ifInDiscards")
		set("rx_errors", "ifInErrors")
		set("rx_bytes", "ifHCInOctets", "ifInOctets")
		set("tx_dropped", "ifOutDiscards")
		set("tx_errors", "ifOutErrors")
		if pk, ok := snmpInPackets(c); ok {
			dev.Counters.Set("rx_packets", pk)
		}
		if dev.Counters.Len() > 0 {
			s.NetDev = append(s.NetDev, dev)
		}
	}
	if len(s.NetDev) > 0 {
		s.Source = spanSource(first, last) + " (snmpwalk IF-MIB)"
		d.segSeq++
		d.addSamples(KindSNMPIf, d.label(i), first, last, []model.Sample{s})
	}
	return end - i
}

// snmpInPackets is the packets received: unicast plus non-unicast (the 64-bit HC columns
// when the walk holds them); ok is false without a unicast count.
func snmpInPackets(c map[string]int64) (int64, bool) {
	if hc, ok := c["ifHCInUcastPkts"]; ok {
		return hc + c["ifHCInMulticastPkts"] + c["ifHCInBroadcastPkts"], true
	}
	u, ok := c["ifInUcastPkts"]
	if !ok {
		return 0, false
	}
	if nu, ok := c["ifInNUcastPkts"]; ok {
		return u + nu, true
	}
	return u + c["ifInMulticastPkts"] + c["ifInBroadcastPkts"], true
}
