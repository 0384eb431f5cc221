package kernel

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// GFP mode decoding by kernel era.
//
// An allocation failure prints the gfp mask as a number ("mode:0x20"); since 4.x it adds the
// kernel's own decoding ("mode:0x2080020(GFP_ATOMIC)"). The bit values changed many times,
// so the same number means different things on different kernels. Each era below was read
// from include/linux/gfp.h of a kernel in that range (2.4 from include/linux/mm.h):
//
//	2.4            mm.h: __GFP_WAIT 0x10, __GFP_HIGH 0x20, __GFP_IO 0x40, __GFP_HIGHIO 0x80,
//	               __GFP_FS 0x100 (__GFP_WAITBUF 0x200 from 2.4.10); GFP_KERNEL includes
//	               __GFP_HIGH.
//	2.6.0-2.6.22   checked against 2.6.11: __GFP_WAIT 0x10 ... __GFP_ZERO 0x8000,
//	               __GFP_NO_GROW 0x2000; __GFP_DMA32 0x04 from 2.6.15.
//	2.6.23-2.6.30  grouping pages by mobility (2.6.23) adds __GFP_RECLAIMABLE 0x80000 and
//	               __GFP_MOVABLE 0x100000; checked against 2.6.24.
//	2.6.31-4.3     __GFP_MOVABLE moves to 0x08 for the GFP_ZONE_TABLE lookup; later
//	               additions up to __GFP_WRITE 0x1000000; checked against 3.0 and 3.10.
//	4.4-4.9        commit d0164adc89f6 (4.4) splits __GFP_WAIT into __GFP_DIRECT_RECLAIM
//	               0x400000 and __GFP_KSWAPD_RECLAIM 0x2000000 and adds __GFP_ATOMIC
//	               0x80000: GFP_ATOMIC = 0x2080020. Checked against 4.9.
//	4.10-4.14      __GFP_OTHER_NODE removed (4.10): __GFP_WRITE 0x800000,
//	               __GFP_KSWAPD_RECLAIM 0x1000000: GFP_ATOMIC = 0x1080020. Checked against 4.14.
//	4.15-4.20      __GFP_COLD and __GFP_NOTRACK removed (4.15): __GFP_WRITE 0x100,
//	               __GFP_DIRECT_RECLAIM 0x200000, __GFP_KSWAPD_RECLAIM 0x400000:
//	               GFP_ATOMIC = 0x480020. Checked against 4.19.
//	5.0-6.2        flags reordered so that __GFP_KSWAPD_RECLAIM (0x800) equals
//	               ALLOC_KSWAPD in mm/page_alloc.c: __GFP_ATOMIC 0x200, __GFP_DIRECT_RECLAIM
//	               0x400: GFP_ATOMIC = 0xa20, GFP_KERNEL = 0xcc0. Checked against 5.4 and 5.10;
//	               4.19 still has the older layout. The change is attributed to 5.0 (Mel
//	               Gorman's fragmentation-avoidance series that introduced ALLOC_KSWAPD); a
//	               4.20 or 5.0 kernel is therefore decoded with both candidates listed.
//	6.3-           __GFP_ATOMIC removed ("0x200u unused", include/linux/gfp_types.h):
//	               GFP_ATOMIC = __GFP_HIGH|__GFP_KSWAPD_RECLAIM = 0x820.
type gfpEra struct {
	name     string // "4.4-4.9"
	from, to KernelVersion
	bits     map[uint64]string
	// composites in the order include/trace/events/mmflags.h prints them (largest first),
	// so that the decoding reads like the kernel's own "(GFP_ATOMIC|__GFP_COMP)".
	composites []gfpComposite
	// reclaimBit is the bit whose absence means "no direct reclaim": __GFP_WAIT before
	// 4.4, __GFP_DIRECT_RECLAIM after.
	reclaimBit uint64
	zeroName   string // the name of mode 0 in this era ("GFP_NOWAIT" where it was 0)
}

type gfpComposite struct {
	name string
	mask uint64
}

var gfpEras = buildGFPEras()

