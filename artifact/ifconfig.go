package artifact

import (
	"fmt"
	"headroom/internal/lazyre"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// ifconfig (net-tools, busybox). Two layouts:
//
//	old (net-tools <= 1.60, busybox):
//	  "eth0   Link encap:Ethernet  HWaddr 00:30:48:2D:16:22"
//	  "       RX packets:2050626316  errors:1392055  dropped:2784110  overruns:1392055  frame:0"
//	  "       TX packets:373778386  errors:0  dropped:0  overruns:0  carrier:0"
//	  "       collisions:0 txqueuelen:1000"
//	  "       RX bytes:1988145274 (1.8 GiB)  TX bytes:2674276694 (2.4 GiB)"
//	new (net-tools 2.x):
//	  "eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500"
//	  "        RX packets 123  bytes 456 (456.0 B)"
//	  "        RX errors 0  dropped 0  overruns 0  frame 0"
//	  "        TX errors 0  dropped 0 overruns 0  carrier 0  collisions 0"
//
// net-tools takes these numbers from /proc/net/dev (lib/interface.c get_dev_fields: errs,
// drop, fifo, frame, ... into rx_errors, rx_dropped, rx_fifo_errors, rx_frame_errors), and
// the kernel prints sums in some of those columns (net/core/net-procfs.c dev_seq_printf_stats):
//
//	"dropped"  = rx_dropped + rx_missed_errors   → stored as rx_dropped
//	"overruns" = rx_fifo_errors                  → rx_fifo_errors
//	"frame"    = rx_length + rx_over + rx_crc + rx_frame errors → rx_frame_errors
//	"carrier"  = tx_carrier + tx_aborted + tx_window + tx_heartbeat errors → tx_carrier_errors
//
// so the names carry the /proc/net/dev meaning documented on kernel.NetDev. On e1000 and its
// successors a full RX ring counts in both rx_missed_errors and rx_fifo_errors, which is why
// seed 004 shows dropped = 2 × overruns.

// Iface is one interface of ifconfig, ip -s link or netstat -i output.
type Iface struct {
	Name       string          `json:"name"`
	Flags      []string        `json:"flags,omitempty"`
	MTU        int64           `json:"mtu,omitempty"`
	TxQueueLen int64           `json:"txqueuelen,omitempty"`
	HWAddr     string          `json:"hwaddr,omitempty"`
	XDP        string          `json:"xdp,omitempty"` // ip link's XDP attachment (kernel.NetDev.XDP)
	Counters   kernel.Counters `json:"counters"`
}

func isIfconfigHeader(t string) bool {
	if len(t) == 0 || t[0] == ' ' || t[0] == '\t' {
		return false
	}
	fs := fields(t)
	if len(fs) >= 3 && fs[1] == "Link" && strings.HasPrefix(fs[2], "encap:") {
		return true
	}
	// A paste that lost the single spaces between words (a mail client that kept only the
	// runs it had turned into no-break spaces): "eth0   Linkencap:Ethernet  HWaddr ...".
	if len(fs) >= 2 && strings.HasPrefix(fs[1], "Linkencap:") && reIfconfigName.MatchString(fs[0]) {
		return true
	}
	// net-tools before 1.60 printed no colons: "eth0      Link encap 10Mbps Ethernet  HWaddr
	// ..." (corpus 1010). A lowercase interface name first, so prose ("The Link encap field")
	// is no header.
	if len(fs) >= 4 && fs[1] == "Link" && fs[2] == "encap" && reIfconfigName.MatchString(fs[0]) {
		return true
	}
	return len(fs) >= 2 && strings.HasSuffix(fs[0], ":") && strings.HasPrefix(fs[1], "flags=") && strings.Contains(t, "mtu")
}

var ifconfigWords = map[string]map[string]string{
	// "overrun" in the singular is the pre-1.60 layout's word for the same column.
	"RX": {"packets": "rx_packets", "errors": "rx_errors", "dropped": "rx_dropped", "overruns": "rx_fifo_errors",
		"overrun": "rx_fifo_errors", "frame": "rx_frame_errors", "bytes": "rx_bytes"},
	"TX": {"packets": "tx_packets", "errors": "tx_errors", "dropped": "tx_dropped", "overruns": "tx_fifo_errors",
		"overrun": "tx_fifo_errors", "carrier": "tx_carrier_errors", "collisions": "collisions", "bytes": "tx_bytes"},
}

// ifconfigAt parses consecutive interface blocks starting at ls[i].
func ifconfigAt(ls []Line, i int) ([]Iface, int) {
	var out []Iface
	k := i
	for k < len(ls) {
		// skip blank lines between blocks, but only when another block follows
		j := k
		for j < len(ls) && isBlank(ls[j].Text) {
			j++
		}
		if j >= len(ls) || !isIfconfigHeader(strings.TrimLeft(ls[j].Text, " \t")) {
			break
		}
		k = j
		ifc := Iface{}
		hdr := fields(ls[k].Text)
		if strings.HasSuffix(hdr[0], ":") && strings.HasPrefix(hdr[1], "flags=") {
			ifc.Name = strings.TrimSuffix(hdr[0], ":")
			if a := strings.IndexByte(hdr[1], '<'); a >= 0 {
				ifc.Flags = strings.Split(strings.Trim(hdr[1][a:], "<>"), ",")
			}
		} else {
			ifc.Name = hdr[0]
		}
		parseIfconfigLine(&ifc, ls[k].Text)
		// The block's lines are indented under its header; a paste that lost the relative
		// indentation puts them at the header's column: at column 0 when a form stripped
		// the leading spaces (corpus 1101), or header and lines alike indented as a
		// Markdown code block or a list. A line at the header's column continues the block
		// only as a line ifconfig prints there (isIfconfigFlatContinuation).
		hind := indentOf(ls[k].Text)
		// A double-spaced paste (a mail client or forum that turned each line break into a
		// paragraph, or quoted ">" lines between the rows) puts one blank line after every
		// row: the block goes on past a single blank line when the block began so (a blank
		// right after its header) and the next line is one ifconfig prints in a block
		// (ifconfigRowAfterBlank). Output that is not double-spaced ends its block at the
		// first blank line as before.
		spaced := k+2 < len(ls) && isBlank(ls[k+1].Text) && !isBlank(ls[k+2].Text) &&
			ifconfigRowAfterBlank(ls[k+2].Text, hind)
		k++
		for ; k < len(ls); k++ {
			t := ls[k].Text
			if isBlank(t) {
				if spaced && k+1 < len(ls) && !isBlank(ls[k+1].Text) && ifconfigRowAfterBlank(ls[k+1].Text, hind) {
					continue
				}
				break
			}
			t = unglueIfconfigRow(t)
			if ind := indentOf(t); ind < hind || ind == hind && !isIfconfigFlatContinuation(t) {
				break
			}
			parseIfconfigLine(&ifc, t)
		}
		out = append(out, ifc)
	}
	return out, k - i
}

func parseIfconfigLine(ifc *Iface, t string) {
	fs := fields(t)
	dir := ""
	for j := 0; j < len(fs); j++ {
		f := fs[j]
		if f == "RX" || f == "TX" {
			dir = f
			continue
		}
		// old layout: "key:value"; new layout: "key value"
		key, val, colon := strings.Cut(f, ":")
		if !colon && j+1 < len(fs) && isDigits(fs[j+1]) {
			key, val = f, fs[j+1]
		} else if colon && val == "" && j+1 < len(fs) && dir != "" && groupedCount(fs[j+1]) {
			// A summary one counter a line ("RX dropped: 135,158 packets"): the count
			// after the colon, thousands separated.
			if name, ok := ifconfigWords[dir][key]; ok {
				if v, ok := statedCount(fs[j+1]); ok {
					ifc.Counters.Set(name, v)
				}
			}
			j++
			continue
		} else if colon && val == "" && j+1 < len(fs) {
			continue // "inet6 addr: ..." and friends
		}
		switch {
		case key == "MTU" || key == "mtu":
			ifc.MTU, _ = atoi(val)
		case key == "txqueuelen":
			ifc.TxQueueLen, _ = atoi(val)
		case key == "HWaddr" || key == "ether":
			if j+1 < len(fs) {
				ifc.HWAddr = fs[j+1]
			}
		case key == "collisions":
			if v, ok := atoi(val); ok {
				ifc.Counters.Set("collisions", v)
			}
		case dir != "":
			if name, ok := ifconfigWords[dir][key]; ok {
				if v, ok := atoi(val); ok {
					ifc.Counters.Set(name, v)
				}
			}
		}
		if !colon && isDigits(val) && val == fs[min(j+1, len(fs)-1)] {
			j++
		}
	}
	if len(fs) > 0 && (fs[0] == "UP" || fs[0] == "BROADCAST" || fs[0] == "LOOPBACK") && len(ifc.Flags) == 0 {
		for _, f := range fs {
			if strings.Contains(f, ":") {
				break
			}
			ifc.Flags = append(ifc.Flags, f)
		}
	}
}

// ParseIfconfig parses ifconfig output (old or new net-tools layout, busybox).
func ParseIfconfig(text string) ([]Iface, error) {
	ls := SplitLines(text)
	for i := range ls {
		if isIfconfigHeader(strings.TrimLeft(ls[i].Text, " \t")) {
			if ifs, n := ifconfigAt(ls, i); n > 0 {
				return ifs, nil
			}
		}
	}
	return nil, fmt.Errorf("artifact: no ifconfig interface block in the text")
}

func ifacesToNetDev(ifs []Iface) []kernel.NetDev {
	out := make([]kernel.NetDev, 0, len(ifs))
	for _, f := range ifs {
		out = append(out, kernel.NetDev{Name: f.Name, Counters: f.Counters.Clone(), XDP: f.XDP})
	}
	return out
}

// ifaceArtifact is the data of ifconfig, ip link and netstat -i artifacts.
type ifaceArtifact struct {
	Tool       string  `json:"tool"`
	Interfaces []Iface `json:"interfaces"`
	Label      string  `json:"label,omitempty"`
}

func (d *doc) addIfaces(kind, tool string, i, n int, ifs []Iface) {
	first, last := d.ls[i].No, d.ls[i+n-1].No
	for last > first && isBlank(d.ls[i+n-1].Text) {
		n--
		last = d.ls[i+n-1].No
	}
	label := d.label(i)
	d.segSeq++
	d.addSamples(kind, label, first, last, []model.Sample{{Source: spanSource(first, last), NetDev: ifacesToNetDev(ifs)}})
	d.addArtifact(kind, first, last, ifaceArtifact{Tool: tool, Interfaces: ifs, Label: label})
}

func (d *doc) tryIfconfig(i int) int {
	if !isIfconfigHeader(strings.TrimLeft(d.ls[i].Text, " \t")) {
		return 0
	}
	ifs, n := ifconfigAt(d.ls, i)
	if n == 0 {
		return 0
	}
	d.addIfaces(KindIfconfig, "ifconfig", i, n, ifs)
	return n
}

// tryIfconfigRows reads a run of ifconfig counter lines without their interface block, as
// "for i in ...; do ifconfig eth0 | grep RX; sleep 1; done" prints them (corpus case 048):
// one Iface a line, named by the command line before the run when it names one. The lines
// carry no time, so they are kept as an artifact and give no samples: a rate needs the
// interval, which the loop's sleep only suggests.
func (d *doc) tryIfconfigRows(i int) int {
	k := i
	for k < len(d.ls) && isIfconfigCounterLine(d.ls[k].Text) {
		k++
	}
	if k == i {
		return 0
	}
	label := d.label(i)
	name := ""
	if before, after, ok := strings.Cut(label, "ifconfig "); ok && ifconfigInCommand(before) {
		if f := firstField(after); f != "" && !strings.HasPrefix(f, "-") && !strings.ContainsAny(f, "|;") {
			name = f
		}
	}
	if k-i < 2 && name == "" {
		// One counter line is the interface's only under its own command ("$ ifconfig eth2
		// | grep 'RX.*drop'", corpus 471); alone it could be any tool's.
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	if ifconfigBody(d.ls[i:k]) {
		// Each kind of line once ("RX packets", "RX errors", "TX packets", "TX errors"):
		// one interface's block whose name line the paste left out, not a loop's readings.
		if name == "" {
			name = labelIface(label)
		}
		ifc := Iface{Name: name}
		for j := i; j < k; j++ {
			parseIfconfigLine(&ifc, d.ls[j].Text)
		}
		if name != "" {
			// The block's interface is named by its command or its label ("Container
			// Interface Statistics (eth0):"): its counters are that interface's reading.
			d.addIfaces(KindIfconfig, "ifconfig (block without its interface line)", i, k-i, []Iface{ifc})
			return k - i
		}
		if ifconfigNamelessReading(ifc) {
			// One interface's block, its name line left out of the paste (net-tools'
			// ife_print_long prints "RX packets:N errors:N dropped:N overruns:N frame:N"
			// under the name line): the counters are still one interface's since-boot
			// reading, the same whatever its name (fix40a, corpus 3433).
			ifc.Name = unnamedIface
			d.addIfaces(KindIfconfig, "ifconfig (block without its interface line; the interface not named)", i, k-i, []Iface{ifc})
			return k - i
		}
		d.addArtifact(KindIfconfig, first, last, ifaceArtifact{Tool: "ifconfig (block without its interface line)", Interfaces: []Iface{ifc}, Label: label})
		return k - i
	}
	ifs := make([]Iface, 0, k-i)
	for j := i; j < k; j++ {
		ifc := Iface{Name: name}
		parseIfconfigLine(&ifc, d.ls[j].Text)
		ifs = append(ifs, ifc)
	}
	d.addArtifact(KindIfconfig, first, last, ifaceArtifact{Tool: "ifconfig (counter lines only, one a line)", Interfaces: ifs, Label: label})
	return k - i
}

// unnamedIface names an interface whose ifconfig block the paste printed without its
// name line.
const unnamedIface = "(interface not named)"

// ifconfigNamelessReading: a nameless block is read as an interface's counters only when it
// holds the received packets, their drop count and the ring's overruns (net-tools'
// "RX packets:N errors:N dropped:N overruns:N frame:N", or 2.x's "RX errors N dropped N
// overruns N frame N" under "RX packets N"): what rx-dropped-software needs to tell the
// host's drops from the NIC's. Blocks without the drop column stay an artifact.
func ifconfigNamelessReading(ifc Iface) bool {
	_, p := ifc.Counters.Get("rx_packets")
	_, dr := ifc.Counters.Get("rx_dropped")
	_, ov := ifc.Counters.Get("rx_fifo_errors")
	return p && dr && ov
}

// groupedCount: digits, thousands separated or not ("135,158", "0").
func groupedCount(s string) bool { return reGroupedCount.MatchString(s) }

var (
	reIfconfigName = lazyre.New(`^[a-z][a-z0-9_.:@-]*$`)
	reGroupedCount = lazyre.New(`^(?:\d{1,3}(?:,\d{3})+|\d+)$`)
	// An interface's name in a block's label: Linux's usual names (eth0, enp3s0, ens192,
	// eno1, wlan0, wlp2s0, bond0, veth12ab, br0, vmbr0).
	reLabelIface = lazyre.New(`\b((?:eth|wlan|bond|br|vmbr|eno|ens|em|ib)\d+(?:\.\d+)?|(?:enp|wlp|enx)\w+|veth\w+)\b`)
)

// labelIface: the one interface a block's label names, "" when none or several.
func labelIface(label string) string {
	ms := reLabelIface.FindAllString(label, -1)
	if len(ms) == 0 {
		return ""
	}
	for _, m := range ms[1:] {
		if m != ms[0] {
			return ""
		}
	}
	return ms[0]
}

// ifconfigInCommand: what comes before "ifconfig " in a label is a command's start (nothing,
// a prompt, "do", a pipe or "sudo"), so the next word is the interface named to ifconfig;
// in prose ("ifconfig shows that ...") it is just a word.
func ifconfigInCommand(before string) bool {
	b := strings.TrimSpace(before)
	if b == "" {
		return true
	}
	switch b[len(b)-1] {
	case '$', '#', '>', ';', '|', '&', '`', '(':
		return true
	}
	return strings.HasSuffix(b, " do") || b == "do" || strings.HasSuffix(b, "sudo") || strings.HasSuffix(b, "watch")
}

// ifconfigBody reports whether counter lines are one block's: no kind of line ("RX
// packets", "TX errors" ...) comes twice.
func ifconfigBody(ls []Line) bool {
	seen := map[string]bool{}
	for _, l := range ls {
		fs := fields(l.Text)
		key, _, _ := strings.Cut(fs[1], ":")
		k := fs[0] + " " + key
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// isIfconfigCounterLine: "RX packets:994704 errors:0 dropped:570 overruns:5451 frame:0"
// (old layout) or "RX errors 0  dropped 0  overruns 0  frame 0" (new), indented or not.
func isIfconfigCounterLine(t string) bool {
	fs := fields(t)
	if len(fs) < 3 || fs[0] != "RX" && fs[0] != "TX" {
		return false
	}
	key, val, colon := strings.Cut(fs[1], ":")
	if colon && val == "" {
		// "RX dropped: 135,158 packets", a summary one counter a line
		return ifconfigWords[fs[0]][key] != "" && groupedCount(fs[2])
	}
	if colon {
		return ifconfigWords[fs[0]][key] != "" && isDigits(val)
	}
	return ifconfigWords[fs[0]][key] != "" && isDigits(fs[2])
}

// isIfconfigFlatContinuation: a block's continuation line that lost its indentation when the
// paste was flattened to column 0 (a web form or tracker that strips leading spaces, corpus
// 1101): "inet addr:...", "UP BROADCAST ...", "RX packets:N ...", "collisions:0 ..." in the
// old layout, "inet 10.0.0.2 netmask ...", "ether ...", "RX packets N bytes N", "TX errors
// ..." in the new. Read only right after a header line or another continuation, and only
// lines whose first word is one ifconfig prints there, so prose after the block ends it.
func isIfconfigFlatContinuation(t string) bool {
	if isIfconfigCounterLine(t) {
		return true
	}
	fs := fields(t)
	if len(fs) < 2 {
		return false
	}
	switch fs[0] {
	case "inet", "inet6":
		// "inet addr:10.0.0.2 Bcast:...", "inet6 addr: fe80::.../64 Scope:Link" (old);
		// "inet 10.0.0.2  netmask 255.255.255.0" , "inet6 fe80::1  prefixlen 64" (new).
		return strings.HasPrefix(fs[1], "addr:") || len(fs) >= 3 && (fs[2] == "netmask" || fs[2] == "prefixlen")
	case "ether", "loop":
		return strings.Contains(t, "txqueuelen")
	case "UP", "BROADCAST", "LOOPBACK", "POINTOPOINT", "RUNNING", "NOARP", "MULTICAST":
		return strings.Contains(t, "MTU:") || strings.Contains(t, "MTU ")
	}
	if strings.HasPrefix(fs[0], "collisions:") || strings.HasPrefix(fs[0], "Interrupt:") {
		return true
	}
	// "RX bytes:4146055317 (3.8 GiB)  TX bytes:353004632 (336.6 MiB)"
	return fs[0] == "RX" && strings.HasPrefix(fs[1], "bytes:")
}

// ifconfigRowAfterBlank: line t, after a blank line inside a double-spaced block whose header
// is at column hind, is one of the block's rows: indented under the header or at its column,
// and a line ifconfig prints inside a block (isIfconfigFlatContinuation, or its one-field
// rows "Interrupt:19", "collisions:0"), its words glued or not. Prose and the next header
// are not.
func ifconfigRowAfterBlank(t string, hind int) bool {
	if indentOf(t) < hind {
		return false
	}
	t = unglueIfconfigRow(t)
	if isIfconfigFlatContinuation(t) {
		return true
	}
	f := firstField(t)
	return strings.HasPrefix(f, "Interrupt:") || strings.HasPrefix(f, "collisions:")
}

// unglueIfconfigRow restores the space a paste lost between the first two words of an
// ifconfig row (net-tools 1.60 layout, lib/interface.c ife_print_long): "RXpackets:618374
// errors:0 ..." → "RX packets:618374 errors:0 ...", "inetaddr:10.0.0.2" → "inet addr:...",
// "UPBROADCAST RUNNING" → "UP BROADCAST RUNNING". Only the first word, and only the glued
// forms of the words ifconfig prints there; any other line is returned as it is.
func unglueIfconfigRow(t string) string {
	ind := indentOf(t)
	w := firstField(t)
	var head, rest string
	switch {
	case len(w) > 2 && (w[:2] == "RX" || w[:2] == "TX") && w[2] >= 'a' && w[2] <= 'z':
		key, _, _ := strings.Cut(w[2:], ":")
		if ifconfigWords[w[:2]][key] == "" {
			return t
		}
		head, rest = w[:2], w[2:]
	case strings.HasPrefix(w, "inetaddr:"):
		head, rest = "inet", w[4:]
	case strings.HasPrefix(w, "inet6addr:"):
		head, rest = "inet6", w[5:]
	case w == "UPBROADCAST" || w == "UPLOOPBACK" || w == "UPPOINTOPOINT":
		head, rest = "UP", w[2:]
	default:
		return t
	}
	return t[:ind] + head + " " + rest + t[ind+len(w):]
}

// indentOf: the count of spaces and tabs a line starts with.
func indentOf(t string) int { return len(t) - len(strings.TrimLeft(t, " \t")) }
