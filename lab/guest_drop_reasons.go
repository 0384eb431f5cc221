package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"headroom/lab/vm"
	"headroom/model"
)

// drop-reasons (issue 34 item 4): the kernel's own drop reasons read by headroom's traced
// doctor window (doctor --trace, source/trace.go) on Debian's 6.1 kernel in a QEMU guest,
// whose reason enum differs from this host's (values shift in nearly every release: the
// tracer names them from the kernel's own format file). Inside the guest, while `headroom
// doctor --trace 4s` runs, the guest-drops helper
//
//   - floods a tun device whose reader never reads: tun_net_xmit queues each packet on the
//     tun's ring towards its reader (tx_queue_len = 500 entries, TUN_READQ_SIZE) and, once
//     it is full, drops with SKB_DROP_REASON_FULL_RING (drivers/net/tun.c tun_net_xmit,
//     ptr_ring_produce fails; 6.1.192 line 1134), counted in the device's tx_dropped;
//   - floods a UDP socket of 4 KiB receive buffer on loopback that nobody reads:
//     __udp_queue_rcv_skb drops with SKB_DROP_REASON_SOCKET_RCVBUFF (net/ipv4/udp.c),
//     counted in Udp RcvbufErrors.
//
// doctor must count both reasons, as many as the kernel's own counters say, and cite them
// in the findings that explain them (nic-rx-overruns for FULL_RING, udp-rcvbuf-errors for
// SOCKET_RCVBUFF). The script also keeps the kernel's reason table (the kfree_skb format)
// and checks that the tracer left nothing behind: no instance, kfree_skb disabled.
//
// What 6.1 cannot show, and why (the reasons a drop can carry are the enum of
// include/net/dropreason.h; the places that raise them are the kfree_skb_reason calls):
//
//   - PFMEMALLOC is not in 6.1's enum: it came with commit a6f190630d07 ("net: track
//     pfmemalloc drops via SKB_DROP_REASON_PFMEMALLOC", 6.17). On 6.1 a packet allocated
//     from the reserves that reaches a socket without SOCK_MEMALLOC is refused by
//     sk_filter_trim_cap (net/core/filter.c:137, counted as TcpExt PFMemallocDrop) and
//     tcp_v4_rcv frees it as SOCKET_FILTER (net/ipv4/tcp_ipv4.c:2100).
//   - NOMEM is raised in 6.1 only where an allocation for a packet already received fails
//     at that very place: ping_rcv's GFP_ATOMIC skb_clone (net/ipv4/ping.c:1006),
//     icmp_redirect's pull (net/ipv4/icmp.c:1036), pskb_may_pull_reason's
//     __pskb_pull_tail (include/linux/skbuff.h:2691, from br_dev_xmit and the IP tunnels'
//     header pull), and tun_net_xmit's pskb_trim after a BPF filter (drivers/net/tun.c:1115).
//     A driver's failed RX refill frees no packet (virtio_net's try_fill_recv returns
//     -ENOMEM and the ring just holds fewer buffers; the frame waits in, or is dropped by,
//     the device), so the atomic-rx-refill failure raises no NOMEM; and Debian's 6.1 has no
//     fault injection (CONFIG_FAULT_INJECTION unset) to fail one of those allocations at will.
//     NOMEM from real memory exhaustion at one of them is a matter of chance, not of a
//     test's seconds.
//   - FULL_RING is raised in 6.1 by tun and tap (macvtap, ipvtap) alone (drivers/net/tun.c
//     tun_net_xmit, drivers/net/tap.c tap_handle_frame): no NIC driver, virtio_net and
//     e1000 included, calls kfree_skb_reason with it; a NIC whose RX ring overran loses the
//     frame before any skb exists (the driver's rx_missed/rx_fifo counters, read by
//     nic-rx-overruns). The tun's ring is the one ring overrun a 6.1 guest can show.

func init() {
	register(&Scenario{
		Name:    "drop-reasons",
		Summary: "the kernel's own drop reasons (doctor --trace) on Debian's 6.1 in a QEMU guest: FULL_RING from an unread tun's ring and SOCKET_RCVBUFF from a 4 KiB UDP buffer, counted as the kernel's counters say and cited by the findings",
		Guest: &GuestScenario{
			Kernels: []string{"debian-6.1-amd64"},
			Timeout: 5 * time.Minute,
			Run:     runDropReasons,
		},
	})
}

const (
	dropsTunName = "hrring0"
	dropsPackets = 3000
	// dropsTraceSec is doctor's traced window in the guest.
	dropsTraceSec = 4
)

