package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"headroom/plan"
)

func init() {
	register("plan", "compute buffer, memory and queue settings for a link from its BDP, budgeted against RAM", runPlan)
}

// planSysctlKeys are the sysctls plan reads as "current" values.
var planSysctlKeys = []string{
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem", "net.ipv4.tcp_adv_win_scale",
	"net.core.rmem_max", "net.core.wmem_max", "vm.min_free_kbytes", "vm.watermark_scale_factor",
	"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.netdev_budget_usecs",
	"net.ipv4.tcp_notsent_lowat", "net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control", "net.core.default_qdisc",
}

// planHost is where plan reads this host's facts. The few reads are local to this file (not
// package kernel) on purpose: they are small, and plan must not wait on the kernel readers.
// Tests point the roots at a fixture tree.
type planHost struct {
	procRoot string                 // "/proc"
	sysRoot  string                 // "/sys"
	machine  func() (string, error) // uname -m
	pageSize func() int
	ring     func(dev string) (cur, max int64, err error) // ETHTOOL_GRINGPARAM
}

var planHostFacts = planHost{procRoot: "/proc", sysRoot: "/sys", machine: unameMachine, pageSize: os.Getpagesize, ring: ethtoolRing}

func runPlan(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, `usage: headroom plan --bandwidth RATE --rtt DURATION [flags]

Computes TCP buffer limits from the bandwidth-delay product, budgets them against memory
(lowmem on a 32-bit HighMem kernel), and sizes the free-page reserve and packet queues.
Host facts not given by flags (memory, kernel, arch, page size) are read from this host;
current sysctl values and NICs are read only when the plan describes this host (none of
--memory, --lowmem, --kernel, --arch given). Exit 0: the plan fills the link within the
budget; 1: the budget forced lower buffers; 3: bad input.

Rates: 1Gbit, 400mbit, 100Mbps (bits), 125MB/s (bytes). Sizes: 8GiB, 512MiB, 512MB (10^6).`)
		fs.PrintDefaults()
	}
	bandwidth := fs.String("bandwidth", "", "rate to fill, e.g. 1Gbit (required)")
	rtt := fs.Duration("rtt", 0, "round-trip time, e.g. 125ms (required)")
	streams := fs.Int("streams", 1, "parallel TCP streams sharing the bandwidth")
	memory := fs.String("memory", "", "RAM (MemTotal), e.g. 8GiB; default: this host")
	lowmem := fs.String("lowmem", "", "lowmem of a 32-bit HighMem kernel; default: this host's LowTotal, or the arch's split")
	role := fs.String("role", plan.RoleBoth, "receiver, sender or both")
	mtu := fs.Int("mtu", 1500, "path MTU in bytes")
	kernelVer := fs.String("kernel", "", "kernel release, e.g. 2.6.13; default: this host")
	arch := fs.String("arch", "", "uname -m, e.g. i686, x86_64; default: this host")
	pageSize := fs.String("page-size", "", "page size; default: this host's, or 4096 with --arch")
	rateLimit := fs.String("rate-limit", "", "cap the sender with HTB at this rate, e.g. 400mbit")
	rateDev := fs.String("rate-limit-dev", "", "device for --rate-limit (default: first NIC)")
	rateDst := fs.String("rate-limit-dst", "", "limit only traffic to this IPv4 address or CIDR")
	nicSpeed := fs.String("nic-speed", "", "receive line rate (all NICs, e.g. 2Gbit for a bonded pair); default: this host's NICs or --bandwidth")
	windowRatio := fs.Float64("window-ratio", 0, "receive-window share of tcp_rmem measured on the target (0 = from the kernel version)")
	reaction := fs.Duration("kswapd-reaction", 0, "time free memory must last before kswapd frees pages (default 100ms)")
	format := fs.String("format", "text", "text, json or sysctl (a sysctl.d drop-in)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitFailure
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom plan: unexpected argument %q\n", fs.Arg(0))
		return exitFailure
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Stderr, "headroom plan: "+format+"\n", a...)
		return exitFailure
	}
	switch *format {
	case "text", "json", "sysctl":
	default:
		return fail("--format %q: want text, json or sysctl", *format)
	}
	if *bandwidth == "" {
		return fail("--bandwidth is required (e.g. --bandwidth 1Gbit)")
	}
	if *rtt <= 0 {
		return fail("--rtt must be greater than zero (e.g. --rtt 125ms), got %v", *rtt)
	}

	in := plan.Input{RTT: *rtt, Streams: *streams, Role: *role, MTUBytes: *mtu, WindowRatio: *windowRatio,
		KswapdReaction: *reaction, RateLimitDevice: *rateDev, RateLimitDestination: *rateDst}
	var err error
	if in.BandwidthBitsPerSec, err = plan.ParseBandwidth(*bandwidth); err != nil {
		return fail("--bandwidth: %v", err)
	}
	if *rateLimit != "" {
		if in.RateLimitBitsPerSec, err = plan.ParseBandwidth(*rateLimit); err != nil {
			return fail("--rate-limit: %v", err)
		}
	}
	if *memory != "" {
		if in.MemoryBytes, err = plan.ParseSize(*memory); err != nil {
			return fail("--memory: %v", err)
		}
	}
	if *lowmem != "" {
		if in.LowmemBytes, err = plan.ParseSize(*lowmem); err != nil {
			return fail("--lowmem: %v", err)
		}
	}
	if *pageSize != "" {
		ps, err := plan.ParseSize(*pageSize)
		if err != nil {
			return fail("--page-size: %v", err)
		}
		in.PageSizeBytes = int(ps)
	}
	in.KernelVersion, in.Arch = *kernelVer, *arch

	// Fill what the flags left open from this host.
	h := planHostFacts
	thisHost := *memory == "" && *lowmem == "" && *kernelVer == "" && *arch == ""
	if in.MemoryBytes == 0 {
		mem, low, err := h.meminfo()
		if err != nil {
			return fail("--memory not given and %v", err)
		}
		in.MemoryBytes = mem
		if in.LowmemBytes == 0 && *arch == "" {
			in.LowmemBytes = low // LowTotal exists only with CONFIG_HIGHMEM
		}
	}
	if in.KernelVersion == "" {
		if in.KernelVersion, err = h.readTrim(filepath.Join(h.procRoot, "sys/kernel/osrelease")); err != nil {
			return fail("--kernel not given and %v", err)
		}
	}
	if in.Arch == "" {
		if in.Arch, err = h.machine(); err != nil {
			return fail("--arch not given and uname failed: %v", err)
		}
	}
	if in.PageSizeBytes == 0 {
		in.PageSizeBytes = 4096
		if *arch == "" {
			in.PageSizeBytes = h.pageSize()
		}
	}
	if thisHost {
		in.Current = h.sysctls(planSysctlKeys)
		in.NICs = h.nics()
	}
	if *nicSpeed != "" {
		bps, err := plan.ParseBandwidth(*nicSpeed)
		if err != nil {
			return fail("--nic-speed: %v", err)
		}
		in.NICs = []plan.NIC{{SpeedMbps: int64(bps / 1e6)}}
	}

	p, err := plan.Compute(in)
	if err != nil {
		return fail("%v", err)
	}
	switch *format {
	case "json":
		err = plan.WriteJSON(stdio.Stdout, p)
	case "sysctl":
		err = plan.WriteSysctl(stdio.Stdout, p)
	default:
		err = plan.WriteText(stdio.Stdout, p)
	}
	if err != nil {
		return fail("%v", err)
	}
	if !p.Budget.Fits {
		return exitWarning
	}
	return exitOK
}

