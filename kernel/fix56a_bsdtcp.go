package kernel

import (
	"strconv"
	"strings"
)

// A BSD's netstat -s tcp section (fix56a): FreeBSD's usr.bin/netstat/inet.c tcp_stats (with
// libxo since 11.0: "{:sent-packets/%ju} {N:/packet%s sent}"), NetBSD's, OpenBSD's and
// macOS's, all from 4.4BSD's, print struct tcpstat under a lowercase "tcp:" header, one
// "%ju sentence" a line, tab-indented, a sub-count indented twice, each noun pluralised by
// the count ("1 packet sent", "2 packets sent"):
//
//	tcp:
//		35543667869 packets sent
//			33993761746 data packets (110588876004270 bytes)
//			1070592345 data packets (1759534178262 bytes) retransmitted
//		...
//		0 listen queue overflows
//		26345036 connections closed (including 5498422 drops)
//
// Its counters are the kernel's struct tcpstat (sys/netinet/tcp_var.h, tcps_*), since boot.
// Four have Linux's meaning and are read under Linux's names so the rules judge them:
// tcps_sndtotal ("packets sent": every segment, data, retransmissions, ACKs, control) as Tcp
// OutSegs; tcps_sndrexmitpack ("data packets (N bytes) retransmitted") as Tcp RetransSegs;
// tcps_rcvtotal ("packets received") as Tcp InSegs; tcps_listendrop ("listen queue
// overflows": sonewconn refused the connection, the queue over 1.5 × its limit) as TcpExt
// ListenOverflows; tcps_accepts and tcps_connattempt as PassiveOpens and ActiveOpens. The
// others are FreeBSD's own and are not Linux's: "discarded due to memory problems"
// (tcps_rcvmemdrop: a segment dropped when an mbuf could not be had, not Linux's TCP memory
// pressure), "connections closed (including N drops)" (tcps_drops: connections dropped,
// not packets), "embryonic connections dropped"; they are named, never mapped.

// BSDTCPStat is one sentence of the tcp section: struct tcpstat's field and, when its meaning
// is Linux's, the Linux group and counter it is read as ("" when none).
type BSDTCPStat struct {
	Field, Group, Name string
}

// bsdTCPSentences: each sentence singular, every number '%' (BSDTCPKey).
var bsdTCPSentences = map[string]BSDTCPStat{
	"% packet sent":                               {"tcps_sndtotal", "Tcp", "OutSegs"},
	"% data packet (% byte)":                      {"tcps_sndpack", "", ""},
	"% data packet (% byte) retransmitted":        {"tcps_sndrexmitpack", "Tcp", "RetransSegs"},
	"% data packet unnecessarily retransmitted":   {"tcps_sndrexmitbad", "", ""},
	"% resend initiated by mtu discovery":         {"tcps_mturesent", "", ""},
	"% ack-only packet (% delayed)":               {"tcps_sndacks", "", ""},
	"% urg only packet":                           {"tcps_sndurg", "", ""},
	"% window probe packet":                       {"tcps_sndprobe", "", ""},
	"% window update packet":                      {"tcps_sndwinup", "", ""},
	"% control packet":                            {"tcps_sndctrl", "", ""},
	"% packet received":                           {"tcps_rcvtotal", "Tcp", "InSegs"},
	"% ack (for % byte)":                          {"tcps_rcvackpack", "", ""},
	"% duplicate ack":                             {"tcps_rcvdupack", "", ""},
	"% ack for unsent data":                       {"tcps_rcvacktoomuch", "", ""},
	"% packet (% byte) received in-sequence":      {"tcps_rcvpack", "", ""},
	"% completely duplicate packet (% byte)":      {"tcps_rcvduppack", "", ""},
	"% old duplicate packet":                      {"tcps_pawsdrop", "", ""},
	"% packet with some dup. data (% byte duped)": {"tcps_rcvpartduppack", "", ""},
	"% out-of-order packet (% byte)":              {"tcps_rcvoopack", "", ""},
	"% packet (% byte) of data after window":      {"tcps_rcvpackafterwin", "", ""},
	"% window probe":                              {"tcps_rcvwinprobe", "", ""},
	"% packet received after close":               {"tcps_rcvafterclose", "", ""},
	"% discarded for bad checksum":                {"tcps_rcvbadsum", "", ""},
	"% discarded for bad header offset field":     {"tcps_rcvbadoff", "", ""},
	"% discarded because packet too short":        {"tcps_rcvshort", "", ""},
	"% discarded due to memory problem":           {"tcps_rcvmemdrop", "", ""},
	"% received packet dropped due to low memory": {"tcps_rcvmemdrop", "", ""},
	"% connection request":                        {"tcps_connattempt", "Tcp", "ActiveOpens"},
	"% connection accept":                         {"tcps_accepts", "Tcp", "PassiveOpens"},
	"% bad connection attempt":                    {"tcps_badsyn", "", ""},
	"% listen queue overflow":                     {"tcps_listendrop", "TcpExt", "ListenOverflows"},
	"% ignored rst in the window":                 {"tcps_badrst", "", ""},
	"% connection established (including accept)": {"tcps_connects", "", ""},
	"% connection closed (including % drop)":      {"tcps_closed", "", ""},
	"% embryonic connection dropped":              {"tcps_conndrops", "", ""},
	"% segment updated rtt (of % attempt)":        {"tcps_rttupdated", "", ""},
	"% retransmit timeout":                        {"tcps_rexmttimeo", "", ""},
	"% connection dropped by rexmit timeout":      {"tcps_timeoutdrop", "", ""},
	"% keepalive timeout":                         {"tcps_keeptimeo", "", ""},
	"% connection dropped by keepalive":           {"tcps_keepdrops", "", ""},
	"% correct ack header prediction":             {"tcps_predack", "", ""},
	"% correct data packet header prediction":     {"tcps_preddat", "", ""},
	"% cookie sent":                               {"tcps_sc_sendcookie", "", ""},
	"% cookie received":                           {"tcps_sc_recvcookie", "", ""},
}

// BSDTCPKey is a tcp_stats line's sentence: lower case, every number '%', every plural 's'
// off ("1070592345 data packets (1759534178262 bytes) retransmitted" → "% data packet (%
// byte) retransmitted"), so the singular and plural print the same key.
func BSDTCPKey(line string) (key string, first int64, ok bool) {
	fs := strings.Fields(strings.ToLower(line))
	seen := false
	for i, f := range fs {
		core := strings.TrimLeft(strings.TrimRight(f, "),."), "(")
		if IsDigits(core) {
			if !seen {
				first, _ = strconv.ParseInt(core, 10, 64)
				seen = true
			}
			fs[i] = strings.Replace(f, core, "%", 1)
			continue
		}
		if n := len(core); n > 3 && core[n-1] == 's' && core[n-2] != 's' {
			fs[i] = strings.Replace(f, core, core[:n-1], 1)
		}
	}
	if !seen || len(fs) < 2 || fs[0] != "%" {
		return "", 0, false
	}
	return strings.Join(fs, " "), first, true
}

// BSDTCPSentence reads one line of the tcp section: its counter and first number; ok is
// false for a line that is no tcp_stats sentence.
func BSDTCPSentence(line string) (st BSDTCPStat, v int64, ok bool) {
	key, v, ok := BSDTCPKey(line)
	if !ok {
		return st, 0, false
	}
	st, ok = bsdTCPSentences[key]
	return st, v, ok
}
