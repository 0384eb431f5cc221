package diagnose

import (
	"strings"
	"testing"
)

// fix56a: TCP listen-queue and retransmit evidence in the forms real posts carry: FreeBSD's
// sonewconn record quoted by a supercite mail client ("> A> > "), wrapped; Linux's SYN cookies
// sent (a full SYN queue); FreeBSD's netstat -s tcp section.

func fired(t *testing.T, id, text string) Result {
	t.Helper()
	return run(t, id, parseText19b(t, text))
}

func TestFix56aSupercitedSonewconn(t *testing.T) {
	text := "On 11.07.2013 15:35, Someone wrote:\n" +
		"> A> > kernel: sonewconn: pcb 0xfffffe0047db3930: Listen queue overflow: 193 already in\n" +
		"> A> > queue awaiting acceptance\n" +
		"> A> > last message repeated 113 times\n" +
		"> A>\n> A> That your server process lagging behind in accepting.\n"
	res := fired(t, "listen-overflow", text)
	if len(res.Findings) != 1 {
		t.Fatalf("supercited sonewconn not read: %+v", res)
	}
	if v := res.Findings[0].Evidence[0].Value; !strings.Contains(v, "193 connections") || !strings.Contains(v, "1 \"last message repeated\" line(s) after them stand for 113 more") {
		t.Errorf("evidence: %q", v)
	}
	// A repeat line away from any record is prose, and counts nothing.
	tl := parseText19b(t, "Our syslog is full of lines like\n\nlast message repeated 113 times\n")
	if tl.Log.Len() != 0 {
		t.Errorf("a lone repeat line read as a record: %d", tl.Log.Len())
	}
	// Counter-case: a top-level prompt with capitals is no quote, and prose naming the
	// message is no record.
	for _, text := range []string{
		"SQL> select 1 from dual;\n",
		"> A> What does the sonewconn message mean, and why is it not throttled?\n",
	} {
		if res := fired(t, "listen-overflow", text); len(res.Findings) != 0 {
			t.Errorf("%q: fired %+v", text, res.Findings)
		}
	}
}

const fix56aLinuxTCP = "Tcp:\n    133876 active connection openings\n    38637399 passive connection openings\n" +
	"    286433759 segments received\n    251371875 segments sent out\n    5498657 segments retransmitted\n"

func TestFix56aSynCookiesSent(t *testing.T) {
	text := fix56aLinuxTCP + "TcpExt:\n    1805815 SYN cookies sent\n    1837082 SYN cookies received\n"
	res := fired(t, "listen-overflow", text)
	if len(res.Findings) != 1 || res.Findings[0].Severity != Info {
		t.Fatalf("cookies sent since boot: %+v", res)
	}
	if v := res.Findings[0].Evidence[0].Value; !strings.Contains(v, "1805815") || !strings.Contains(v, "4.7% of the 38637399 passive opens") {
		t.Errorf("evidence: %q", v)
	}
	// Counter-cases: no cookie sent; cookies for every SYN (tcp_syncookies 2) say nothing of
	// the queue.
	if res := fired(t, "listen-overflow", fix56aLinuxTCP+"TcpExt:\n    0 SYN cookies sent\n    0 SYN cookies received\n"); len(res.Findings) != 0 {
		t.Errorf("zero cookies fired: %+v", res.Findings)
	}
	if res := fired(t, "listen-overflow", "$ sysctl -a | grep syncookies\nnet.ipv4.tcp_syncookies = 2\n\n"+fix56aLinuxTCP+"TcpExt:\n    1805815 SYN cookies sent\n"); len(res.Findings) != 0 {
		t.Errorf("syncookies 2 fired: %+v", res.Findings)
	}
}

// FreeBSD's tcp section as printed (tabs) and as a page lists it ("- " items, flush left).
const fix56aBSDTCP = "tcp:\n\t35543667869 packets sent\n\t\t33993761746 data packets (110588876004270 bytes)\n" +
	"\t\t1070592345 data packets (1759534178262 bytes) retransmitted\n\t\t4713497 data packets unnecessarily retransmitted\n" +
	"\t40077338123 packets received\n\t\t4314 discarded due to memory problems\n\t274777 connection requests\n" +
	"\t26063763 connection accepts\n\t0 listen queue overflows\n\t26345036 connections closed (including 5498422 drops)\n"

func TestFix56aBSDNetstatTCP(t *testing.T) {
	listed := ""
	for _, l := range strings.Split(strings.TrimSpace(fix56aBSDTCP), "\n") {
		listed += "- " + strings.TrimSpace(l) + "\n"
	}
	for _, text := range []string{fix56aBSDTCP, listed} {
		res := fired(t, "retransmit-rate", text)
		if len(res.Findings) != 1 || !strings.Contains(res.Findings[0].Evidence[0].Value, "1070592345 / 35543667869") {
			t.Errorf("%q: retransmits not read: %+v", text, res)
		}
		for _, id := range []string{"listen-overflow", "tcp-memory-pressure"} {
			if res := fired(t, id, text); len(res.Findings) != 0 {
				t.Errorf("%s fired on 0 overflows / memory drops: %+v", id, res.Findings)
			}
		}
	}
	// A low share does not fire; an overflow count does.
	low := strings.Replace(fix56aBSDTCP, "1070592345 data packets", "1070 data packets", 1)
	if res := fired(t, "retransmit-rate", low); len(res.Findings) != 0 {
		t.Errorf("low retransmits fired: %+v", res.Findings)
	}
	over := strings.Replace(fix56aBSDTCP, "\t0 listen queue overflows", "\t1234 listen queue overflows", 1)
	if res := fired(t, "listen-overflow", over); len(res.Findings) != 1 {
		t.Errorf("1234 overflows not read: %+v", res)
	}
	// Linux's Tcp: section is not this reader's, and a "tcp:" line over prose is nothing.
	if res := fired(t, "retransmit-rate", "tcp:\n\tsee the retransmits below\n"); len(res.Findings) != 0 {
		t.Errorf("prose fired: %+v", res.Findings)
	}
}
