package artifact

import (
	"regexp"
	"strconv"

	"headroom/kernel"
)

// The link speed a NIC driver logs when the link comes up: e1000, e1000e, igb, ixgbe and
// vmxnet3 print "<ifname>: NIC Link is Up <N> Mbps" (ixgbe: "<N> Gbps") from their watchdog
// or link-state handlers (drivers/net/ethernet/intel/e1000e/netdev.c
// e1000_print_link_info, drivers/net/vmxnet3/vmxnet3_drv.c vmxnet3_check_link). The
// speed is the host's, read from its own log (corpus 472: "vmxnet3 0000:0b:00.0 eth0: NIC
// Link is Up 10000 Mbps"). A device renamed after the message (eth0 -> eno16780032) logs
// again under the new name; the PCI address before the name ties the two to one NIC.
var reLinkUp = regexp.MustCompile(`(?:(\d{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d)\s+)?([A-Za-z][\w.-]*):?\s+NIC Link is Up (\d+) ([MG])bps`)

// linkUpNICs lists the NICs the kernel log says came up, with their speeds (the last
// message of each device wins); nil when the log has none.
func linkUpNICs(msgs []string) []kernel.NIC {
	var order []string
	byKey := map[string]kernel.NIC{}
	for _, m := range msgs {
		sm := reLinkUp.FindStringSubmatch(m)
		if sm == nil {
			continue
		}
		v, err := strconv.ParseInt(sm[3], 10, 64)
		if err != nil || v <= 0 {
			continue
		}
		if sm[4] == "G" {
			v *= 1000
		}
		key := sm[1]
		if key == "" {
			key = sm[2]
		}
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] = kernel.NIC{Name: sm[2], SpeedMbps: v}
	}
	var out []kernel.NIC
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out
}

// logNICs gives the host the NICs its log says came up, when nothing else listed them.
func (d *doc) logNICs() {
	if len(d.tl.Host.NICs) > 0 || len(d.tl.Log) == 0 {
		return
	}
	msgs := make([]string, 0, len(d.tl.Log))
	first, last := 0, 0
	for _, r := range d.tl.Log {
		if reLinkUp.MatchString(r.Message) {
			msgs = append(msgs, r.Message)
			if n := lineOf(r.Source); n > 0 {
				if first == 0 {
					first = n
				}
				last = n
			}
		}
	}
	nics := linkUpNICs(msgs)
	if len(nics) == 0 {
		return
	}
	d.tl.Host.NICs = nics
	d.addArtifact(KindNICLink, first, last, nics)
}
