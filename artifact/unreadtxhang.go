package artifact

import (
	"slices"

	"headroom/kernel"
	"headroom/model"
)

// A NIC driver's transmit hang named in prose ("several VMs lose connectivity and show
// messages in logs such as \"TX hangs\"", "we get Detected Tx Unit Hang on eth1"): a network
// event of this host that no rule judges (the device's or driver's transmit path stalled and
// the watchdog reset it; kernel.MsgTxHang), stated without the log line. It is evidence, so
// the text is no "nothing is evidence" (exit 3): the line is listed as unread with what it
// means, and nothing is diagnosed from it.

// txHangWhy is the reason an unread TX-hang line is listed with.
const txHangWhy = "a NIC driver's transmit hang named (kernel.MsgTxHang: the TX watchdog, dev_watchdog in net/sched/sch_generic.c, found a transmit queue stopped and the driver reset the device, e.g. vmxnet3 \"tx hang\", e1000/igb/ixgbe \"Detected Tx Unit Hang\"): the device's or driver's transmit path, not memory; no rule judges it and the log line is not in the text"

// txHangLine reports whether a prose line t names a driver's transmit hang. Gate: the line
// is prose already, and "hang" or "time" must be in it (two byte searches) before the names
// are asked.
func txHangLine(t string) bool {
	if len(t) > maxErrnoLineBytes || !containsFoldASCII(t, "hang") && !containsFoldASCII(t, "time") {
		return false
	}
	for _, m := range kernel.MsgTxHang {
		if containsFoldASCII(t, m) {
			return true
		}
	}
	for _, m := range kernel.MsgTxQueueTimedOut {
		if !containsFoldASCII(t, m) {
			return false
		}
	}
	return true
}

// txHangLogged: a line that names a transmit hang is listed unread because "the log line is
// not in the text"; when the text's kernel log holds a TX-hang record after all (a tracker's
// title or a mail's "Subject:" names the hang its body logs: Launchpad's "Title:" and
// "[Bug N] Re: …", the BTS's "Subject: Bug#N: linux-image-…: ixgbe: Detected Tx Unit Hang",
// read before the log under them), the name is the title of the logged event, prose, and no
// longer listed. Runs after the parse; the log is searched only when such a line was listed.
func (d *doc) txHangLogged() {
	listed := 0
	for _, u := range d.tl.Unparsed {
		if u.Why == txHangWhy {
			listed += u.LastLine - u.FirstLine + 1
		}
	}
	if listed == 0 {
		return
	}
	logged := false
	for k := 0; k < d.tl.Log.Len() && !logged; k++ {
		logged = txHangLine(d.tl.Log.At(k).Message)
	}
	if !logged {
		return
	}
	d.tl.Unparsed = slices.DeleteFunc(d.tl.Unparsed, func(u model.Unparsed) bool { return u.Why == txHangWhy })
	if d.tl.Lines != nil {
		d.tl.Lines.Unparsed -= listed // listed when read; now prose, as the title of the logged hang
		d.tl.Lines.Prose += listed
	}
}