func buildGFPEras() []gfpEra {
	const (
		wait, high, io, fs = 0x10, 0x20, 0x40, 0x80
	)
	era24 := gfpEra{
		name: "2.4", from: KV(2, 4, 0), to: KV(2, 5, 999),
		bits: map[uint64]string{0x01: "__GFP_DMA", 0x02: "__GFP_HIGHMEM", 0x10: "__GFP_WAIT", 0x20: "__GFP_HIGH",
			0x40: "__GFP_IO", 0x80: "__GFP_HIGHIO", 0x100: "__GFP_FS", 0x200: "__GFP_WAITBUF"},
		composites: []gfpComposite{
			{"GFP_HIGHUSER", 0x10 | 0x40 | 0x80 | 0x100 | 0x02},
			{"GFP_KERNEL", 0x20 | 0x10 | 0x40 | 0x80 | 0x100},
			{"GFP_USER", 0x10 | 0x40 | 0x80 | 0x100},
			{"GFP_NOFS", 0x20 | 0x10 | 0x40 | 0x80},
			{"GFP_NOHIGHIO", 0x20 | 0x10 | 0x40},
			{"GFP_NOIO", 0x20 | 0x10},
			{"GFP_ATOMIC", 0x20},
		},
		reclaimBit: wait,
	}
	common26 := map[uint64]string{0x01: "__GFP_DMA", 0x02: "__GFP_HIGHMEM", 0x04: "__GFP_DMA32",
		0x10: "__GFP_WAIT", 0x20: "__GFP_HIGH", 0x40: "__GFP_IO", 0x80: "__GFP_FS", 0x100: "__GFP_COLD",
		0x200: "__GFP_NOWARN", 0x400: "__GFP_REPEAT", 0x800: "__GFP_NOFAIL", 0x1000: "__GFP_NORETRY",
		0x4000: "__GFP_COMP", 0x8000: "__GFP_ZERO", 0x10000: "__GFP_NOMEMALLOC", 0x20000: "__GFP_HARDWALL",
		0x40000: "__GFP_THISNODE"}
	with := func(base map[uint64]string, extra map[uint64]string) map[uint64]string {
		m := make(map[uint64]string, len(base)+len(extra))
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	comp26 := func(movable uint64) []gfpComposite {
		c := []gfpComposite{
			{"GFP_HIGHUSER", wait | io | fs | 0x20000 | 0x02},
			{"GFP_USER", wait | io | fs | 0x20000},
			{"GFP_TEMPORARY", wait | io | fs | 0x80000},
			{"GFP_KERNEL", wait | io | fs},
			{"GFP_NOFS", wait | io},
			{"GFP_ATOMIC", high},
			{"GFP_NOIO", wait},
		}
		if movable != 0 {
			c = append([]gfpComposite{{"GFP_HIGHUSER_MOVABLE", wait | io | fs | 0x20000 | 0x02 | movable}}, c...)
		}
		return c
	}
	era26a := gfpEra{name: "2.6.0-2.6.22", from: KV(2, 6, 0), to: KV(2, 6, 22),
		bits:       with(common26, map[uint64]string{0x2000: "__GFP_NO_GROW"}),
		composites: comp26(0), reclaimBit: wait, zeroName: "GFP_NOWAIT"}
	era26b := gfpEra{name: "2.6.23-2.6.30", from: KV(2, 6, 23), to: KV(2, 6, 30),
		bits:       with(common26, map[uint64]string{0x80000: "__GFP_RECLAIMABLE", 0x100000: "__GFP_MOVABLE"}),
		composites: comp26(0x100000), reclaimBit: wait, zeroName: "GFP_NOWAIT"}
	era26c := gfpEra{name: "2.6.31-4.3", from: KV(2, 6, 31), to: KV(4, 3, 999),
		bits: with(common26, map[uint64]string{0x08: "__GFP_MOVABLE", 0x2000: "__GFP_MEMALLOC",
			0x80000: "__GFP_RECLAIMABLE", 0x100000: "__GFP_KMEMCG", 0x200000: "__GFP_NOTRACK",
			0x400000: "__GFP_NO_KSWAPD", 0x800000: "__GFP_OTHER_NODE", 0x1000000: "__GFP_WRITE"}),
		composites: comp26(0x08), reclaimBit: wait, zeroName: "GFP_NOWAIT"}

	// 4.4 and later: composites are built from the era's bit values.
	modern := func(name string, from, to KernelVersion, b map[string]uint64, hasAtomic bool) gfpEra {
		e := gfpEra{name: name, from: from, to: to, bits: map[uint64]string{}}
		for n, v := range b {
			e.bits[v] = n
		}
		g := func(n string) uint64 { return b[n] }
		reclaim := g("__GFP_DIRECT_RECLAIM") | g("__GFP_KSWAPD_RECLAIM")
		kernel := reclaim | g("__GFP_IO") | g("__GFP_FS")
		user := kernel | g("__GFP_HARDWALL")
		atomic := g("__GFP_HIGH") | g("__GFP_KSWAPD_RECLAIM")
		if hasAtomic {
			atomic |= g("__GFP_ATOMIC")
		}
		hum := user | g("__GFP_HIGHMEM") | g("__GFP_MOVABLE")
		light := (hum | g("__GFP_COMP") | g("__GFP_NOMEMALLOC") | g("__GFP_NOWARN")) &^ reclaim
		e.composites = []gfpComposite{
			{"GFP_TRANSHUGE", light | g("__GFP_DIRECT_RECLAIM")},
			{"GFP_TRANSHUGE_LIGHT", light},
			{"GFP_HIGHUSER_MOVABLE", hum},
			{"GFP_HIGHUSER", user | g("__GFP_HIGHMEM")},
			{"GFP_USER", user},
			{"GFP_KERNEL_ACCOUNT", kernel | g("__GFP_ACCOUNT")},
			{"GFP_KERNEL", kernel},
			{"GFP_NOFS", reclaim | g("__GFP_IO")},
			{"GFP_ATOMIC", atomic},
			{"GFP_NOIO", reclaim},
			{"GFP_NOWAIT", g("__GFP_KSWAPD_RECLAIM")},
		}
		e.reclaimBit = g("__GFP_DIRECT_RECLAIM")
		return e
	}
	base44 := map[string]uint64{"__GFP_DMA": 0x01, "__GFP_HIGHMEM": 0x02, "__GFP_DMA32": 0x04, "__GFP_MOVABLE": 0x08,
		"__GFP_RECLAIMABLE": 0x10, "__GFP_HIGH": 0x20, "__GFP_IO": 0x40, "__GFP_FS": 0x80, "__GFP_COLD": 0x100,
		"__GFP_NOWARN": 0x200, "__GFP_REPEAT": 0x400, "__GFP_NOFAIL": 0x800, "__GFP_NORETRY": 0x1000,
		"__GFP_MEMALLOC": 0x2000, "__GFP_COMP": 0x4000, "__GFP_ZERO": 0x8000, "__GFP_NOMEMALLOC": 0x10000,
		"__GFP_HARDWALL": 0x20000, "__GFP_THISNODE": 0x40000, "__GFP_ATOMIC": 0x80000, "__GFP_ACCOUNT": 0x100000,
		"__GFP_NOTRACK": 0x200000, "__GFP_DIRECT_RECLAIM": 0x400000, "__GFP_OTHER_NODE": 0x800000,
		"__GFP_WRITE": 0x1000000, "__GFP_KSWAPD_RECLAIM": 0x2000000}
	era44 := modern("4.4-4.9", KV(4, 4, 0), KV(4, 9, 999), base44, true)

	b410 := map[string]uint64{}
	for k, v := range base44 {
		b410[k] = v
	}
	delete(b410, "__GFP_OTHER_NODE")
	b410["__GFP_WRITE"] = 0x800000
	b410["__GFP_KSWAPD_RECLAIM"] = 0x1000000
	b410["__GFP_NOLOCKDEP"] = 0x2000000 // 4.12+, CONFIG_LOCKDEP only
	era410 := modern("4.10-4.14", KV(4, 10, 0), KV(4, 14, 999), b410, true)

	b415 := map[string]uint64{"__GFP_DMA": 0x01, "__GFP_HIGHMEM": 0x02, "__GFP_DMA32": 0x04, "__GFP_MOVABLE": 0x08,
		"__GFP_RECLAIMABLE": 0x10, "__GFP_HIGH": 0x20, "__GFP_IO": 0x40, "__GFP_FS": 0x80, "__GFP_WRITE": 0x100,
		"__GFP_NOWARN": 0x200, "__GFP_RETRY_MAYFAIL": 0x400, "__GFP_NOFAIL": 0x800, "__GFP_NORETRY": 0x1000,
		"__GFP_MEMALLOC": 0x2000, "__GFP_COMP": 0x4000, "__GFP_ZERO": 0x8000, "__GFP_NOMEMALLOC": 0x10000,
		"__GFP_HARDWALL": 0x20000, "__GFP_THISNODE": 0x40000, "__GFP_ATOMIC": 0x80000, "__GFP_ACCOUNT": 0x100000,
		"__GFP_DIRECT_RECLAIM": 0x200000, "__GFP_KSWAPD_RECLAIM": 0x400000, "__GFP_NOLOCKDEP": 0x800000}
	era415 := modern("4.15-4.20", KV(4, 15, 0), KV(4, 20, 999), b415, true)

	b50 := map[string]uint64{"__GFP_DMA": 0x01, "__GFP_HIGHMEM": 0x02, "__GFP_DMA32": 0x04, "__GFP_MOVABLE": 0x08,
		"__GFP_RECLAIMABLE": 0x10, "__GFP_HIGH": 0x20, "__GFP_IO": 0x40, "__GFP_FS": 0x80, "__GFP_ZERO": 0x100,
		"__GFP_ATOMIC": 0x200, "__GFP_DIRECT_RECLAIM": 0x400, "__GFP_KSWAPD_RECLAIM": 0x800, "__GFP_WRITE": 0x1000,
		"__GFP_NOWARN": 0x2000, "__GFP_RETRY_MAYFAIL": 0x4000, "__GFP_NOFAIL": 0x8000, "__GFP_NORETRY": 0x10000,
		"__GFP_MEMALLOC": 0x20000, "__GFP_COMP": 0x40000, "__GFP_NOMEMALLOC": 0x80000, "__GFP_HARDWALL": 0x100000,
		"__GFP_THISNODE": 0x200000, "__GFP_ACCOUNT": 0x400000,
		// 0x800000 is __GFP_NOLOCKDEP with CONFIG_LOCKDEP, __GFP_ZEROTAGS (5.12+) otherwise.
		"__GFP_ZEROTAGS|__GFP_NOLOCKDEP": 0x800000}
	era50 := modern("5.0-6.2", KV(5, 0, 0), KV(6, 2, 999), b50, true)
	b63 := map[string]uint64{}
	for k, v := range b50 {
		b63[k] = v
	}
	delete(b63, "__GFP_ATOMIC")
	era63 := modern("6.3-", KV(6, 3, 0), KV(99, 0, 0), b63, false)

	eras := []gfpEra{era24, era26a, era26b, era26c, era44, era410, era415, era50, era63}
	for i := range eras {
		sort.SliceStable(eras[i].composites, func(a, b int) bool {
			return bits.OnesCount64(eras[i].composites[a].mask) > bits.OnesCount64(eras[i].composites[b].mask)
		})
	}
	return eras
}

// decode names the bits of mode as the kernel's %pGg does: composite names first, then the
// remaining single flags in bit order, then any bits this era does not name, in hex.
func (e *gfpEra) decode(mode uint64) []string {
	if mode == 0 {
		if e.zeroName != "" {
			return []string{e.zeroName}
		}
		return []string{"0"}
	}
	var out []string
	rest := mode
	for _, c := range e.composites {
		if c.mask != 0 && rest&c.mask == c.mask {
			out = append(out, c.name)
			rest &^= c.mask
		}
	}
	for b := uint64(1); b != 0 && rest != 0; b <<= 1 {
		if rest&b == 0 {
			continue
		}
		if n, ok := e.bits[b]; ok {
			out = append(out, n)
			rest &^= b
		}
	}
	if rest != 0 {
		out = append(out, fmt.Sprintf("%#x", rest))
	}
	return out
}

// gfpErasFor returns the eras a kernel release may belong to: one when the release is known
// and inside a verified era, two at the 4.20/5.0 boundary, all when unknown.
func gfpErasFor(kernelRelease string) ([]*gfpEra, string) {
	v, err := ParseKernelVersion(kernelRelease)
	if err != nil || !v.Known {
		all := make([]*gfpEra, len(gfpEras))
		for i := range gfpEras {
			all[i] = &gfpEras[i]
		}
		return all, ""
	}
	var found []*gfpEra
	for i := range gfpEras {
		e := &gfpEras[i]
		if v.Within(e.from, e.to) {
			found = append(found, e)
		}
	}
	// The reorder to the 5.0 layout is verified only between 4.19 and 5.4 sources.
	if (v.Major == 4 && v.Minor == 20) || (v.Major == 5 && v.Minor == 0) {
		found = []*gfpEra{eraByName("4.15-4.20"), eraByName("5.0-6.2")}
		return found, "the GFP bit layout changed between 4.19 and 5.4 (attributed to 5.0); both decodings are listed"
	}
	if v.Major < 2 || (v.Major == 2 && v.Minor < 4) {
		return nil, fmt.Sprintf("no GFP table for kernel %s (before 2.4)", kernelRelease)
	}
	return found, ""
}

func eraByName(name string) *gfpEra {
	for i := range gfpEras {
		if gfpEras[i].name == name {
			return &gfpEras[i]
		}
	}
	return nil
}

// DecodeGFP decodes a GFP mode for the kernel release given. When the release is known and
// falls in one era, flags holds that era's decoding and candidates is nil. When it is unknown
// (""), or at an era boundary that could not be verified, flags is nil and candidates lists
// each distinct decoding with the kernels it applies to; note says why. It never guesses an
// era silently.
func DecodeGFP(mode uint64, kernelRelease string) (flags []string, candidates []GFPCandidate, note string) {
	eras, why := gfpErasFor(kernelRelease)
	if len(eras) == 1 {
		return eras[0].decode(mode), nil, fmt.Sprintf("decoded with the %s layout of include/linux/gfp.h for kernel %s", eras[0].name, kernelRelease)
	}
	if len(eras) == 0 {
		if why == "" {
			why = fmt.Sprintf("kernel %s is outside the known GFP eras", kernelRelease)
		}
		return nil, nil, why
	}
	// Group eras by identical decoding so that the list stays short.
	var order []string
	byKey := map[string]*GFPCandidate{}
	for _, e := range eras {
		d := e.decode(mode)
		key := strings.Join(d, "|")
		c, ok := byKey[key]
		if !ok {
			c = &GFPCandidate{Flags: d}
			byKey[key] = c
			order = append(order, key)
		}
		if c.Kernels == "" {
			c.Kernels = e.name
		} else {
			c.Kernels += ", " + e.name
		}
	}
	for _, k := range order {
		candidates = append(candidates, *byKey[k])
	}
	if why == "" {
		why = "kernel version unknown (give --kernel): the GFP bit values differ by kernel era, so each era's decoding is listed"
	}
	return nil, candidates, why
}

// reclaimNames are the composite and single flag names that include direct reclaim.
var reclaimNames = map[string]bool{
	"GFP_KERNEL": true, "GFP_KERNEL_ACCOUNT": true, "GFP_NOFS": true, "GFP_NOIO": true, "GFP_USER": true,
	"GFP_HIGHUSER": true, "GFP_HIGHUSER_MOVABLE": true, "GFP_TRANSHUGE": true, "GFP_TEMPORARY": true,
	"__GFP_DIRECT_RECLAIM": true, "__GFP_RECLAIM": true, "__GFP_WAIT": true,
}

// IsAtomicGFP decides whether an allocation with this mode could not enter direct reclaim,
// which is what makes an allocation failure "atomic": the caller (typically a NIC's RX
// refill in softirq) cannot wait for memory to be freed, so only the free pages above the
// min watermark (and the reserve GFP_ATOMIC may dip into) can serve it. Before 4.4 that is
// the absence of __GFP_WAIT; from 4.4 (commit d0164adc89f6) the absence of
// __GFP_DIRECT_RECLAIM.
//
// printed is the mode as the kernel printed it: when it carries the kernel's own decoding
// ("0x2080020(GFP_ATOMIC)") that decoding decides. Otherwise the era of kernelRelease does;
// when the release is unknown, the answer is decided only if every era agrees. ok is false
// when it cannot be decided; why says how it was decided either way.
func IsAtomicGFP(mode uint64, printed, kernelRelease string) (atomic, ok bool, why string) {
	if names := SymbolicGFP(printed); len(names) > 0 {
		for _, n := range names {
			if reclaimNames[n] {
				return false, true, fmt.Sprintf("the kernel printed %s, which allows direct reclaim", n)
			}
		}
		return true, true, fmt.Sprintf("the kernel printed (%s), which has no direct-reclaim flag", strings.Join(names, "|"))
	}
	eras, _ := gfpErasFor(kernelRelease)
	if len(eras) == 0 {
		return false, false, "no GFP table for this kernel"
	}
	first := mode&eras[0].reclaimBit == 0
	for _, e := range eras[1:] {
		if (mode&e.reclaimBit == 0) != first {
			return false, false, "kernel era unknown and the eras disagree on whether this mode allows direct reclaim"
		}
	}
	bit := "__GFP_WAIT"
	if len(eras) == 1 {
		if eras[0].reclaimBit != 0x10 {
			bit = "__GFP_DIRECT_RECLAIM"
		}
		if first {
			return true, true, fmt.Sprintf("%s (%#x) is clear in the %s layout", bit, eras[0].reclaimBit, eras[0].name)
		}
		return false, true, fmt.Sprintf("%s (%#x) is set in the %s layout", bit, eras[0].reclaimBit, eras[0].name)
	}
	if first {
		return true, true, "every kernel era agrees: neither __GFP_WAIT nor __GFP_DIRECT_RECLAIM is set"
	}
	return false, true, "every kernel era agrees: the mode allows direct reclaim"
}

// SymbolicGFP returns the names inside the parentheses of a printed mode
// ("0x2080020(GFP_ATOMIC|__GFP_COMP)" → [GFP_ATOMIC __GFP_COMP]), nil when there are none.
func SymbolicGFP(printed string) []string {
	i := strings.IndexByte(printed, '(')
	j := strings.LastIndexByte(printed, ')')
	if i < 0 || j <= i+1 {
		return nil
	}
	inner := printed[i+1 : j]
	if inner == "none" {
		return nil
	}
	parts := strings.Split(inner, "|")
	out := parts[:0]
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ParseGFPNumber reads the number of a printed mode: "0x20", "0x2080020(GFP_ATOMIC)",
// "20" (2.4's "gfp=0x20/0" passes "0x20").
func ParseGFPNumber(printed string) (uint64, bool) {
	s := printed
	if i := strings.IndexAny(s, "(/,"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	} else if strings.HasPrefix(s, "#") {
		s, base = s[1:], 16
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil
}

// GFPCandidate is one era's decoding of a GFP mode, listed when the era is not known.
type GFPCandidate struct {
	Kernels string   `json:"kernels"` // "2.6.0-4.9"
	Flags   []string `json:"flags"`
}

// GFPDecoding is everything the decoder says of one printed mode.
type GFPDecoding struct {
	Flags      []string       // names for the era in force; empty when the era is unknown
	Candidates []GFPCandidate // each era's decoding when it is unknown
	Note       string         // how it was decoded
	Atomic     *bool          // no direct reclaim allowed; nil when undecidable
}

// DecodeGFPMode decodes a mode as printed ("0x20", "0x2080020(GFP_ATOMIC)", "gfp=0x20/0")
// for the kernel release in force ("" when unknown). The kernel's own symbolic decoding,
// when printed, is used as is; otherwise the era's table decides.
func DecodeGFPMode(printed string, value uint64, kernelRelease string) GFPDecoding {
	var d GFPDecoding
	// A mode whose number could not be read is unknown, not 0: decoding 0 would call it
	// GFP_NOWAIT, atomic, and a sleeping allocation a failed atomic one.
	if _, ok := ParseGFPNumber(printed); !ok && len(SymbolicGFP(printed)) == 0 {
		d.Flags, d.Note = []string{}, fmt.Sprintf("the mode %q could not be read as a number", printed)
		return d
	}
	if names := SymbolicGFP(printed); len(names) > 0 {
		d.Flags, d.Note = names, "as decoded by the kernel in the report"
	} else {
		d.Flags, d.Candidates, d.Note = DecodeGFP(value, kernelRelease)
		if d.Flags == nil {
			d.Flags = []string{}
		}
	}
	if a, ok, _ := IsAtomicGFP(value, printed, kernelRelease); ok {
		d.Atomic = &a
	}
	return d
}

// GFPNames returns the names of a mode (the kernel's, or this package's decoding) when the
// printed mode carries them or the era is known, nil otherwise.
func GFPNames(printed string, value uint64, kernelRelease string) []string {
	if n := SymbolicGFP(printed); len(n) > 0 {
		return n
	}
	flags, _, _ := DecodeGFP(value, kernelRelease)
	return flags
}

// Classes of an allocation by what its caller could do when memory ran short; the gfp_class
// label of headroom_page_allocation_failures_total and the allocation-failure rule's wording.
const (
	// GFPClassAtomic: no direct reclaim, and access to the reserve below the min watermark
	// (__GFP_HIGH, or __GFP_ATOMIC on 4.4-6.2): GFP_ATOMIC, the NIC RX refill in softirq.
	GFPClassAtomic = "atomic"
	// GFPClassNowait: no direct reclaim and no reserve access: GFP_NOWAIT,
	// GFP_TRANSHUGE_LIGHT, mode 0 on old kernels. Expected to fail; callers fall back.
	GFPClassNowait = "nowait"
	// GFPClassKernel: direct reclaim allowed, no __GFP_HARDWALL: GFP_KERNEL, GFP_NOFS,
	// GFP_NOIO, GFP_KERNEL_ACCOUNT. A failure means reclaim and compaction both gave up.
	GFPClassKernel = "kernel"
	// GFPClassUser: direct reclaim allowed and __GFP_HARDWALL set (GFP_USER, GFP_HIGHUSER,
	// GFP_HIGHUSER_MOVABLE, GFP_TRANSHUGE): on behalf of user space, bounded by its cpuset.
	GFPClassUser = "user"
	// GFPClassUnknown: the era is unknown and the candidate decodings disagree, or no usable
	// mode was printed.
	GFPClassUnknown = "unknown"
)

// GFPClasses lists the classes in label order.
var GFPClasses = []string{GFPClassAtomic, GFPClassNowait, GFPClassKernel, GFPClassUser, GFPClassUnknown}

// ClassifyGFP sorts an allocation into one of the GFP classes. atomic is the answer of
// IsAtomicGFP (nil when undecidable): __GFP_WAIT clear before 4.4, __GFP_DIRECT_RECLAIM clear
// from 4.4 (commit d0164adc89f6). The rest comes from the decoded names; when the era is
// unknown (flags empty) every candidate decoding must give the same class.
func ClassifyGFP(atomic *bool, flags []string, candidates []GFPCandidate) string {
	if atomic == nil {
		return GFPClassUnknown
	}
	sets := [][]string{flags}
	if len(flags) == 0 {
		sets = sets[:0]
		for _, c := range candidates {
			sets = append(sets, c.Flags)
		}
	}
	if len(sets) == 0 {
		// Reclaim is known (every era agrees) but no names are: the reserve access is not.
		if *atomic {
			return GFPClassUnknown
		}
		return GFPClassKernel
	}
	class := ""
	for _, f := range sets {
		set := GFPFlagSet(f)
		c := GFPClassKernel
		switch {
		case *atomic && (set["HIGH"] || set["ATOMIC"]):
			c = GFPClassAtomic
		case *atomic:
			c = GFPClassNowait
		case set["HARDWALL"]:
			c = GFPClassUser
		}
		if class != "" && c != class {
			return GFPClassUnknown
		}
		class = c
	}
	return class
}

// GFPFlagSet normalises decoded names to their bare form ("__GFP_DMA" → "DMA",
// "GFP_ATOMIC" → "ATOMIC") and adds the single flags each composite includes, so that a
// question about one flag has one answer whether the kernel printed the composite or the
// bits (include/linux/gfp_types.h, and the same composites in every era this package
// decodes):
//
//	GFP_ATOMIC                          __GFP_HIGH (2.4-4.3: alone; 4.4-6.2: |__GFP_ATOMIC)
//	GFP_USER, GFP_HIGHUSER*, GFP_TRANSHUGE  __GFP_HARDWALL (2.6.x on; 2.4 had no cpusets)
//	GFP_HIGHUSER*                       __GFP_HIGHMEM
//	*_MOVABLE                           __GFP_MOVABLE
//	GFP_KERNEL_ACCOUNT                  __GFP_ACCOUNT (4.5+: charged to the memory cgroup)
func GFPFlagSet(flags []string) map[string]bool {
	set := map[string]bool{}
	for _, f := range flags {
		n := strings.ToUpper(strings.TrimSpace(f))
		n = strings.TrimLeft(n, "_")
		n = strings.TrimPrefix(n, "GFP_")
		if n == "" {
			continue
		}
		set[n] = true
		if strings.HasPrefix(n, "HIGHUSER") {
			set["HIGHMEM"] = true
		}
		if strings.HasPrefix(n, "HIGHUSER") || n == "USER" || n == "TRANSHUGE" {
			set["HARDWALL"] = true
		}
		if strings.HasSuffix(n, "MOVABLE") {
			set["MOVABLE"] = true
		}
		if n == "ATOMIC" {
			set["HIGH"] = true
		}
		if n == "KERNEL_ACCOUNT" {
			set["ACCOUNT"] = true
		}
	}
	return set
}

// GFPClasszone is the highest zone a mask may allocate from (gfp_zone(), include/linux/gfp.h,
// the same zone modifiers since 2.6.15's __GFP_DMA32): __GFP_DMA → DMA, __GFP_DMA32 → DMA32,
// __GFP_HIGHMEM|__GFP_MOVABLE → Movable, __GFP_HIGHMEM → HighMem, otherwise Normal. set is
// from GFPFlagSet.
func GFPClasszone(set map[string]bool) string {
	switch {
	case set["DMA"]:
		return "DMA"
	case set["DMA32"]:
		return "DMA32"
	case set["HIGHMEM"] && set["MOVABLE"]:
		return "Movable"
	case set["HIGHMEM"]:
		return "HighMem"
	}
	return "Normal"
}

// GFPAccounted reports whether the allocation is charged to a memory cgroup (__GFP_ACCOUNT,
// 4.5+): it can then fail at the cgroup's limit with free memory left in the zone.
func GFPAccounted(set map[string]bool) bool { return set["ACCOUNT"] }

// GFPMayUseHighAtomic reports whether an allocation of this order may take blocks from the
// MIGRATE_HIGHATOMIC reserve (4.4+, commit 0aaa29a56e4f; mm/page_alloc.c rmqueue): only
// high-order requests, and only those the allocator marks ALLOC_HARDER (4.4-6.2: __GFP_ATOMIC
// without __GFP_NOMEMALLOC, gfp_to_alloc_flags) or ALLOC_HIGHATOMIC (6.3+, commit
// eb2e2b425c69: any request that cannot direct-reclaim). An unknown kernel gives false.
func GFPMayUseHighAtomic(set map[string]bool, atomic bool, order int, v KernelVersion) bool {
	if order == 0 || !v.AtLeast(4, 4, 0) {
		return false
	}
	if v.AtLeast(6, 3, 0) {
		return atomic
	}
	return set["ATOMIC"] && !set["NOMEMALLOC"]
}
