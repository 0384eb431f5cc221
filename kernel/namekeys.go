package kernel

import (
	"encoding/binary"
	"strings"
)

// nameKeys are the names of a Counters in the form the same-layout fast paths compare them
// with text. A sample re-parses some 600 names (vmstat, zoneinfo, netstat, snmp6, meminfo);
// txtMatch compares each with the text eight bytes at a time but must also load the name's
// bytes from its own string, wherever the heap put it, and check that the name is plain
// (txtPlain) every time. A key is built once per layout: up to 24 bytes of the name as three
// words, side by side with the other names' keys, and the plainness is checked then, so a
// match is two or three loads from the text against words already in line. It took
// txtMatch's share of a sample's user time (19.6 % in perf) to what the loads cost.
type nameKeys struct {
	names []string // the Counters' names, for the names longer than 24 bytes
	keys  []nameKey
	ok    bool // every name is plain; otherwise the fast paths must not match any
	// spaced is " name1 name2 ...": /proc/net/netstat's and snmp's header line after the
	// group's "Name:", which netStatSameLayout compares in one go (built on first use).
	spaced string
}

// nameKey is one name as the words that cover it. A name of 8 to 24 bytes (nearly all the
// kernel's) is three words of the text at the name's start, o1 and o2, which together cover
// it: for n <= 16, [0, 8) and twice [n-8, n); above, [0, 8), [8, 16) and [n-8, n). A name of
// 1 to 7 bytes is the word at its start with the bytes past the name masked off (mask),
// three times over. Longer names are compared as strings (fast is false).
type nameKey struct {
	w0, w1, w2, mask uint64
	o1, o2           int32
	n                int32 // the name's length
	span             int32 // the bytes of text a match reads: max(n, 8)
	fast             bool
}

// nameKeys returns c's keys, building them on first use after a change of names. The result
// is valid until c's names change (Set of a new name, Reset, truncate).
func (c *Counters) nameKeys() *nameKeys {
	if k := c.keys; k != nil && len(k.keys) == len(c.names) {
		return k
	}
	k := &nameKeys{names: c.names, keys: make([]nameKey, len(c.names)), ok: true}
	for i, name := range c.names {
		if !txtPlain([]byte(name), 0, len(name)) {
			k.ok = false
		}
		var b [24]byte
		n := copy(b[:], name)
		key := nameKey{fast: n > 0 && len(name) <= 24, n: int32(len(name)), span: int32(max(n, 8)), mask: ^uint64(0)}
		if n < 8 {
			key.mask = uint64(1)<<(8*n) - 1
		} else {
			key.o1, key.o2 = int32(n-8), int32(n-8)
			if n > 16 {
				key.o1 = 8
			}
		}
		key.w0 = binary.LittleEndian.Uint64(b[:]) & key.mask
		key.w1 = binary.LittleEndian.Uint64(b[key.o1:]) & key.mask
		key.w2 = binary.LittleEndian.Uint64(b[key.o2:]) & key.mask
		k.keys[i] = key
	}
	c.keys = k
	return k
}

// at reports whether b holds name j at i. It agrees with txtMatch(b, i, names[j]) whenever
// k.ok (every name plain), which the callers check once per parse. The fast paths write it
// out as "k.fastAt(b, i, j) || k.atSlow(b, i, j)" so that the common case is inlined into
// their loops: a call, which this is, is what the inliner will not take.
func (k *nameKeys) at(b []byte, i, j int) bool { return k.fastAt(b, i, j) || k.atSlow(b, i, j) }

// fastAt is at for a name of up to 24 bytes with 8 bytes of text to read: three loads and
// compares, no call.
func (k *nameKeys) fastAt(b []byte, i, j int) bool {
	key := &k.keys[j]
	// o1 and o2 are at most span-8, so every load is inside b[i:i+span].
	return key.fast && i >= 0 && i+int(key.span) <= len(b) &&
		((ld64(b, i)^key.w0)|(ld64(b, i+int(key.o1))^key.w1)|(ld64(b, i+int(key.o2))^key.w2))&key.mask == 0
}

// atSlow is at for the names longer than 24 bytes, and near the end of the text; after a
// fastAt that failed, it compares again and fails too.
func (k *nameKeys) atSlow(b []byte, i, j int) bool {
	name := k.names[j]
	if i < 0 || len(b)-i < len(name) {
		return false
	}
	if n := len(name); n > 24 {
		return string(b[i:i+n]) == name
	}
	return txtMatch(b, i, name)
}

// spacedNames returns k.spaced, building it on first use.
func (k *nameKeys) spacedNames() string {
	if k.spaced == "" && len(k.names) > 0 {
		n := len(k.names)
		for _, name := range k.names {
			n += len(name)
		}
		var b strings.Builder
		b.Grow(n)
		for _, name := range k.names {
			b.WriteByte(' ')
			b.WriteString(name)
		}
		k.spaced = b.String()
	}
	return k.spaced
}
