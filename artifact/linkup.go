package artifact

import (
	"regexp"
	"strconv"
	"strings"

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

// linkUpWords is what every match of reLinkUp holds.
const linkUpWords = "NIC Link is Up "

// linkUp is what one message says: the NIC's key (its PCI address, else its name), its
// name and speed; ok false when the message says none.
type linkUp struct {
	key string
	nic kernel.NIC
	ok  bool
}

// readLinkUp reads a message through reLinkUp. The regexp's optional leading group makes
// it backtrack from every byte of the message, so it runs only on a message that holds the
// words it needs, and once per distinct message (a flapping link logs the same few over
// and over: the bench's syslog has one in ten kernel lines, and the regexp on each took
// four fifths of the parse).
func readLinkUp(m string, seen map[string]linkUp) linkUp {
	if !strings.Contains(m, linkUpWords) {
		return linkUp{}
	}
	if r, ok := seen[m]; ok {
		return r
	}
	var r linkUp
	if sm := reLinkUp.FindStringSubmatch(m); sm != nil {
		v, err := strconv.ParseInt(sm[3], 10, 64)
		if err == nil && v > 0 {
			if sm[4] == "G" {
				v *= 1000
			}
			key := sm[1]
			if key == "" {
				key = sm[2]
			}
			r = linkUp{key: key, nic: kernel.NIC{Name: sm[2], SpeedMbps: v}, ok: true}
		}
	}
	seen[m] = r
	return r
}

// logNICsListed: logNICs reads the records appendLog listed, not the whole log (a variable
// so that a test can compare the two).
var logNICsListed = true

// logNICs gives the host the NICs its log says came up, with their speeds (the last message
// of each device wins), when nothing else listed them.
func (d *doc) logNICs() {
	if len(d.tl.Host.NICs) > 0 || len(d.tl.Log) == 0 {
		return
	}
	// appendLog and relog listed the records that hold the words, in the order logged;
	// when finish sorted the log by line, that order and those indexes are gone.
	recs := d.linkUps
	if d.logOrder || !logNICsListed {
		recs = make([]int, len(d.tl.Log))
		for i := range recs {
			recs[i] = i
		}
	}
	var nics []kernel.NIC
	at := map[string]int{} // a NIC's key: its index in nics
	first, last := -1, -1  // the first and last records that said one
	seen := map[string]linkUp{}
	for _, i := range recs {
		u := readLinkUp(d.tl.Log[i].Message, seen)
		if !u.ok {
			continue
		}
		if k, ok := at[u.key]; ok {
			nics[k] = u.nic
		} else {
			at[u.key] = len(nics)
			nics = append(nics, u.nic)
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	if len(nics) == 0 {
		return
	}
	d.tl.Host.NICs = nics
	d.addArtifact(KindNICLink, lineOf(d.tl.Log[first].Source), lineOf(d.tl.Log[last].Source), nics)
}
