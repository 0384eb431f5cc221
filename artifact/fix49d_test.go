package artifact

import (
	"strings"
	"testing"
)

// fix49d (round 44): a program's own figures that exited 3. Snippets are the programs'
// forms from their sources (Kamailio core/tcp_main.c, core/udp_server.c, mem/q_malloc.c;
// RouterOS's print stats) or a minimal line of a case; each with counter-cases.

// Kamailio's own pool lines (corpus 4129, 4138) and its SO_RCVBUF probe (4135).
func TestFix49dKamailioOwnLines(t *testing.T) {
	for _, c := range []struct {
		text, want string
		oom        bool
	}{
		{"ERROR: <core> [core/tcp_main.c:973]: tcpconn_new(): mem. allocation failure\n", "Kamailio could not allocate from its own pool", true},
		{"ERROR: uac [uac_reg.c:533]: reg_ht_add(): no more shm\n", "reported its pool empty", true},
		{"Jun  3 10:00:01 sip1 kamailio[2211]: ERROR: tm [t_funcs.c:90]: new_t(): no more pkg mem\n", "reported its pool empty", true},
		{"ERROR: tcpconn_new: mem. allocation failure\n", "Kamailio could not allocate from its own pool", true},
		{"Mar  6 16:31:52 coreproxy-4 /usr/local/sbin/kamailio[378355]: ALERT: qm_sums: qm_sums():  count=  8075 size=   4638760 bytes from rtpengine: rtpengine.c: send_rtpp_command(3040)\n", "Kamailio's memory summary", false},
		{"May 28 10:08:37 KAM02 kamailio[46624]: 0(46624) INFO: <core> [core/udp_server.c:163]: probe_max_receive_buffer(): SO_RCVBUF is initially 212992 for fd 9\n", "start-up probe of a UDP socket's buffer", false},
		{" 0(1) INFO: <core> [core/udp_server.c:206]: probe_max_receive_buffer(): SO_RCVBUF is finally 425984\n", "start-up probe of a UDP socket's buffer", false},
	} {
		why, oom, ok := kamailioOwnLine(strings.TrimSuffix(c.text, "\n"))
		if !ok || !strings.Contains(why, c.want) || oom != c.oom {
			t.Errorf("%q: kamailioOwnLine = %q %v %v, want %q oom %v", c.text, why, oom, ok, c.want, c.oom)
		}
		tl := ParseString(c.text, "t", Options{})
		if !anyHas(unreadWhy(c.text), c.want) {
			t.Errorf("%q: unread %+v, want one naming %q", c.text, tl.Unparsed, c.want)
		}
		for _, a := range tl.Artifacts {
			if a.Kind != KindProgramLimit {
				t.Errorf("%q: read as %s %+v, want only the program's own figures", c.text, a.Kind, a)
			}
		}
	}
	// Not Kamailio's: a sentence about the words, another program's line, a value without
	// the probe's frame, a C comment.
	for _, s := range []string{
		"Kamailio says no more shm when the pool is too small, raise -m.",
		"there is no more shm left, I think",
		"if (result == NULL) /* mem. allocation failure */",
		"the SO_RCVBUF is finally what the kernel allows, about 425984 on most hosts",
		"count=3 size=12 bytes from the queue",
	} {
		if why, _, ok := kamailioOwnLine(s); ok {
			t.Errorf("%q: read as Kamailio's (%q)", s, why)
		}
	}
}

// RouterOS's /interface ethernet switch print stats (corpus 4152).
func TestFix49dRouterOSStats(t *testing.T) {
	text := `[admin@MikroTik] > /interface ethernet switch print stats

                      name:      switch1
            driver-rx-byte:  221 369 701
                 rx-packet:    2 851 236
                   rx-drop:            0
               tx-too-long:        8 397
                  tx-pause:        2 112
`
	tl := ParseString(text, "t", Options{})
	if !anyHas(unreadWhy(text), "RouterOS's port or switch-chip statistics") {
		t.Fatalf("unread %+v, want the RouterOS block named", tl.Unparsed)
	}
	if !artifactHas(t, tl, KindProgramLimit, `"driver-rx-byte":221369701`) || !artifactHas(t, tl, KindProgramLimit, `"tx-too-long":8397`) || !artifactHas(t, tl, KindProgramLimit, `"name":"switch1"`) {
		t.Errorf("artifacts %+v: want the counters with their groups joined", tl.Artifacts)
	}
	for _, a := range tl.Artifacts {
		if a.Kind != KindProgramLimit {
			t.Errorf("read as %s (a Linux host's counters): %+v", a.Kind, a)
		}
	}
	// The same lines without the command are no RouterOS block; a grouped value not of
	// three digits, a YAML mapping, and the command with another print are not its lines.
	for _, s := range []string{
		"                   rx-drop:            0\n               tx-too-long:        8 397\n",
		"[admin@MikroTik] > /interface ethernet print\n   rx-drop:   0\n",
	} {
		if anyHas(unreadWhy(s), "RouterOS") {
			t.Errorf("%q: read as RouterOS's statistics", s)
		}
	}
	for _, s := range []string{"rx-drop: 12 34", "tx-too-long: 8397 12", "rx drop: 0", "name: switch 1"} {
		if _, _, ok := routerOSStatLine(s); ok {
			t.Errorf("%q: read as a RouterOS counter line", s)
		}
	}
}

