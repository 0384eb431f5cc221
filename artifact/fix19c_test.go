package artifact

import (
	"strings"
	"testing"
)

// A routing daemon's netlink recvmsg failing with ENOBUFS (babeld's kernel_netlink.c
// netlink_read perror, logread's form, corpus 1693) is named as a netlink socket's overrun,
// under its own tag and bare; no OOM, no kernel record.
func TestFix19cNetlinkRecvENOBUFS(t *testing.T) {
	for _, text := range []string{
		"Sat Jun 19 10:48:05 2021 daemon.err babeld[1907]: netlink_read: recvmsg(): No buffer space available\n",
		"Nov 26 04:12:01 rtr1 ripd[812]: netlink_read: recvmsg(): No buffer space available\n",
		"netlink_read: recvmsg(): No buffer space available\n",
	} {
		tl := ParseString(text, "t", Options{})
		if !f15Unread(tl, "netlink socket overran") || statedOOM(tl) || tl.Log.Len() != 0 {
			t.Errorf("%q: unparsed %+v stated %v records %d: want a netlink overrun named", text, tl.Unparsed, statedOOM(tl), tl.Log.Len())
		}
		checkAccount(t, tl)
	}
	// zebra's form stays zebra's.
	if why, _, _ := webAppOwnLine("zebra[60]: netlink-listen recvmsg overrun: No buffer space available"); !strings.HasPrefix(why, "zebra's") {
		t.Errorf("zebra's overrun named %q", why)
	}
}

// Counter-cases: a sentence naming the words apart, a send refused (no recvmsg), recvmsg
// on another socket, another errno.
func TestFix19cNetlinkNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"does babeld read netlink with recvmsg? we never saw No buffer space available",
		"netlink_talk: sendmsg(): No buffer space available",
		"udp_read: recvmsg(): No buffer space available",
		"netlink_read: recvmsg(): Resource temporarily unavailable",
		"RTNETLINK answers: No buffer space available",
	} {
		if why, ok := netlinkRecvENOBUFS(s); ok {
			t.Errorf("%q named as a netlink overrun: %s", s, why)
		}
	}
}

// A kernel message listed under a lead-in that says the author saw the items in this
// host's log (corpus 1738) is the host's record; the same list under a question, a
// hypothetical, a lead-in about no log, or an item that is a sentence is not.
func TestFix19cListedLoggedMessage(t *testing.T) {
	list := "\n1. Route cache chain too long\n2. Neighbor table overflow\n3. ip conntrack table full\n\nAll 3 table sizes can be extended.\n"
	tl := ParseString("With the growing number of clients we have noticed 3 overflow problems in the kernel log:\n"+list, "t", Options{})
	if tl.Log.Len() != 1 || !strings.Contains(tl.Log.At(0).Message, "table full, dropping packet") {
		t.Errorf("listed conntrack-full under a seen-in-log lead-in: %d records", tl.Log.Len())
	}
	for _, lead := range []string{
		"How do we get rid of these in the kernel log:",
		"If you run many clients you may see in the kernel log:",
		"These are the tables we want to understand:",
		"You will see in dmesg:",
	} {
		tl := ParseString(lead+"\n"+list, "t", Options{})
		if tl.Log.Len() != 0 {
			t.Errorf("%q: %d records, want none", lead, tl.Log.Len())
		}
	}
	tl = ParseString("We noticed this in the kernel log:\n\n- raise the conntrack table full limit before it happens again\n", "t", Options{})
	if tl.Log.Len() != 0 {
		t.Errorf("an item that is advice read as the message: %d records", tl.Log.Len())
	}
}
