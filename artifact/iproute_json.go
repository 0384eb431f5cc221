package artifact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// The JSON forms of the tools whose text forms the readers take (forms9): iproute2's -j
// (--json, one line; -p pretty-printed over many) and ethtool's --json. Each is the same
// kernel numbers as the text, keyed by name, so each is read into what its text form gives:
//
//	ip -j -s [-s] link    [{"ifname":"eth0",...,"stats64":{"rx":{"bytes":N,...,"over_errors":N,
//	                      "missed_errors":N},"tx":{...}}}]: ip/ipaddress.c print_link_stats64
//	                      (open_json_object("stats64"), "rx"/"tx", print_u64(PRINT_JSON,
//	                      "bytes", ...)); "stats" on a kernel without IFLA_STATS64 (the 32-bit
//	                      rtnl_link_stats). Read as ip -s link: the same rtnl_link_stats64
//	                      fields (ipLinkJSONKeys).
//	nstat -j / --json     {"kernel":{"TcpExtTCPMemoryPressures":N,...}}: misc/nstat.c
//	                      dump_kern_db (jsonw_name(jw, info_source), info_source "kernel").
//	                      Read as nstat.
//	ethtool --json -S     [ {"ifname":"eth0","rx_missed_errors":N,...} ]: ethtool.c
//	                      do_gnicstats under --json (an object per device, its driver's
//	                      counters as members). Read as ethtool -S; the standard groups of
//	                      --all-groups (nested objects) are not driver counters and stay out.
//
// The forms with no reader in their text form are named as unread, never taken as prose (a
// paste of nothing else exited 3 as if it held no evidence):
//
//	tc -s -j qdisc        [{"kind":"fq_codel",...,"drops":N,"overlimits":N,"backlog":N}]
//	ip -j addr            [{"ifname":...,"addr_info":[...]}]: addresses, no counters.
//
// A value is decoded whole (json.Decoder over the lines from the first), bounded by
// maxJSONLines: a document it cannot decode there is not this reader's.
const maxJSONLines = 1 << 14

// ipLinkJSONKeys maps the members of "rx" and "tx" to the names ip -s link's reader gives
// the same rtnl_link_stats64 fields (iplink.go's ipLinkWords).
var ipLinkJSONKeys = map[string]map[string]string{
	"rx": {"bytes": "rx_bytes", "packets": "rx_packets", "errors": "rx_errors", "dropped": "rx_dropped",
		"over_errors": "rx_over_errors", "multicast": "multicast", "compressed": "rx_compressed",
		"length_errors": "rx_length_errors", "crc_errors": "rx_crc_errors", "frame_errors": "rx_frame_errors",
		"fifo_errors": "rx_fifo_errors", "missed_errors": "rx_missed_errors", "nohandler": "rx_nohandler",
		"otherhost_dropped": "rx_otherhost_dropped"},
	"tx": {"bytes": "tx_bytes", "packets": "tx_packets", "errors": "tx_errors", "dropped": "tx_dropped",
		"carrier_errors": "tx_carrier_errors", "collisions": "collisions", "compressed": "tx_compressed",
		"aborted_errors": "tx_aborted_errors", "fifo_errors": "tx_fifo_errors", "window_errors": "tx_window_errors",
		"heartbeat_errors": "tx_heartbeat_errors", "carrier_changes": "carrier_changes"},
}

// isToolJSONStart: a line that may open one of these documents. One line of -j output
// holds its keys; a pretty-printed one opens with a bracket alone ("[", "[ {", "{"), and
// the keys are looked for on the lines below (toolJSONAt).
func isToolJSONStart(_, t string) bool {
	s := strings.TrimSpace(t)
	switch s {
	case "[", "{", "[ {", "[{":
		return true
	}
	return (strings.HasPrefix(s, "[{") || strings.HasPrefix(s, "{\"") || strings.HasPrefix(s, "[ {")) &&
		(strings.Contains(s, `"ifname"`) || strings.Contains(s, `"kernel"`) || strings.Contains(s, `"drops"`) || strings.Contains(s, `"localtime"`))
}

// toolJSONAt decodes the JSON value that starts at line i, and returns it with the lines
// it took (0 when none decodes, or the value ends inside a line that holds more).
func toolJSONAt(ls []Line, i int) (any, int) {
	end := min(len(ls), i+maxJSONLines)
	s := strings.TrimSpace(ls[i].Text)
	if s == "[" || s == "{" || s == "[ {" || s == "[{" {
		// Pretty-printed: the keys that say which tool within the next lines.
		found := false
		for k := i + 1; k < min(end, i+4); k++ {
			t := ls[k].Text
			// "localtime": OpenWrt's ubus call system info (ubusinfo.go).
			if strings.Contains(t, `"ifname"`) || strings.Contains(t, `"kernel"`) || strings.Contains(t, `"kind"`) || strings.Contains(t, `"localtime"`) {
				found = true
				break
			}
		}
		if !found {
			return nil, 0
		}
	}
	// The value ends where its brackets close: counted outside strings as the lines are
	// read, and decoded once there (a decode at every closing line was quadratic in a
	// pretty-printed document of many objects).
	var b bytes.Buffer
	depth, inStr, esc := 0, false, false
	for k := i; k < end; k++ {
		t := ls[k].Text
		b.WriteString(t)
		b.WriteByte('\n')
		for j := 0; j < len(t); j++ {
			c := t[j]
			switch {
			case esc:
				esc = false
			case inStr:
				esc = c == '\\'
				inStr = c != '"'
			case c == '"':
				inStr = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 && strings.TrimSpace(t[j+1:]) != "" {
					return nil, 0 // the value ends inside a line that holds more
				}
			}
		}
		if depth < 0 || inStr {
			return nil, 0
		}
		if depth == 0 {
			dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) != nil {
				return nil, 0
			}
			return v, k - i + 1
		}
	}
	return nil, 0
}

func jsonInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	x, err := n.Int64()
	return x, err == nil && x >= 0
}

func (d *doc) tryToolJSON(i int) int {
	v, n := toolJSONAt(d.ls, i)
	if n == 0 {
		return 0
	}
	switch x := v.(type) {
	case map[string]any:
		if k, ok := x["kernel"].(map[string]any); ok {
			return d.addNstatJSON(i, n, k)
		}
		if hasKey(x, "memory") {
			return d.ubusSystemInfo(i, n, x)
		}
	case []any:
		var objs []map[string]any
		for _, e := range x {
			o, ok := e.(map[string]any)
			if !ok {
				return 0
			}
			objs = append(objs, o)
		}
		if len(objs) == 0 {
			return 0
		}
		switch {
		case hasKey(objs[0], "stats64") || hasKey(objs[0], "stats"):
			return d.addIPLinkJSON(i, n, objs)
		case hasKey(objs[0], "addr_info") || hasKey(objs[0], "ifname") && hasKey(objs[0], "link_type"):
			d.unparsed(i, i+n-1, "ip -j link/addr without -s: addresses and link state, no counters headroom reads (ip -j -s link has them)")
			return n
		case hasKey(objs[0], "kind") && (hasKey(objs[0], "drops") || hasKey(objs[0], "handle")):
			d.unparsed(i, i+n-1, "tc -s -j qdisc: a qdisc's drops, overlimits and backlog, which headroom has no reader for (nor for tc -s qdisc's text)")
			return n
		case hasKey(objs[0], "ifname"):
			return d.addEthtoolJSON(i, n, objs)
		}
	}
	return 0
}

func hasKey(o map[string]any, k string) bool { _, ok := o[k]; return ok }

func (d *doc) addIPLinkJSON(i, n int, objs []map[string]any) int {
	var ifs []Iface
	for _, o := range objs {
		name, _ := o["ifname"].(string)
		ifc := Iface{Name: name}
		if m, ok := jsonInt(o["mtu"]); ok {
			ifc.MTU = m
		}
		if q, ok := jsonInt(o["txqlen"]); ok {
			ifc.TxQueueLen = q
		}
		ifc.HWAddr, _ = o["address"].(string)
		if fl, ok := o["flags"].([]any); ok {
			for _, f := range fl {
				if s, ok := f.(string); ok {
					ifc.Flags = append(ifc.Flags, s)
				}
			}
		}
		st, ok := o["stats64"].(map[string]any)
		if !ok {
			st, _ = o["stats"].(map[string]any)
		}
		for _, dir := range []string{"rx", "tx"} {
			m, _ := st[dir].(map[string]any)
			for _, k := range sortedKeys(m) {
				if key, known := ipLinkJSONKeys[dir][k]; known {
					if v, ok := jsonInt(m[k]); ok {
						ifc.Counters.Set(key, v)
					}
				}
			}
		}
		ifs = append(ifs, ifc)
	}
	d.addIfaces(KindIPLink, "ip -j", i, n, ifs)
	return n
}

func (d *doc) addNstatJSON(i, n int, k map[string]any) int {
	ns := &Nstat{}
	var other []string
	for _, name := range sortedKeys(k) {
		v, ok := jsonInt(k[name])
		g, c, named := splitNstatName(name)
		if !ok || !named {
			other = append(other, name)
			continue
		}
		ns.Groups.Set(g, c, v)
	}
	if len(ns.Groups) == 0 {
		d.unparsed(i, i+n-1, fmt.Sprintf("nstat --json: no counter of a group headroom reads (%d members)", len(other)))
		return n
	}
	return d.addNstat(i, n, ns)
}

func (d *doc) addEthtoolJSON(i, n int, objs []map[string]any) int {
	first, last := d.ls[i].No, d.ls[i+n-1].No
	var nics []kernel.NICStats
	for _, o := range objs {
		es := &EthtoolStats{Loss: map[string]string{}}
		es.Interface, _ = o["ifname"].(string)
		for _, k := range sortedKeys(o) {
			if v, ok := jsonInt(o[k]); ok {
				es.Stats.Set(k, v)
			}
		}
		if len(es.Stats.Names()) == 0 {
			continue
		}
		for _, l := range kernel.ClassifyNICStats(&es.Stats, false) {
			es.Loss[l.Name] = l.Cause
		}
		stats := es.Stats.Clone()
		nics = append(nics, kernel.NICStats{Name: es.Interface, Stats: &stats})
		d.addArtifact(KindEthtoolS, first, last, es)
	}
	if len(nics) == 0 {
		d.unparsed(i, i+n-1, "a JSON array of per-interface objects without counters headroom reads")
		return n
	}
	d.segSeq++
	d.addSamples(KindEthtoolS, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last), NICStats: nics}})
	return n
}

// sortedKeys: a map's keys in order, so the counters keep one order run to run.
func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