// Python's MemoryError told in a sentence (corpus 4114).
func TestFix49dPythonMemoryErrorTold(t *testing.T) {
	for _, s := range []string{
		"Every time pyTorch 1.1.0 is requested from Devpi it hangs for a while and then throws this MemoryError, it's a large package at 676.9 MB.\n",
		"The worker raised a MemoryError while loading the 4 GB file.\n",
	} {
		if !anyHas(unreadWhy(s), "a Python program's MemoryError told by its reporter") {
			t.Errorf("%q: unread %v, want the MemoryError named", s, unreadWhy(s))
		}
	}
	for _, s := range []string{
		"Does devpi throw a MemoryError for large packages?\n",
		"If the file is larger than RAM, Python may raise MemoryError.\n",
		"The JVM threw an OutOfMemoryError after an hour.\n",
		"See the docs on MemoryError handling.\n",
	} {
		if anyHas(unreadWhy(s), "MemoryError told by its reporter") {
			t.Errorf("%q: read as a MemoryError told", s)
		}
	}
}

// FreeBSD's mbuf allocator's size ceiling told (corpus 4151).
func TestFix49dFreeBSDMbufSize(t *testing.T) {
	for _, s := range []string{
		"`m_get2()` (`sys/kern/kern_mbuf.c`) refuses anything above `MJUMPAGESIZE`, which is `PAGE_SIZE` = **4096** on amd64:\n",
		"On our firewall m_get2() returned NULL for every 9000-byte request, since it caps at MJUMPAGESIZE.\n",
	} {
		if !anyHas(unreadWhy(s), "FreeBSD's mbuf allocator refused a request by its size") {
			t.Errorf("%q: unread %v, want FreeBSD's mbuf size ceiling named", s, unreadWhy(s))
		}
	}
	for _, s := range []string{
		"Why does m_get2() return NULL above MJUMPAGESIZE (4096)?\n",
		"m = m_get2(max_linkhdr + b->b_len, M_NOWAIT, MT_DATA, M_PKTHDR);\n",
		"kmalloc of 8946 bytes returned NULL\n",
	} {
		if anyHas(unreadWhy(s), "FreeBSD's mbuf allocator") {
			t.Errorf("%q: read as FreeBSD's mbuf size ceiling", s)
		}
	}
}

// atop's record as an HTML table (corpus 4086).
func TestFix49dAtopHTMLTable(t *testing.T) {
	text := `<table>
<tr><th>06:22</th><th>06:23</th></tr>
<tr><th rowspan="2">PRO</th><th colspan="2">#proc  </th><td>174 </td><td>203</td></tr>
<tr><th colspan="2">#tslpu        </th><td>0      </td><td>40    </td></tr>
<tr><th rowspan="1">MEM</th><th colspan="2">free (M)      </th><td>75.8  </td><td>72.7  </td></tr>
</table>
`
	if !anyHas(unreadWhy(text), "atop's system-level record pasted as an HTML table") {
		t.Errorf("unread %v, want atop's table named", unreadWhy(text))
	}
	// Another program's HTML table (no atop groups), atop's rows outside a table.
	for _, s := range []string{
		"<table>\n<tr><th>Host</th><th>CPU</th></tr>\n<tr><td>web1</td><td>40</td></tr>\n</table>\n",
		"<tr><th>PRO</th><th>#tslpu</th><td>40</td></tr>\n",
	} {
		if anyHas(unreadWhy(s), "atop's") {
			t.Errorf("%q: read as atop's table", s)
		}
	}
}