// guestDropsConfig is the guest-drops helper's configuration.
type guestDropsConfig struct {
	Tun        string `json:"tun"`
	TunAddr    string `json:"tun_addr"` // the guest's address on the tun, with its prefix
	TunDst     string `json:"tun_dst"`  // where the datagrams go: routed to the tun
	Packets    int    `json:"packets"`  // datagrams into the tun, and into the UDP socket
	RcvBuf     int    `json:"rcvbuf"`   // SO_RCVBUF of the unread UDP socket
	ResultFile string `json:"result_file"`
}

// guestDropsResult is what the helper sent and what the kernel's counters said.
type guestDropsResult struct {
	TunSent         int     `json:"tun_sent"`
	TunTxDropped    uint64  `json:"tun_tx_dropped"` // the tun's tx_dropped after the flood
	UDPSent         int     `json:"udp_sent"`
	RcvbufErrors    uint64  `json:"rcvbuf_errors"` // growth of Udp RcvbufErrors over the flood
	TunQueueLen     int     `json:"tun_queue_len"`
	SendErrors      int     `json:"send_errors"`
	FirstSendError  string  `json:"first_send_error,omitempty"`
	SecondsFlooding float64 `json:"seconds_flooding"`
}

// runGuestDrops is the guest-drops helper: it creates the tun (its descriptor held open and
// never read), floods it and an unread UDP socket, and writes what the kernel counted.
func runGuestDrops(raw []byte) error {
	var cfg guestDropsConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open /dev/net/tun: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq(cfg.Tun)
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		return fmt.Errorf("TUNSETIFF %s: %w", cfg.Tun, err)
	}
	link, err := netlink.LinkByName(cfg.Tun)
	if err != nil {
		return err
	}
	addr, err := netlink.ParseAddr(cfg.TunAddr)
	if err != nil {
		return err
	}
	if err := netlink.AddrAdd(link, addr); err != nil {
		return fmt.Errorf("address on %s: %w", cfg.Tun, err)
	}
	if err := netlink.LinkSetUp(link); err != nil {
		return fmt.Errorf("%s up: %w", cfg.Tun, err)
	}
	res := guestDropsResult{TunQueueLen: link.Attrs().TxQLen}
	// The unread UDP socket on loopback, and the socket that floods both.
	rcv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	defer rcv.Close()
	if err := rcv.SetReadBuffer(cfg.RcvBuf); err != nil {
		return err
	}
	dst, err := net.ResolveUDPAddr("udp4", cfg.TunDst)
	if err != nil {
		return err
	}
	snd, err := net.ListenUDP("udp4", nil)
	if err != nil {
		return err
	}
	defer snd.Close()
	rcvbuf0, err := udpRcvbufErrors()
	if err != nil {
		return err
	}
	payload := make([]byte, 512)
	start := time.Now()
	for i := 0; i < cfg.Packets; i++ {
		for _, to := range []*net.UDPAddr{dst, rcv.LocalAddr().(*net.UDPAddr)} {
			if _, err := snd.WriteToUDP(payload, to); err != nil {
				// A qdisc or the socket's send buffer may refuse one now and then (ENOBUFS): counted, not fatal.
				if res.SendErrors == 0 {
					res.FirstSendError = err.Error()
				}
				res.SendErrors++
				continue
			}
			if to == dst {
				res.TunSent++
			} else {
				res.UDPSent++
			}
		}
	}
	res.SecondsFlooding = time.Since(start).Seconds()
	rcvbuf1, err := udpRcvbufErrors()
	if err != nil {
		return err
	}
	res.RcvbufErrors = rcvbuf1 - rcvbuf0
	b, err := os.ReadFile("/sys/class/net/" + cfg.Tun + "/statistics/tx_dropped")
	if err != nil {
		return err
	}
	if res.TunTxDropped, err = strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err != nil {
		return err
	}
	out, _ := json.MarshalIndent(res, "", "  ")
	return os.WriteFile(cfg.ResultFile, out, 0o644)
}

// udpRcvbufErrors reads Udp RcvbufErrors of /proc/net/snmp.
func udpRcvbufErrors() (uint64, error) {
	b, err := os.ReadFile("/proc/net/snmp")
	if err != nil {
		return 0, err
	}
	v, ok := netstatValue(string(b), "Udp:", "RcvbufErrors")
	if !ok {
		return 0, fmt.Errorf("/proc/net/snmp: no Udp RcvbufErrors")
	}
	return uint64(v), nil
}

