package artifact

import (
	"strings"
	"testing"

	"headroom/kernel"
)

// Pre-round 25 hardening (h25a), blind to round 25's batches: the consumer-router firmwares'
// log and command forms, from BusyBox's syslogd (sysklogd/syslogd.c timestamp_and_log),
// dnsmasq's src/util.c whine_malloc and Broadcom's OS layer (linux_osl.c osl_pktget).

func TestH25aBusyBoxFacilityTag(t *testing.T) {
	for _, c := range []struct{ raw, tag, host, text string }{
		{"Jan  1 00:02:12 DD-WRT user.err dnsmasq[1234]: failed to allocate 1028 bytes", "dnsmasq", "DD-WRT", "failed to allocate 1028 bytes"},
		{"Nov 30 09:00:00 unknown daemon.info dnsmasq-dhcp[612]: DHCPACK(br0) 192.168.1.20", "dnsmasq-dhcp", "unknown", "DHCPACK(br0) 192.168.1.20"},
		{"Nov 30 09:00:00 RT-AC68U user.err syslog: cp: write error", "syslog", "RT-AC68U", "cp: write error"},
	} {
		l := SplitLines(c.raw)[0]
		if !l.Syslog || l.Tag != c.tag || l.Host != c.host || l.Text != c.text || l.Kernel {
			t.Errorf("%q: %+v, want tag %q host %q text %q", c.raw, l, c.tag, c.host, c.text)
		}
	}
	// The kernel's facility stays the kernel's record; a word with a dot that is no
	// facility.priority leaves the line tag-less as before.
	if l := SplitLines("Jan  1 00:02:11 DD-WRT kern.warn kernel: [  131.220000] nf_conntrack: table full, dropping packet.")[0]; !l.Kernel || !strings.HasPrefix(l.Text, "nf_conntrack: table full") {
		t.Errorf("kern.warn kernel: %+v", l)
	}
	for _, raw := range []string{
		"Nov 30 09:00:00 host foo.bar baz: x y",
		"Nov 30 09:00:00 host user.err is what it said: x",
	} {
		if l := SplitLines(raw)[0]; l.Tag != "" {
			t.Errorf("%q: tag %q, want none", raw, l.Tag)
		}
	}
}

func TestH25aDnsmasqAllocNamed(t *testing.T) {
	for _, text := range []string{
		"Nov 30 12:01:02 dnsmasq[612]: failed to allocate 4096 bytes\nNov 30 12:01:02 dnsmasq[612]: failed to allocate 4096 bytes\n", // AsusWRT-Merlin, syslogd -S: no host
		"Jan  1 00:02:12 DD-WRT user.err dnsmasq[1234]: failed to allocate 1028 bytes\n",                                             // DD-WRT, FreshTomato: BusyBox syslogd
		"Nov 30 12:01:02 gw dnsmasq[612]: failed to reallocate 65536 bytes\n",
		"Mon Nov 30 12:01:02 2026 daemon.err dnsmasq[612]: failed to allocate 4096 bytes\n", // OpenWrt's and Gargoyle's logread
		"Nov 30 12:01:02 dnsmasq[612]: could not get memory\n",                              // start-up's safe_malloc
	} {
		tl := ParseString(text, "t", Options{})
		if !f15Unread(tl, "whine_malloc") {
			t.Errorf("%q: unparsed %+v, want dnsmasq's malloc named", text, tl.Unparsed)
		}
		if len(tl.Events) != 0 {
			t.Errorf("%q: events %+v, want none (no kill by the OOM killer)", text, tl.Events)
		}
		checkAccount(t, tl)
	}
	// Another program's words, a query line and a sentence are not dnsmasq's failure.
	for _, text := range []string{
		"Nov 30 12:01:02 gw unbound[612]: failed to allocate 4096 bytes\n",
		"Nov 30 12:01:02 gw dnsmasq[612]: query[A] example.com from 192.168.1.20\n",
		"dnsmasq says failed to allocate 4096 bytes when the router is low\n",
	} {
		tl := ParseString(text, "t", Options{})
		if f15Unread(tl, "whine_malloc") {
			t.Errorf("%q: named as dnsmasq's malloc", text)
		}
	}
}

func TestH25aBroadcomPktGetIsSkbAllocFailure(t *testing.T) {
	f, ok := kernel.ParseSubsysAllocFailure("dhd_prot_rxbuf_post: PKTGET failed")
	if !ok || !f.RX {
		t.Errorf("dhd's PKTGET: %+v %v, want a receive-path allocation failure", f, ok)
	}
	if f, ok := kernel.ParseSubsysAllocFailure("dbus_sdio_pktget failed, num 3 len 1600"); !ok {
		t.Errorf("dbus's pktget: %+v %v", f, ok)
	}
	// MALLOCED(osh) is the driver's running total, not the request.
	f, ok = kernel.ParseSubsysAllocFailure("wl0: wlc_ampdu_attach: out of memory, malloced 2345678 bytes")
	if !ok || f.Bytes != 0 {
		t.Errorf("wl's MALLOC: %+v %v, want a failure with no request size", f, ok)
	}
	for _, m := range []string{
		"pci 0000:00:00.0: BAR 8: failed to assign [mem size 0x00200000]",
		"pci 0000:00:00.0: BAR 8: no space for [mem size 0x00200000]",
		"nf_conntrack: expectation table full",
		"wl0: PKTGET ok after 3 tries",
		// nf_ct_alloc_hashtable: __get_free_pages with __GFP_NOWARN, then vzalloc, which
		// succeeded: nothing failed.
		"nf_conntrack: falling back to vmalloc.",
	} {
		if f, ok := kernel.ParseSubsysAllocFailure(m); ok {
			t.Errorf("%q read as a failed allocation: %+v", m, f)
		}
	}
}

func TestH25aVyattaStorageIsForeign(t *testing.T) {
	text := "ubnt@EdgeRouter-X:~$ show system storage\nFilesystem                Size      Used Available Use% Mounted on\nubi0_0                  214.9M    186.2M     24.0M  89% /root.dev\noverlay                 214.9M    186.2M     24.0M  89% /\n"
	tl := ParseString(text, "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "show system storage") {
			t.Errorf("storage listed as unread output: %+v", u)
		}
	}
	checkAccount(t, tl)
	// `show system memory` stays read (h17c's vyos-show-ram.sh).
	tl = ParseString("ubnt@EdgeRouter-X:~$ show system memory\nTotal: 250\nFree:  21\nUsed:  229\n", "t", Options{})
	if len(tl.Samples) == 0 || tl.Samples[0].MemInfo == nil {
		t.Fatalf("show system memory: samples %+v", tl.Samples)
	}
	if v, _ := tl.Samples[0].MemInfo.Get("MemTotal"); v != 250*1024 {
		t.Errorf("show system memory: samples %+v", tl.Samples)
	}
}
