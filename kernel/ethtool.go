package kernel

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Ring is the ethtool ring parameters (ETHTOOL_GRINGPARAM / ETHTOOL_MSG_RINGS_GET): the
// pre-set maximums and the current sizes, in descriptors.
type Ring struct {
	RxMax      int64 `json:"rx_max"`
	RxMiniMax  int64 `json:"rx_mini_max"`
	RxJumboMax int64 `json:"rx_jumbo_max"`
	TxMax      int64 `json:"tx_max"`
	Rx         int64 `json:"rx"`
	RxMini     int64 `json:"rx_mini"`
	RxJumbo    int64 `json:"rx_jumbo"`
	Tx         int64 `json:"tx"`
}

// NICStats is what ethtool tells of one interface: the driver's own statistics (ethtool -S
// names as the driver prints them) and the ring sizes. Either may be absent: a veth has
// statistics but no ring parameters; a driver without ethtool support has neither. Absent
// parts are nil and StatsErr/RingErr say why (ErrNotSupported for EOPNOTSUPP).
type NICStats struct {
	Name     string    `json:"name"`
	Stats    *Counters `json:"stats,omitempty"`
	Ring     *Ring     `json:"ring,omitempty"`
	StatsErr string    `json:"stats_error,omitempty"`
	RingErr  string    `json:"ring_error,omitempty"`
}

// Ethtool is the kernel boundary for `ethtool -S` and `ethtool -g`, an interface so that
// logic using it is tested with a fake and the real thing as root in a namespace.
//
// Errors wrap ErrNotSupported when the driver does not implement the operation
// (EOPNOTSUPP: loopback has no statistics, veth has no ring parameters on many kernels);
// other errors wrap the errno (ENODEV for an interface that does not exist).
type Ethtool interface {
	// Stats returns the driver statistics of ifname in the driver's order and names.
	Stats(ifname string) (Counters, error)
	// Ring returns the ring sizes of ifname.
	Ring(ifname string) (Ring, error)
	Close() error
}

// NewEthtool returns an Ethtool that issues SIOCETHTOOL ioctls (the ioctl interface of
// net/ethtool/ioctl.c, which every kernel since 2.4 has; driver statistics are still only
// reachable through it, not through ethtool netlink) on an AF_INET datagram socket.
//
// The socket belongs to the network namespace of the OS thread that creates it, and
// interface names are resolved in that namespace (dev_ioctl uses sock_net), so an Ethtool
// created inside InNetns queries that namespace afterwards from any goroutine.
//
// Written on golang.org/x/sys/unix rather than github.com/safchain/ethtool: the four
// commands needed fit in a few hundred lines, and owning the buffers lets Stats reuse
// them and guard against the driver's statistics count changing between calls.
func NewEthtool() (Ethtool, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("ethtool: socket: %w", err)
	}
	return &ioctlEthtool{fd: fd, sets: make(map[string]*statSet)}, nil
}

// ethtool commands and sizes (include/uapi/linux/ethtool.h).
const (
	ethtoolGSET       = 0x1  // ETHTOOL_GSET, struct ethtool_cmd
	ethtoolGDRVINFO   = 0x3  // ETHTOOL_GDRVINFO
	ethtoolGRINGPARAM = 0x10 // ETHTOOL_GRINGPARAM, struct ethtool_ringparam
	ethtoolGSTRINGS   = 0x1b // ETHTOOL_GSTRINGS, struct ethtool_gstrings
	ethtoolGSTATS     = 0x1d // ETHTOOL_GSTATS, struct ethtool_stats
	ethtoolGSSETINFO  = 0x37 // ETHTOOL_GSSET_INFO, struct ethtool_sset_info (2.6.33+)
	ethSSStats        = 1    // ETH_SS_STATS
	ethGStringLen     = 32   // ETH_GSTRING_LEN

	// Header sizes. Every field of these structs is naturally aligned, so the layout is
	// the same on 32- and 64-bit ABIs (i386 aligns u64 to 4, but no u64 here sits at an
	// offset that is not a multiple of 8).
	gstringsHdr  = 12 // cmd, string_set, len; then len*32 bytes
	statsHdr     = 8  // cmd, n_stats; then n_stats u64
	ssetInfoSize = 24 // cmd, reserved, sset_mask u64, data[1] u32 (+4 padding)
	ringSize     = 36 // cmd + 8 u32
	ethtoolCmdSz = 44 // struct ethtool_cmd
	drvinfoSize  = 196
	drvNStatsOff = 4 + 32*5 + 12 + 4 // n_stats after cmd, 5 strings, reserved2, n_priv_flags

	// statsSlack is spare room after the values. ethtool_get_stats writes as many values
	// as the driver has at the time of the call, whatever n_stats the caller passed, on
	// kernels before the late-2025 fix that returns 0 values on a mismatch instead
	// (net/ethtool/ioctl.c; https://patch.msgid.link/20251208121901.3203692-1-gal@nvidia.com).
	// Stats re-reads the count before a GSTATS into a heap buffer, and the slack covers the
	// count growing in the microseconds between the two calls; into a guarded buffer
	// (statSet.guarded) it sends the cached count, and a larger count than the slack holds
	// ends at the guard page.
	statsSlack = 64
)

