package artifact

import "testing"

// fix31b: corosync's and kronosnet's own cluster-network lines and ZoneMinder zma's
// shared-memory error (corpus 2682, 2683, 2652; forms from corosync exec/totemsrp.c, libknet
// host.c/links.c/threads_rx.c, ZoneMinder src/zm_monitor.cpp). Before: each paste exited 3.
func TestFix31bClusterNetworkUnread(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"token, corosync syslog", "Jul 07 06:30:28 virt2 corosync[48695]:   [TOTEM ] Token has not been received in 9489 ms\n", "totem token timer"},
		{"token, quoted line without stamp", "corosync[48695]:   [TOTEM ] Token has not been received in 9489 ms\n", "totem token timer"},
		{"token, subsystem as host", "Jan 07 03:14:45 [TOTEM] Token has not been received in 15900 ms\n", "totem token timer"},
		{"retransmit list", "Jul 07 06:30:28 virt2 corosync[48695]:   [TOTEM ] Retransmit List: 7c9a61\n", "retransmit list"},
		{"membership", "Jul 07 10:01:19 virt2 corosync[48695]:   [TOTEM ] A new membership (2.d43) was formed. Members left: 24\n", "membership change"},
		{"knet link down", "Jul 07 10:01:20 virt2 corosync[48695]:   [KNET  ] link: host: 24 link: 0 is down\n", "kronosnet's link state"},
		{"knet link up, subsystem as host", "Jan 07 03:14:33 [KNET] rx: host: 2 link: 1 is up\n", "kronosnet's link state"},
		{"knet no active links", "Jan 07 03:14:33 [KNET] host: host: 2 has no active links\n", "kronosnet's choice of link"},
		{"knet best link", "Jul 07 10:01:20 virt2 corosync[48695]:   [KNET  ] host: host: 24 (passive) best link: 1 (pri: 1)\n", "kronosnet's choice of link"},
		{"zm header figure", "You see the big red line that says /dev/shm: 100% ?\n", "ZoneMinder's header figure"},
		{"zma shared data", "2021-02-09 12:22:16.146996 zma_m6[5058].ERR-zm_monitor.cpp/501 [Shared data not initialised by capture daemon for monitor Patio]\n", "ZoneMinder's analysis daemon"},
	}
	for _, c := range cases {
		wantUnreadOnly(t, c.name, c.text, c.want)
	}
	// Counter-cases: the words without the form's figure, the kernel's own link line, another
	// program's "Retransmit", prose naming the message.
	for _, s := range []string{
		"resulting in \"link: # is down\" and a following \"link: # is up\"",
		"Can you explain why the token has not been received in time?",
		"Token has not been received in N ms",
		"host: 2 link is down",
		"eth0: Link is Down",
		"Retransmit List: ",
		"TCP Retransmit List: none",
		"Shared data not initialised",
		"/dev/shm: No space left on device",
		"mounted /dev/shm: 64M",
	} {
		if why, ok := corosyncOwnLine(s); ok {
			t.Errorf("%q named as %q", s, why)
		}
	}
	// A syslog line of another program whose host is in brackets is not corosync's.
	for _, l := range SplitLines("Jan 07 03:14:33 [web1] nginx: host: 2 link: 1 is up\n") {
		if corosyncSubsystemHost(&l) {
			t.Errorf("%+v taken for corosync's subsystem", l)
		}
	}
}
