package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// readers lists every ReadX of the /proc text files with the fixture member it reads.
var readers = []struct {
	name   string
	member string
	read   func(Root) (any, error)
	parse  func([]byte) (any, error)
}{
	{"meminfo", "proc/meminfo", func(r Root) (any, error) { return ReadMemInfo(r) }, func(b []byte) (any, error) { return ParseMemInfo(bytes.NewReader(b)) }},
	{"vmstat", "proc/vmstat", func(r Root) (any, error) { return ReadVMStat(r) }, func(b []byte) (any, error) { return ParseVMStat(bytes.NewReader(b)) }},
	{"buddyinfo", "proc/buddyinfo", func(r Root) (any, error) { return ReadBuddyInfo(r) }, func(b []byte) (any, error) { return ParseBuddyInfo(bytes.NewReader(b)) }},
	{"zoneinfo", "proc/zoneinfo", func(r Root) (any, error) { return ReadZoneInfo(r) }, func(b []byte) (any, error) { return ParseZoneInfo(bytes.NewReader(b)) }},
	{"pagetypeinfo", "proc/pagetypeinfo", func(r Root) (any, error) { return ReadPageTypeInfo(r) }, func(b []byte) (any, error) { return ParsePageTypeInfo(bytes.NewReader(b)) }},
	{"net/dev", "proc/net/dev", func(r Root) (any, error) { return ReadNetDev(r) }, func(b []byte) (any, error) { return ParseNetDev(bytes.NewReader(b)) }},
	{"net/protocols", "proc/net/protocols", func(r Root) (any, error) { return ReadProtocols(r) }, func(b []byte) (any, error) { return ParseProtocols(bytes.NewReader(b)) }},
	{"net/softnet_stat", "proc/net/softnet_stat", func(r Root) (any, error) { return ReadSoftnet(r) }, func(b []byte) (any, error) { return ParseSoftnet(bytes.NewReader(b)) }},
	{"pressure/memory", "proc/pressure/memory", func(r Root) (any, error) { return ReadPSI(r, "memory") }, func(b []byte) (any, error) { return ParsePSI("memory", bytes.NewReader(b)) }},
	{"stat", "proc/stat", func(r Root) (any, error) { return ReadStat(r) }, func(b []byte) (any, error) { return ParseStat(bytes.NewReader(b)) }},
	{"interrupts", "proc/interrupts", func(r Root) (any, error) { return ReadInterrupts(r) }, func(b []byte) (any, error) { return ParseInterrupts(bytes.NewReader(b)) }},
	{"loadavg", "proc/loadavg", func(r Root) (any, error) { return ReadLoadAvg(r) }, func(b []byte) (any, error) { return ParseLoadAvg(bytes.NewReader(b)) }},
}

// TestReadersFixture reads each file through a Root over the 6.18 capture: ReadX must give
// what ParseX gives for the same bytes.
func TestReadersFixture(t *testing.T) {
	root := TxtarRoot(loadArchive(t, hostFixture), hostFixture)
	for _, r := range readers {
		got, err := r.read(root)
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		want, err := r.parse(member(t, hostFixture, r.member))
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, got, want)
	}
	// A missing file is "not supported", named by its path.
	empty := FSRoot(fstestEmpty{}, "empty")
	for _, r := range readers {
		_, err := r.read(empty)
		if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "/proc/") {
			t.Errorf("%s on an empty root: %v", r.name, err)
		}
	}
	// A parse error names the file and the line.
	bad := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "proc/vmstat", Data: []byte("a 1\nb x\n")}}}, "bad")
	_, err := ReadVMStat(bad)
	wantLineErrorIn(t, err, "/proc/vmstat: line 2: ")
}

type fstestEmpty struct{}