// ifreqData is struct ifreq with the ifr_data member of the union. The union is 16 bytes
// on 32-bit ABIs and 24 on 64-bit ones; the padding makes this at least as large as the
// kernel's struct ifreq on both, since the kernel copies sizeof(struct ifreq).
type ifreqData struct {
	name [unix.IFNAMSIZ]byte
	data unsafe.Pointer
	_    [24]byte
}

// ethtoolIoctl issues SIOCETHTOOL for ifname with buf as the command struct (its first 4
// bytes hold the command). The kernel reads and writes buf through the pointer in the
// ifreq; buf may live on the goroutine stack, which the runtime neither moves nor shrinks
// while the goroutine is in a system call (x/sys/unix IoctlGetEthtoolDrvinfo does the
// same). The call is raw, without the scheduler's hand-off (entersyscall), as the
// sampler's preads are: serve asks on every scrape, and a system call through the
// scheduler wakes the runtime's sysmon thread, which then polls every 20 µs until the
// process idles (export/rawconn.go). The commands sent are answered from the driver's
// counters under rtnl_lock (net/ethtool/ioctl.c dev_ethtool); the goroutine keeps its P
// while another task holds that lock.
func ethtoolIoctl(fd int, ifname string, buf []byte) error {
	if len(ifname) == 0 || len(ifname) >= unix.IFNAMSIZ {
		return fmt.Errorf("interface name %q: %w", ifname, unix.EINVAL)
	}
	ifr := &ifreqData{data: unsafe.Pointer(&buf[0])}
	copy(ifr.name[:], ifname)
	for {
		_, _, errno := unix.RawSyscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCETHTOOL, uintptr(unsafe.Pointer(ifr)))
		runtime.KeepAlive(buf)
		if errno == unix.EINTR {
			continue
		}
		if errno != 0 {
			return errno
		}
		return nil
	}
}

// ethtoolErr wraps an ioctl failure, mapping EOPNOTSUPP to ErrNotSupported.
func ethtoolErr(op, ifname string, err error) error {
	if errors.Is(err, unix.EOPNOTSUPP) {
		return fmt.Errorf("ethtool %s %s: %w: %w", op, ifname, ErrNotSupported, err)
	}
	return fmt.Errorf("ethtool %s %s: %w", op, ifname, err)
}

type ioctlEthtool struct {
	mu    sync.Mutex
	fd    int
	sets  map[string]*statSet
	calls int // ioctls issued (tests)
}

// ioctl issues one SIOCETHTOOL command on e's socket. e.mu is held.
func (e *ioctlEthtool) ioctl(ifname string, buf []byte) error {
	e.calls++
	return ethtoolIoctl(e.fd, ifname, buf)
}

// dropSet forgets ifname's string set and unmaps its buffer. e.mu is held.
func (e *ioctlEthtool) dropSet(ifname string) {
	if set := e.sets[ifname]; set != nil {
		set.free()
		delete(e.sets, ifname)
	}
}

