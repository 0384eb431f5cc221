package export

import (
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// A scrape used to build a prometheus.Metric per series (NewConstMetric: a label-pair slice,
// a validation, a protobuf message at Gather, about 1,700 allocations a scrape); now the
// newest sample becomes points, each a family, a label set and a value, and label sets are
// made once and kept: their values, their sort key and their exposition text. The /metrics
// handler writes points straight into the text or OpenMetrics exposition (expose.go), and
// Collect (--once, tests, protobuf scrapers) turns them into const metrics once per sample.

// point is one series of the newest sample.
type point struct {
	d  *metricDef
	ls *labelSet // nil without labels
	v  float64
}

// labelSet is one combination of label values of a family, immutable once made.
type labelSet struct {
	d      *metricDef
	values []string // in the family's declared label order
	sorted []string // in label-name order: the order of the exposition and of sorting
	text   string   // `{a="x",b="y"}`, names in order, values escaped as both formats do
}

// labelCache keeps the label sets by family and values. Values that churn (a NIC that comes
// and goes, allocation-failure orders) add entries; past maxLabelSets it starts afresh.
type labelCache struct {
	m   map[string]*labelSet
	key []byte
}

const maxLabelSets = 16384

func (c *labelCache) get(d *metricDef, values []string) *labelSet {
	if len(values) == 0 {
		return nil
	}
	k := append(c.key[:0], d.name...)
	for _, v := range values {
		k = append(k, 0)
		k = append(k, v...)
	}
	c.key = k
	if ls, ok := c.m[string(k)]; ok {
		return ls
	}
	if c.m == nil || len(c.m) >= maxLabelSets {
		c.m = make(map[string]*labelSet, 256)
	}
	ls := newLabelSet(d, values)
	c.m[string(k)] = ls
	return ls
}

func newLabelSet(d *metricDef, values []string) *labelSet {
	// The values are copied, strings included: they may come from the sample, whose
	// storage the next sample reuses.
	ls := &labelSet{d: d, values: make([]string, len(values)), sorted: make([]string, len(values))}
	for i, v := range values {
		ls.values[i] = strings.Clone(v)
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range d.byName {
		ls.sorted[i] = ls.values[k]
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d.labels[k])
		b.WriteString(`="`)
		labelEscaper.WriteString(&b, ls.values[k])
		b.WriteByte('"')
	}
	b.WriteByte('}')
	ls.text = b.String()
	return ls
}

// labelEscaper escapes a label value as expfmt does in both formats (text_create.go
// quotedEscaper): backslash, double quote and newline.
var labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)

// pointBuf collects the points of one sample.
type pointBuf struct {
	out    []point
	labels *labelCache
	// atPos is the label set of each position of the previous sample's points: a point
	// whose family and values are those of the point at the same position last time (the
	// same zones, CPUs and NICs in the same order: nearly always) takes its set without
	// building a key and hashing it in labels.
	atPos []*labelSet

	// The points of a sample come in the same order as those of the one before nearly
	// always (same families, same label sets): then the order finish found for it is
	// applied again instead of sorting.
	lastKeys []pointKey
	perm     []int32 // indexes into out, sorted, repeated series left out
	sorted   []point
	// tmpl is the exposition of the sorted points but their values (expoTemplate), shared
	// by every snapshot whose points have the same families and label sets in the same
	// order; a new one when they change.
	tmpl *expoTemplate
}

type pointKey struct {
	d  *metricDef
	ls *labelSet
}

func (b *pointBuf) reset() { b.out = b.out[:0] }

func (b *pointBuf) add(d *metricDef, v float64, labels ...string) {
	if len(labels) != len(d.labels) {
		panic("export: " + d.name + ": wrong number of label values") // a programming error
	}
	b.out = append(b.out, point{d: d, ls: b.labelSet(d, labels), v: v})
}

// labelSet returns the label set of the next point.
func (b *pointBuf) labelSet(d *metricDef, values []string) *labelSet {
	if len(values) == 0 {
		return nil
	}
	i := len(b.out)
	if i < len(b.atPos) {
		if ls := b.atPos[i]; ls != nil && ls.d == d && slices.Equal(ls.values, values) {
			return ls
		}
	}
	ls := b.labels.get(d, values)
	for len(b.atPos) <= i {
		b.atPos = append(b.atPos, nil)
	}
	b.atPos[i] = ls
	return ls
}

func (b *pointBuf) addInt(d *metricDef, v int64, labels ...string) { b.add(d, float64(v), labels...) }

// finish returns the points sorted as the registry's Gather sorts (families by name, series
// by label values in label-name order), without a repeated series (the first is kept: a
// registry would refuse the scrape for it). The slice is b's, valid until the next finish.
func (b *pointBuf) finish() []point {
	same := len(b.out) == len(b.lastKeys)
	for i := 0; same && i < len(b.out); i++ {
		same = b.out[i].d == b.lastKeys[i].d && b.out[i].ls == b.lastKeys[i].ls
	}
	if !same || b.tmpl == nil {
		b.tmpl = new(expoTemplate)
	}
	if !same {
		b.lastKeys = b.lastKeys[:0]
		b.perm = b.perm[:0]
		for i, p := range b.out {
			b.lastKeys = append(b.lastKeys, pointKey{p.d, p.ls})
			b.perm = append(b.perm, int32(i))
		}
		slices.SortStableFunc(b.perm, func(i, j int32) int {
			x, y := &b.out[i], &b.out[j]
			if x.d != y.d {
				return x.d.rank - y.d.rank
			}
			if x.ls == y.ls {
				return 0
			}
			return slices.Compare(x.ls.sorted, y.ls.sorted)
		})
		kept := b.perm[:0]
		for k, i := range b.perm {
			if k > 0 {
				prev := &b.out[kept[len(kept)-1]]
				if b.out[i].d == prev.d && sameLabels(b.out[i].ls, prev.ls) {
					continue
				}
			}
			kept = append(kept, i)
		}
		b.perm = kept
	}
	b.sorted = b.sorted[:0]
	for _, i := range b.perm {
		b.sorted = append(b.sorted, b.out[i])
	}
	return b.sorted
}

func sameLabels(a, b *labelSet) bool {
	return a == b || (a != nil && b != nil && slices.Equal(a.sorted, b.sorted))
}

// constMetrics turns points into prometheus.Metrics.
func constMetrics(ps []point) []prometheus.Metric {
	out := make([]prometheus.Metric, 0, len(ps))
	for _, p := range ps {
		var values []string
		if p.ls != nil {
			values = p.ls.values
		}
		out = append(out, prometheus.MustNewConstMetric(p.d.desc, p.d.typ, p.v, values...))
	}
	return out
}

// itoa is strconv.Itoa without an allocation for the small numbers labels use (node, CPU,
// order).
func itoa(i int) string {
	if i >= 0 && i < len(smallInts) {
		return smallInts[i]
	}
	return strconv.Itoa(i)
}

var smallInts = func() []string {
	s := make([]string, 256)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()
