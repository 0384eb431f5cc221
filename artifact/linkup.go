package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// The link speed a NIC driver logs when the link comes up: e1000, e1000e, igb, ixgbe and
// vmxnet3 print "<ifname>: NIC Link is Up <N> Mbps" (ixgbe: "<N> Gbps") from their watchdog
// or link-state handlers (drivers/net/ethernet/intel/e1000e/netdev.c
// e1000_print_link_info, drivers/net/vmxnet3/vmxnet3_drv.c vmxnet3_check_link). The
// speed is the host's, read from its own log (corpus 472: "vmxnet3 0000:0b:00.0 eth0: NIC
// Link is Up 10000 Mbps"). A device renamed after the message (eth0 -> eno16780032) logs
// again under the new name; the PCI address before the name ties the two to one NIC. 2.6's
// e1000 printed the function between the name and the words (DPRINTK with __FUNCTION__:
// "e1000: eth0: e1000_watchdog: NIC Link is Up 1000 Mbps"): the name is the one before it.
var reLinkUp = lazyre.New(`(?:(\d{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d)\s+)?([A-Za-z][\w.-]*):?\s+(?:\w+_watchdog\w*:\s+)?NIC Link is Up (\d+) ([MG])bps`)

// linkUpWords is what every match of reLinkUp holds.
const linkUpWords = "NIC Link is Up "

// linkUp is what one message says: the NIC's key (its PCI address, else its name), its
// name and speed; ok false when the message says none.
type linkUp struct {
	key string
	nic kernel.NIC
	ok  bool
}

// noLinkUp is what a message without linkUpWords says; not to be changed.
var noLinkUp linkUp

// readLinkUp reads a message through reLinkUp. The regexp's optional leading group makes
// it backtrack from every byte of the message, so it runs only on a message that holds the
// words it needs, and once per distinct message (a flapping link logs the same few over
// and over: the bench's syslog has one in ten kernel lines, and the regexp on each took
// four fifths of the parse).
func readLinkUp(m string, seen map[string]*linkUp) *linkUp {
	if !strings.Contains(m, linkUpWords) {
		return &noLinkUp
	}
	if r, ok := seen[m]; ok {
		return r
	}
	r := &linkUp{}
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
			*r = linkUp{key: key, nic: kernel.NIC{Name: sm[2], SpeedMbps: v}, ok: true}
		}
	}
	seen[m] = r
	return r
}

// loggedLinkUp is a log record that holds linkUpWords (its index in tl.Log) and what it
// says. It is read when it is logged, while its line is still in the cache: read after the
// parse, the 86,000 link-up records of the bench's syslog were each a cache miss in a
// text of 100 MB.
type loggedLinkUp struct {
	rec int
	u   *linkUp // shared by the records of one message: a linkUp is 120 bytes
}

// noteLinkUp lists the log record i, whose message msg holds linkUpWords, with what it says.
func (d *doc) noteLinkUp(i int, msg string) {
	if d.linkSeen == nil {
		d.linkSeen = map[string]*linkUp{}
	}
	d.linkUps = append(growAhead(d.linkUps, d.pos, len(d.text)), loggedLinkUp{rec: i, u: readLinkUp(msg, d.linkSeen)})
}

// logNICsListed: logNICs reads the records appendLog listed, not the whole log (a variable
// so that a test can compare the two).
var logNICsListed = true

// logNICs gives the host the NICs its log says came up, with their speeds (the last message
// of each device wins), when nothing else listed them.
func (d *doc) logNICs() {
	if len(d.tl.Host.NICs) > 0 || d.tl.Log.Len() == 0 {
		return
	}
	// appendLog and relog listed and read the records that hold the words, in the order
	// logged; when finish sorted the log by line, that order and those indexes are gone.
	recs := d.linkUps
	if d.logOrder || !logNICsListed {
		recs = make([]loggedLinkUp, d.tl.Log.Len())
		seen := map[string]*linkUp{}
		for i := range recs {
			recs[i] = loggedLinkUp{rec: i, u: readLinkUp(d.tl.Log.At(i).Message, seen)}
		}
	}
	var nics []kernel.NIC
	at := map[string]int{} // a NIC's key: its index in nics
	first, last := -1, -1  // the first and last records that said one
	for _, r := range recs {
		i, u := r.rec, *r.u
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
	d.addArtifact(KindNICLink, d.tl.Log.At(first).Line(), d.tl.Log.At(last).Line(), nics)
}
