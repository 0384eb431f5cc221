package artifact

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// netstat -s (net-tools statistics.c) prints the counters of /proc/net/snmp and
// /proc/net/netstat as English sentences under "Ip:", "Tcp:", "TcpExt:" ... headers; counters
// it has no sentence for are printed as "Name: value". Each sentence is mapped back to the
// kernel counter name here ('%' stands for the number). Sentences not in the table are kept
// in the artifact's "unmapped" list with their line, never dropped.
var netstatSentences = map[string]map[string]string{
	"Ip": {
		"% total packets received": "InReceives", "% forwarded": "ForwDatagrams",
		"% with invalid headers": "InHdrErrors", "% with invalid addresses": "InAddrErrors",
		"% incoming packets discarded": "InDiscards", "% incoming packets delivered": "InDelivers",
		"% requests sent out": "OutRequests", "% outgoing packets dropped": "OutDiscards",
		"% dropped because of missing route": "OutNoRoutes", "% fragments dropped after timeout": "ReasmTimeout",
		"% reassemblies required": "ReasmReqds", "% packets reassembled ok": "ReasmOKs",
		"% packet reassembles failed": "ReasmFails", "% fragments received ok": "FragOKs",
		"% fragments failed": "FragFails", "% fragments created": "FragCreates",
		"% with unknown protocol": "InUnknownProtos",
	},
	"Icmp": {
		"% icmp messages received": "InMsgs", "% input icmp message failed.": "InErrors",
		"% input icmp message failed": "InErrors", "% icmp messages sent": "OutMsgs",
		"% icmp messages failed": "OutErrors",
	},
	"Tcp": {
		"% active connections openings": "ActiveOpens", "% active connection openings": "ActiveOpens",
		"% passive connection openings": "PassiveOpens", "% failed connection attempts": "AttemptFails",
		"% connection resets received": "EstabResets", "% connections established": "CurrEstab",
		"% segments received": "InSegs", "% segments send out": "OutSegs", "% segments sent out": "OutSegs",
		"% segments retransmited": "RetransSegs", "% segments retransmitted": "RetransSegs",
		"% bad segments received.": "InErrs", "% bad segments received": "InErrs", "% resets sent": "OutRsts",
	},
	"Udp": {
		"% packets received": "InDatagrams", "% packets to unknown port received.": "NoPorts",
		"% packets to unknown port received": "NoPorts", "% packet receive errors": "InErrors",
		"% packets sent": "OutDatagrams", "% receive buffer errors": "RcvbufErrors",
		"% send buffer errors": "SndbufErrors", "ignoredmulti: %": "IgnoredMulti",
	},
	"TcpExt": {
		"% syn cookies sent": "SyncookiesSent", "% syn cookies received": "SyncookiesRecv",
		"% invalid syn cookies received":                                             "SyncookiesFailed",
		"% resets received for embryonic syn_recv sockets":                           "EmbryonicRsts",
		"% packets pruned from receive queue because of socket buffer overrun":       "PruneCalled",
		"% packets pruned from receive queue":                                        "RcvPruned",
		"% packets dropped from out-of-order queue because of socket buffer overrun": "OfoPruned",
		"% icmp packets dropped because they were out-of-window":                     "OutOfWindowIcmps",
		"% icmp packets dropped because socket was locked":                           "LockDroppedIcmps",
		"% arp filter blocked sockets":                                               "ArpFilter",
		"% tcp sockets finished time wait in fast timer":                             "TW",
		"% time wait sockets recycled by time stamp":                                 "TWRecycled",
		"% tcp sockets finished time wait in slow timer":                             "TWKilled",
		"% passive connections rejected because of time stamp":                       "PAWSPassive",
		"% active connections rejected because of time stamp":                        "PAWSActive",
		"% packets rejects in established connections because of timestamp":          "PAWSEstab",
		"% packets rejected in established connections because of timestamp":         "PAWSEstab",
		"% delayed acks sent":                                                        "DelayedACKs",
		"% delayed acks further delayed because of locked socket":                    "DelayedACKLocked",
		"quick ack mode was activated % times":                                       "DelayedACKLost",
		"% times the listen queue of a socket overflowed":                            "ListenOverflows",
		"% syns to listen sockets dropped":                                           "ListenDrops", "% syns to listen sockets ignored": "ListenDrops",
		"% packets directly queued to recvmsg prequeue.":                      "TCPPrequeued",
		"% bytes directly in process context from backlog":                    "TCPDirectCopyFromBacklog",
		"% bytes directly received in process context from prequeue":          "TCPDirectCopyFromPrequeue",
		"% packets dropped from prequeue":                                     "TCPPrequeueDropped",
		"% packet headers predicted":                                          "TCPHPHits",
		"% packets header predicted and directly queued to user":              "TCPHPHitsToUser",
		"% acknowledgments not containing data payload received":              "TCPPureAcks",
		"% predicted acknowledgments":                                         "TCPHPAcks",
		"% times recovered from packet loss due to fast retransmit":           "TCPRenoRecovery",
		"% times recovered from packet loss by selective acknowledgements":    "TCPSackRecovery",
		"% bad sack blocks received":                                          "TCPSACKReneging",
		"detected reordering % times using fack":                              "TCPFACKReorder",
		"detected reordering % times using sack":                              "TCPSACKReorder",
		"detected reordering % times using reno fast retransmit":              "TCPRenoReorder",
		"detected reordering % times using time stamp":                        "TCPTSReorder",
		"% congestion windows fully recovered without slow start":             "TCPFullUndo",
		"% congestion windows partially recovered using hoe heuristic":        "TCPPartialUndo",
		"% congestion windows recovered without slow start by dsack":          "TCPDSACKUndo",
		"% congestion windows recovered without slow start after partial ack": "TCPLossUndo",
		"% tcp data loss events":                                              "TCPLoss", "tcplostretransmit: %": "TCPLostRetransmit",
		"% timeouts after reno fast retransmit": "TCPRenoFailures",
		"% timeouts after sack recovery":        "TCPSackFailures", "% timeouts in loss state": "TCPLossFailures",
		"% fast retransmits": "TCPFastRetrans", "% forward retransmits": "TCPForwardRetrans",
		"% retransmits in slow start": "TCPSlowStartRetrans", "% other tcp timeouts": "TCPTimeouts",
		"% sack retransmits failed": "TCPSackRecoveryFail", "% reno retransmits failed": "TCPRenoRecoveryFail",
		"% times receiver scheduled too late for direct processing":     "TCPSchedulerFailed",
		"% packets collapsed in receive queue due to low socket buffer": "TCPRcvCollapsed",
		"% dsacks sent for old packets":                                 "TCPDSACKOldSent", "% dsacks sent for out of order packets": "TCPDSACKOfoSent",
		"% dsacks received": "TCPDSACKRecv", "% dsacks for out of order packets received": "TCPDSACKOfoRecv",
		"% connections reset due to unexpected syn":                           "TCPAbortOnSyn",
		"% connections reset due to unexpected data":                          "TCPAbortOnData",
		"% connections reset due to early user close":                         "TCPAbortOnClose",
		"% connections aborted due to memory pressure":                        "TCPAbortOnMemory",
		"% connections aborted due to timeout":                                "TCPAbortOnTimeout",
		"% connections aborted after user close in linger timeout":            "TCPAbortOnLinger",
		"% times unable to send rst due to no memory":                         "TCPAbortFailed",
		"tcp ran low on memory % times":                                       "TCPMemoryPressures",
		"% tcp sockets finished time wait in fast timer.":                     "TW",
		"% packets rejected in established connections because of timestamp.": "PAWSEstab",

		// net-tools 1.60 (the netstat of RHEL/CentOS 5-7 and old Debian) words several
		// TcpExt counters differently from net-tools 2.x statistics.c; both are printed
		// by hosts still in service, so both map to the same /proc/net/netstat name.
		"% packets directly received from backlog":            "TCPDirectCopyFromBacklog",
		"% packets directly received from prequeue":           "TCPDirectCopyFromPrequeue",
		"% packets header predicted":                          "TCPHPHits",
		"% acknowledgments not containing data received":      "TCPPureAcks",
		"% times recovered from packet loss due to sack data": "TCPSackRecovery",
		"% bad sacks received":                                "TCPSACKReneging",
		"% congestion windows fully recovered":                "TCPFullUndo",
		"% congestion windows recovered after partial ack":    "TCPLossUndo",
		"% retransmits lost":                                  "TCPLostRetransmit",
		// net-tools 2.x statistics.c Tcpexttab spellings not covered above (its
		// "packetes" typo included: that is what the tool prints).
		"% packets directly queued to recvmsg prequeue":                       "TCPPrequeued",
		"% packet headers predicted and directly queued to user":              "TCPHPHitsToUser",
		"% packetes rejected in established connections because of timestamp": "PAWSEstab",
		"ran % times out of system memory during packet sending":              "SockMallocOOM",
		"% congestion window recovered without slow start using dsack":        "TCPDSACKUndo",
		"% reno fast retransmits failed":                                      "TCPRenoRecoveryFail",
		"% classic reno fast retransmits failed":                              "TCPRenoRecoveryFail",
	},
	"IpExt": {},
}