func (fstestEmpty) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// TestReadersLive reads this host's files. Every reader must succeed or say "not
// supported"; pagetypeinfo needs root since 5.4.
func TestReadersLive(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc here")
	}
	host := HostRoot()
	for _, r := range readers {
		v, err := r.read(host)
		if errors.Is(err, ErrNotSupported) || (r.name == "pagetypeinfo" && errors.Is(err, fs.ErrPermission)) {
			t.Logf("%s: %v", r.name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		if _, err := json.Marshal(v); err != nil {
			t.Errorf("%s: %v", r.name, err)
		}
	}
	for name, read := range map[string]func(Root) (Groups, error){"netstat": ReadNetStat, "sockstat": ReadSockStat} {
		g, err := read(host)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if g.Group("TCP") == nil && g.Group("Tcp") == nil {
			t.Errorf("%s: no TCP group in %d groups", name, len(g))
		}
	}
	if _, err := ReadAllPSI(host); err != nil && !errors.Is(err, ErrNotSupported) {
		t.Errorf("psi: %v", err)
	}
	// The same network files through /proc/thread-self/net (4.1+), as a thread in another
	// namespace reads them.
	if _, err := os.Stat("/proc/thread-self/net/dev"); err == nil {
		devs, err := ReadNetDev(host.InThreadNetns())
		if err != nil || len(devs) == 0 {
			t.Errorf("thread-self net/dev: %v %+v", err, devs)
		}
	}
}

// TestSameLayoutFastPath: on the kernel the sampler runs on (the fixtures of this 6.18 VM,
// and this host itself), a re-parse of the same file, and of the file with other values,
// takes the fast path and gives what a fresh parse gives. Without this, a fast path that
// silently stopped matching would only show as a slower benchmark.
func TestSameLayoutFastPath(t *testing.T) {
	type text struct {
		where string
		rel   string
		data  []byte
	}
	var texts []text
	for _, archive := range []string{hostFixture, captureFixture} {
		if _, err := os.Stat(archive); err != nil {
			t.Logf("%s: %v", archive, err)
			continue
		}
		for _, f := range loadArchive(t, archive).Files {
			texts = append(texts, text{filepath.Base(archive), procRel(f.Name), f.Data})
		}
	}
	if _, err := os.Stat("/proc/zoneinfo"); err == nil {
		for _, rel := range []string{"proc/meminfo", "proc/vmstat", "proc/buddyinfo", "proc/zoneinfo",
			"proc/net/dev", "proc/net/netstat", "proc/net/snmp", "proc/net/snmp6", "proc/net/sockstat",
			"proc/net/sockstat6", "proc/net/protocols", "proc/net/softnet_stat", "proc/stat",
			"proc/interrupts", "proc/pressure/memory", "proc/self/stat"} {
			b, err := os.ReadFile("/" + rel)
			if err != nil {
				t.Logf("live %s: %v", rel, err)
				continue
			}
			if rel == "proc/self/stat" {
				rel = "proc/1/stat" // for the matcher
			}
			texts = append(texts, text{"live", rel, b})
		}
	}
	seen := map[string]bool{}
	for _, x := range texts {
		for _, p := range sameLayoutParsers {
			if !p.match(x.rel) {
				continue
			}
			seen[p.name] = true
			same, perturbed := p.taken(t, x.data)
			hasFast := p.name != "pagetypeinfo" && p.name != "loadavg"
			if same != hasFast {
				t.Errorf("%s %s: fast path taken = %v on the same text", x.where, x.rel, same)
			}
			// perturbValues cannot tell every number of a live host's text from a name (an
			// ARM interrupt description has "29 Level"), so the other values are checked on
			// the fixtures, whose text is known.
			if x.where != "live" && perturbed != hasFast {
				t.Errorf("%s %s: fast path taken = %v with other values", x.where, x.rel, perturbed)
			}
		}
	}
	for _, p := range sameLayoutParsers {
		if !seen[p.name] {
			t.Errorf("no text for %s", p.name)
		}
	}
}

// TestSameLayoutVariants re-parses every fixture member after each of its lines was dropped,
// doubled or renamed, in both directions (a counter, zone, row or CPU that disappears, and
// one that appears), and with other values: the result into the reused value must be what a
// fresh parse gives, so nothing of the earlier layout survives (absent is not zero, and not
// stale either).
func TestSameLayoutVariants(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		for _, f := range loadArchive(t, path).Files {
			rel := procRel(f.Name)
			for _, p := range sameLayoutParsers {
				if !p.match(rel) {
					continue
				}
				data := f.Data
				p.check(t, data, perturbValues(data))
				p.check(t, perturbValues(data), data)
				lines := bytes.SplitAfter(data, []byte("\n"))
				for i := range lines {
					for _, v := range lineVariants(lines, i) {
						p.check(t, data, v)
						p.check(t, v, data)
						p.check(t, perturbValues(data), v)
					}
				}
			}
		}
	}
}

