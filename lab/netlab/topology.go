package netlab

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"time"

	"headroom/kernel"

	"github.com/vishvananda/netlink"
)

// ErrNeedRoot is returned when the lab is asked to build namespaces without the privileges
// (CAP_SYS_ADMIN and CAP_NET_ADMIN) to do so. Tests skip on it.
var ErrNeedRoot = errors.New("lab: building namespaces needs root")

// Lab is one run's set of namespaces and links. Close tears everything down; it is safe to
// call more than once and from a deferred call after a panic.
type Lab struct {
	RunID string

	mu     sync.Mutex
	hosts  []*Host
	links  []*Link
	owner  owner
	guard  *guardian // started before the first global sysctl is written (guardian.go)
	global *os.File  // the host-wide lock of runs that change global sysctls (globallock.go)
	shared *os.File  // the same lock, shared: the run measures with the host\'s global values

	// Progress receives the run's one-line notes (a wait for another run's global sysctls);
	// nil writes them on stderr.
	Progress func(msg string)
	closed   bool
	netemOK  *bool
}

// Host is one network namespace of the lab.
type Host struct {
	Name string // short name inside the run ("a", "b")
	ns   *Netns
	nl   *netlink.Handle // netlink sockets created inside the namespace
}

// Netns is the host's full namespace name, "hr-<runid>-<name>", as `ip netns` shows it.
func (h *Host) Netns() string { return h.ns.Name }

// Netlink is the netlink handle of h's namespace (links, addresses, qdiscs).
func (h *Host) Netlink() *netlink.Handle { return h.nl }

// Do runs fn on a throwaway OS thread inside the host's namespace.
func (h *Host) Do(fn func() error) error { return h.ns.Do(fn) }

// New starts a run: it picks a run id and records this process as the owner before anything
// is created. Call Close when done (defer it).
func New() (*Lab, error) {
	if os.Geteuid() != 0 {
		return nil, ErrNeedRoot
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("lab: run id: %w", err)
	}
	l := &Lab{RunID: hex.EncodeToString(b[:])}
	startedHere.Store(l.RunID, true) // before anything of the run exists (Mine)
	st, err := processStartTicks(os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("lab: own start time: %w", err)
	}
	l.owner = owner{RunID: l.RunID, PID: os.Getpid(), StartTicks: st}
	if err := writeOwner(&l.owner); err != nil {
		return nil, err
	}
	return l, nil
}

// Guard starts the run's guardian (guardian.go) unless it runs already, so that a SIGKILL
// from here on is swept within seconds: namespaces, cgroups, zram swap, scratch directories
// and global sysctls. A global sysctl write starts it by itself; a run that creates
// anything else the host sees (swap-under-load's zram swap, issue 30 item 8: left as host
// swap until `lab cleanup`; lab/vm's QEMU and its scratch files) calls Guard before.
func (l *Lab) Guard() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	return l.guardLocked()
}

func (l *Lab) guardLocked() error {
	if l.guard != nil {
		return nil
	}
	g, err := startGuardian(&l.owner)
	if err != nil {
		return err
	}
	l.guard = g
	return nil
}

// Prefix is the name prefix of every namespace of this run, for Cleanup.
func (l *Lab) Prefix() string { return NamePrefix + l.RunID + "-" }