// sentenceKey lowercases a sentence and replaces its first number with '%'.
func sentenceKey(s string) (key string, v int64, ok bool) {
	fs := fields(strings.ToLower(s))
	for i, f := range fs {
		if isDigits(f) {
			v, _ = atoi(f)
			fs[i] = "%"
			return strings.Join(fs, " "), v, true
		}
	}
	return "", 0, false
}

// NetstatS is parsed `netstat -s` output.
type NetstatS struct {
	Groups   kernel.Groups `json:"groups"`
	Unmapped []string      `json:"unmapped,omitempty"` // "line 12: 3 frobs"
	Cut      []NetstatCut  `json:"cut,omitempty"`
	// Layout names a BSD's udp_stats section read into Linux's counter names (netstat_bsd.go).
	Layout     string `json:"layout,omitempty"`
	unmappedAt []int  // their indexes in the lines
}

// NetstatCut is the last line of a paste cut inside a sentence ("43361 TCP sockets finished
// time wait"): its number is read, and the counters whose sentence it begins are named.
// With one candidate the counter is also set in its group; with several (time wait "in fast
// timer" is TW, "in slow timer" TWKilled) none is guessed.
type NetstatCut struct {
	Line       int      `json:"line"`
	Text       string   `json:"text"`
	Value      int64    `json:"value"`
	Candidates []string `json:"candidates"`
}

