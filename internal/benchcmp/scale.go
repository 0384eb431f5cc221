package main

import (
	"bufio"
	"bytes"
	"fmt"
	"headroom/internal/lazyre"
	"headroom/kernel"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/txtar"
)

// benchScale measures how a sample's cost grows with the work: TCP sockets dumped through
// sock_diag (1 k and 10 k loopback connections), and CPUs and NUMA nodes, from copies of the
// committed capture scaled up (see scaledTree).
func benchScale(c *config) result {
	rows := []row{{what: "how a sample's cost grows (no peer unless named)"}}
	rows = append(rows, scaleSockets(c)...)
	rows = append(rows, scaleEthtool(c))
	rows = append(rows, scaleTopology(c)...)
	return result{rows: rows}
}

// calibrate picks a sample count for about target ns of CPU per run from a short run.
func calibrate(target float64, args ...string) (int, error) {
	r, err := runSampler(5, -1, args...)
	if err != nil {
		return 0, err
	}
	return min(max(int(target/max(r.ns, 1)), 10), 5000), nil
}

// scaleSockets holds n loopback TCP connections (this process dials, a child accepts, so a
// dump sees 2n established sockets plus the listener) and measures the sampler with and
// without the sock_diag dump. ss -tmia, which asks the kernel for the same attributes and
// prints them, is the peer.
func scaleSockets(c *config) []row {
	const what = "  sampler + sock_diag dump, per sample"
	var rows []row
	ss, ssErr := exec.LookPath("ss")
	var conns []net.Conn
	defer func() {
		for _, cn := range conns {
			cn.Close()
		}
	}()
	var acceptor *exec.Cmd
	var addr string
	for _, level := range []int{0, 1000, 10000} {
		label := "host as is"
		if level > 0 {
			label = fmt.Sprintf("+%d loopback connections", level)
		}
		fail := func(err error) []row {
			return append(rows, na(fmt.Sprintf("%s, %s", what, label), "", err.Error()))
		}
		if level > 0 {
			if acceptor == nil {
				var err error
				acceptor, addr, err = startAcceptor()
				if err != nil {
					return fail(err)
				}
				defer func() {
					acceptor.Process.Kill()
					acceptor.Wait()
				}()
			}
			for len(conns) < level {
				cn, err := net.Dial("tcp", addr)
				if err != nil {
					return fail(fmt.Errorf("after %d connections: %w", len(conns), err))
				}
				conns = append(conns, cn)
			}
		}
		runs := 3
		n, err := calibrate(4e8, "-sockets")
		if err != nil {
			return fail(err)
		}
		var with, without, ssNS dist
		var allocs float64
		var seen int
		for range runs {
			r, err := runSampler(n, -1, "-sockets")
			if err != nil {
				return fail(err)
			}
			with, allocs, seen = append(with, r.ns), r.allocs, r.sockets
			if r0, err := runSampler(n, -1); err == nil {
				without = append(without, r0.ns)
			}
			if ssErr == nil {
				cmd := exec.Command(ss, "-tmiaH")
				if _, err := runChild(cmd); err == nil {
					ssNS = append(ssNS, float64(rusageCPU(cmd.ProcessState)))
				}
			}
		}
		peer := "ss -tmia: n/a"
		ratio := ""
		if len(ssNS) > 0 {
			peer = "ss -tmia (whole process): " + fmtDist(ssNS)
			ratio = fmtRatio((with.median() - without.median()) / ssNS.median())
		}
		rows = append(rows, row{
			what:     fmt.Sprintf("%s, %s", what, label),
			headroom: fmtDist(with),
			peer:     peer,
			ratio:    ratio,
			note: fmt.Sprintf("%d TCP sockets dumped; files alone %s, so the dump and its summary add %s; %.0f heap allocs/sample; %d runs × %d samples; ratio: the dump's share against ss",
				seen, fmtDur(without.median()), fmtDur(with.median()-without.median()), allocs, runs, n),
		})
	}
	return rows
}