// AddHost creates a namespace with loopback up and IPv6 off (so nothing but the workload's
// IPv4 traffic crosses the links: no router solicitations, no DAD, no MLD).
func (l *Lab) AddHost(name string) (*Host, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	ns, err := createNetns(l.Prefix() + name)
	if err != nil {
		return nil, err
	}
	h := &Host{Name: name, ns: ns}
	l.hosts = append(l.hosts, h) // registered first, so Close removes it whatever fails next
	err = ns.Do(func() error {
		nl, err := netlink.NewHandle()
		if err != nil {
			return fmt.Errorf("lab: netlink in %s: %w", ns.Name, err)
		}
		h.nl = nl
		for _, k := range []string{"net.ipv6.conf.all.disable_ipv6", "net.ipv6.conf.default.disable_ipv6"} {
			if err := WriteSysctl(k, "1"); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		lo, err := nl.LinkByName("lo")
		if err != nil {
			return fmt.Errorf("lab: %s: lo: %w", ns.Name, err)
		}
		if err := nl.LinkSetUp(lo); err != nil {
			return fmt.Errorf("lab: %s: lo up: %w", ns.Name, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// DelayBackend chooses how a link gets its delay.
type DelayBackend string

const (
	DelayAuto      DelayBackend = "auto"      // netem if the kernel has it, else the delay line
	DelayNetem     DelayBackend = "netem"     // veth + netem under the shaper
	DelayUserspace DelayBackend = "delayline" // TUN pair + DelayLine
)

// Shaping direction of a link.
const (
	ShapeEgress  = "egress"  // each direction shaped on the sender's egress (default)
	ShapeIngress = "ingress" // each direction shaped on the receiver's ingress through IFB
)

// LinkSpec describes one link between two hosts.
type LinkSpec struct {
	RateBitsPerSec uint64        // 0: not shaped
	Shaper         Shaper        // htb (default) or tbf
	ShapeAt        string        // ShapeEgress (default) or ShapeIngress
	OneWayDelay    time.Duration // 0: no delay, a plain veth
	// LossFraction drops this fraction of A→B packets at random (the data direction of a
	// bulk transfer from A); B→A is lossless.
	LossFraction float64
	Delay        DelayBackend // DelayAuto by default
	Seed         uint64       // loss RNG seed
}

// Link is a connected pair of devices with addresses in 198.18.<index>.0/24.
type Link struct {
	A, B         *Host
	DevA, DevB   string
	AddrA, AddrB netip.Addr
	// Kind is what carries the packets: "veth", "veth+netem" or "tun+delayline".
	Kind      string
	Spec      LinkSpec
	DelayLine *DelayLine // nil unless Kind is "tun+delayline"
}

// linkPrefixBits: every link gets a /24 of 198.18.0.0/15, so 512 links fit.
const linkPrefixBits = 24

func linkAddrs(index int) (a, b netip.Addr, err error) {
	if index < 0 || index >= 512 {
		return a, b, fmt.Errorf("lab: link index %d outside 198.18.0.0/15", index)
	}
	base := [4]byte{198, 18 + byte(index/256), byte(index % 256), 1}
	a = netip.AddrFrom4(base)
	base[3] = 2
	return a, netip.AddrFrom4(base), nil
}

// Connect joins a and b. Without delay it is a veth pair. With delay it is a veth pair with
// netem (when the backend is netem, or auto on a kernel that has netem) or two TUN devices
// joined by a DelayLine running in this process. Rate shaping applies to both directions.
func (l *Lab) Connect(a, b *Host, spec LinkSpec) (*Link, error) {
	l.mu.Lock()
	idx := len(l.links)
	l.mu.Unlock()
	addrA, addrB, err := linkAddrs(idx)
	if err != nil {
		return nil, err
	}
	if spec.Delay == "" {
		spec.Delay = DelayAuto
	}
	if spec.ShapeAt == "" {
		spec.ShapeAt = ShapeEgress
	}
	if spec.LossFraction < 0 || spec.LossFraction >= 1 {
		return nil, fmt.Errorf("lab: loss fraction %v outside [0, 1)", spec.LossFraction)
	}
	lk := &Link{A: a, B: b, AddrA: addrA, AddrB: addrB, Spec: spec}
	useTun := false
	if spec.OneWayDelay > 0 || spec.LossFraction > 0 {
		switch spec.Delay {
		case DelayUserspace:
			useTun = true
		case DelayNetem, DelayAuto:
			ok, err := l.netemAvailable(a)
			if err != nil {
				return nil, err
			}
			if !ok && spec.Delay == DelayNetem {
				return nil, fmt.Errorf("lab: netem: %w", kernel.ErrNotSupported)
			}
			useTun = !ok
		default:
			return nil, fmt.Errorf("lab: unknown delay backend %q", spec.Delay)
		}
	}
	if useTun && spec.ShapeAt == ShapeIngress {
		// The TUN side is fed by our own writes; ingress redirection would work, but nothing
		// needs it and it is untested, so say so rather than build it blind.
		return nil, fmt.Errorf("lab: ingress shaping on a delay-line link is not supported")
	}
	l.mu.Lock()
	l.links = append(l.links, lk)
	l.mu.Unlock()
	if useTun {
		err = l.connectTun(lk, idx)
	} else {
		err = l.connectVeth(lk, idx)
	}
	if err != nil {
		return nil, err
	}
	return lk, nil
}

func (l *Lab) netemAvailable(h *Host) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.netemOK == nil {
		ok, err := netemAvailable(h.nl)
		if err != nil {
			return false, err
		}
		l.netemOK = &ok
	}
	return *l.netemOK, nil
}

func configureAddr(nl *netlink.Handle, dev string, addr netip.Addr, txqlen int) error {
	link, err := nl.LinkByName(dev)
	if err != nil {
		return fmt.Errorf("lab: find %s: %w", dev, err)
	}
	if txqlen > 0 {
		if err := nl.LinkSetTxQLen(link, txqlen); err != nil {
			return fmt.Errorf("lab: %s txqueuelen %d: %w", dev, txqlen, err)
		}
	}
	ipn := &net.IPNet{IP: addr.AsSlice(), Mask: net.CIDRMask(linkPrefixBits, 32)}
	if err := nl.AddrAdd(link, &netlink.Addr{IPNet: ipn}); err != nil {
		return fmt.Errorf("lab: %s add %s/%d: %w", dev, addr, linkPrefixBits, err)
	}
	if err := nl.LinkSetUp(link); err != nil {
		return fmt.Errorf("lab: %s up: %w", dev, err)
	}
	return nil
}

// txQueueLen for lab devices: the default leaf pfifo of HTB takes its limit from it. 1000
// GSO packets is far more than TCP Small Queues ever lets one socket queue locally.
const txQueueLen = 1000

func (l *Lab) connectVeth(lk *Link, idx int) error {
	lk.Kind = "veth"
	lk.DevA = fmt.Sprintf("veth%d", idx)
	lk.DevB = lk.DevA
	// Create in A with the peer placed straight into B: the pair never exists in the
	// host's namespace, even briefly.
	fdB := lk.B.ns.fd
	veth := &netlink.Veth{
		LinkAttrs:     netlink.LinkAttrs{Name: lk.DevA, TxQLen: txQueueLen},
		PeerName:      lk.DevB,
		PeerNamespace: netlink.NsFd(fdB),
	}
	if err := lk.A.nl.LinkAdd(veth); err != nil {
		return fmt.Errorf("lab: add veth %s (%s) ⇄ %s (%s): %w", lk.DevA, lk.A.Netns(), lk.DevB, lk.B.Netns(), err)
	}
	if err := configureAddr(lk.A.nl, lk.DevA, lk.AddrA, txQueueLen); err != nil {
		return err
	}
	if err := configureAddr(lk.B.nl, lk.DevB, lk.AddrB, txQueueLen); err != nil {
		return err
	}
	netemDelay, loss := lk.Spec.OneWayDelay, lk.Spec.LossFraction
	if netemDelay > 0 || loss > 0 {
		lk.Kind = "veth+netem"
	}
	if lk.Spec.ShapeAt == ShapeIngress {
		if netemDelay > 0 || loss > 0 {
			return fmt.Errorf("lab: ingress shaping with netem delay is not supported")
		}
		if err := shapeIngress(lk.B.nl, lk.DevB, fmt.Sprintf("ifb%d", idx), lk.Spec.RateBitsPerSec, lk.Spec.Shaper); err != nil {
			return err
		}
		return shapeIngress(lk.A.nl, lk.DevA, fmt.Sprintf("ifb%d", idx), lk.Spec.RateBitsPerSec, lk.Spec.Shaper)
	}
	if err := shapeEgress(lk.A.nl, lk.DevA, lk.Spec.RateBitsPerSec, lk.Spec.Shaper, netemDelay, loss); err != nil {
		return err
	}
	return shapeEgress(lk.B.nl, lk.DevB, lk.Spec.RateBitsPerSec, lk.Spec.Shaper, netemDelay, 0)
}

func (l *Lab) connectTun(lk *Link, idx int) error {
	lk.Kind = "tun+delayline"
	lk.DevA = fmt.Sprintf("tun%d", idx)
	lk.DevB = lk.DevA
	var fa, fb *os.File
	if err := lk.A.Do(func() (err error) { fa, err = openTun(lk.DevA); return err }); err != nil {
		return err
	}
	if err := lk.B.Do(func() (err error) { fb, err = openTun(lk.DevB); return err }); err != nil {
		fa.Close()
		return err
	}
	ab := NewDelayQueue(DelayQueueConfig{Delay: lk.Spec.OneWayDelay, LossFraction: lk.Spec.LossFraction, Seed: lk.Spec.Seed}, WallClock)
	ba := NewDelayQueue(DelayQueueConfig{Delay: lk.Spec.OneWayDelay}, WallClock)
	lk.DelayLine = NewDelayLine(fa, fb, ab, ba)
	if err := configureAddr(lk.A.nl, lk.DevA, lk.AddrA, txQueueLen); err != nil {
		return err
	}
	if err := configureAddr(lk.B.nl, lk.DevB, lk.AddrB, txQueueLen); err != nil {
		return err
	}
	if err := shapeEgress(lk.A.nl, lk.DevA, lk.Spec.RateBitsPerSec, lk.Spec.Shaper, 0, 0); err != nil {
		return err
	}
	return shapeEgress(lk.B.nl, lk.DevB, lk.Spec.RateBitsPerSec, lk.Spec.Shaper, 0, 0)
}

// SetSysctl writes key=value inside host h when the key is the namespace's own, and returns
// the value read back. For a key the namespace only mirrors (ScopeReadOnly) or lacks
// (ScopeGlobal), nothing is written unless allowGlobal: then the initial namespace's value is
// journaled in the owner file first, written, and restored by Close (or by Cleanup after a
// crash).
func (l *Lab) SetSysctl(h *Host, key, value string, allowGlobal bool) (scope Scope, readBack string, err error) {
	value = NormalizeSysctl(value)
	err = h.Do(func() error {
		s, err := keyScope(key)
		if err != nil {
			return err
		}
		scope = s
		if s != ScopeNetns {
			return nil
		}
		if err := WriteSysctl(key, value); err != nil {
			return err
		}
		readBack, err = ReadSysctl(key)
		return err
	})
	if err != nil || scope == ScopeNetns {
		return scope, readBack, err
	}
	if scope == ScopeGlobal && !hostHasKey(key) {
		return ScopeMissing, "", nil
	}
	if !allowGlobal {
		return scope, "", nil
	}
	readBack, err = l.setGlobalSysctl(key, value)
	return scope, readBack, err
}

func (l *Lab) setGlobalSysctl(key, value string) (string, error) {
	// One run at a time changes global sysctls on this host (globallock.go): a second one
	// waits here, before it reads the value it will restore.
	if err := l.lockGlobal(); err != nil {
		return "", err
	}
	// Two live runs changing the same global key would restore each other's values in the
	// wrong order. A run of a headroom without the lock (an older build) can still hold the
	// key: wait for it as for the lock, then refuse.
	if err := l.waitKeyFree(key); err != nil {
		return "", err
	}
	old, err := ReadSysctl(key)
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return "", fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	// Before the journal names a key: no global value changes without someone to put it
	// back if this process is killed.
	if err := l.guardLocked(); err != nil {
		return "", fmt.Errorf("%w; not changing global sysctl %s", err, key)
	}
	// Journal the value about to be written before writing it, so a kill between the two
	// leaves a journal that still recognizes the host's value as the lab's.
	saved := append([]journalEntry(nil), l.owner.Sysctls...)
	i := slices.IndexFunc(l.owner.Sysctls, func(e journalEntry) bool { return e.Key == key })
	if i < 0 {
		// The first (original) value is the one to restore.
		l.owner.Sysctls = append(l.owner.Sysctls, journalEntry{Key: key, Old: old})
		i = len(l.owner.Sysctls) - 1
	}
	// A copy of the entry's Set: saved shares nothing with the new journal.
	e := &l.owner.Sysctls[i]
	e.Set = appendNew(slices.Clone(e.Set), value)
	if err := writeOwner(&l.owner); err != nil {
		l.owner.Sysctls = saved
		return "", err
	}
	if err := WriteSysctl(key, value); err != nil {
		return "", err
	}
	rb, err := ReadSysctl(key)
	if err != nil {
		return "", err
	}
	if !slices.Contains(e.Set, rb) {
		// The kernel shows the value in another form ("0010" reads back as "10").
		e.Set = append(e.Set, rb)
		if err := writeOwner(&l.owner); err != nil {
			return "", err
		}
	}
	return rb, nil
}

// appendNew appends v to s unless s has it.
func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// ReadSysctl reads key as host h sees it.
func (h *Host) ReadSysctl(key string) (string, error) {
	var v string
	err := h.Do(func() (err error) { v, err = ReadSysctl(key); return err })
	return v, err
}

// Close tears the run down: delay lines stop (closing their TUN devices), netlink sockets
// close, namespaces are unpinned (the kernel then deletes every device, address, route and
// qdisc in them), global sysctls are restored, and the owner file goes last.
func (l *Lab) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	var errs []error
	for _, lk := range l.links {
		if lk.DelayLine != nil {
			if err := lk.DelayLine.Close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, h := range l.hosts {
		if h.nl != nil {
			h.nl.Close()
		}
		if err := h.ns.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := restoreGlobalSysctls(l.RunID, l.owner.Sysctls); err != nil {
		errs = append(errs, err)
		// Keep the owner file: the guardian (or Cleanup) retries the restore once this
		// process is gone. The next run that waits for the global lock waits for that
		// sweep too (lockGlobal).
		if l.guard != nil {
			l.guard.release(false)
		}
		l.unlockGlobal()
		return errors.Join(errs...)
	}
	if err := os.Remove(ownerPath(l.RunID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	if l.guard != nil {
		l.guard.release(true)
	}
	l.unlockGlobal()
	return errors.Join(errs...)
}