// lineVariants returns the text of lines with line i dropped, doubled, and renamed (its first
// letter changed), and the text cut after line i, with and without its newline.
func lineVariants(lines [][]byte, i int) [][]byte {
	cut := bytes.Join(lines[:i+1], nil)
	join := func(mid ...[]byte) []byte {
		var b []byte
		for _, l := range lines[:i] {
			b = append(b, l...)
		}
		for _, l := range mid {
			b = append(b, l...)
		}
		for _, l := range lines[i+1:] {
			b = append(b, l...)
		}
		return b
	}
	renamed := bytes.Clone(lines[i])
	if j := bytes.IndexFunc(renamed, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }); j >= 0 {
		renamed[j] ^= 0x20 // the other case: another name
	}
	return [][]byte{join(), join(lines[i], lines[i]), join(renamed), cut, bytes.TrimSuffix(cut, []byte("\n"))}
}

// TestSameLayoutAbsentNotStale: explicit layout changes between two parses into the same
// value, for each file with a fast path: a name that disappears is absent afterwards (not
// its old value), a name that appears is present, and both agree with a fresh parse.
func TestSameLayoutAbsentNotStale(t *testing.T) {
	t.Run("vmstat", func(t *testing.T) {
		var c Counters
		for _, step := range []struct{ text, gone, added string }{
			{"a 1\nb 2\nc 3\n", "", ""},
			{"a 1\nc 3\n", "b", ""},
			{"a 1\nc 3\nd 4\n", "", "d"},
			{"a 5\nc 6\nd 7\n", "", ""},
		} {
			if err := ParseVMStatInto(&c, []byte(step.text)); err != nil {
				t.Fatal(err)
			}
			fresh, _ := ParseVMStat(strings.NewReader(step.text))
			sameJSON(t, fresh, c)
			if step.gone != "" && c.Has(step.gone) {
				t.Errorf("%q kept after %q", step.gone, step.text)
			}
			if v, ok := c.Get(step.added); step.added != "" && (!ok || v != 4) {
				t.Errorf("%q = %d, %v after %q", step.added, v, ok, step.text)
			}
		}
	})
	t.Run("netstat", func(t *testing.T) {
		var g Groups
		for _, step := range []struct{ text, group, gone string }{
			{"TcpExt: A B C\nTcpExt: 1 2 3\nIpExt: X\nIpExt: 9\n", "", ""},
			{"TcpExt: A C\nTcpExt: 1 3\nIpExt: X\nIpExt: 9\n", "TcpExt", "B"},
			{"TcpExt: A C\nTcpExt: 1 3\n", "IpExt", ""},
		} {
			if err := ParseNetStatInto(&g, []byte(step.text)); err != nil {
				t.Fatal(err)
			}
			fresh, _ := ParseNetStat(strings.NewReader(step.text))
			sameJSON(t, fresh, g)
			if _, ok := g.Get(step.group, step.gone); step.group != "" && ok {
				t.Errorf("%s %s kept after %q", step.group, step.gone, step.text)
			}
			if step.gone == "" && step.group != "" && g.Group(step.group) != nil {
				t.Errorf("group %s kept after %q", step.group, step.text)
			}
		}
	})
	t.Run("zoneinfo", func(t *testing.T) {
		host := member(t, hostFixture, "proc/zoneinfo")
		var z []Zone
		if err := ParseZoneInfoInto(&z, host); err != nil {
			t.Fatal(err)
		}
		// The Device zone goes (memory hot-unplug), and Normal loses its "promo" line.
		cut := host[:bytes.Index(host, []byte("Node 0, zone   Device"))]
		cut = bytes.Replace(cut, []byte("        promo    "), []byte("        xpromo   "), 1)
		if err := ParseZoneInfoInto(&z, cut); err != nil {
			t.Fatal(err)
		}
		fresh, _ := ParseZoneInfo(bytes.NewReader(cut))
		sameJSON(t, fresh, z)
		if len(z) != 4 || z[0].Fields.Has("promo") || !z[0].Fields.Has("xpromo") {
			t.Errorf("zones %d, DMA fields %v", len(z), z[0].Fields.Names())
		}
	})
	t.Run("protocols", func(t *testing.T) {
		const hdr = "protocol  size sockets  memory press maxhdr  slab module     cl co\n"
		var ps []Protocol
		for _, step := range []struct {
			text string
			want string
		}{
			{hdr + "SCTP      1000      1       5   no     192   yes  sctp        y  y\nTCP       2304      7     998   no     192   yes  kernel      y  y\n", "SCTP TCP"},
			{hdr + "TCP       2304      8     999   yes    192   yes  kernel      y  y\n", "TCP"}, // sctp unloaded
			{hdr + "TCP       2304      8     999   yes    192   yes  kernel      y  y\nDCCP      1000      0      -1   NI       0   yes  dccp        n  n\n", "TCP DCCP"},
		} {
			if err := ParseProtocolsInto(&ps, []byte(step.text)); err != nil {
				t.Fatal(err)
			}
			fresh, _ := ParseProtocols(strings.NewReader(step.text))
			sameJSON(t, fresh, ps)
			var names []string
			for _, p := range ps {
				names = append(names, p.Name)
			}
			if strings.Join(names, " ") != step.want {
				t.Errorf("rows %v, want %s", names, step.want)
			}
		}
	})
	t.Run("pagetypeinfo", func(t *testing.T) {
		host := member(t, hostFixture, "proc/pagetypeinfo")
		var p PageTypeInfo
		if err := ParsePageTypeInfoInto(&p, host); err != nil {
			t.Fatal(err)
		}
		// A kernel without the Isolate type: one column fewer in the block table.
		lines := strings.Split(string(host), "\n")
		for i, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && (strings.HasPrefix(l, "Number of blocks type") || strings.HasPrefix(l, "Node") && !strings.Contains(l, "type")) {
				lines[i] = strings.Join(f[:len(f)-1], " ")
			}
		}
		less := []byte(strings.Join(lines, "\n"))
		if err := ParsePageTypeInfoInto(&p, less); err != nil {
			t.Fatal(err)
		}
		fresh, err := ParsePageTypeInfo(bytes.NewReader(less))
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fresh, p)
		countersOK(t, p)
		if len(p.Blocks) == 0 || p.Blocks[0].Counts.Has("Isolate") {
			t.Errorf("blocks %+v", p.Blocks)
		}
		if err := ParsePageTypeInfoInto(&p, host); err != nil {
			t.Fatal(err)
		}
		if !p.Blocks[0].Counts.Has("Isolate") {
			t.Errorf("Isolate not back: %v", p.Blocks[0].Counts.Names())
		}
	})
	t.Run("interrupts", func(t *testing.T) {
		host := member(t, hostFixture, "proc/interrupts")
		var in Interrupts
		if err := ParseInterruptsInto(&in, host); err != nil {
			t.Fatal(err)
		}
		// An IRQ freed (a device unbound): its line goes.
		lines := bytes.SplitAfter(host, []byte("\n"))
		fewer := bytes.Join(append(lines[:2:2], lines[3:]...), nil)
		if err := ParseInterruptsInto(&in, fewer); err != nil {
			t.Fatal(err)
		}
		fresh, _ := ParseInterrupts(bytes.NewReader(fewer))
		sameJSON(t, fresh, in)
		if len(in.Lines) != len(fresh.Lines) {
			t.Errorf("%d lines, want %d", len(in.Lines), len(fresh.Lines))
		}
	})
}

