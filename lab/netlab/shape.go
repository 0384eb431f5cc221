package netlab

import (
	"errors"
	"fmt"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

// Shaper names the qdisc that enforces a link's rate.
type Shaper string

const (
	ShaperHTB Shaper = "htb" // sch_htb: one class at rate = ceil, default class for all traffic
	ShaperTBF Shaper = "tbf" // sch_tbf: a single token bucket
)

// burstBytes is the token bucket depth for a rate. Two constraints:
//   - it must hold at least one whole GSO packet (64 KB) or HTB/TBF stall on every super
//     packet: TBF would segment it (sch_tbf.c: tbf_segment) and HTB would run into debt;
//   - it should cover one timer tick at the rate, the classic rate/HZ rule of
//     tc-htb(8) (CONFIG_HZ=250 here: 4 ms), or a late watchdog leaves the link idle.
//
// 2 × 64 KB + one frame, or 4 ms at the rate, whichever is larger: 500 KB at 1 Gbit/s,
// 133 KB at 100 Mbit/s.
func burstBytes(rateBitsPerSec uint64) uint32 {
	const minBurst = 2*65536 + 1514
	perTick := rateBitsPerSec / 8 / 250
	if perTick < minBurst {
		return minBurst
	}
	return uint32(perTick)
}

// shapeEgress installs rate shaping as the root qdisc of dev in the handle's namespace:
// HTB (root 1:, class 1:1 at rate=ceil, default 1) or TBF. When delay > 0 (netem backend),
// a netem qdisc holding the delay and loss becomes the leaf under the HTB class, as in
// tc-netem(8)'s "rate control with HTB + netem" layout.
func shapeEgress(nl *netlink.Handle, dev string, rateBitsPerSec uint64, shaper Shaper, netemDelay time.Duration, netemLoss float64) error {
	link, err := nl.LinkByName(dev)
	if err != nil {
		return fmt.Errorf("lab: shape %s: %w", dev, err)
	}
	idx := link.Attrs().Index
	burst := burstBytes(rateBitsPerSec)
	if shaper == "" {
		shaper = ShaperHTB
	}
	if rateBitsPerSec == 0 {
		if netemDelay > 0 || netemLoss > 0 {
			return addNetem(nl, dev, idx, netlink.HANDLE_ROOT, netemDelay, netemLoss)
		}
		return nil
	}
	switch shaper {
	case ShaperHTB:
		root := netlink.NewHtb(netlink.QdiscAttrs{LinkIndex: idx, Handle: netlink.MakeHandle(1, 0), Parent: netlink.HANDLE_ROOT})
		root.Defcls = 1
		if err := nl.QdiscAdd(root); err != nil {
			return fmt.Errorf("lab: %s: add htb root: %w", dev, err)
		}
		class := netlink.NewHtbClass(
			netlink.ClassAttrs{LinkIndex: idx, Parent: netlink.MakeHandle(1, 0), Handle: netlink.MakeHandle(1, 1)},
			netlink.HtbClassAttrs{Rate: rateBitsPerSec, Ceil: rateBitsPerSec, Buffer: burst, Cbuffer: burst},
		)
		if err := nl.ClassAdd(class); err != nil {
			return fmt.Errorf("lab: %s: add htb class 1:1 rate %d bit/s burst %d B: %w", dev, rateBitsPerSec, burst, err)
		}
		if netemDelay > 0 || netemLoss > 0 {
			return addNetem(nl, dev, idx, netlink.MakeHandle(1, 1), netemDelay, netemLoss)
		}
		return nil
	case ShaperTBF:
		if netemDelay > 0 || netemLoss > 0 {
			return fmt.Errorf("lab: %s: netem delay needs the htb shaper (tbf is classless)", dev)
		}
		rateBytes := rateBitsPerSec / 8
		// Queue up to 50 ms at the rate plus the bucket, so TCP's own queue (bounded by TSQ)
		// never overflows it.
		limit := uint32(rateBytes/20) + burst
		tbf := &netlink.Tbf{
			QdiscAttrs: netlink.QdiscAttrs{LinkIndex: idx, Handle: netlink.MakeHandle(1, 0), Parent: netlink.HANDLE_ROOT},
			Rate:       rateBytes,
			Limit:      limit,
			Buffer:     netlink.Xmittime(rateBytes, burst),
		}
		if err := nl.QdiscAdd(tbf); err != nil {
			return fmt.Errorf("lab: %s: add tbf rate %d bit/s burst %d B: %w", dev, rateBitsPerSec, burst, err)
		}
		return nil
	default:
		return fmt.Errorf("lab: unknown shaper %q (want htb or tbf)", shaper)
	}
}

func addNetem(nl *netlink.Handle, dev string, idx int, parent uint32, delay time.Duration, loss float64) error {
	q := netlink.NewNetem(
		netlink.QdiscAttrs{LinkIndex: idx, Parent: parent, Handle: netlink.MakeHandle(10, 0)},
		netlink.NetemQdiscAttrs{Latency: uint32(delay / time.Microsecond), Loss: float32(loss * 100), Limit: 100000},
	)
	if err := nl.QdiscAdd(q); err != nil {
		return fmt.Errorf("lab: %s: add netem delay %v: %w", dev, delay, err)
	}
	return nil
}

// shapeIngress shapes what dev receives: an ingress qdisc on dev redirects every packet
// (u32 match-all, mirred egress redirect) to an IFB device, whose egress carries the
// shaper. This is the standard IFB recipe (Documentation/networking: ifb; tc-mirred(8)),
// for links whose sending side cannot be shaped.
func shapeIngress(nl *netlink.Handle, dev, ifbName string, rateBitsPerSec uint64, shaper Shaper) error {
	link, err := nl.LinkByName(dev)
	if err != nil {
		return fmt.Errorf("lab: shape ingress of %s: %w", dev, err)
	}
	ifb := &netlink.Ifb{LinkAttrs: netlink.LinkAttrs{Name: ifbName, TxQLen: 1000}}
	if err := nl.LinkAdd(ifb); err != nil {
		return fmt.Errorf("lab: add ifb %s: %w", ifbName, err)
	}
	ifbLink, err := nl.LinkByName(ifbName)
	if err != nil {
		return fmt.Errorf("lab: find ifb %s: %w", ifbName, err)
	}
	if err := nl.LinkSetUp(ifbLink); err != nil {
		return fmt.Errorf("lab: set %s up: %w", ifbName, err)
	}
	if err := shapeEgress(nl, ifbName, rateBitsPerSec, shaper, 0, 0); err != nil {
		return err
	}
	ingress := &netlink.Ingress{QdiscAttrs: netlink.QdiscAttrs{LinkIndex: link.Attrs().Index, Parent: netlink.HANDLE_INGRESS, Handle: netlink.MakeHandle(0xffff, 0)}}
	if err := nl.QdiscAdd(ingress); err != nil {
		return fmt.Errorf("lab: %s: add ingress qdisc: %w", dev, err)
	}
	filter := &netlink.U32{
		FilterAttrs: netlink.FilterAttrs{
			LinkIndex: link.Attrs().Index,
			Parent:    netlink.MakeHandle(0xffff, 0),
			Priority:  1,
			Protocol:  unix.ETH_P_ALL,
		},
		// One key with mask 0 matches every packet (tc's "u32 match u32 0 0").
		Sel:     &netlink.TcU32Sel{Flags: netlink.TC_U32_TERMINAL, Keys: []netlink.TcU32Key{{Mask: 0, Val: 0, Off: 0}}},
		Actions: []netlink.Action{netlink.NewMirredAction(ifbLink.Attrs().Index)},
	}
	if err := nl.FilterAdd(filter); err != nil {
		return fmt.Errorf("lab: %s: add u32 mirred redirect to %s: %w", dev, ifbName, err)
	}
	return nil
}

// netemAvailable asks the kernel in the handle's namespace: it adds a netem qdisc to the
// loopback device and removes it again. Kernels built without CONFIG_NET_SCH_NETEM (this
// 6.18 family) answer ENOENT ("Specified qdisc kind is unknown").
func netemAvailable(nl *netlink.Handle) (bool, error) {
	lo, err := nl.LinkByName("lo")
	if err != nil {
		return false, fmt.Errorf("lab: netem probe: %w", err)
	}
	q := netlink.NewNetem(netlink.QdiscAttrs{LinkIndex: lo.Attrs().Index, Parent: netlink.HANDLE_ROOT, Handle: netlink.MakeHandle(0x7ff0, 0)}, netlink.NetemQdiscAttrs{Latency: 1000})
	err = nl.QdiscAdd(q)
	if err == nil {
		return true, nl.QdiscDel(q)
	}
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EINVAL) {
		return false, nil
	}
	return false, fmt.Errorf("lab: netem probe: %w", err)
}