// statSet is the cached ETH_SS_STATS string set of one interface with the buffer GSTATS
// fills. The names do not change while the count stays the same.
// answer returns the counters of one ETHTOOL_GSTATS answer, whose values (u64, native
// endian) data holds in the order of set.names. Each answer has values of its own (earlier
// samples keep theirs) and shares the set's names and index: a NIC with many queues has
// thousands of counters (mlx5, ice), and building their map on every sample cost more than
// the ioctls.
func (set *statSet) answer(data []byte) Counters {
	vals := make([]int64, len(set.names))
	for i := range vals {
		// Values are u64; the drivers' counters stay far below 2^63.
		vals[i] = int64(binary.NativeEndian.Uint64(data[8*i:]))
	}
	if c, ok := set.layout.WithValues(vals); ok {
		return c
	}
	// A driver that repeats a name (the layout holds it once): the names as the driver
	// gives them, the index pointing at the later one.
	c := Counters{names: set.names, values: vals, index: make(map[string]int, len(vals))}
	for i, name := range set.names {
		c.index[name] = i
	}
	return c
}

type statSet struct {
	names  []string
	layout Counters // names with their index, built once per name list and shared by every answer
	buf    []byte   // GSTATS' header and values, with statsSlack values to spare
	// guarded says buf ends where a page the process may not touch begins (mem is its
	// mapping): a kernel that writes more values than buf holds faults there, and Stats
	// may then skip asking for the count.
	guarded bool
	mem     []byte
}

// newStatSet returns the set of names with its GSTATS buffer: mapped with a guard page
// right after it when the system allows, from the heap (and not guarded) otherwise.
func newStatSet(names []string) *statSet {
	n := len(names)
	set := &statSet{names: names}
	for _, name := range names {
		set.layout.Set(name, 0)
	}
	need := statsHdr + 8*(n+statsSlack)
	page := unix.Getpagesize()
	size := (need+page-1)/page*page + page
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err == nil {
		if err = unix.Mprotect(mem[size-page:], unix.PROT_NONE); err != nil {
			unix.Munmap(mem)
		}
	}
	if err != nil {
		set.buf = make([]byte, need)
		return set
	}
	guard := size - page
	set.buf, set.mem, set.guarded = mem[guard-need:guard:guard], mem, true
	return set
}

// free unmaps the set's buffer; the set is not used after.
func (set *statSet) free() {
	if set.mem != nil {
		unix.Munmap(set.mem)
		set.mem, set.buf, set.guarded = nil, nil, false
	}
}

func (e *ioctlEthtool) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fd < 0 {
		return nil
	}
	err := unix.Close(e.fd)
	e.fd = -1
	for name := range e.sets {
		e.dropSet(name)
	}
	return err
}

// statsCount returns the number of ETH_SS_STATS strings of ifname. ETHTOOL_GSSET_INFO
// (2.6.33+) asks for it directly; older kernels report it as n_stats of GDRVINFO.
func (e *ioctlEthtool) statsCount(ifname string) (int, error) {
	b := make([]byte, ssetInfoSize)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], ethtoolGSSETINFO)
	ne.PutUint64(b[8:], 1<<ethSSStats)
	err := e.ioctl(ifname, b)
	if errors.Is(err, unix.EOPNOTSUPP) {
		d := make([]byte, drvinfoSize)
		ne.PutUint32(d[0:], ethtoolGDRVINFO)
		if err := e.ioctl(ifname, d); err != nil {
			return 0, ethtoolErr("-S", ifname, err)
		}
		n := int(ne.Uint32(d[drvNStatsOff:]))
		if n == 0 {
			return 0, ethtoolErr("-S", ifname, unix.EOPNOTSUPP)
		}
		return n, nil
	}
	if err != nil {
		return 0, ethtoolErr("-S", ifname, err)
	}
	// The kernel clears the bit of a set the driver does not count
	// (ethtool_get_sset_info); a driver without statistics has no ETH_SS_STATS.
	if ne.Uint64(b[8:])&(1<<ethSSStats) == 0 {
		return 0, ethtoolErr("-S", ifname, unix.EOPNOTSUPP)
	}
	n := int(ne.Uint32(b[16:]))
	if n == 0 {
		return 0, ethtoolErr("-S", ifname, unix.EOPNOTSUPP)
	}
	return n, nil
}