// TestSameLayoutErrorLine: a file that keeps its layout but has a bad value still gets the
// general parser's error, with its line, when it is parsed into a value that holds the good
// text (the fast path gives up and the general parser reports).
func TestSameLayoutErrorLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		good  string
		bad   string
		line  int
		parse func(data []byte, reuse bool) error
	}{
		{"vmstat", "a 1\nb 2\nc 3\n", "a 1\nb 2x\nc 3\n", 2, nil},
		{"netstat", "Ip: A B\nIp: 1 2\nTcp: C\nTcp: 3\n", "Ip: A B\nIp: 1 2\nTcp: C\nTcp: -\n", 4, nil},
		{"zoneinfo", "Node 0, zone DMA\n  pages free 5\n  min 1\n", "Node 0, zone DMA\n  pages free 5\n  min x\n", 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			switch c.name {
			case "vmstat":
				var v Counters
				if err := ParseVMStatInto(&v, []byte(c.good)); err != nil {
					t.Fatal(err)
				}
				err = ParseVMStatInto(&v, []byte(c.bad))
			case "netstat":
				var g Groups
				if err := ParseNetStatInto(&g, []byte(c.good)); err != nil {
					t.Fatal(err)
				}
				err = ParseNetStatInto(&g, []byte(c.bad))
			case "zoneinfo":
				var z []Zone
				if err := ParseZoneInfoInto(&z, []byte(c.good)); err != nil {
					t.Fatal(err)
				}
				err = ParseZoneInfoInto(&z, []byte(c.bad))
			}
			wantLineError(t, err, c.line)
		})
	}
}

