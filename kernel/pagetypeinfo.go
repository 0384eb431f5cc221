package kernel

import (
	"bytes"
	"fmt"
	"io"
)

// PageTypeInfo is /proc/pagetypeinfo. Read it only on demand: the kernel walks every free
// list under the zone lock to print it (mm/vmstat.c, pagetypeinfo_showfree_print), which
// costs 0.3-1.3 ms here and more on large machines, and it is root-only (mode 0400) since
// 5.4 ("mm, vmstat: hide /proc/pagetypeinfo from normal users", also backported to the
// 4.14, 4.19 and 5.3 stable series in November 2019).
type PageTypeInfo struct {
	PageBlockOrder int             `json:"page_block_order"`
	PagesPerBlock  int             `json:"pages_per_block"`
	Free           []PageTypeFree  `json:"free"`
	Blocks         []PageTypeBlock `json:"blocks"`
	// MixedBlocks is the "Number of mixed blocks" table that kernels built with
	// CONFIG_PAGE_OWNER print (pagetypeinfo_showmixedcount): pageblocks of one migrate type
	// that hold pages of another.
	MixedBlocks []PageTypeBlock `json:"mixed_blocks,omitempty"`
}

// PageTypeFree is one "Node N, zone Z, type T  counts per order" row.
type PageTypeFree struct {
	Node int     `json:"node"`
	Zone string  `json:"zone"`
	Type string  `json:"type"` // Unmovable, Movable, Reclaimable, HighAtomic, CMA, Isolate
	Free []int64 `json:"free"`
	// Capped is set when some count was printed as ">100000": since 5.4 ("mm, vmstat: reduce
	// zone->lock holding time by /proc/pagetypeinfo") the kernel stops counting a free list
	// at 100000 entries. Such counts are stored as 100000 and are lower bounds.
	Capped bool `json:"capped,omitempty"`
}

// PageTypeBlock is one row of the "Number of blocks type" table: pageblocks per migrate
// type in one zone (column names as printed).
type PageTypeBlock struct {
	Node   int      `json:"node"`
	Zone   string   `json:"zone"`
	Counts Counters `json:"counts"`
}

// The file is printed once per node (pagetypeinfo_show): "Page block order: N", "Pages per
// block:  N", the free table with its "Free pages count per migrate type at order 0 1 ..."
// header, the "Number of blocks type  Unmovable Movable ..." table, and with
// CONFIG_PAGE_OWNER the "Number of mixed blocks" table. Migrate type names and their number
// changed over time (Reserve until 4.3, HighAtomic since 4.4, CMA with CONFIG_CMA, Isolate
// with memory hotplug or CMA), so the block tables are keyed by the header's names.

// ReadPageTypeInfo reads /proc/pagetypeinfo under root. It is expensive; see PageTypeInfo.
func ReadPageTypeInfo(root Root) (PageTypeInfo, error) {
	return parseFile(root, "proc/pagetypeinfo", ParsePageTypeInfo)
}

// ParsePageTypeInfo parses /proc/pagetypeinfo text.
func ParsePageTypeInfo(r io.Reader) (PageTypeInfo, error) {
	return parseText(r, ParsePageTypeInfoInto)
}