// strings fetches the ETH_SS_STATS names of ifname, n of them.
func (e *ioctlEthtool) strings(ifname string, n int) ([]string, error) {
	b := make([]byte, gstringsHdr+(n+statsSlack)*ethGStringLen)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], ethtoolGSTRINGS)
	ne.PutUint32(b[4:], ethSSStats)
	ne.PutUint32(b[8:], uint32(n))
	if err := e.ioctl(ifname, b); err != nil {
		return nil, ethtoolErr("-S", ifname, err)
	}
	got := int(ne.Uint32(b[8:]))
	if got != n {
		return nil, fmt.Errorf("ethtool -S %s: driver has %d statistics, counted %d a moment ago", ifname, got, n)
	}
	names := make([]string, n)
	seen := make(map[string]int, n)
	for i := range n {
		s := unix.ByteSliceToString(b[gstringsHdr+i*ethGStringLen : gstringsHdr+(i+1)*ethGStringLen])
		// A few drivers repeat a name; keep both values, the later ones as "name#2".
		if c := seen[s]; c > 0 {
			seen[s] = c + 1
			s = s + "#" + strconv.Itoa(c+1)
		} else {
			seen[s] = 1
		}
		names[i] = s
	}
	return names, nil
}

// Stats implements `ethtool -S`: GSSET_INFO for the count, GSTRINGS only when the count
// changed since the last call (names are cached per interface), then GSTATS. Once the
// names are cached in a guarded buffer (statSet.guarded), a call is GSTATS alone with the
// cached count, and the whole way only when its answer says the count changed.
func (e *ioctlEthtool) Stats(ifname string) (Counters, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fd < 0 {
		return Counters{}, errors.New("ethtool: closed")
	}
	if set := e.sets[ifname]; set != nil && set.guarded {
		// GSTATS without asking for the count first (serve asks on every scrape; the count
		// was one ioctl of three, each a lookup of the device under rtnl_lock). Safe on any
		// kernel: a fixed one answers a count that differs from ours with no values; an
		// older one writes its own count of values whatever ours, which either fits the
		// slack (and then differs from ours) or runs into the guard page after the buffer,
		// where copy_to_user stops and ethtool_get_stats fails with EFAULT
		// (net/ethtool/ioctl.c). In every such case, and on any error, the whole way below
		// asks for the count again and words the error as before.
		n, b := len(set.names), set.buf
		ne := binary.NativeEndian
		ne.PutUint32(b[0:], ethtoolGSTATS)
		ne.PutUint32(b[4:], uint32(n))
		if err := e.ioctl(ifname, b); err == nil && int(ne.Uint32(b[4:])) == n {
			return set.answer(b[statsHdr:]), nil
		}
	}
	for attempt := 0; ; attempt++ {
		n, err := e.statsCount(ifname)
		if err != nil {
			e.dropSet(ifname)
			return Counters{}, err
		}
		set := e.sets[ifname]
		if set == nil || len(set.names) != n {
			names, err := e.strings(ifname, n)
			if err != nil {
				if attempt < 2 {
					continue
				}
				return Counters{}, err
			}
			e.dropSet(ifname)
			set = newStatSet(names)
			e.sets[ifname] = set
		}
		ne := binary.NativeEndian
		b := set.buf
		ne.PutUint32(b[0:], ethtoolGSTATS)
		ne.PutUint32(b[4:], uint32(n))
		if err := e.ioctl(ifname, b); err != nil {
			return Counters{}, ethtoolErr("-S", ifname, err)
		}
		// A fixed kernel answers 0 values when our count is stale; an older one answers
		// its own count (within the slack). Either way the names are stale: refetch.
		if got := int(ne.Uint32(b[4:])); got != n {
			e.dropSet(ifname)
			if attempt < 2 {
				continue
			}
			return Counters{}, fmt.Errorf("ethtool -S %s: statistics count keeps changing (%d, then %d)", ifname, n, got)
		}
		return set.answer(b[statsHdr:]), nil
	}
}