// FuzzReparse is the fast paths' target: any text parsed into a value that held any other
// text (prev) must give what a fresh parse gives, or the same error. which picks the parser.
func FuzzReparse(f *testing.F) {
	for i, p := range sameLayoutParsers {
		for _, data := range fixtureMembers(f, p.match) {
			f.Add(uint8(i), data, perturbValues(data))
			f.Add(uint8(i), perturbValues(data), data)
		}
	}
	for _, e := range sameLayoutEdges {
		for i, p := range sameLayoutParsers {
			if p.name == e.parser {
				f.Add(uint8(i), []byte(e.prev), []byte(e.data))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, prev, data []byte) {
		sameLayoutParsers[int(which)%len(sameLayoutParsers)].check(t, prev, data)
	})
}

// sameLayoutEdges are pairs of texts where the second has the layout the first left in the
// destination, byte for byte, but the general parser reads the second otherwise (a name it
// treats as a keyword, a name with a separator in it, a name another parser made): the
// fast paths must leave these to the general parser. The name is the parser's.
var sameLayoutEdges = []struct{ parser, prev, data string }{
	{"zoneinfo", "Node 0, zone Z\n  pages: 5\n", "Node 0, zone Z\n  pages 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  Node: 5\n", "Node 0, zone Z\n  Node 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  protection 5\n", "Node 0, zone Z\n  protection: 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  cpu: 5\n", "Node 0, zone Z\n  pagesets\n  cpu: 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  pagesets\n  x 1\n  cpu: 5\n", "Node 0, zone Z\n  pagesets\n  x 2\n  cpu: 6\n"},
	{"zoneinfo", "Node 0, zone Z\n  a(b 5\n", "Node 0, zone Z\n  a(b: 5\n"},
	{"zoneinfo", "Node 0, zone Z,,\n  a 5\n", "Node 0, zone Z,\n  a 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  per-node 5\n", "Node 0, zone Z\n  per-node stats\n"},
	{"zoneinfo", "Node 0, zone Z\n  pages free 5\n", "Node 0, zone Z\n  free 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  free 5\n", "Node 0, zone Z\n  pages free 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  a: 5\n", "Node 0, zone Z\n  pages a: 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  a 5\n", "  Node 0, zone Z\n  a 5\n"},
	{"zoneinfo", "Node 0, zone Z\n  a 5\n", "Node 0, zone Z\npagesets\ncpu:"}, // found by FuzzParseZoneInfo
	{"vmstat", "Mem Total: 5\n", "Mem Total 5\n"},
	{"meminfo", "Mem Total: 5\n", "Mem Total: 6\n"},
	{"meminfo", "a: 1 kB\n", "a: 1 kB \n"},
	{"meminfo", "a: 1 kB\n", "a: 1 MB\n"},
	{"net/netstat", "A: x\nA: 1\n", "A: x\tA: 1\n"},
	{"net/netstat", "A: x:y\nA: 1\n", "A: x:y\nA: 2\n"},
	{"net/netstat", "A: x\nA: 1\n", "A: x\nB: 1\n"},
	{"net/snmp6", "Ip6A 1\nIcmp6B 2\n", "Ip6A 1\nIcmp6B 2\nIp6C 3\n"},
	{"net/snmp6", "a66b 1\n", "a66b 2\n"},
	{"net/sockstat", "TCP: a:b 1\n", "TCP: a:b 2\n"},
	{"net/protocols", "protocol 1 2 3 no 5 yes kernel\n", "protocol size 2 3 no 5 yes kernel\n"},
	{"net/protocols", "X 1 2 -1 NI 0 no kernel y n\n", "X 1 2 -1 NI 0 no kernel yn\n"},
	{"net/dev", " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n  a|b: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
		"Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n  a|b: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"},
	{"interrupts", "CPU0 CPU1\n ERR: 1 29 Level\n", "CPU0 CPU1\n ERR: 1 29 Level\n"},
	{"interrupts", "CPU0\n 0: 1 x\n", "CPU0\n 0: 1 x\ny\n"},
	{"stat", "cpu 1 2 3 4\nintr 5\n", "cpu 1 2 3 4\nintr 5 x y\n"},
	{"stat", "cpu 1 2 3 4\ncpu0 1 2 3 4\n", "cpu 1 2 3 4\n"},
	{"PID/stat", "1 (a) b) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "1 (a) b) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 )\n"},
	{"pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"},
	{"net/softnet_stat", "0 0 0 0 0 0 0 0 0 0 0 0 1\n", "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 ffffffff\n"},
	{"buddyinfo", "Node 0, zone Z 1 2\n", "Node 0, zone Z 1 -0\n"},
	{"buddyinfo", "Node 0, zone Z 1 2\n", "Node 0, zone Z 1 -5\n"},
	{"stat", "cpu 1 2 3 4\n", "cpu 1 2 3 -4\n"},
	{"stat", "cpu 1 2 3 4\n", "cpu 1 2 3 -0\n"},
	{"net/protocols", "X 1 2 -1 NI 0 no kernel y n\n", "X 1 2 -2 NI 0 no kernel y n\n"},
	{"net/protocols", "X 1 2 -1 NI 0 no kernel y n\n", "X -1 2 -1 NI 0 no kernel y n\n"},
	{"net/protocols", "X 1 2 -1 NI 0 no kernel y n\n", "X 1 2 -1 NI -3 no kernel y n\n"},
	{"net/dev", "a: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", "a: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -16\n"},
	{"interrupts", "CPU0 CPU1\n 0: 1 2 x\n", "CPU0 CPU1\n 0: 1 -2 x\n"},
	{"pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", "some avg10=0.00 avg60=0.00 avg300=0.00 total=-1\n"},
}

