package diagnose

import "testing"

// Round 15's classes fixed by fix20a (issue 29), judged end to end; each snippet failed
// before its change.

// FreeBSD's netstat -s udp section (udp_stats; F-Stack's ff_netstat prints the same, corpus
// 1797): "dropped due to full socket buffers" is RcvbufErrors. Before: the text was "another
// OS" and nothing was checked. Counter-cases: the counter at 0 (no finding), and a book's
// unindented example (not the tool's output).
func TestBSDNetstatUDPFullSocketBuffers(t *testing.T) {
	full := "# ff_netstat -s -p udp\nudp:\n\t65635420 datagrams received\n\t0 with incomplete header\n\t0 with bad checksum\n\t0 dropped due to no socket\n\t63583585 dropped due to full socket buffers\n\t0 not for hashed pcb\n\t2051835 delivered\n\t0 datagrams output\n"
	d, _ := rootOf(t, full)
	if findingOf(d, "udp-rcvbuf-errors") == nil {
		t.Errorf("full socket buffers: findings %+v", d.Findings)
	}
	zero := "udp:\n\t404885 datagrams received\n\t13567 dropped due to no socket\n\t0 dropped due to full socket buffers\n\t391298 delivered\n"
	if d, _ := rootOf(t, zero); findingOf(d, "udp-rcvbuf-errors") != nil {
		t.Errorf("0 full socket buffers: findings %+v", d.Findings)
	}
	book := "bsd: $ netstat -sp udp\nudp:\n82 datagrams received\n1 dropped due to no socket\n5 dropped due to full socket buffers\n81 delivered\n"
	if d, _ := rootOf(t, book); findingOf(d, "udp-rcvbuf-errors") != nil {
		t.Errorf("unindented book example: findings %+v", d.Findings)
	}
}

// A KB's list of the SYN flood message's forms with "port X" is no log (corpus 1788); the
// same message with a port number is. Before: listen-overflow fired on the templates.
func TestSynFloodTemplateIsNoLog(t *testing.T) {
	tmpl := "One of the following messages is logged:\nkernel: possible SYN flooding on port X. Sending cookies.\nkernel: Possible SYN flooding on port X. Check SNMP counters.\nkernel: TCPv6: Possible SYN flooding on port <port>.\n"
	if d, _ := rootOf(t, tmpl); findingOf(d, "listen-overflow") != nil {
		t.Errorf("templates: findings %+v", d.Findings)
	}
	for _, logged := range []string{
		"Mar  3 10:00:01 web kernel: possible SYN flooding on port 80. Sending cookies.\n",
		"[12345.678901] TCP: request_sock_TCP: Possible SYN flooding on port 0.0.0.0:443. Sending cookies.  Check SNMP counters.\n",
	} {
		if d, _ := rootOf(t, logged); findingOf(d, "listen-overflow") == nil {
			t.Errorf("%q: findings %+v", logged, d.Findings)
		}
	}
}

// A show_mem dump whose last zone line was cut inside a field name, after free/min/low/high
// but before present: (corpus 1789), at the paste's end or with the poster's prose after it:
// the zone is judged. Before: dropped for lack of present. Counter-cases: a zone line that
// ends on a whole field without present:, with text after the dump (not cut), and a zone
// line cut inside the dump (its buddy line after it) stay unjudged.
func TestShowMemCutZoneLineJudged(t *testing.T) {
	head := "[90884.551361] Node 0 DMA free:15892kB min:128kB low:160kB high:192kB present:15992kB managed:15908kB\n" +
		"[90884.551364] lowmem_reserve[]: 0 2972 7963 7963 7963\n" +
		"[90884.551366] Node 0 DMA32 free:45308kB min:25172kB low:31464kB high:37756kB active_anon:1249092kB present:3129200kB managed:2829624kB\n" +
		"[90884.551368] lowmem_reserve[]: 0 0 4991 4991 4991\n" +
		"[90884.551370] Node 0 Normal free:42656kB min:42276kB low:52844kB high:63412kB active_anon:819168kB inactive_anon:597852kB"
	for name, text := range map[string]string{
		"cut at the end":   head + " writepen\n",
		"cut, prose after": head + " writepen\n\nThe container then failed to start.\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "zone-reserve-low") == nil {
			t.Errorf("%s: findings %+v", name, d.Findings)
		}
	}
	for name, text := range map[string]string{
		"zone line not cut": head + "\n\nThe container then failed to start.\n",
		// cut inside the dump (a trimmed excerpt, corpus 706): the dump goes on after it
		"cut inside the dump": head + " writepen\n[90884.551371] lowmem_reserve[]: 0 0 0 0 0\n[90884.551372] Node 0 Normal: 32*4kB (UEMR) 5*8kB (UR) = 168kB\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "zone-reserve-low") != nil {
			t.Errorf("%s: findings %+v", name, d.Findings)
		}
	}
}