// ParsePageTypeInfoInto parses /proc/pagetypeinfo text into dst, reusing its row slices,
// each row's counts and the zone and type strings of the previous parse (see
// ParseMemInfoInto): a sampler that reads the file every interval allocates nothing once
// the rows are sized. A table the text does not have is nil in dst, as in a fresh parse.
func ParsePageTypeInfoInto(dst *PageTypeInfo, data []byte) error {
	free, blocks, mixed := dst.Free[:0], dst.Blocks[:0], dst.MixedBlocks[:0]
	defer func() {
		if len(free) == 0 {
			free = nil
		}
		if len(blocks) == 0 {
			blocks = nil
		}
		if len(mixed) == 0 {
			mixed = nil
		}
		dst.Free, dst.Blocks, dst.MixedBlocks = free, blocks, mixed
	}()
	dst.PageBlockOrder, dst.PagesPerBlock = 0, 0
	const (
		none = iota
		freeTable
		blocksTable
		mixedTable
	)
	section := none
	var colBuf [8][]byte
	columns := colBuf[:0] // block table column names, as slices of data
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		t := txtTrim(line)
		switch {
		case bytes.HasPrefix(t, []byte("Page block order:")):
			v, err := pageTypeScalar(t[len("Page block order:"):])
			if err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
			dst.PageBlockOrder = v
			section = none
		case bytes.HasPrefix(t, []byte("Pages per block:")):
			v, err := pageTypeScalar(t[len("Pages per block:"):])
			if err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
			dst.PagesPerBlock = v
			section = none
		case bytes.HasPrefix(t, []byte("Free pages count per migrate type at order")):
			section = freeTable
		case bytes.HasPrefix(t, []byte("Number of blocks type")):
			section = blocksTable
			columns = pageTypeColumns(columns[:0], t[len("Number of blocks type"):])
		case bytes.HasPrefix(t, []byte("Number of mixed blocks")):
			section = mixedTable
			columns = pageTypeColumns(columns[:0], t[len("Number of mixed blocks"):])
		case bytes.HasPrefix(t, []byte("Node")):
			node, zone, rest, err := txtNodeZone(t)
			if err != nil {
				return &LineError{Line: lines.num, Err: err}
			}
			switch section {
			case freeTable:
				free = txtGrow(free)
				if err := pageTypeFreeRow(&free[len(free)-1], node, zone, rest); err != nil {
					free = free[:len(free)-1]
					return &LineError{Line: lines.num, Err: err}
				}
			case blocksTable, mixedTable:
				if len(columns) == 0 {
					return lines.errorf("block table header has no migrate types")
				}
				rows := &blocks
				if section == mixedTable {
					rows = &mixed
				}
				*rows = txtGrow(*rows)
				row := &(*rows)[len(*rows)-1]
				row.Node = node
				row.Zone = txtString(row.Zone, zone)
				var fill txtCountersFill
				fill.start(&row.Counts)
				for _, col := range columns {
					var tok []byte
					tok, rest = txtField(rest)
					v, ok := txtInt(tok)
					if !ok || v < 0 {
						*rows = (*rows)[:len(*rows)-1]
						return lines.errorf("zone %s %s: %q is not a count", zone, col, tok)
					}
					fill.set(col, v)
				}
				fill.done()
				if !txtBlank(rest) {
					*rows = (*rows)[:len(*rows)-1]
					return lines.errorf("zone %s: more counts than the %d migrate types of the header", zone, len(columns))
				}
			default:
				return lines.errorf("zone row before any table header")
			}
		default:
			return lines.errorf("unexpected line %q", t)
		}
	}
	if len(free) == 0 && len(blocks) == 0 {
		return fmt.Errorf("pagetypeinfo: no tables")
	}
	return nil
}

func pageTypeScalar(b []byte) (int, error) {
	v, ok := txtInt(txtTrim(b))
	if !ok || v < 0 || v > 1<<30 {
		return 0, excerptf("%q is not a count", txtTrim(b))
	}
	return int(v), nil
}

func pageTypeColumns(cols [][]byte, b []byte) [][]byte {
	for {
		tok, rest := txtField(b)
		if len(tok) == 0 {
			return cols
		}
		cols = append(cols, tok)
		b = rest
	}
}

// pageTypeFreeRow parses ", type    Unmovable      0      1 ..." after "Node N, zone Z" into
// row, reusing its strings and counts.
func pageTypeFreeRow(row *PageTypeFree, node int, zone, rest []byte) error {
	row.Node = node
	row.Zone = txtString(row.Zone, zone)
	row.Free = row.Free[:0]
	row.Capped = false
	tok, rest := txtField(rest)
	if !bytes.Equal(tok, []byte("type")) {
		return fmt.Errorf("zone %s: want \", type NAME\" after the zone", zone)
	}
	typ, rest := txtField(rest)
	if len(typ) == 0 {
		return fmt.Errorf("zone %s: no migrate type", zone)
	}
	row.Type = txtString(row.Type, typ)
	for {
		tok, rest = txtField(rest)
		if len(tok) == 0 {
			break
		}
		if c, ok := bytes.CutPrefix(tok, []byte(">")); ok {
			tok = c
			row.Capped = true
		}
		v, ok := txtInt(tok)
		if !ok || v < 0 {
			return excerptf("zone %s type %s order %d: %q is not a count", zone, typ, len(row.Free), tok)
		}
		row.Free = append(row.Free, v)
	}
	if len(row.Free) == 0 {
		return fmt.Errorf("zone %s type %s: no counts", zone, typ)
	}
	return nil
}