func TestSameLayoutEdges(t *testing.T) {
	for _, e := range sameLayoutEdges {
		found := false
		for _, p := range sameLayoutParsers {
			if p.name == e.parser {
				found = true
				p.check(t, []byte(e.prev), []byte(e.data))
				p.check(t, []byte(e.data), []byte(e.prev))
			}
		}
		if !found {
			t.Fatalf("no parser %s", e.parser)
		}
	}
	// A destination another parser of the same type filled: its names may hold what this
	// parser would split at.
	cross := []struct {
		name        string
		parse, into func(*Counters, []byte) error
		prev, data  string
	}{
		{"vmstat into meminfo", ParseVMStatInto, ParseMemInfoInto, "a:b 5\n", "a:b: 5\n"},
		{"meminfo into vmstat", ParseMemInfoInto, ParseVMStatInto, "a b: 5\n", "a b 5\n"},
	}
	for _, c := range cross {
		var fresh, reused Counters
		errF := c.into(&fresh, []byte(c.data))
		if err := c.parse(&reused, []byte(c.prev)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		errR := c.into(&reused, []byte(c.data))
		if fmt.Sprint(errF) != fmt.Sprint(errR) || errF == nil && !bytes.Equal(mustJSON(t, fresh), mustJSON(t, reused)) {
			t.Errorf("%s: fresh %v %s, reused %v %s", c.name, errF, mustJSON(t, fresh), errR, mustJSON(t, reused))
		}
	}
	groupCross := []struct {
		name        string
		parse, into func(*Groups, []byte) error
		prev, data  string
	}{
		{"netstat into snmp6", ParseNetStatInto, ParseSNMP6Into, "Ip6: A\nIp6: 1\n", "Ip6A 2\n"},
		{"snmp6 into netstat", ParseSNMP6Into, ParseNetStatInto, "Ip6A 2\n", "Ip6: A\nIp6: 1\n"},
		{"sockstat into netstat", ParseSockStatInto, ParseNetStatInto, "TCP: a 1\n", "TCP: a\nTCP: 1\n"},
		{"netstat into sockstat", ParseNetStatInto, ParseSockStatInto, "TCP: a\nTCP: 1\n", "TCP: a 1\n"},
		// netstat allows a group twice and a name with two 6s; snmp6 does not.
		{"netstat into snmp6, a group twice", ParseNetStatInto, ParseSNMP6Into,
			"Ip6: A\nIp6: 1\nIcmp6: B\nIcmp6: 2\nIp6: C\nIp6: 3\n", "Ip6A 1\nIcmp6B 2\nIp6C 3\n"},
		{"netstat into snmp6, two 6s", ParseNetStatInto, ParseSNMP6Into, "a66: b\na66: 1\n", "a66b 1\n"},
	}
	for _, c := range groupCross {
		var fresh, reused Groups
		errF := c.into(&fresh, []byte(c.data))
		if err := c.parse(&reused, []byte(c.prev)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		errR := c.into(&reused, []byte(c.data))
		if fmt.Sprint(errF) != fmt.Sprint(errR) || errF == nil && !bytes.Equal(mustJSON(t, fresh), mustJSON(t, reused)) {
			t.Errorf("%s: fresh %v %s, reused %v %s", c.name, errF, mustJSON(t, fresh), errR, mustJSON(t, reused))
		}
	}
}

// TestSameLayoutHandMade: destinations no parser makes (a caller's own values, a decoded
// JSON sample) must not make a fast path take text the general parser reads otherwise.
func TestSameLayoutHandMade(t *testing.T) {
	counters := func(kv ...string) Counters {
		var c Counters
		for _, k := range kv {
			c.Set(k, 1)
		}
		return c
	}
	check := func(name string, fresh, reused any, errF, errR error) {
		t.Helper()
		if fmt.Sprint(errF) != fmt.Sprint(errR) || errF == nil && !bytes.Equal(mustJSON(t, fresh), mustJSON(t, reused)) {
			t.Errorf("%s: fresh %v %s, reused %v %s", name, errF, mustJSON(t, fresh), errR, mustJSON(t, reused))
		}
	}
	for _, c := range []struct {
		name  string
		names []string
		into  func(*Counters, []byte) error
		data  string
	}{
		{"vmstat, a name with a blank", []string{"a b"}, ParseVMStatInto, "a b 1\n"},
		{"vmstat, a name with a tab", []string{"a\tb"}, ParseVMStatInto, "a\tb 1\n"},
		{"vmstat, a name with a newline", []string{"a\nb"}, ParseVMStatInto, "a\nb 1\n"},
		{"vmstat, an empty name", []string{""}, ParseVMStatInto, " 1\n"},
		{"meminfo, a name with a colon", []string{"a:b"}, ParseMemInfoInto, "a:b: 1\n"},
		{"meminfo, a name with a trailing blank", []string{"a "}, ParseMemInfoInto, "a : 1\n"},
	} {
		var fresh Counters
		reused := counters(c.names...)
		errF := c.into(&fresh, []byte(c.data))
		errR := c.into(&reused, []byte(c.data))
		check(c.name, fresh, reused, errF, errR)
	}
	zoneCases := []struct {
		name string
		zone Zone
		data string
	}{
		{"zone name with a comma", Zone{Name: "Z,", Fields: counters("a")}, "Node 0, zone Z,\n  a 1\n"},
		{"zone node beyond int32", Zone{Node: 1 << 32, Name: "Z", Fields: counters("a")}, "Node 4294967296, zone Z\n  a 1\n"},
		{"empty zone name", Zone{Name: "", Fields: counters("a")}, "Node 0, zone \n  a 1\n"},
	}
	for _, c := range zoneCases {
		var fresh []Zone
		reused := []Zone{c.zone}
		errF := ParseZoneInfoInto(&fresh, []byte(c.data))
		errR := ParseZoneInfoInto(&reused, []byte(c.data))
		check(c.name, fresh, reused, errF, errR)
	}
	{
		// Fewer counts than CPUs, and a description that starts with a count.
		const data = "CPU0 CPU1\nERR: 1 29 Level\n"
		var fresh Interrupts
		reused := Interrupts{CPUs: []string{"CPU0", "CPU1"}, Lines: []Interrupt{{Name: "ERR", PerCPU: []int64{1}, Desc: "29 Level"}}}
		errF := ParseInterruptsInto(&fresh, []byte(data))
		errR := ParseInterruptsInto(&reused, []byte(data))
		check("interrupts, a description with a leading count", fresh, reused, errF, errR)
		for _, desc := range []string{"\tx", "x\t", "x\r"} {
			data := "CPU0\n0: 1 " + desc + "\n"
			reused = Interrupts{CPUs: []string{"CPU0"}, Lines: []Interrupt{{Name: "0", PerCPU: []int64{1}, Desc: desc}}}
			errF = ParseInterruptsInto(&fresh, []byte(data))
			errR = ParseInterruptsInto(&reused, []byte(data))
			check(fmt.Sprintf("interrupts, description %q", desc), fresh, reused, errF, errR)
		}
	}
	{
		hdr := netDevHeaderText
		const cols = " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
		var fresh []NetDev
		reused := []NetDev{{Name: "a|b", Counters: counters(netDevColumns[:]...)}}
		errF := ParseNetDevInto(&fresh, []byte(hdr+"a|b:"+cols))
		errR := ParseNetDevInto(&reused, []byte(hdr+"a|b:"+cols))
		check("net/dev, an interface name with a bar", fresh, reused, errF, errR)
	}
	for _, scalar := range []string{"swap", "page", "softirq", "disk_io:", "cpux"} {
		data := "cpu 1 2 3 4\n" + scalar + " 5\n"
		var fresh Stat
		reused := Stat{Total: CPUTimes{CPU: "cpu", Fields: []int64{1, 2, 3, 4}}, Scalars: counters(scalar)}
		errF := ParseStatInto(&fresh, []byte(data))
		errR := ParseStatInto(&reused, []byte(data))
		check("stat, a scalar named "+scalar, fresh, reused, errF, errR)
	}
	{
		var fresh Groups
		reused := Groups{{Name: "TCP"}}
		errF := ParseSockStatInto(&fresh, []byte("TCP:\n"))
		errR := ParseSockStatInto(&reused, []byte("TCP:\n"))
		check("sockstat, a group without counters", fresh, reused, errF, errR)
	}
	{
		var fresh Interrupts
		reused := Interrupts{CPUs: []string{"CPU0"}, Lines: []Interrupt{{Name: "0", PerCPU: []int64{1, 2}}}}
		errF := ParseInterruptsInto(&fresh, []byte("CPU0\n0: 1 2\n"))
		errR := ParseInterruptsInto(&reused, []byte("CPU0\n0: 1 2\n"))
		check("interrupts, more counts than CPUs", fresh, reused, errF, errR)
	}
	{
		var fresh []Protocol
		reused := []Protocol{{Name: "X", Module: "a b"}}
		const data = "X 1 2 -1 NI 0 no a b y\n"
		errF := ParseProtocolsInto(&fresh, []byte(data))
		errR := ParseProtocolsInto(&reused, []byte(data))
		check("protocols, a module with a blank", fresh, reused, errF, errR)
	}
	{
		var fresh TaskStat
		reused := TaskStat{Comm: "a\nb"}
		const data = "1 (a\nb) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		errF := ParseTaskStatInto(&fresh, []byte(data))
		errR := ParseTaskStatInto(&reused, []byte(data))
		check("PID/stat, a comm with a newline", fresh, reused, errF, errR)
	}
}