// readTrim reads a small kernel file and trims it; the error names the file.
func (h planHost) readTrim(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// meminfo reads MemTotal and, on HighMem kernels, LowTotal from /proc/meminfo (kB = KiB).
func (h planHost) meminfo() (memBytes, lowBytes int64, err error) {
	path := filepath.Join(h.procRoot, "meminfo")
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "MemTotal" && name != "LowTotal") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, 0, fmt.Errorf("%s:%d: %s has no value", path, line, name)
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 {
			return 0, 0, fmt.Errorf("%s:%d: %s value %q: not a count", path, line, name, fields[0])
		}
		if name == "MemTotal" {
			memBytes = kb * 1024
		} else {
			lowBytes = kb * 1024
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	if memBytes == 0 {
		return 0, 0, fmt.Errorf("%s: no MemTotal", path)
	}
	return memBytes, lowBytes, nil
}

// sysctls reads each key from /proc/sys; a key this kernel lacks is left out (absent is
// not zero).
func (h planHost) sysctls(keys []string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		v, err := h.readTrim(filepath.Join(h.procRoot, "sys", strings.ReplaceAll(k, ".", "/")))
		if err == nil && v != "" {
			out[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return out
}

// nics lists receiving interfaces from /sys/class/net: physical ones (with a device link)
// and any other with a known speed. Speed is -1 or unreadable when the driver does not
// report it; drops are rx_missed_errors, rx_fifo_errors or rx_over_errors above zero.
func (h planHost) nics() []plan.NIC {
	base := filepath.Join(h.sysRoot, "class/net")
	entries, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []plan.NIC
	for _, e := range entries {
		name := e.Name()
		if name == "lo" {
			continue
		}
		dir := filepath.Join(base, name)
		n := plan.NIC{Name: name}
		if s, err := h.readTrim(filepath.Join(dir, "speed")); err == nil {
			if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
				n.SpeedMbps = v
			}
		}
		_, devErr := os.Stat(filepath.Join(dir, "device"))
		if devErr != nil && n.SpeedMbps == 0 {
			continue // virtual and speedless: ifb, bridges, veth peers
		}
		for _, c := range []string{"rx_missed_errors", "rx_fifo_errors", "rx_over_errors"} {
			if s, err := h.readTrim(filepath.Join(dir, "statistics", c)); err == nil {
				if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
					n.DropsSeen = true
				}
			}
		}
		if h.ring != nil {
			if cur, max, err := h.ring(name); err == nil {
				n.RxRing, n.RxRingMax = cur, max
			}
		}
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// unameMachine is uname -m from the uname(2) system call.
func unameMachine() (string, error) {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return "", err
	}
	var b []byte
	for _, c := range u.Machine {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b), nil
}

// ethtoolRing reads a NIC's RX ring size and preset maximum with the SIOCETHTOOL ioctl and
// ETHTOOL_GRINGPARAM (include/uapi/linux/ethtool.h), what "ethtool -g" prints. Drivers
// without ring parameters (veth, many virtual NICs) return EOPNOTSUPP.
func ethtoolRing(dev string) (cur, max int64, err error) {
	const (
		siocEthtool       = 0x8946
		ethtoolGRingparam = 0x10
	)
	type ringparam struct {
		cmd, rxMaxPending, rxMiniMaxPending, rxJumboMaxPending, txMaxPending uint32
		rxPending, rxMiniPending, rxJumboPending, txPending                  uint32
	}
	type ifreq struct {
		name [16]byte
		data unsafe.Pointer
		_    [16]byte // struct ifreq is 40 bytes on 64-bit; the union is larger than a pointer
	}
	if len(dev) >= 16 {
		return 0, 0, fmt.Errorf("ethtool %s: name too long", dev)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, 0, fmt.Errorf("ethtool %s: socket: %w", dev, err)
	}
	defer syscall.Close(fd)
	rp := &ringparam{cmd: ethtoolGRingparam}
	req := &ifreq{data: unsafe.Pointer(rp)}
	copy(req.name[:], dev)
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), siocEthtool, uintptr(unsafe.Pointer(req)))
	runtime.KeepAlive(req)
	runtime.KeepAlive(rp)
	if errno != 0 {
		return 0, 0, fmt.Errorf("ethtool -g %s: %w", dev, errno)
	}
	return int64(rp.rxPending), int64(rp.rxMaxPending), nil
}
