package export

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// The window keeps its samples packed: a live model.Sample holds some 1,000 counters, and
// each kernel.Counters carries its own name index (a map) and name strings, about 100 KB a
// sample on a 2-CPU VM, 6 MB for a 60-sample window: more than node_exporter's whole
// resident set. A packedSample keeps the values only, as varints, and shares its strings
// and name lists with the sample packed before it while they are unchanged (they almost
// always are): 2.5 to 3 KB a sample on a 2-CPU VM, 6 KB when a string changed (a kernel
// thread's state letter) and the sample keeps its own string list (TestPackRoundTrip logs
// it). Rates are not packed:
// they are derived again when the window is unpacked. The rules, which run at most once
// per rules interval, get the window unpacked into ordinary samples (Collector.timeline).
//
// The codec walks model.Sample by reflection, so a field added to a kernel type is kept
// without a change here; TestPackRoundTrip checks that unpacking gives back the sample,
// field for field, on the captured host and on this one.

// packedSample is one window sample: its scalars in walk order, its strings (interned), and
// its name lists (counter names, map keys) shared with other packed samples.
type packedSample struct {
	time  time.Time // Sample.Time, kept unpacked for pruning the window by age
	data  []byte    // integers and counter values (zigzag varints), floats, lengths, nil flags
	strs  []string
	lists [][]string
	// full is the sample unpacked, with its rates, when the collector keeps it for the
	// next run of the rules (Collector.timeline); nil otherwise.
	full *model.Sample
}

// packer packs samples. It is not safe for concurrent use (the Collector's mutex guards it).
type packer struct {
	// last holds the name lists of the previous packed sample by position in the walk, so
	// the next sample shares them when equal.
	last   [][]string
	intern map[string]string

	// lastStrs are the strings of the previous packed sample: a string equal to the one at
	// the same position is shared without a lookup in intern.
	lastStrs  []string
	lastLists [][]string

	// scratch of the sample being packed
	data  []byte // written up to n
	n     int
	strs  []string
	lists [][]string
	li    int      // position among the lists of this sample
	keys  []string // scratch for sorting map keys
}

// maxInterned bounds the intern table: strings that churn (socket addresses of --sockets'
// top sockets) must not grow it without end. Past the bound it starts afresh; strings
// already packed stay with the samples that use them.
const maxInterned = 8192

func (p *packer) str(s string) string {
	if v, ok := p.intern[s]; ok {
		return v
	}
	if p.intern == nil || len(p.intern) >= maxInterned {
		p.intern = make(map[string]string, 256)
	}
	s = strings.Clone(s) // the sample's strings may share storage the next sample reuses
	p.intern[s] = s
	return s
}

// The put functions write at p.n in p.data, which only grows: writing the slice header back
// on every value would cost a GC write barrier each.
func (p *packer) room() {
	if len(p.data)-p.n < binary.MaxVarintLen64 {
		p.data = append(p.data, make([]byte, len(p.data)+256)...)
	}
}

func (p *packer) putUint(v uint64) {
	p.room()
	p.n += binary.PutUvarint(p.data[p.n:], v)
}

func (p *packer) putInt(v int64) {
	p.room()
	p.n += binary.PutVarint(p.data[p.n:], v)
}

func (p *packer) putFloat(f float64) {
	p.room()
	binary.LittleEndian.PutUint64(p.data[p.n:], math.Float64bits(f))
	p.n += 8
}

func (p *packer) putStr(s string) {
	i := len(p.strs)
	if i < len(p.lastStrs) && p.lastStrs[i] == s {
		s = p.lastStrs[i]
	} else {
		s = p.str(s)
	}
	p.strs = append(p.strs, s)
}

// list returns names as a list shared with the previous packed sample when equal.
func (p *packer) list(names []string) []string {
	i := p.li
	p.li++
	if i < len(p.last) && slices.Equal(p.last[i], names) {
		return p.last[i]
	}
	out := make([]string, len(names))
	for k, n := range names {
		out[k] = p.str(n)
	}
	if i < len(p.last) {
		p.last[i] = out
	} else {
		p.last = append(p.last, out)
	}
	return out
}

// pack returns s packed. s is not retained.
func (p *packer) pack(s *model.Sample) packedSample {
	p.n, p.strs, p.lists, p.li = 0, p.strs[:0], p.lists[:0], 0
	samplePlan().enc(p, reflect.ValueOf(s).Elem())
	ps := packedSample{time: s.Time, data: exact(p.data[:p.n])}
	// The strings and the lists are almost always those of the previous sample, element for
	// element (putStr and list made them share): then the slices are shared too.
	if slices.Equal(p.strs, p.lastStrs) {
		ps.strs = p.lastStrs
	} else {
		ps.strs = exact(p.strs)
		p.lastStrs = ps.strs
	}
	if slices.EqualFunc(p.lists, p.lastLists, sameList) {
		ps.lists = p.lastLists
	} else {
		ps.lists = exact(p.lists)
		p.lastLists = ps.lists
	}
	return ps
}