// DropReasonsDetails is drop-reasons' part of the guest report.
type DropReasonsDetails struct {
	// Helper is what the guest-drops helper sent and the kernel's own counters.
	Helper guestDropsResult `json:"helper"`
	// Trace is doctor's traced window in the guest.
	Trace *model.TraceWindow `json:"trace"`
	// Counted are the reasons asserted, as the trace counted them.
	Counted map[string]uint64 `json:"counted"`
	// Cited: each asserted reason's finding, and whether its first evidence cites the count.
	Cited map[string]bool `json:"cited"`
	// KernelReasons is the guest kernel's own reason table (skb:kfree_skb's format), and
	// Absent the reasons the issue names that it lacks.
	KernelReasons int      `json:"kernel_reasons"`
	Absent        []string `json:"absent,omitempty"`
	HistTriggers  bool     `json:"hist_triggers"`
	// Restored: after doctor, no instance of ours and kfree_skb disabled at the top level.
	Restored bool     `json:"restored"`
	Findings []string `json:"findings"`
}

// dropReasonsWant: each reason the scenario produces, the finding that must cite it, and the
// kernel counter it must match.
var dropReasonsWant = []struct{ reason, finding string }{
	{"FULL_RING", "nic-rx-overruns"},
	{"SOCKET_RCVBUFF", "udp-rcvbuf-errors"},
}

func dropReasonsScript() string {
	cfg, _ := json.Marshal(guestDropsConfig{Tun: dropsTunName, TunAddr: "198.18.250.1/24", TunDst: "198.18.250.2:9",
		Packets: dropsPackets, RcvBuf: 4096, ResultFile: "/share/out/drops.json"})
	return fmt.Sprintf(`set -u
T=/sys/kernel/tracing
mkdir -p $T && mount -t tracefs nodev $T
cat $T/events/skb/kfree_skb/format > $OUT/kfree_skb.format
ls $T/events/skb/kfree_skb/ > $OUT/kfree_skb.files
headroom doctor --trace %ds --format json > $OUT/doctor.json 2> $OUT/doctor.err &
doc=$!
# the flood starts once doctor's instance has skb:kfree_skb enabled (its buffers keep what
# comes before its readers start)
i=0
until [ "$(cat $T/instances/headroom-*/events/skb/kfree_skb/enable 2>/dev/null)" = 1 ]; do
	i=$((i+1)); [ $i -lt 600 ] || { echo "doctor --trace enabled no kfree_skb in an instance" >&2; cat $OUT/doctor.err >&2; exit 1; }
	sleep 0.05
done
HEADROOM_LAB_HELPER=guest-drops HEADROOM_LAB_HELPER_CONFIG=%s headroom > $OUT/drops.out 2>&1
echo $? > $OUT/drops.rc
wait $doc
echo $? > $OUT/doctor.rc
ls $T/instances/ > $OUT/instances-after.txt
cat $T/events/skb/kfree_skb/enable > $OUT/kfree_skb.enable-after
`, dropsTraceSec, shQuoteLab(string(cfg)))
}

func runDropReasons(ctx context.Context, o GuestOptions) (*GuestReport, error) {
	k, err := vm.LookupKernel(o.Kernel)
	if err != nil {
		return nil, err
	}
	rep := &GuestReport{Scenario: "drop-reasons", Kernel: k.Stat(vm.CacheDir())}
	res, err := vm.Run(ctx, vm.Spec{
		Kernel: o.Kernel, MemoryMiB: 512, CPUs: 1, Modules: []string{"tun"}, Script: dropReasonsScript(),
		Headroom: o.Headroom, Progress: o.Progress, Timeout: 4 * time.Minute,
	})
	if res != nil {
		rep.Kernel, rep.Accel = res.Kernel, res.Accel.Accel
		rep.BootSec, rep.RunSec = res.BootTime.Seconds(), res.Elapsed.Seconds()
	}
	fail := func(err error) (*GuestReport, error) {
		rep.Error = err.Error()
		if res != nil {
			rep.Console = res.Console
		}
		return rep, err
	}
	if err != nil {
		return fail(err)
	}
	if res.ExitCode != 0 {
		return fail(fmt.Errorf("drop-reasons: guest script exited %d: %s", res.ExitCode, strings.TrimSpace(res.Stderr)))
	}
	d, err := judgeDropReasons(res)
	rep.Details = d
	if err != nil {
		return fail(err)
	}
	rep.OK = true
	for _, w := range dropReasonsWant {
		rep.OK = rep.OK && d.Cited[w.reason]
	}
	rep.OK = rep.OK && d.Restored && dropCountsMatch(d)
	rep.Summary = dropReasonsSummary(d)
	return rep, nil
}

// dropCountsMatch: the trace counted at least 90% of what the kernel's own counters say
// (both count the same drops; the trace may lose events when its buffers fill, which it then
// says in Lost), and the flood overran both (a thousand drops at least).
func dropCountsMatch(d *DropReasonsDetails) bool {
	full, rcv := d.Counted["FULL_RING"], d.Counted["SOCKET_RCVBUFF"]
	return full >= 1000 && rcv >= 1000 &&
		float64(full) >= 0.9*float64(d.Helper.TunTxDropped) && full <= d.Helper.TunTxDropped &&
		float64(rcv) >= 0.9*float64(d.Helper.RcvbufErrors) && rcv <= d.Helper.RcvbufErrors
}