// startAcceptor starts this program's accept mode and returns the address it listens on.
func startAcceptor() (*exec.Cmd, string, error) {
	cmd, err := childCmd("accept")
	if err != nil {
		return nil, "", err
	}
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if _, err := cmd.StdinPipe(); err != nil {
		return nil, "", err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", fmt.Errorf("accept helper: %w", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "addr=")
	if !ok {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", fmt.Errorf("accept helper said %q", line)
	}
	return cmd, addr, nil
}

// scaleTopology measures the sampler on copies of the committed 6.18 capture scaled to more
// CPUs and NUMA nodes. The files are regular files, which cost next to nothing to read, so
// this shows the growth of headroom's own share (parsing); the kernel's cost of printing
// them on such a machine grows too and is not measured here.
func scaleTopology(c *config) []row {
	const what = "  sampler on a scaled capture, per sample"
	capture := filepath.Join(c.repo, "testdata", "captures", "vm-6.18.txtar")
	a, err := txtar.ParseFile(capture)
	if err != nil {
		return []row{na(what, "", err.Error())}
	}
	type level struct {
		cpus, nodes int
		dir         string
		bytes       int64
		n           int
		d           dist
		last        samplerRun
		err         error
	}
	levels := []*level{{cpus: 2, nodes: 1}, {cpus: 16, nodes: 1}, {cpus: 64, nodes: 2}, {cpus: 256, nodes: 4}}
	for _, l := range levels {
		l.dir = filepath.Join(c.tmp, fmt.Sprintf("scaled-%dcpu-%dnode", l.cpus, l.nodes))
		if l.bytes, l.err = scaledTree(l.dir, a, l.cpus, l.nodes); l.err == nil {
			l.n, l.err = calibrate(2e8, "-root", l.dir)
		}
	}
	// Rounds over the levels, so that a change of load touches every level alike.
	for range 5 {
		for _, l := range levels {
			if l.err != nil {
				continue
			}
			var r samplerRun
			if r, l.err = runSampler(l.n, -1, "-root", l.dir); l.err == nil {
				l.d, l.last = append(l.d, r.ns), r
			}
		}
	}
	var rows []row
	base := levels[0].d.median()
	for _, l := range levels {
		label := fmt.Sprintf("%s, %d CPUs, %d node(s)", what, l.cpus, l.nodes)
		if l.err != nil {
			rows = append(rows, na(label, "", l.err.Error()))
			continue
		}
		rows = append(rows, row{
			what:     label,
			headroom: fmtDist(l.d),
			ratio:    fmtRatio(l.d.median()/base) + " of 2 CPUs",
			note:     fmt.Sprintf("%d files, %.0f KB of text; %.1f heap allocs/sample; 5 rounds × %d samples", l.last.files, float64(l.bytes)/1e3, l.last.allocs, l.n),
		})
	}
	return rows
}

// scaleEthtool measures the ethtool queries (driver statistics and ring sizes of every NIC
// the sampler found: ETHTOOL_GSSET_INFO, GSTRINGS, GSTATS, GRINGPARAM per NIC) on top of the
// files, as the median of per-run differences.
func scaleEthtool(c *config) row {
	const what = "  sampler + ethtool on every NIC, per sample"
	n, err := calibrate(2e8, "-ethtool")
	if err != nil {
		return na(what, "", err.Error())
	}
	var with, diff dist
	var r, r0 samplerRun
	for range 5 {
		if r, err = runSampler(n, -1, "-ethtool"); err != nil {
			return na(what, "", err.Error())
		}
		if r0, err = runSampler(n, -1); err != nil {
			return na(what, "", err.Error())
		}
		with, diff = append(with, r.ns), append(diff, r.ns-r0.ns)
	}
	return row{
		what:     what,
		headroom: fmtDist(with),
		note: fmt.Sprintf("ethtool statistics from %s; ethtool adds %s per sample (median of 5 paired differences, range %s to %s) and %.0f heap allocations; %d samples per run",
			r.nicStats, fmtDur(diff.median()), fmtDur(diff.min()), fmtDur(diff.max()), r.allocs-r0.allocs, n),
	}
}

// reThreadStat names a thread's stat file in a capture.
var reThreadStat = lazyre.New(`^proc/[0-9]+/stat$`)

// scaledTree writes the capture under dir with its per-CPU and per-node parts repeated for
// cpus CPUs and nodes NUMA nodes, and returns the bytes of the files a sample reads:
//   - /proc/stat: one cpuN line per CPU;
//   - /proc/interrupts: one column per CPU;
//   - /proc/net/softnet_stat: one row per CPU, the CPU number in column 13;
//   - /proc/zoneinfo: one pageset per CPU in every zone, and every zone once per node;
//   - /proc/buddyinfo: every zone once per node;
//   - /proc/PID/stat: a ksoftirqd/N per CPU and a kswapdN and kcompactdN per node.
//
// Counter values are copied from the captured CPUs and node; only the layout grows.
func scaledTree(dir string, a *txtar.Archive, cpus, nodes int) (int64, error) {
	var threads []string
	var total int64
	for _, f := range a.Files {
		data := f.Data
		var err error
		switch {
		case reThreadStat.MatchString(f.Name):
			threads = append(threads, string(f.Data))
			continue
		case f.Name == "proc/stat":
			data = scaleStat(data, cpus)
		case f.Name == "proc/interrupts":
			data, err = scaleInterrupts(data, cpus)
		case f.Name == "proc/net/softnet_stat":
			data, err = scaleSoftnet(data, cpus)
		case f.Name == "proc/zoneinfo":
			data = scaleNodes(scalePagesets(data, cpus), nodes)
		case f.Name == "proc/buddyinfo":
			data = scaleNodes(data, nodes)
		}
		if err != nil {
			return 0, fmt.Errorf("scaling %s: %w", f.Name, err)
		}
		if strings.HasPrefix(f.Name, "proc/") && !strings.HasPrefix(f.Name, "proc/sys/") && f.Name != "proc/pagetypeinfo" {
			total += int64(len(data))
		}
		if err := writeFile(filepath.Join(dir, f.Name), data); err != nil {
			return 0, err
		}
	}
	var tmpl = map[string]string{}
	for _, t := range threads {
		for _, p := range kernel.KernelThreadPrefixes {
			if strings.Contains(t, "("+p) {
				tmpl[p] = t
			}
		}
	}
	if len(tmpl) != 3 {
		return 0, fmt.Errorf("the capture lacks a ksoftirqd, kswapd or kcompactd stat file")
	}
	pid := 1000
	add := func(kind, comm string) error {
		t := tmpl[kind]
		rest := t[strings.LastIndexByte(t, ')'):]
		line := fmt.Sprintf("%d (%s%s", pid, comm, rest)
		total += int64(len(line))
		pid++
		return writeFile(filepath.Join(dir, "proc", strconv.Itoa(pid-1), "stat"), []byte(line))
	}
	for i := range cpus {
		if err := add("ksoftirqd", fmt.Sprintf("ksoftirqd/%d", i)); err != nil {
			return 0, err
		}
	}
	for i := range nodes {
		if err := add("kswapd", fmt.Sprintf("kswapd%d", i)); err != nil {
			return 0, err
		}
		if err := add("kcompactd", fmt.Sprintf("kcompactd%d", i)); err != nil {
			return 0, err
		}
	}
	return total, nil
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

func lines(b []byte) []string { return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") }

func join(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// scaleStat repeats the captured cpuN lines for cpus CPUs.
func scaleStat(b []byte, cpus int) []byte {
	var out, per []string
	at := -1
	for _, l := range lines(b) {
		if strings.HasPrefix(l, "cpu") && !strings.HasPrefix(l, "cpu ") {
			if at < 0 {
				at = len(out)
			}
			_, rest, _ := strings.Cut(l, " ")
			per = append(per, rest)
			continue
		}
		out = append(out, l)
	}
	if at < 0 || len(per) == 0 {
		return b
	}
	var cpuLines []string
	for i := range cpus {
		cpuLines = append(cpuLines, fmt.Sprintf("cpu%d %s", i, per[i%len(per)]))
	}
	out = append(out[:at], append(cpuLines, out[at:]...)...)
	return join(out)
}

// scaleInterrupts gives /proc/interrupts one column per CPU, in the kernel's layout
// (kernel/irq/proc.c show_interrupts: "CPU%-8d" headers, "%10u " counts).
func scaleInterrupts(b []byte, cpus int) ([]byte, error) {
	ls := lines(b)
	if len(ls) == 0 {
		return b, nil
	}
	ncpu := len(strings.Fields(ls[0]))
	if ncpu == 0 {
		return nil, fmt.Errorf("no CPU header")
	}
	var out bytes.Buffer
	out.WriteString("           ")
	for i := range cpus {
		fmt.Fprintf(&out, "CPU%-8d", i)
	}
	out.WriteString("\n")
	for _, l := range ls[1:] {
		label, rest, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("line %q", l)
		}
		var counts []string
		r := rest
		for len(counts) < ncpu {
			t := strings.TrimLeft(r, " ")
			end := strings.IndexByte(t, ' ')
			if end < 0 {
				end = len(t)
			}
			if _, err := strconv.ParseUint(t[:end], 10, 64); err != nil || end == 0 {
				break
			}
			counts = append(counts, t[:end])
			r = t[end:]
		}
		if len(counts) < ncpu { // ERR:, MIS: have one system-wide count
			out.WriteString(l + "\n")
			continue
		}
		out.WriteString(label + ":")
		for i := range cpus {
			fmt.Fprintf(&out, " %10s", counts[i%ncpu])
		}
		out.WriteString(r + "\n")
	}
	return out.Bytes(), nil
}

// scaleSoftnet repeats the rows for cpus CPUs, with the CPU number in column 13 (added in
// 5.10, net/core/net-procfs.c softnet_seq_show) when the rows have it.
func scaleSoftnet(b []byte, cpus int) ([]byte, error) {
	ls := lines(b)
	var out []string
	for i := range cpus {
		f := strings.Fields(ls[i%len(ls)])
		if len(f) >= 13 {
			f[12] = fmt.Sprintf("%08x", i)
		}
		out = append(out, strings.Join(f, " "))
	}
	return join(out), nil
}

// scalePagesets repeats the per-CPU pageset of every zone for cpus CPUs (mm/vmstat.c
// zoneinfo_show_print: "    cpu: N" then its fields, "  vm stats threshold: N").
func scalePagesets(b []byte, cpus int) []byte {
	ls := lines(b)
	var out []string
	for i := 0; i < len(ls); i++ {
		if !strings.HasPrefix(ls[i], "    cpu: ") {
			out = append(out, ls[i])
			continue
		}
		// One CPU's block: from "    cpu: N" through "  vm stats threshold: N".
		var block []string
		j := i
		for ; j < len(ls); j++ {
			block = append(block, ls[j])
			if strings.HasPrefix(ls[j], "  vm stats threshold:") {
				break
			}
		}
		// Skip the other captured CPUs' blocks.
		for j+1 < len(ls) && strings.HasPrefix(ls[j+1], "    cpu: ") {
			for j++; j < len(ls) && !strings.HasPrefix(ls[j], "  vm stats threshold:"); j++ {
			}
		}
		for c := range cpus {
			out = append(out, fmt.Sprintf("    cpu: %d", c))
			out = append(out, block[1:]...)
		}
		i = j
	}
	return join(out)
}

// scaleNodes repeats node 0's text for nodes nodes.
func scaleNodes(b []byte, nodes int) []byte {
	var out bytes.Buffer
	for n := range nodes {
		out.Write(bytes.ReplaceAll(b, []byte("Node 0,"), []byte(fmt.Sprintf("Node %d,", n))))
	}
	return out.Bytes()
}