// Ring implements `ethtool -g` with ETHTOOL_GRINGPARAM.
func (e *ioctlEthtool) Ring(ifname string) (Ring, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fd < 0 {
		return Ring{}, errors.New("ethtool: closed")
	}
	b := make([]byte, ringSize)
	ne := binary.NativeEndian
	ne.PutUint32(b, ethtoolGRINGPARAM)
	if err := e.ioctl(ifname, b); err != nil {
		return Ring{}, ethtoolErr("-g", ifname, err)
	}
	u := func(i int) int64 { return int64(ne.Uint32(b[4+4*i:])) }
	return Ring{
		RxMax: u(0), RxMiniMax: u(1), RxJumboMax: u(2), TxMax: u(3),
		Rx: u(4), RxMini: u(5), RxJumbo: u(6), Tx: u(7),
	}, nil
}

// ethtoolSpeed returns the link speed in Mb/s with ETHTOOL_GSET, which kernels still
// answer from get_link_ksettings (net/ethtool/ioctl.c ethtool_get_settings); -1 for
// SPEED_UNKNOWN. fd is an AF_INET socket of the namespace to ask.
func ethtoolSpeed(fd int, ifname string) (int64, error) {
	b := make([]byte, ethtoolCmdSz)
	ne := binary.NativeEndian
	ne.PutUint32(b, ethtoolGSET)
	if err := ethtoolIoctl(fd, ifname, b); err != nil {
		return -1, ethtoolErr("GSET", ifname, err)
	}
	// struct ethtool_cmd: speed (u16) at 12, speed_hi (u16) at 28.
	s := uint32(ne.Uint16(b[28:]))<<16 | uint32(ne.Uint16(b[12:]))
	if s == 0xffffffff || s == 0xffff {
		return -1, nil
	}
	return int64(s), nil
}

// ethtoolDir is where a capture stores the ethtool view of interface IF:
// "headroom/ethtool/IF.json", one NICStats as JSON (what CaptureNICStats returns).
const ethtoolDir = "headroom/ethtool"

// ReadNICStats returns the ethtool statistics and rings of nics. For the live host (also
// inside InNetns) it asks e, which must have been created in the namespace of nics; for any
// other root it reads "headroom/ethtool/IF.json". It never fails as a whole: each entry
// carries what could be read and, in StatsErr/RingErr, why a part is missing, so a
// report can say "not supported by this driver" or "not captured" per interface.
func ReadNICStats(root Root, e Ethtool, nics []NIC) []NICStats {
	out := make([]NICStats, 0, len(nics))
	for _, n := range nics {
		if root.IsLive() {
			out = append(out, queryNICStats(e, n.Name))
			continue
		}
		name := ethtoolDir + "/" + n.Name + ".json"
		b, err := root.ReadFile(name)
		if err != nil {
			msg := err.Error()
			out = append(out, NICStats{Name: n.Name, StatsErr: msg, RingErr: msg})
			continue
		}
		var s NICStats
		if err := json.Unmarshal(b, &s); err != nil {
			msg := fmt.Sprintf("/%s: %v", name, err)
			out = append(out, NICStats{Name: n.Name, StatsErr: msg, RingErr: msg})
			continue
		}
		s.Name = n.Name
		out = append(out, s)
	}
	return out
}

func queryNICStats(e Ethtool, ifname string) NICStats {
	s := NICStats{Name: ifname}
	if e == nil {
		s.StatsErr = "no ethtool handle"
		s.RingErr = s.StatsErr
		return s
	}
	if c, err := e.Stats(ifname); err != nil {
		s.StatsErr = err.Error()
	} else {
		s.Stats = &c
	}
	if r, err := e.Ring(ifname); err != nil {
		s.RingErr = err.Error()
	} else {
		s.Ring = &r
	}
	return s
}

// CaptureNICStats returns the bytes a capture stores as "headroom/ethtool/IF.json" for
// ifname: the NICStats that e reports, errors included.
func CaptureNICStats(e Ethtool, ifname string) ([]byte, error) {
	return json.MarshalIndent(queryNICStats(e, ifname), "", "\t")
}

// NICStatsCapturePath is the path under a capture root of ifname's ethtool view.
func NICStatsCapturePath(ifname string) string { return ethtoolDir + "/" + ifname + ".json" }