// sameList reports whether a and b are the same list (not only equal).
func sameList(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// exact copies s into a slice of its length.
func exact[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// unpack returns the sample. Its counters share their names and name index with the other
// samples unpacked with the same templates (see counterTemplates); it shares nothing else
// with ps but immutable strings. tm may be nil.
func (ps *packedSample) unpack(tm *counterTemplates) (s model.Sample) {
	u := unpacker{ps: ps, tm: tm}
	samplePlan().dec(&u, reflect.ValueOf(&s).Elem())
	return s
}

// counterTemplates holds, for each name list of the window, a kernel.Counters with those
// names and its name index, made once. Unpacking the window for the rules used to rebuild
// every counter's index map with Set, some 1,000 map insertions and 100 KB a sample: 17 ms
// and 9.6 MB for a 60-sample window on the CI VM, every rules interval. A counter unpacked
// from a template is a copy of it with its own values: the names and the index are shared,
// read-only, as everything that reads a Timeline only reads it (the rules are pure
// functions; reports render).
//
// The copies share the template's names and index through kernel.Counters.WithValues; the
// unpacked window is only read (rules, reports), never changed with Set.
type counterTemplates struct {
	m map[*string]*kernel.Counters // by the list's first element: lists are shared, never copied
}

// maxTemplates bounds the templates: lists that churn (a NIC's statistics come and go)
// leave old ones behind; past the bound the cache starts afresh.
const maxTemplates = 4096

func (tm *counterTemplates) get(list []string) *kernel.Counters {
	if tm == nil || len(list) == 0 {
		return nil
	}
	if t, ok := tm.m[&list[0]]; ok {
		return t
	}
	t := new(kernel.Counters)
	for _, n := range list {
		t.Set(n, 0)
	}
	if t.Len() != len(list) {
		t = nil // a repeated name (a malformed file): rebuild such counters with Set
	}
	if tm.m == nil || len(tm.m) >= maxTemplates {
		tm.m = make(map[*string]*kernel.Counters, 64)
	}
	tm.m[&list[0]] = t
	return t
}

// setValues makes c a copy of t with values vals (len(vals) == t.Len()), sharing t's names
// and index.
func setValues(c, t *kernel.Counters, vals []int64) {
	if w, ok := t.WithValues(vals); ok {
		*c = w
		return
	}
	c.Reset()
	for i := 0; i < t.Len() && i < len(vals); i++ {
		name, _ := t.At(i)
		c.Set(name, vals[i])
	}
}

// size is the bytes ps holds of its own: the data, and the string and list slices unless
// they are those of prev (shared name lists and interned strings are not counted).
func (ps *packedSample) size(prev *packedSample) int {
	n := cap(ps.data)
	if prev == nil || !sameList(ps.strs, prev.strs) {
		n += 16 * cap(ps.strs)
	}
	if prev == nil || len(ps.lists) != len(prev.lists) || (len(ps.lists) > 0 && &ps.lists[0] != &prev.lists[0]) {
		n += 24 * cap(ps.lists)
	}
	return n
}

// putPresent writes whether the pointer or map v is set (1) or nil (0), what its decoder reads
// first, and reports whether its value follows.
func (pk *packer) putPresent(v reflect.Value) bool {
	if v.IsNil() {
		pk.putUint(0)
		return false
	}
	pk.putUint(1)
	return true
}

type unpacker struct {
	ps         *packedSample
	tm         *counterTemplates
	n, s, l    int // read positions in data, strs, lists
	overflowed bool
}

// advance moves past k bytes of data, the count a decoder read; k <= 0 (binary.Uvarint's
// and Varint's short or overflowing input) marks the packing overflowed and ends it.
func (u *unpacker) advance(k int) bool {
	if k <= 0 {
		u.overflowed = true
		u.n = len(u.ps.data)
		return false
	}
	u.n += k
	return true
}

func (u *unpacker) uint() uint64 {
	v, k := binary.Uvarint(u.ps.data[u.n:])
	if !u.advance(k) {
		return 0
	}
	return v
}

func (u *unpacker) int() int64 {
	v, k := binary.Varint(u.ps.data[u.n:])
	if !u.advance(k) {
		return 0
	}
	return v
}

func (u *unpacker) float() float64 {
	if len(u.ps.data)-u.n < 8 {
		u.advance(0)
		return 0
	}
	v := binary.LittleEndian.Uint64(u.ps.data[u.n:])
	u.advance(8)
	return math.Float64frombits(v)
}

// length reads a slice length; false for a nil slice, and for a length the rest of the
// packing could not hold (a corrupt packing must not make it allocate without bound).
func (u *unpacker) length() (int, bool) {
	n := u.uint()
	if n == 0 || u.overflowed {
		return 0, false
	}
	// Every element reads at least one byte, string or list.
	if n-1 > uint64(len(u.ps.data)-u.n+len(u.ps.strs)-u.s+len(u.ps.lists)-u.l) {
		u.overflowed = true
		return 0, false
	}
	return int(n - 1), true
}

func (u *unpacker) str() string {
	if u.s >= len(u.ps.strs) {
		u.overflowed = true
		return ""
	}
	v := u.ps.strs[u.s]
	u.s++
	return v
}

func (u *unpacker) list() []string {
	if u.l >= len(u.ps.lists) {
		u.overflowed = true
		return nil
	}
	v := u.ps.lists[u.l]
	u.l++
	return v
}

// typePlan packs and unpacks one type. v is addressable on both sides.
type typePlan struct {
	enc func(p *packer, v reflect.Value)
	dec func(u *unpacker, v reflect.Value)
}

var (
	planOnce  sync.Once
	planCache *typePlan
	planErr   error
)

// samplePlan is the plan for model.Sample. Building it fails only when a type holds
// something the codec cannot rebuild (an unexported field other than kernel.Counters' and
// time.Time's, an interface, a channel): a programming error that TestPackRoundTrip reports.
func samplePlan() *typePlan {
	planOnce.Do(func() {
		planCache, planErr = buildPlan(reflect.TypeFor[model.Sample](), map[reflect.Type]*typePlan{})
	})
	if planErr != nil {
		panic(planErr)
	}
	return planCache
}

var (
	countersType = reflect.TypeFor[kernel.Counters]()
	timeType     = reflect.TypeFor[time.Time]()
	int64sType   = reflect.TypeFor[[]int64]()
	ratesType    = reflect.TypeFor[map[string]float64]()
)

func buildPlan(t reflect.Type, seen map[reflect.Type]*typePlan) (*typePlan, error) {
	if p, ok := seen[t]; ok {
		return p, nil
	}
	p := &typePlan{}
	seen[t] = p // recursive types resolve to the plan being built
	switch {
	case t == countersType:
		p.enc = func(pk *packer, v reflect.Value) {
			c := v.Addr().Interface().(*kernel.Counters)
			pk.lists = append(pk.lists, pk.list(c.Names()))
			for i := range c.Len() {
				_, n := c.At(i)
				pk.putInt(n)
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			c := v.Addr().Interface().(*kernel.Counters)
			list := u.list()
			if t := u.tm.get(list); t != nil {
				vals := make([]int64, len(list))
				for i := range vals {
					vals[i] = u.int()
				}
				if !u.overflowed {
					setValues(c, t, vals)
				}
				return
			}
			for _, name := range list {
				if u.overflowed {
					break
				}
				c.Set(name, u.int())
			}
		}
		return p, nil
	case t == timeType:
		p.enc = func(pk *packer, v reflect.Value) {
			tm := v.Addr().Interface().(*time.Time)
			if tm.IsZero() {
				pk.putUint(0)
				return
			}
			pk.putUint(1)
			pk.putInt(tm.UnixNano())
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			if u.uint() == 0 {
				return
			}
			*v.Addr().Interface().(*time.Time) = time.Unix(0, u.int())
		}
		return p, nil
	case t == int64sType:
		p.enc = func(pk *packer, v reflect.Value) {
			s := *v.Addr().Interface().(*[]int64)
			if s == nil {
				pk.putUint(0)
				return
			}
			pk.putUint(uint64(len(s)) + 1)
			for _, x := range s {
				pk.putInt(x)
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			n, ok := u.length()
			if !ok {
				return
			}
			s := make([]int64, n)
			for i := 0; i < n && !u.overflowed; i++ {
				s[i] = u.int()
			}
			*v.Addr().Interface().(*[]int64) = s
		}
		return p, nil
	case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.ConvertibleTo(ratesType):
		// model.Rates, natively: no reflect.Value per key.
		p.enc = func(pk *packer, v reflect.Value) {
			if !pk.putPresent(v) {
				return
			}
			m := v.Convert(ratesType).Interface().(map[string]float64)
			keys := pk.keys[:0]
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			pk.keys = keys
			pk.lists = append(pk.lists, pk.list(keys))
			for _, k := range keys {
				pk.putFloat(m[k])
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			if u.uint() == 0 {
				return
			}
			keys := u.list()
			m := make(map[string]float64, len(keys))
			for _, k := range keys {
				m[k] = u.float()
			}
			v.Set(reflect.ValueOf(m).Convert(t))
		}
		return p, nil
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.enc = func(pk *packer, v reflect.Value) { pk.putInt(v.Int()) }
		p.dec = func(u *unpacker, v reflect.Value) { v.SetInt(u.int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.enc = func(pk *packer, v reflect.Value) { pk.putUint(v.Uint()) }
		p.dec = func(u *unpacker, v reflect.Value) { v.SetUint(u.uint()) }
	case reflect.Float32, reflect.Float64:
		p.enc = func(pk *packer, v reflect.Value) { pk.putFloat(v.Float()) }
		p.dec = func(u *unpacker, v reflect.Value) { v.SetFloat(u.float()) }
	case reflect.Bool:
		p.enc = func(pk *packer, v reflect.Value) {
			b := uint64(0)
			if v.Bool() {
				b = 1
			}
			pk.putUint(b)
		}
		p.dec = func(u *unpacker, v reflect.Value) { v.SetBool(u.uint() != 0) }
	case reflect.String:
		p.enc = func(pk *packer, v reflect.Value) { pk.putStr(v.String()) }
		p.dec = func(u *unpacker, v reflect.Value) { v.SetString(u.str()) }
	case reflect.Pointer:
		ep, err := buildPlan(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		p.enc = func(pk *packer, v reflect.Value) {
			if !pk.putPresent(v) {
				return
			}
			ep.enc(pk, v.Elem())
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			if u.uint() == 0 {
				return
			}
			nv := reflect.New(t.Elem())
			ep.dec(u, nv.Elem())
			v.Set(nv)
		}
	case reflect.Slice:
		ep, err := buildPlan(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		p.enc = func(pk *packer, v reflect.Value) {
			if v.IsNil() {
				pk.putUint(0)
				return
			}
			pk.putUint(uint64(v.Len()) + 1)
			for i := range v.Len() {
				ep.enc(pk, v.Index(i))
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			n, ok := u.length()
			if !ok {
				return
			}
			s := reflect.MakeSlice(t, n, n)
			for i := 0; i < n && !u.overflowed; i++ {
				ep.dec(u, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Array:
		ep, err := buildPlan(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		p.enc = func(pk *packer, v reflect.Value) {
			for i := range v.Len() {
				ep.enc(pk, v.Index(i))
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			for i := range v.Len() {
				ep.dec(u, v.Index(i))
			}
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("export: cannot pack %v: map key is not a string", t)
		}
		ep, err := buildPlan(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		p.enc = func(pk *packer, v reflect.Value) {
			if !pk.putPresent(v) {
				return
			}
			keys := make([]string, 0, v.Len())
			for _, k := range v.MapKeys() {
				keys = append(keys, k.String())
			}
			slices.Sort(keys)
			pk.lists = append(pk.lists, pk.list(keys))
			ev := reflect.New(t.Elem()).Elem() // an addressable copy of each value
			for _, k := range keys {
				ev.Set(v.MapIndex(reflect.ValueOf(k).Convert(t.Key())))
				ep.enc(pk, ev)
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			if u.uint() == 0 {
				return
			}
			keys := u.list()
			m := reflect.MakeMapWithSize(t, len(keys))
			for _, k := range keys {
				ev := reflect.New(t.Elem()).Elem()
				ep.dec(u, ev)
				m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
			}
			v.Set(m)
		}
	case reflect.Struct:
		var fields []int
		var plans []*typePlan
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return nil, fmt.Errorf("export: cannot pack %v: unexported field %s", t, f.Name)
			}
			fp, err := buildPlan(f.Type, seen)
			if err != nil {
				return nil, err
			}
			fields = append(fields, i)
			plans = append(plans, fp)
		}
		p.enc = func(pk *packer, v reflect.Value) {
			for k, i := range fields {
				plans[k].enc(pk, v.Field(i))
			}
		}
		p.dec = func(u *unpacker, v reflect.Value) {
			for k, i := range fields {
				plans[k].dec(u, v.Field(i))
			}
		}
	default:
		return nil, fmt.Errorf("export: cannot pack %v (%v)", t, t.Kind())
	}
	return p, nil
}
