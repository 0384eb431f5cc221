package artifact

import (
	"fmt"
	"sort"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Command output that a web page or a chat flattened onto one line (issue 29; corpus 442,
// 452, 455, 479): 'ip -s link' with its RX/TX tables, 'ifconfig' blocks, 'ethtool -S' counters,
// /proc/net/sockstat,
// each separated by single spaces where the terminal had line breaks. The line is cut back
// into the lines the command printed, at the words each format starts its lines with, and
// read by the format's own reader; what it gives is attributed to the one line of the paste.

var (
	// ip -s link: the link line after the command that printed it ("$ ip -s link ls eth0
	// 3: eth0: <...>").
	reFlatIPLinkCmd = lazyre.New(` (\d+: [\w.@-]+: <)`)
	// ifconfig (net-tools 1.60): each block's lines start with these words.
	reFlatIfconfig = lazyre.New(`\s+(inet addr:|inet6 addr:|UP |RX packets:|TX packets:|collisions:|RX bytes:|Interrupt:)`)
	// The next interface's name glued to the last field of the one before ("Base
	// address:0xd800lo Link encap:Local Loopback").
	reFlatIfName = lazyre.New(`(?:\s+|(0x[0-9a-fA-F]+))([A-Za-z][\w.:-]*)\s+Link encap:`)
	// ethtool -S: "NIC statistics:" then "name: number" pairs.
	reFlatEthtoolPair = lazyre.New(`\s+([A-Za-z][\w\[\]-]*: -?\d+)`)
	// ip -s link: the link line, then "RX:"/"TX:" headers whose values follow the words.
	reFlatIPStats = lazyre.New(`\s+((?:RX|TX)(?: errors)?:(?: [a-z]+)+) (-?\d+(?: -?\d+)*)`)
	reFlatIPLink  = lazyre.New(`\s+(link/\w+ )`)
	reFlatPrompt  = lazyre.New(`\s*\S+@\S+:\S*\s*[$#]\s*$`)
	// sar: each row starts with its interval's time, the banner with "Linux release (host)".
	reFlatSarStamp  = lazyre.New(`\s(\d{1,2}:\d\d:\d\d(?:\s+[AP]M)?|Average:)\s`)
	reFlatSarBanner = lazyre.New(`\s(Linux\s+[2-9]\.\S+\s+\()`)
	// net-tools 2.x ifconfig: each interface starts "name: flags=", its lines with these words.
	reFlatIfconfig2Name = lazyre.New(`\s+([A-Za-z][\w.:@-]*): flags=`)
	reFlatIfconfig2     = lazyre.New(`\s+(inet6? |ether |loop |unspec |RX packets |RX errors |TX packets |TX errors )`)
	// /proc/net/sockstat(6): each protocol's line starts with its name and a colon.
	reFlatSockStat = lazyre.New(`\s+((?:TCP|UDP|UDPLITE|RAW|FRAG)6?: (?:inuse|memory) )`)
)

// unflatten returns the lines the command printed, or nil when line t is not one of the
// flattened forms.
func unflatten(t string) []string {
	s := strings.TrimSpace(t)
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<pre>"), "</pre>"))
	s = strings.TrimSpace(strings.TrimSuffix(s, "...."))
	if ls := unflattenTables(s); ls != nil {
		return ls // vmstat, meminfo, free, ethtool -g, a kernel log (fix54e_flat.go)
	}
	// Each form below names its command's words; a line without any (every unread line
	// is asked) is settled before the regexps run over it (a 1 MiB line of numbers spent
	// a third of its parse in reFlatPrompt). Removing the prompt at the end creates none.
	if !strings.Contains(s, "Link encap:") && !strings.Contains(s, "NIC statistics: ") && !strings.Contains(s, "ethtool -S ") && !strings.Contains(s, " RX: ") &&
		!strings.Contains(s, "netstat -s") && !strings.Contains(s, "sockets: used ") && !strings.Contains(s, "sar ") &&
		!strings.Contains(s, "RX-OK") && !strings.Contains(s, " flags=") && !strings.Contains(s, "Page block order: ") && !strings.Contains(s, "kB = ") &&
		!strings.Contains(s, "Recv-Q") && !strings.Contains(s, "Tcp") && !strings.Contains(s, "Udp") && !strings.Contains(s, "Ip") && !strings.Contains(s, " found=") &&
		!strings.Contains(s, "bits/sec ") {
		return nil
	}
	if strings.IndexByte(s, '@') >= 0 {
		s = reFlatPrompt.ReplaceAllString(s, "") // a prompt after the output: the next command's
	}
	switch {
	case strings.Contains(s, "Link encap:") && strings.Contains(s, "RX packets:"):
		s = reFlatIfName.ReplaceAllString(s, "$1\n$2 Link encap:")
		s = reFlatIfconfig.ReplaceAllString(s, "\n          $1")
		// The command before the first block ("[root@asia twilight]# ifconfig eth0 Link ...").
		if i := strings.Index(s, " Link encap:"); i > 0 {
			if j := strings.LastIndexAny(s[:i], " \n"); j > 0 && s[j] == ' ' {
				s = s[:j] + "\n" + s[j+1:]
			}
		}
		return strings.Split(s, "\n")
	case strings.Contains(s, "NIC statistics: "):
		i := strings.Index(s, "NIC statistics: ")
		head, rest := strings.TrimSpace(s[:i]), s[i+len("NIC statistics:"):]
		out := []string{}
		if head != "" {
			out = append(out, head)
		}
		out = append(out, "NIC statistics:")
		for _, m := range reFlatEthtoolPair.FindAllStringSubmatch(rest, -1) {
			out = append(out, "     "+m[1])
		}
		if len(out) < 3 {
			return nil
		}
		return out
	case strings.Contains(s, "ethtool -S "):
		return unflattenEthtoolCommand(s)
	case strings.Contains(s, "Iface") && strings.Contains(s, "RX-OK") && strings.Contains(s, "Flg"):
		return unflattenNetstatI(s)
	case strings.Contains(s, " flags=") && strings.Contains(s, "RX packets ") && strings.Contains(s, " mtu "):
		// net-tools 2.x ifconfig: "eth0: flags=4163<UP,...>  mtu 1500" then indented lines.
		s = reFlatIfconfig2Name.ReplaceAllString(s, "\n$1: flags=")
		s = reFlatIfconfig2.ReplaceAllString(s, "\n        $1")
		return strings.Split(s, "\n")
	case strings.Contains(s, "bits/sec ") && strings.Contains(s, " sec ") && len(reFlatIperfRow.FindAllStringIndex(s, 3)) >= 2:
		return unflattenIperf(s)
	case strings.Contains(s, "kB = ") && strings.Contains(s, "*4kB"):
		return unflattenBuddy(s)
	case strings.Contains(s, "Page block order: ") && strings.Contains(s, "Free pages count per migrate type at order"):
		return unflattenPagetypeinfo(s)
	case strings.Contains(s, "sar ") && len(reFlatSarStamp.FindAllStringIndex(s, 3)) >= 2:
		return unflattenSar(s)
	case strings.Contains(s, "netstat -s") && (strings.Contains(s, " Tcp: ") || strings.Contains(s, " TcpExt: ") || strings.Contains(s, " Udp: ")):
		// Every group netstat -s prints is cut the same way; `netstat -su` prints only Udp
		// (and UdpLite, IcmpMsg), `netstat -st` Tcp and TcpExt.
		return unflattenNetstatS(s)
	case strings.Contains(s, "sockets: used ") && strings.Contains(s, " TCP: inuse "):
		// "sockets: used 137 TCP: inuse 49 orphan 0 tw 3272 alloc 52 mem 46 UDP: inuse 1 mem 0
		// RAW: inuse 0 FRAG: inuse 0 memory 0" (corpus 479)
		i := strings.Index(s, "sockets: used ")
		head, body := strings.TrimSpace(s[:i]), s[i:]
		out := []string{}
		if head != "" {
			out = append(out, head)
		}
		return append(out, strings.Split(reFlatSockStat.ReplaceAllString(body, "\n$1"), "\n")...)
	case strings.Contains(s, "Recv-Q") || strings.Contains(s, " found=") || reFlatNstatRow.MatchString(s):
		return unflattenCounterRows(s)
	case strings.Contains(s, " RX: ") && strings.Contains(s, " TX: ") && strings.Contains(s, " mtu "):
		s = reFlatIPLink.ReplaceAllString(s, "\n    $1")
		s = reFlatIPStats.ReplaceAllString(s, "\n    $1\n    $2")
		// The command before the link line ("$ ip -s link ls eth0 3: eth0: <...>").
		if m := reFlatIPLinkCmd.FindStringIndex(s); m != nil {
			s = s[:m[0]] + "\n" + s[m[0]+1:]
		}
		return strings.Split(s, "\n")
	}
	return nil
}

// tryFlattened reads line i when it is flattened command output; it reports whether it did.
func (d *doc) tryFlattened(i int) bool {
	lines := unflatten(d.ls[i].Text)
	if len(lines) < 3 {
		return false
	}
	return d.readFlattened(i, i, lines)
}

// tryFlattenedWrapped reads ifconfig output that a page flattened into one paragraph and a
// mail client then wrapped at its line width ("> eno1: flags=4163<UP,...> mtu 1500 inet
// 10.0.0.2 netmask" / "> 255.255.255.0 ... RX packets 543759 bytes" / ...): the lines of
// the paragraph from line i to the next blank line, joined, are one flattened line. Asked
// only of a prose line that holds an interface header's word (" flags=", "Link encap:"):
// when the wrap cut the header after its name ("... ifconfig eno1:" / "flags=4163<...>"),
// the line before, which names it, starts the paragraph. The lines read are consumed.
//
// A log record (a kernel line, another program's syslog line) ends the paragraph as a blank
// line does: a mail client's wrap gives no piece a stamp of its own, and a log that follows
// the paste without a blank line between is the log, whose records are logged. (Joining it
// made the paragraph reach as far as the text held the log, and a streamed window, which
// ends after tailLines quiet kernel lines, cut it elsewhere: FuzzStream.)
func (d *doc) tryFlattenedWrapped(i int) bool {
	t := d.ls[i].Text
	if d.opt.unwrapped || !strings.Contains(t, "flags=") && !strings.Contains(t, "Link encap:") {
		return false
	}
	start := i
	if strings.HasPrefix(strings.TrimSpace(t), "flags=") && i > 0 && !d.used[i-1] && !isBlank(d.ls[i-1].Text) &&
		strings.HasSuffix(strings.TrimSpace(d.ls[i-1].Text), ":") {
		start = i - 1
	}
	end := i + 1
	for end < len(d.ls) && end-start < maxWrappedLines && !isBlank(d.ls[end].Text) && !d.used[end] &&
		!d.ls[end].Kernel && !d.ls[end].Syslog {
		end++
	}
	if end-i < 2 {
		return false // one line: tryFlattened's
	}
	parts := make([]string, 0, end-start)
	for k := start; k < end; k++ {
		parts = append(parts, strings.TrimSpace(d.ls[k].Text))
	}
	lines := unflatten(strings.Join(parts, " "))
	opt := d.opt
	d.opt.unwrapped = true
	ok := len(lines) >= 3 && d.readFlattened(start, end-1, lines)
	d.opt = opt
	if !ok {
		return false
	}
	for k := start; k < end; k++ {
		d.used[k] = true
	}
	return true
}

// maxWrappedLines bounds the paragraph tryFlattenedWrapped joins.
const maxWrappedLines = 200

// readFlattened reads the lines unflatten cut out of lines i..j of the text and attributes
// what they give to those lines; it reports whether they held any output.
func (d *doc) readFlattened(i, j int, lines []string) bool {
	sub := ParseString(strings.Join(lines, "\n")+"\n", "", d.opt)
	if len(sub.Artifacts) == 0 {
		return false
	}
	no, noEnd := d.ls[i].No, d.ls[j].No
	src := fmt.Sprintf("line %d (output flattened onto one line)", no)
	if noEnd != no {
		src = fmt.Sprintf("lines %d-%d (output flattened into one wrapped paragraph)", no, noEnd)
	}
	for _, seg := range sub.Segments {
		ss := append([]model.Sample(nil), sub.Samples[seg.First:seg.Last+1]...)
		for k := range ss {
			ss[k].Source = src
		}
		d.addSamples(seg.Kind, seg.Label, no, noEnd, ss)
	}
	for _, a := range sub.Artifacts {
		d.addArtifact(a.Kind, no, noEnd, a.Data)
	}
	// A show_mem dump's zones and a kernel report (a stall or failure header in the prose
	// around flattened buddy lines) are the line's too.
	inSeg := make([]bool, len(sub.Samples))
	for _, seg := range sub.Segments {
		for k := seg.First; k <= seg.Last && k < len(inSeg); k++ {
			inSeg[k] = true
		}
	}
	for k, s := range sub.Samples {
		if !inSeg[k] {
			s.Source = src
			d.tl.Samples = append(d.tl.Samples, s)
		}
	}
	for _, ev := range sub.Events {
		ev.FirstLine, ev.LastLine, ev.Source = no, noEnd, src
		d.tl.Events = append(d.tl.Events, ev)
	}
	return true
}

// reFlatBuddy is one zone's line of a show_mem dump's buddy lists (mm/page_alloc.c
// show_free_areas: "Node 0 DMA: 26*4kB (M) 53*8kB (UM) ... 0*4096kB = 4352kB", the migrate
// types in parentheses since 3.x), as a page runs it into the prose around it: a zone the
// kernel names (mm/page_alloc.c zone_names) and at least three orders, so that arithmetic
// in prose ("Example: 2*4kB = 8kB") is no zone.
var reFlatBuddy = lazyre.New(`(?:Node \d+ )?(?:DMA32|DMA|Normal|HighMem|Movable|Device): (?:\d+\*\d+kB (?:\([A-Z]+\) )?){3,}= \d+kB`)

// unflattenBuddy cuts a line holding buddy-list lines among prose ("When the kernel reports
// memory it prints Node 0 DMA: 26*4kB (M) ... = 4352kB Node 0 DMA32: ... = 46420kB I
// understand ...") into the prose before, each zone's line, and the prose between and after
// them; nil without a zone's line.
func unflattenBuddy(s string) []string {
	idx := reFlatBuddy.FindAllStringIndex(s, -1)
	if idx == nil {
		return nil
	}
	var out []string
	at := 0
	for _, m := range idx {
		if p := strings.TrimSpace(s[at:m[0]]); p != "" {
			out = append(out, p)
		}
		out = append(out, s[m[0]:m[1]])
		at = m[1]
	}
	if p := strings.TrimSpace(s[at:]); p != "" {
		out = append(out, p)
	}
	return out
}

// unflattenEthtoolCommand cuts "# ethtool -S enp1s0 ... rx_queue_0_drops: 97326
// rx_queue_1_drops: 63783 ...Copy to Clipboard" (a documentation page that ran the command
// and an excerpt of its output onto one line, without the "NIC statistics:" line; corpus
// 647) into the command, the header every `ethtool -S` prints first
// (net/ethtool/ioctl.c through the ethtool tool's dump_stats), and one "name: value" line
// per pair that follows the command, "..." elisions skipped; the first other word ends the
// output. nil without a pair.
func unflattenEthtoolCommand(s string) []string {
	i := strings.Index(s, "ethtool -S ")
	ws := strings.Fields(s[i+len("ethtool -S "):])
	if len(ws) < 3 {
		return nil
	}
	out := []string{strings.TrimSpace(s[:i] + "ethtool -S " + ws[0]), "NIC statistics:"}
	for p := 1; p < len(ws); {
		w := ws[p]
		if strings.Trim(w, ".…") == "" {
			p++
			continue
		}
		if p+1 < len(ws) && len(w) > 1 && strings.HasSuffix(w, ":") && isLower(w[0]) {
			if v := ws[p+1]; isDigits(strings.TrimPrefix(v, "-")) {
				out = append(out, "     "+w+" "+v)
				p += 2
				continue
			}
		}
		break
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

// unflattenNetstatI cuts `netstat -i` run onto one line ("# netstat -i Kernel Interface
// table Iface MTU RX-OK RX-ERR RX-DRP RX-OVR TX-OK TX-ERR TX-DRP TX-OVR Flg eth0 1500
// 653090942 0 1481 0 84429784 0 0 0 BMRU lo ...", corpus 639) back into its title, header and
// one row per interface: as many words as the header has columns, every one but the first and
// the flags a number. The first word that does not fit ends the table.
func unflattenNetstatI(s string) []string {
	ws := strings.Fields(s)
	iface, flg := -1, -1
	for k, w := range ws {
		if w == "Iface" && iface < 0 {
			iface = k
		}
		if w == "Flg" && iface >= 0 {
			flg = k
			break
		}
	}
	if iface < 0 || flg < iface+3 {
		return nil
	}
	var out []string
	head := ws[:iface]
	if n := len(head); n >= 3 && head[n-3] == "Kernel" && head[n-2] == "Interface" && head[n-1] == "table" {
		if n > 3 {
			out = append(out, strings.Join(head[:n-3], " "))
		}
		out = append(out, "Kernel Interface table")
	} else if n > 0 {
		out = append(out, strings.Join(head, " "))
	}
	cols := flg - iface + 1
	out = append(out, strings.Join(ws[iface:flg+1], " "))
	rows := 0
	for p := flg + 1; p+cols <= len(ws); p += cols {
		row := ws[p : p+cols]
		ok := true
		for _, c := range row[1 : cols-1] {
			if !isDigits(c) {
				ok = false
				break
			}
		}
		if !ok {
			break
		}
		out = append(out, strings.Join(row, " "))
		rows++
	}
	if rows == 0 {
		return nil
	}
	return out
}

// unflattenSar cuts a sar report run onto one line ("[root@ip-10-0-1-68 ~]# sar -r Linux
// 4.14.193-... (ip-10-0-1-68...) 05/22/2021 _x86_64_ (1 CPU) 12:00:02 AM kbmemfree kbmemused
// %memused ... 12:10:01 AM 65860 941080 93.46 ...", corpus 642) back into the command, the
// banner (common.c print_gal_header), the header and one row per interval: each starts at a
// time of day or "Average:". nil when no banner follows the command.
func unflattenSar(s string) []string {
	b := reFlatSarBanner.FindStringSubmatchIndex(s)
	if b == nil {
		return nil
	}
	out := []string{strings.TrimSpace(s[:b[2]])}
	body := s[b[2]:]
	idx := reFlatSarStamp.FindAllStringSubmatchIndex(body, -1)
	if len(idx) < 2 {
		return nil
	}
	out = append(out, strings.TrimSpace(body[:idx[0][2]]))
	for k, m := range idx {
		end := len(body)
		if k+1 < len(idx) {
			end = idx[k+1][2]
		}
		out = append(out, strings.TrimSpace(body[m[2]:end]))
	}
	return out
}

// unflattenNetstatS cuts `netstat -s` output that a PDF or a page ran onto one line
// ("... netstat -s IP: 3229907 total packets received [...] 108 dropped because of missing
// route Icmp: ... Tcp: 117181 active connections openings ...", corpus 474) back into its
// group lines and sentences: at each word, the longest sentence of the group netstat -s
// prints (netstatSentences, a number in place of its '%') is taken; words no sentence
// starts with ("[...]") are skipped.
func unflattenNetstatS(s string) []string {
	words := strings.Fields(s)
	var out []string
	group := ""
	start := -1
	for p := 0; p < len(words); {
		if g, ok := netstatFlatGroup(words[p]); ok {
			if start < 0 {
				start = p
				if p > 0 {
					out = append(out, strings.Join(words[:p], " "))
				}
			}
			group = g
			out = append(out, g+":")
			p++
			continue
		}
		if group == "" {
			p++
			continue
		}
		n, glued := 0, 0
		for key := range netstatSentences[group] {
			if m, g := matchSentence(words[p:], strings.Fields(key)); m > n || m == n && g == 0 {
				n, glued = m, g
			}
		}
		if n == 0 {
			p++
			continue
		}
		if glued > 0 {
			// The sentence's last word ran into the prose after the code block ("179722143
			// packets sentThis is showing"): the sentence ends there, the rest is prose.
			last := words[p+n-1]
			out = append(out, "    "+strings.Join(append(append([]string(nil), words[p:p+n-1]...), last[:glued]), " "))
			words[p+n-1] = last[glued:]
			p += n - 1
			continue
		}
		out = append(out, "    "+strings.Join(words[p:p+n], " "))
		p += n
	}
	if start < 0 {
		return nil
	}
	return out
}

// netstatFlatGroup maps a group word of netstat -s ("IP:", "Tcp:", "TcpExt:") to its group.
func netstatFlatGroup(w string) (string, bool) {
	switch strings.ToLower(w) {
	case "ip:":
		return "Ip", true
	case "icmp:":
		return "Icmp", true
	case "tcp:":
		return "Tcp", true
	case "udp:":
		return "Udp", true
	case "tcpext:":
		return "TcpExt", true
	case "ipext:":
		return "IpExt", true
	}
	return "", false
}

// matchSentence returns how many words of ws the sentence key (lower case, '%' for its
// number) covers, 0 when ws does not start with it. glued is the length of the last word's
// part the key covers when a capitalised word follows it without a space (a code block run
// into the prose after it: "packets sentThis"), 0 when the word is the key's whole.
func matchSentence(ws, key []string) (n, glued int) {
	if len(ws) < len(key) {
		return 0, 0
	}
	for k, kw := range key {
		w := strings.ToLower(ws[k])
		switch {
		case kw == "%":
			if !isDigits(w) {
				return 0, 0
			}
		case w == kw:
		case k == len(key)-1 && len(w) > len(kw) && strings.HasPrefix(w, kw) && isUpper(ws[k][len(kw)]) && isLower(ws[k][len(kw)-1]):
			glued = len(kw)
		default:
			return 0, 0
		}
	}
	return len(key), glued
}

// reFlatPagetypeinfo finds where /proc/pagetypeinfo's lines began (mm/vmstat.c
// pagetypeinfo_show: the page block order and size, the free counts per zone and migrate
// type, then the "Number of blocks type" table, each zone's row starting with "Node N, zone").
var reFlatPagetypeinfo = lazyre.New(`\s(Pages per block:|Free pages count per migrate type at order|Node\s+\d+, zone\s|Number of blocks type)`)

// unflattenPagetypeinfo cuts /proc/pagetypeinfo that a page ran onto one line ("cat
// /proc/pagetypeinfo Page block order: 9 Pages per block: 512 Free pages count per migrate
// type at order 0 1 ... 10 Node 0, zone DMA, type Unmovable 0 0 ...") back into its lines,
// with the blank line the file has before each table.
func unflattenPagetypeinfo(s string) []string {
	i := strings.Index(s, "Page block order: ")
	var out []string
	if head := strings.TrimSpace(s[:i]); head != "" {
		out = append(out, head)
	}
	body := s[i:]
	idx := reFlatPagetypeinfo.FindAllStringSubmatchIndex(body, -1)
	start := 0
	for _, m := range idx {
		out = append(out, strings.TrimSpace(body[start:m[2]]))
		if w := body[m[2]:m[3]]; strings.HasPrefix(w, "Free pages") || strings.HasPrefix(w, "Number of blocks") {
			out = append(out, "")
		}
		start = m[2]
	}
	return append(out, strings.TrimSpace(body[start:]))
}

var (
	// An nstat row as nstat prints it, name, count and the rate column ("TcpExtListenOverflows
	// 12178939 0.0"; iproute2 misc/nstat.c dump_kern_db prints "%-32s%-16llu%6.1f"): the name
	// a /proc/net/{snmp,netstat,snmp6} group's and a field's, glued (corpus 1141). The rate
	// column is what tells a row from a sentence's "Tcp 5".
	reFlatNstatRow = lazyre.New(`\b(?:Ip|IpExt|Icmp|IcmpMsg|Tcp|TcpExt|Udp|UdpLite|Ip6|Icmp6|Udp6|UdpLite6|MPTcpExt)[A-Z][A-Za-z0-9]* \d+ \d+\.\d\b`)
	// ss's table header (ss -lnt, -tan) and its rows after it: a state, Recv-Q, Send-Q and the
	// two addresses (misc/ss.c sock_state_print, sstate_name).
	reFlatSSHeader = lazyre.New(`\b(?:Netid\s+)?State\s+Recv-Q\s+Send-Q\s+Local Address:Port\s+Peer Address:Port(?:\s+Process)?`)
	reFlatSSRow    = lazyre.New(`^\s*((?:tcp|udp)\s+)?(?:LISTEN|ESTAB|UNCONN|SYN-SENT|SYN-RECV|FIN-WAIT-1|FIN-WAIT-2|TIME-WAIT|CLOSE-WAIT|LAST-ACK|CLOSING|CLOSED)\s+\d+\s+\d+\s+\S+:\S+\s+\S+:\S+`)
	// conntrack -S: one row a CPU, "cpu=0 found=770 invalid=3856 ... search_restart=746284"
	// (conntrack-tools src/conntrack.c, the kernel's CTA_STATS_* per CPU).
	reFlatConntrackCPU = lazyre.New(`\bcpu=\d+(?:\s+[a-z_]+=\d+){3,}`)
)

// unflattenCounterRows cuts a line into which a page ran several commands' outputs (corpus
// 1141: Chinese notes with "$ ss -lnt State Recv-Q Send-Q ... LISTEN 129 128 *:80 *:*", "$
// netstat -az ... TcpExtListenOverflows 12178939 0.0 ..." and "$ conntrack -S cpu=0 found=770
// ...") into each form's lines: ss's header and each row after it, each nstat row, each
// conntrack -S CPU row, and the text between them as lines of their own (prose and prompts,
// which the readers take as labels). nil when no form's line is in it.
func unflattenCounterRows(s string) []string {
	type span struct{ a, b int }
	var spans []span
	if m := reFlatSSHeader.FindStringIndex(s); m != nil {
		spans = append(spans, span{m[0], m[1]})
		for at := m[1]; ; {
			r := reFlatSSRow.FindStringIndex(s[at:])
			if r == nil {
				break
			}
			spans = append(spans, span{at + r[0], at + r[1]})
			at += r[1]
		}
	}
	for _, m := range reFlatNstatRow.FindAllStringIndex(s, -1) {
		spans = append(spans, span{m[0], m[1]})
	}
	for _, m := range reFlatConntrackCPU.FindAllStringIndex(s, -1) {
		// One match runs over every CPU's row ("cpu=1" is a name=value pair too): each
		// "cpu=" after white space starts the next row.
		a := m[0]
		for {
			k := strings.Index(s[a+1:m[1]], "cpu=")
			if k < 0 {
				break
			}
			b := a + 1 + k
			if s[b-1] == ' ' || s[b-1] == '\t' {
				spans = append(spans, span{a, b})
				a = b
			} else {
				break
			}
		}
		spans = append(spans, span{a, m[1]})
	}
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a < spans[j].a })
	var out []string
	at := 0
	for _, sp := range spans {
		if sp.a < at {
			continue // overlapping forms: the first wins
		}
		if p := strings.TrimSpace(s[at:sp.a]); p != "" {
			out = append(out, p)
		}
		out = append(out, strings.TrimSpace(s[sp.a:sp.b]))
		at = sp.b
	}
	if p := strings.TrimSpace(s[at:]); p != "" {
		out = append(out, p)
	}
	return out
}

// iperf/iperf3 (fix65g): each report row starts with its stream's id in brackets ("[  4]",
// "[SUM]", the header's "[ ID]"), the summary after a run of dashes; a flattened bulleted
// paste keeps each row's "- " before it, which goes with the cut.
var (
	reFlatIperfRow = lazyre.New(`\s(?:- )?(\[ *(?:\d+|SUM|ID)\] )`)
	reFlatIperfSep = lazyre.New(`\s((?:- ){4,}-?)`)
	reFlatIperfCmd = lazyre.New(`\s(?:- )?(Connecting to host |Server listening on |Accepted connection from |iperf Done\.)`)
)

// unflattenIperf cuts iperf's report flattened onto one line back into its rows.
func unflattenIperf(s string) []string {
	s = reFlatIperfSep.ReplaceAllString(s, "\n$1")
	s = reFlatIperfRow.ReplaceAllString(s, "\n$1")
	s = reFlatIperfCmd.ReplaceAllString(s, "\n$1")
	return strings.Split(s, "\n")
}