func judgeDropReasons(res *vm.Result) (*DropReasonsDetails, error) {
	d := &DropReasonsDetails{Counted: map[string]uint64{}, Cited: map[string]bool{}}
	if rc := strings.TrimSpace(string(res.Files["drops.rc"])); rc != "0" {
		return d, fmt.Errorf("drop-reasons: the guest-drops helper exited %s: %s", rc, strings.TrimSpace(string(res.Files["drops.out"])))
	}
	if err := json.Unmarshal(res.Files["drops.json"], &d.Helper); err != nil {
		return d, fmt.Errorf("drop-reasons: the helper's result: %w", err)
	}
	var doc struct {
		Trace    *model.TraceWindow `json:"trace"`
		Findings []struct {
			ID       string `json:"id"`
			Evidence []struct {
				What  string `json:"what"`
				Value string `json:"value"`
			} `json:"evidence"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(res.Files["doctor.json"], &doc); err != nil {
		return d, fmt.Errorf("drop-reasons: doctor's JSON from the guest: %w (stderr: %s)", err, strings.TrimSpace(string(res.Files["doctor.err"])))
	}
	if doc.Trace == nil {
		return d, fmt.Errorf("drop-reasons: doctor in the guest traced nothing (stderr: %s)", strings.TrimSpace(string(res.Files["doctor.err"])))
	}
	d.Trace = doc.Trace
	for _, w := range dropReasonsWant {
		n, _ := doc.Trace.DropsFor(w.reason)
		d.Counted[w.reason] = n
		for _, f := range doc.Findings {
			if f.ID == w.finding && len(f.Evidence) > 0 {
				ev := f.Evidence[0]
				d.Cited[w.reason] = n > 0 && strings.Contains(ev.What, w.reason) && strings.HasPrefix(ev.Value, strconv.FormatUint(n, 10)+" in ")
			}
		}
	}
	for _, f := range doc.Findings {
		d.Findings = append(d.Findings, f.ID)
	}
	format := string(res.Files["kfree_skb.format"])
	for _, r := range []string{"SOCKET_RCVBUFF", "PROTO_MEM", "NOMEM", "CPU_BACKLOG", "FULL_RING", "PFMEMALLOC", "TCP_OFO_QUEUE_PRUNE", "QDISC_DROP", "NETFILTER_DROP"} {
		if !strings.Contains(format, `"`+r+`"`) {
			d.Absent = append(d.Absent, r)
		}
	}
	d.KernelReasons = strings.Count(format, "{ ")
	d.HistTriggers = slices.Contains(strings.Fields(string(res.Files["kfree_skb.files"])), "hist")
	d.Restored = !strings.Contains(string(res.Files["instances-after.txt"]), "headroom-") &&
		strings.TrimSpace(string(res.Files["kfree_skb.enable-after"])) == "0"
	return d, nil
}

func dropReasonsSummary(d *DropReasonsDetails) []string {
	h := d.Helper
	out := []string{
		fmt.Sprintf("FULL_RING: %d traced; the tun's tx_dropped %d (%d datagrams sent into a ring of %d, never read); cited by nic-rx-overruns: %v",
			d.Counted["FULL_RING"], h.TunTxDropped, h.TunSent, h.TunQueueLen, d.Cited["FULL_RING"]),
		fmt.Sprintf("SOCKET_RCVBUFF: %d traced; Udp RcvbufErrors +%d (%d datagrams into a 4 KiB buffer, never read); cited by udp-rcvbuf-errors: %v",
			d.Counted["SOCKET_RCVBUFF"], h.RcvbufErrors, h.UDPSent, d.Cited["SOCKET_RCVBUFF"]),
		fmt.Sprintf("the guest kernel's reason table: %d reasons; absent of those the issue names: %v; hist triggers: %v", d.KernelReasons, d.Absent, d.HistTriggers),
		fmt.Sprintf("tracepoints restored after doctor: %v; findings %v", d.Restored, d.Findings),
	}
	out = append(out, fmt.Sprintf("the helper flooded for %.2f s (%d send errors)", h.SecondsFlooding, h.SendErrors))
	if d.Trace != nil {
		out = append(out, fmt.Sprintf("traced %s: %d drops in all, %d events lost; by reason %v", d.Trace.Duration.Round(time.Millisecond), d.Trace.DropsTotal, d.Trace.Lost, d.Trace.Drops))
	}
	return out
}
