package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Counters is an ordered set of named integer values as a kernel file prints them
// (/proc/vmstat, /proc/meminfo, one protocol of /proc/net/netstat, ethtool -S). Order is the
// file's; names are the kernel's own. Get reports presence, so a counter that this kernel
// does not have is missing, not zero.
type Counters struct {
	names  []string
	values []int64
	index  map[string]int
}

// Set adds name or replaces its value.
func (c *Counters) Set(name string, v int64) {
	if c.index == nil {
		c.index = make(map[string]int)
	}
	if i, ok := c.index[name]; ok {
		c.values[i] = v
		return
	}
	c.index[name] = len(c.names)
	c.names = append(c.names, name)
	c.values = append(c.values, v)
}

// Get returns the value of name and whether it is present.
func (c Counters) Get(name string) (int64, bool) {
	i, ok := c.index[name]
	if !ok {
		return 0, false
	}
	return c.values[i], true
}

// Has reports whether name is present.
func (c Counters) Has(name string) bool { _, ok := c.index[name]; return ok }

// Len is the number of counters.
func (c Counters) Len() int { return len(c.names) }

// Names returns the names in file order. The slice must not be modified.
func (c Counters) Names() []string { return c.names }

// At returns the i-th name and value in file order.
func (c Counters) At(i int) (string, int64) { return c.names[i], c.values[i] }

// Reset empties c, keeping its storage, so the sampler can re-parse into it without
// allocating.
func (c *Counters) Reset() {
	c.names = c.names[:0]
	c.values = c.values[:0]
	clear(c.index)
}

// truncate keeps the first n entries, without allocating: the names beyond n leave the
// index, and the slices keep their capacity for the next parse.
func (c *Counters) truncate(n int) {
	if n >= len(c.names) {
		return
	}
	for _, name := range c.names[n:] {
		delete(c.index, name)
	}
	clear(c.names[n:]) // let the dropped strings go
	c.names = c.names[:n]
	c.values = c.values[:n]
}

// WithValues returns counters with c's names and values vals (len(vals) must equal
// c.Len(); otherwise ok is false). The result shares c's name list and index, so building
// many samples of one layout costs no index each (export's packed window); it must not be
// changed with Set or Reset, which would change c too: Clone it first.
func (c Counters) WithValues(vals []int64) (out Counters, ok bool) {
	if len(vals) != len(c.names) {
		return Counters{}, false
	}
	return Counters{names: c.names, values: vals, index: c.index}, true
}

// ShareLayout makes c share like's name list and index when both hold the same names in
// the same order (the same kernel file read again), and keeps its values in a slice of
// their own length. A recording decodes every sample's counters with a fresh index map of
// their names, about ten times the values' own size (/proc/vmstat: 180 names); sharing the
// previous sample's makes a long recording cost its values. It returns whether the names
// were shared. As with WithValues, c must then not be changed with Set or Reset.
func (c *Counters) ShareLayout(like *Counters) bool {
	if len(c.values) != cap(c.values) {
		c.values = append([]int64(nil), c.values...)
	}
	if like == nil || len(like.names) != len(c.names) || len(c.names) == 0 {
		return false
	}
	if &like.names[0] == &c.names[0] {
		return true
	}
	for i, n := range c.names {
		if like.names[i] != n {
			return false
		}
	}
	c.names, c.index = like.names, like.index
	return true
}

// Clone returns a copy that shares nothing with c.
func (c Counters) Clone() Counters {
	var d Counters
	d.names = append([]string(nil), c.names...)
	d.values = append([]int64(nil), c.values...)
	d.index = make(map[string]int, len(c.index))
	for k, v := range c.index {
		d.index[k] = v
	}
	return d
}

// MarshalJSON writes an object in file order.
func (c Counters) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range c.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(c.values[i], 10))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object, keeping its key order.
func (c *Counters) UnmarshalJSON(data []byte) error {
	if c.unmarshalPlain(data) {
		return nil
	}
	return c.unmarshalTokens(data)
}

func (c *Counters) unmarshalTokens(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("counters: want a JSON object, got %v", t)
	}
	c.Reset()
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return err
		}
		n, ok := vt.(json.Number)
		if !ok {
			return fmt.Errorf("counters: %q: want a number, got %v", k, vt)
		}
		v, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return fmt.Errorf("counters: %q: %w", k, err)
		}
		c.Set(k, v)
	}
	_, err = dec.Token()
	return err
}

// Group is one named set of counters of a file that holds several: a protocol of
// /proc/net/netstat or /proc/net/snmp ("TcpExt", "Udp"), a line of /proc/net/sockstat
// ("TCP").
type Group struct {
	Name     string   `json:"name"`
	Counters Counters `json:"counters"`
}

// Groups is an ordered list of Group with lookup by group and counter name.
type Groups []Group

// Get returns the value of counter name in group, and whether both exist.
func (g Groups) Get(group, name string) (int64, bool) {
	for i := range g {
		if g[i].Name == group {
			return g[i].Counters.Get(name)
		}
	}
	return 0, false
}

// Group returns the named group, or nil.
func (g Groups) Group(name string) *Group {
	for i := range g {
		if g[i].Name == name {
			return &g[i]
		}
	}
	return nil
}

// Set sets counter name of group, adding the group at the end when it is new.
func (g *Groups) Set(group, name string, v int64) {
	if p := g.Group(group); p != nil {
		p.Counters.Set(name, v)
		return
	}
	*g = append(*g, Group{Name: group})
	(*g)[len(*g)-1].Counters.Set(name, v)
}

// unmarshalPlain reads the object as the recorder writes it (MarshalJSON: keys without
// escapes, integer values) in one pass over the bytes, and reports whether it could; any
// other text (escapes, a number that is not an integer, null, an error) is left to the
// token decoder of UnmarshalJSON, which says what is wrong. A recording is mostly counters,
// and a json.Decoder per object spent most of the time of reading one.
func (c *Counters) unmarshalPlain(data []byte) bool {
	i := 0
	ws := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	ws()
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i++
	c.Reset()
	ws()
	if i < len(data) && data[i] == '}' {
		i++
		ws()
		return i == len(data)
	}
	for {
		ws()
		if i >= len(data) || data[i] != '"' {
			return false
		}
		i++
		start := i
		for i < len(data) && data[i] != '"' {
			if data[i] == '\\' || data[i] < 0x20 || data[i] >= 0x80 {
				return false
			}
			i++
		}
		if i >= len(data) {
			return false
		}
		key := data[start:i]
		i++
		ws()
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i++
		ws()
		start = i
		if i < len(data) && data[i] == '-' {
			i++
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		v, err := strconv.ParseInt(string(data[start:i]), 10, 64)
		if err != nil || (i-start > 1 && data[start] == '0') || (i-start > 2 && data[start] == '-' && data[start+1] == '0') {
			return false // not an integer, out of range, or a leading zero JSON refuses
		}
		c.Set(string(key), v)
		ws()
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i++
		case '}':
			i++
			ws()
			return i == len(data)
		default:
			return false
		}
	}
}