// cutCandidates returns the counters of group whose sentence key starts with key and is
// longer: the sentences a cut line may be the beginning of.
func cutCandidates(group, key string) []string {
	var names []string
	seen := map[string]bool{}
	for sentence, name := range netstatSentences[group] {
		if len(sentence) > len(key) && strings.HasPrefix(sentence, key) && sentence[len(key)] == ' ' && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// lastTextLine says whether no line after k holds text: the paste ends at line k.
func lastTextLine(ls []Line, k int) bool {
	for _, l := range ls[k+1:] {
		if !isBlank(l.Text) {
			return false
		}
	}
	return true
}

func isNetstatSGroup(t string) bool {
	s := strings.TrimSpace(t)
	if len(fields(s)) != 1 || !strings.HasSuffix(s, ":") || t[0] == ' ' || t[0] == '\t' {
		return false
	}
	return slices.Contains(kernel.SNMPGroups, strings.TrimSuffix(s, ":"))
}

func netstatSAt(ls []Line, i int) (*NetstatS, int) {
	ns := &NetstatS{}
	k := i
	var g *kernel.Group
	inHist := false
	for ; k < len(ls); k++ {
		t := ls[k].Text
		if isBlank(t) {
			// A blank line inside a group (pastes that double-space lines) does not
			// end the output: the next line says whether it goes on.
			n := k + 1
			for n < len(ls) && isBlank(ls[n].Text) && n-k < 3 {
				n++
			}
			if g != nil && n < len(ls) && n-k < 3 && (isNetstatSGroup(ls[n].Text) || ls[n].Text[0] == ' ' || ls[n].Text[0] == '\t') {
				k = n - 1
				continue
			}
			break
		}
		if isNetstatSGroup(t) {
			inHist = false
			ns.Groups = append(ns.Groups, kernel.Group{Name: strings.TrimSuffix(strings.TrimSpace(t), ":")})
			g = &ns.Groups[len(ns.Groups)-1]
			continue
		}
		if g == nil || (t[0] != ' ' && t[0] != '\t') {
			break
		}
		s := stripAnnotation(strings.TrimSpace(t))
		// "InOctets: 1234" and "TCPBacklogDrop: 3": the counter's own name.
		if name, val, ok := strings.Cut(s, ": "); ok && !strings.Contains(name, " ") && isDigits(strings.TrimSpace(val)) {
			v, _ := atoi(strings.TrimSpace(val))
			g.Counters.Set(name, v)
			continue
		}
		if strings.HasSuffix(s, "histogram:") {
			inHist = true // "ICMP input histogram:", then "destination unreachable: 3" rows
			continue
		}
		key, v, ok := sentenceKey(s)
		if !ok {
			continue
		}
		if inHist && strings.Contains(s, ": ") {
			continue // a histogram row: ICMP message counts by type, read, not mapped
		}
		if name, found := netstatSentences[g.Name][key]; found {
			g.Counters.Set(name, v)
			continue
		}
		if lastTextLine(ls, k) {
			// The paste stops inside this sentence (a search index or a ticket cut it):
			// keep its number with the counters it can be.
			if cands := cutCandidates(g.Name, key); len(cands) > 0 {
				ns.Cut = append(ns.Cut, NetstatCut{Line: ls[k].No, Text: s, Value: v, Candidates: cands})
				if len(cands) == 1 {
					g.Counters.Set(cands[0], v)
				}
				continue
			}
		}
		ns.Unmapped = append(ns.Unmapped, fmt.Sprintf("line %d: %s", ls[k].No, s))
		ns.unmappedAt = append(ns.unmappedAt, k)
	}
	if len(ns.Groups) == 0 {
		return nil, 0
	}
	return ns, k - i
}

// ParseNetstatS parses `netstat -s` output into kernel counter names.
func ParseNetstatS(text string) (*NetstatS, error) {
	ls := SplitLines(text)
	for i := range ls {
		if isNetstatSGroup(ls[i].Text) {
			if ns, n := netstatSAt(ls, i); n > 0 {
				return ns, nil
			}
		}
	}
	return nil, fmt.Errorf("artifact: no netstat -s output in the text")
}

func (d *doc) tryNetstatS(i int) int {
	if !isNetstatSGroup(d.ls[i].Text) || i+1 >= len(d.ls) {
		return 0
	}
	if n := d.ls[i+1].Text; len(n) == 0 || (n[0] != ' ' && n[0] != '\t') {
		return 0
	}
	ns, n := netstatSAt(d.ls, i)
	if n == 0 {
		return 0
	}
	for _, at := range ns.unmappedAt {
		d.unparsed(at, at, "netstat -s: a sentence headroom does not map to a kernel counter (the line is kept under the artifact's unmapped)")
	}
	return d.addTable(KindNetstatS, i, i+n, model.Sample{NetStat: ns.Groups}, ns)
}

// nstat (iproute2) prints "IpInReceives   12345   0.0": group and counter run together, the
// value, and a rate. Without -a the values are increments since nstat's previous run (its
// history file), so the artifact says whether the command line showed -a.
var nstatGroups = []string{"TcpExt", "IpExt", "MPTcpExt", "UdpLite6", "UdpLite", "Icmp6", "IcmpMsg", "Ip6", "Udp6", "Icmp", "Tcp", "Udp", "Ip"}

func splitNstatName(n string) (group, name string, ok bool) {
	for _, g := range nstatGroups {
		if strings.HasPrefix(n, g) && len(n) > len(g) && n[len(g)] >= 'A' && n[len(g)] <= 'Z' {
			return g, n[len(g):], true
		}
	}
	return "", "", false
}

func isNstatRow(t string) bool {
	fs := fields(t)
	if len(fs) < 2 || len(fs) > 3 || !isDigits(fs[1]) {
		return false
	}
	_, _, ok := splitNstatName(fs[0])
	return ok
}

// Nstat is parsed nstat output.
type Nstat struct {
	Groups   kernel.Groups `json:"groups"`
	Absolute *bool         `json:"absolute,omitempty"` // nil: not known whether -a was given
	Note     string        `json:"note,omitempty"`
}

func nstatAt(ls []Line, i int) (*Nstat, int) {
	k := i
	if strings.TrimSpace(ls[k].Text) == "#kernel" {
		k++
	}
	ns := &Nstat{}
	idx := map[string]int{}
	start := k
	for ; k < len(ls) && isNstatRow(ls[k].Text); k++ {
		fs := fields(ls[k].Text)
		g, name, _ := splitNstatName(fs[0])
		j, ok := idx[g]
		if !ok {
			ns.Groups = append(ns.Groups, kernel.Group{Name: g})
			j = len(ns.Groups) - 1
			idx[g] = j
		}
		v, _ := atoi(fs[1])
		ns.Groups[j].Counters.Set(name, v)
	}
	if k == start || (k-start < 2 && start == i && !(i > 0 && isNstatCommand(ls[i-1].Text))) {
		return nil, 0
	}
	return ns, k - i
}

// reNstatCommand: an nstat command line, bare or after a shell prompt or sudo ("# nstat -za
// TcpExtTCPReqQFullDrop", "$ sudo nstat -az | grep Listen"). nstat prints one row per
// counter named on its command line (iproute2 misc/nstat.c, dump_kern_db's pattern match),
// so one row under such a line is the whole output, not a stray word pair in prose.
var reNstatCommand = lazyre.New(`^(?:\S*[#$>]\s*)?(?:sudo\s+)?nstat(?:\s|$)`)

func isNstatCommand(t string) bool { return reNstatCommand.MatchString(strings.TrimSpace(t)) }

// ParseNstat parses nstat / nstat -az output.
func ParseNstat(text string) (*Nstat, error) {
	ls := SplitLines(text)
	for i := range ls {
		if ns, n := nstatAt(ls, i); n > 0 {
			return ns, nil
		}
	}
	return nil, fmt.Errorf("artifact: no nstat output in the text")
}

func (d *doc) tryNstat(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if t != "#kernel" && !isNstatRow(t) {
		return 0
	}
	ns, n := nstatAt(d.ls, i)
	if n == 0 {
		return 0
	}
	return d.addNstat(i, n, ns)
}

// addNstat adds nstat's counters read from lines i..i+n-1 (its table or its --json object),
// absolute or increments as the command line above says.
func (d *doc) addNstat(i, n int, ns *Nstat) int {
	label := d.label(i)
	from := nstatCounted(label)
	if from != model.SinceUnsaid {
		abs := from == model.SinceBoot
		ns.Absolute = &abs
	}
	if from != model.SinceBoot {
		ns.Note = "nstat without -a prints increments since its previous run; treat values as deltas unless the command was nstat -a"
	}
	first, last := d.ls[i].No, d.ls[i+n-1].No
	d.segSeq++
	d.addSamples(KindNstat, label, first, last, []model.Sample{{Source: spanSource(first, last), NetStat: ns.Groups, NetStatFrom: from}})
	d.addArtifact(KindNstat, first, last, ns)
	return n
}

// nstatCounted says from when nstat's rows count, by its command line among the label's
// lines: since boot with -a (--absolute) or -r (--reset: the history is zeroed first), since
// its previous run without them (iproute2 misc/nstat.c prints the increment over its
// history file), and unsaid when the text shows no command line.
func nstatCounted(label string) model.CountedFrom {
	for _, part := range strings.Split(label, " / ") {
		part = strings.TrimSpace(part)
		if !isNstatCommand(part) {
			continue
		}
		args := part[strings.Index(part, "nstat")+len("nstat"):]
		if cut := strings.IndexAny(args, "|;&>"); cut >= 0 {
			args = args[:cut]
		}
		for _, a := range strings.Fields(args) {
			switch {
			case a == "--absolute" || a == "--reset":
				return model.SinceBoot
			case strings.HasPrefix(a, "--"):
			case strings.HasPrefix(a, "-") && strings.ContainsAny(a, "ar"):
				return model.SinceBoot
			}
		}
		return model.SinceLastRun
	}
	return model.SinceUnsaid
}

// netstatSentenceIndex maps each known sentence to its group and counter, for lines of
// `netstat -s | grep ...` that arrive without their group's header.
var netstatSentenceIndex = func() map[string][2]string {
	idx := map[string][2]string{}
	for g, m := range netstatSentences {
		for sentence, name := range m {
			idx[sentence] = [2]string{g, name}
		}
	}
	return idx
}()

// tryNetstatSGrep reads consecutive netstat -s sentences without a group header ("160 times
// the listen queue of a socket overflowed" after `netstat -s | grep overflowed`).
func (d *doc) tryNetstatSGrep(i int) int {
	ns := &NetstatS{}
	groups := map[string]int{}
	k := i
	for ; k < len(d.ls); k++ {
		s := stripAnnotation(strings.TrimSpace(d.ls[k].Text))
		key, v, ok := sentenceKey(s)
		if !ok {
			break
		}
		gn, found := netstatSentenceIndex[key]
		if !found {
			gn, found = netstatSentenceIndex[key+"."]
		}
		if t, glued := cutGluedHeading(s); !found && glued {
			// A page's text extraction lost the newline before the next heading ("1617
			// packets pruned from receive queue because of socket buffer overrunCauses").
			if key, _, ok := sentenceKey(t); ok {
				gn, found = netstatSentenceIndex[key]
			}
		}
		if !found {
			break
		}
		j, seen := groups[gn[0]]
		if !seen {
			ns.Groups = append(ns.Groups, kernel.Group{Name: gn[0]})
			j = len(ns.Groups) - 1
			groups[gn[0]] = j
		}
		ns.Groups[j].Counters.Set(gn[1], v)
	}
	if k == i {
		return 0
	}
	return d.addTable(KindNetstatS, i, k, model.Sample{NetStat: ns.Groups}, ns)
}

// cutGluedHeading: s without the capitalized word glued to its last word ("overrunCauses"
// is "overrun" and the heading "Causes" after it), when its last word has one.
func cutGluedHeading(s string) (string, bool) {
	f := s[strings.LastIndexAny(s, " \t")+1:]
	for i := 2; i < len(f); i++ {
		if f[i] >= 'A' && f[i] <= 'Z' && f[i-1] >= 'a' && f[i-1] <= 'z' {
			return s[:len(s)-len(f)+i], true
		}
	}
	return s, false
}

// tcpExtBareCounter reads a line of netstat -s's TcpExt group that names its kernel counter
// ("TCPBacklogDrop: 368504": net-tools prints a counter it has no sentence for under its own
// name) when the line stands without the group's header: a grep, or a paste that elided the
// rest ("// other fields"), or a tool that re-prints /proc/net/netstat's TcpExt row one
// counter a line (xsos's first NETSTAT module: "TCPDeferAcceptDrop: 1081306", corpus 974).
// Only TcpExt's own names (kernel.IsTcpExtName) are taken this way: alone, "Name: N" could be
// any tool's, and a meminfo field is no "TCP" word.
//
// netstat -s's IcmpMsg section is the same: "InType3: 6054246", one /proc/net/snmp IcmpMsg
// counter a line under its own name (net-tools statistics.c prints the names it has no
// sentence for as they are), read as the IcmpMsg group when its header was cut (corpus 789;
// before, /proc/meminfo took the lines for want of any field test).
func tcpExtBareCounter(t string) (group, name string, v int64, ok bool) {
	name, val, ok := strings.Cut(strings.TrimSpace(t), ": ")
	switch {
	case !ok:
		return "", "", 0, false
	case kernel.IsTcpExtName(name):
		group = "TcpExt"
	case isIcmpMsgName(name):
		group = "IcmpMsg"
	default:
		return "", "", 0, false
	}
	v, ok = atoi(strings.TrimSpace(stripAnnotation(val)))
	return group, name, v, ok
}

// isIcmpMsgName: "InType0" .. "OutType255", the per-type counters of /proc/net/snmp's
// IcmpMsg line (net/ipv4/proc.c icmpmsg_put).
func isIcmpMsgName(n string) bool {
	r, ok := strings.CutPrefix(n, "InType")
	if !ok {
		r, ok = strings.CutPrefix(n, "OutType")
	}
	return ok && len(r) >= 1 && len(r) <= 3 && isDigits(r)
}

func isTcpExtBareCounter(_, t string) bool {
	_, _, _, ok := tcpExtBareCounter(t)
	return ok
}

// tryNetstatSBare reads consecutive bare TcpExt and IcmpMsg counter lines (tcpExtBareCounter).
func (d *doc) tryNetstatSBare(i int) int {
	var gs kernel.Groups
	k := i
	for ; k < len(d.ls); k++ {
		group, name, v, ok := tcpExtBareCounter(d.ls[k].Text)
		if !ok {
			break
		}
		gs.Set(group, name, v)
	}
	if k == i {
		return 0
	}
	ns := &NetstatS{Groups: gs}
	return d.addTable(KindNetstatS, i, k, model.Sample{NetStat: ns.Groups}, ns)
}

// stripAnnotation removes what a paster appended to a line to point at it: "<---- HERE",
// "<-- this one", "← look", "# note", "   <<<<" (corpus 604, a vendor KB marking the
// counters it discusses).
func stripAnnotation(s string) string {
	for _, mark := range []string{"<-", "←", " #", "  //", " <<"} {
		if i := strings.Index(s, mark); i > 0 {
			s = strings.TrimSpace(s[:i])
		}
	}
	// An arrow drawn to the right of the line, "   ---- >note" or " --> note" (g266's
	// 5828, a blog's netstat -s lines each pointing at its explanation).
	if i := strings.Index(s, " --"); i > 0 {
		if rest := strings.TrimLeft(s[i+1:], "- "); strings.HasPrefix(rest, ">") {
			s = strings.TrimSpace(s[:i])
		}
	}
	return s
}

// A tool's re-print of /proc/net/netstat and /proc/net/snmp one counter a line, the group and
// the kernel's name joined by a dot and the value in a column (xsos -N on a sosreport, corpus
// 973):
//
//	NET STATS
//	  Tcp.AttemptFails:                        4436
//	  TcpExt.ListenOverflows:                   287
//
// Values are the kernel's totals since boot. A tool that prints only some counters (xsos
// leaves out zeros and names outside its filter) leaves the others absent, not zero.
var reDottedCounter = lazyre.New(`^([A-Z][A-Za-z0-9]*)\.([A-Za-z][A-Za-z0-9_]*):\s+(\d+)\s*$`)

func dottedCounter(t string) (group, name string, v int64, ok bool) {
	m := reDottedCounter.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil || !slices.Contains(kernel.SNMPGroups, m[1]) {
		return "", "", 0, false
	}
	v, ok = atoi(m[3])
	return m[1], m[2], v, ok
}

func isDottedCounterLine(ft, t string) bool {
	if !strings.HasSuffix(ft, ":") || strings.IndexByte(ft, '.') < 0 {
		return false
	}
	_, _, _, ok := dottedCounter(t)
	return ok
}

// tryDottedCounters reads consecutive "Group.Name: value" lines as one reading of those
// counters; a line the copy cut ("TcpExt.LockDroppedIcmps:" with no value) ends the block.
func (d *doc) tryDottedCounters(i int) int {
	ns := &NetstatS{}
	groups := map[string]int{}
	k := i
	for ; k < len(d.ls); k++ {
		g, name, v, ok := dottedCounter(d.ls[k].Text)
		if !ok {
			break
		}
		j, seen := groups[g]
		if !seen {
			ns.Groups = append(ns.Groups, kernel.Group{Name: g})
			j = len(ns.Groups) - 1
			groups[g] = j
		}
		ns.Groups[j].Counters.Set(name, v)
	}
	if k == i {
		return 0
	}
	return d.addTable(KindNetStatFile, i, k, model.Sample{NetStat: ns.Groups}, ns)
}
