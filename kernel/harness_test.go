package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// This file holds the fixture, golden and fuzz helpers shared by the tests of the /proc
// text parsers (meminfo, vmstat, buddyinfo, ... taskstat).

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// hostFixture is a real capture of this project's CI kernel (testdata/capture-host.sh).
const hostFixture = "testdata/host-6.18-x86_64.txtar"

// procParser parses one fixture member for the golden tests, chosen by the member's path
// from its "proc/" component on.
type procParser struct {
	match func(rel string) bool
	parse func(rel string, data []byte) (any, error)
}

var taskStatRE = regexp.MustCompile(`^proc/[0-9]+/stat$`)

func exact(p string) func(string) bool { return func(rel string) bool { return rel == p } }

var procParsers = []procParser{
	{exact("proc/meminfo"), func(_ string, b []byte) (any, error) { return ParseMemInfo(bytes.NewReader(b)) }},
	{exact("proc/vmstat"), func(_ string, b []byte) (any, error) { return ParseVMStat(bytes.NewReader(b)) }},
	{exact("proc/buddyinfo"), func(_ string, b []byte) (any, error) { return ParseBuddyInfo(bytes.NewReader(b)) }},
	{exact("proc/zoneinfo"), func(_ string, b []byte) (any, error) { return ParseZoneInfo(bytes.NewReader(b)) }},
	{exact("proc/pagetypeinfo"), func(_ string, b []byte) (any, error) { return ParsePageTypeInfo(bytes.NewReader(b)) }},
	{exact("proc/stat"), func(_ string, b []byte) (any, error) { return ParseStat(bytes.NewReader(b)) }},
	{exact("proc/interrupts"), func(_ string, b []byte) (any, error) { return ParseInterrupts(bytes.NewReader(b)) }},
	{exact("proc/loadavg"), func(_ string, b []byte) (any, error) { return ParseLoadAvg(bytes.NewReader(b)) }},
	{exact("proc/net/dev"), func(_ string, b []byte) (any, error) { return ParseNetDev(bytes.NewReader(b)) }},
	{exact("proc/net/netstat"), func(_ string, b []byte) (any, error) { return ParseNetStat(bytes.NewReader(b)) }},
	{exact("proc/net/snmp"), func(_ string, b []byte) (any, error) { return ParseNetStat(bytes.NewReader(b)) }},
	{exact("proc/net/snmp6"), func(_ string, b []byte) (any, error) { return ParseSNMP6(bytes.NewReader(b)) }},
	{exact("proc/net/sockstat"), func(_ string, b []byte) (any, error) { return ParseSockStat(bytes.NewReader(b)) }},
	{exact("proc/net/sockstat6"), func(_ string, b []byte) (any, error) { return ParseSockStat(bytes.NewReader(b)) }},
	{exact("proc/net/protocols"), func(_ string, b []byte) (any, error) { return ParseProtocols(bytes.NewReader(b)) }},
	{exact("proc/net/softnet_stat"), func(_ string, b []byte) (any, error) { return ParseSoftnet(bytes.NewReader(b)) }},
	{func(rel string) bool { return strings.HasPrefix(rel, "proc/pressure/") },
		func(rel string, b []byte) (any, error) {
			return ParsePSI(strings.TrimPrefix(rel, "proc/pressure/"), bytes.NewReader(b))
		}},
	{taskStatRE.MatchString, func(_ string, b []byte) (any, error) { return ParseTaskStat(bytes.NewReader(b)) }},
	{func(rel string) bool { return strings.HasPrefix(rel, "proc/sys/") },
		func(_ string, b []byte) (any, error) { return collapseSpace(b), nil }},
}

// procRel returns name from its "proc/" component on ("5.10/proc/net/dev" → "proc/net/dev").
func procRel(name string) string {
	if strings.HasPrefix(name, "proc/") {
		return name
	}
	if i := strings.Index(name, "/proc/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func parserFor(name string) *procParser {
	rel := procRel(name)
	for i := range procParsers {
		if procParsers[i].match(rel) {
			return &procParsers[i]
		}
	}
	return nil
}

// fixtureFiles lists every txtar fixture of the /proc parsers.
func fixtureFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, pat := range []string{"testdata/host-*.txtar", "testdata/layouts/*.txtar"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no fixtures found")
	}
	return out
}

func loadArchive(t testing.TB, path string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fixtureMembers returns the data of every fixture member whose "proc/..." path satisfies
// match, keyed "file:member".
func fixtureMembers(t testing.TB, match func(rel string) bool) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, path := range fixtureFiles(t) {
		for _, f := range loadArchive(t, path).Files {
			if match(procRel(f.Name)) {
				out[filepath.Base(path)+":"+f.Name] = f.Data
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixture member matches")
	}
	return out
}

// member returns one member of one fixture archive.
func member(t testing.TB, archive, name string) []byte {
	t.Helper()
	for _, f := range loadArchive(t, archive).Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("%s has no member %s", archive, name)
	return nil
}

// TestGolden parses every member of every fixture and compares the JSON with
// testdata/golden/<fixture>.json. Run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	for _, path := range fixtureFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			type entry struct {
				File   string `json:"file"`
				Parsed any    `json:"parsed"`
			}
			var entries []entry
			for _, f := range loadArchive(t, path).Files {
				p := parserFor(f.Name)
				if p == nil {
					t.Fatalf("no parser for fixture member %s", f.Name)
				}
				v, err := p.parse(procRel(f.Name), f.Data)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				entries = append(entries, entry{f.Name, v})
			}
			got, err := json.MarshalIndent(entries, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(path), ".txtar")+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the parse of %s; diff the output of go test -update", golden, path)
			}
		})
	}
}

// wantLineError asserts that err is a *LineError for line want.
func wantLineError(t *testing.T, err error, want int) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one for line %d", want)
	}
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("error %q is not a *LineError", err)
	}
	if le.Line != want {
		t.Fatalf("error %q is for line %d, want %d", err, le.Line, want)
	}
	if !strings.HasPrefix(err.Error(), "line "+strconv.Itoa(want)+": ") {
		t.Fatalf("error %q does not start with \"line %d: \"", err, want)
	}
}

// malformed is one bad input and the line its error must name (0: an error without line).
type malformed struct {
	name string
	text string
	line int
}

func checkMalformed(t *testing.T, cases []malformed, parse func([]byte) error) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := parse([]byte(c.text))
			if c.line == 0 {
				if err == nil {
					t.Fatal("got no error")
				}
				return
			}
			wantLineError(t, err, c.line)
		})
	}
}

// sameJSON asserts that a and b marshal to the same JSON.
func sameJSON(t testing.TB, a, b any) {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Fatalf("results differ:\n%s\n%s", ja, jb)
	}
}

// checkInto checks a ParseXInto function: re-parsing the same text into the same value
// allocates nothing and gives the same result, and parsing into a value that held another
// parse gives the same result as parsing into a fresh one.
func checkInto[T any](t *testing.T, parse func(*T, []byte) error, texts ...[]byte) {
	t.Helper()
	for i, data := range texts {
		var fresh T
		if err := parse(&fresh, data); err != nil {
			t.Fatalf("text %d: %v", i, err)
		}
		var reused T
		if err := parse(&reused, texts[(i+1)%len(texts)]); err != nil {
			t.Fatal(err)
		}
		if err := parse(&reused, data); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fresh, reused)
		allocs := testing.AllocsPerRun(20, func() {
			if err := parse(&reused, data); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("text %d: re-parse into the same value allocates %.0f times, want 0", i, allocs)
		}
		sameJSON(t, fresh, reused)
	}
}

// fuzzInto is the body of the Fuzz targets of the ParseXInto functions: no input may panic,
// an error must say something, and a parse must give the same result or the same error into
// a fresh value and into one that held another parse: other, and the same text with other
// values (which takes the same-layout fast path when the text allows it).
func fuzzInto[T any](t *testing.T, data, other []byte, parse func(*T, []byte) error) {
	if len(data) > fuzzInputMax {
		t.Skip("above fuzzInputMax")
	}
	var fresh T
	err := parse(&fresh, data)
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error message")
		}
		var le *LineError
		if errors.As(err, &le) && (le.Line < 1 || le.Line > bytes.Count(data, []byte("\n"))+1) {
			t.Fatalf("error %q names a line outside the input", err)
		}
	}
	checkReparse(t, parse, other, data)
	checkReparse(t, parse, perturbValues(data), data)
	checkReparse(t, parse, data, perturbValues(data))
}

// checkReparse parses prev and then data into one value, and data into a fresh one: both
// must fail with the same error or give the same result, and the reused value's Counters
// must be consistent. This is what keeps the same-layout fast paths honest: whatever the
// destination held, they may only take text that the general parser reads the same way.
func checkReparse[T any](t testing.TB, parse func(*T, []byte) error, prev, data []byte) {
	t.Helper()
	var fresh, reused T
	errF := parse(&fresh, data)
	_ = parse(&reused, prev)
	errR := parse(&reused, data)
	switch {
	case errF == nil && errR == nil:
		sameJSON(t, fresh, reused)
		countersOK(t, reused)
	case errF == nil || errR == nil || errF.Error() != errR.Error():
		t.Fatalf("fresh parse: %v; after a parse of %q: %v", errF, prev, errR)
	}
}

// perturbValues returns a copy of data with its numbers changed and their lengths kept: the
// same file at another instant, as the next sample reads it. A number is a run of digits
// between a blank, '=', '(' or ',' and a blank, ',', ')' or the end of the line (so names
// such as Ip6InReceives or cpu0, IRQ numbers before their ':', "5-edge" in a description or
// a negative -1 keep theirs), and not the node of "Node N". Only its last digit changes, so
// a zero-padded hex column stays small (softnet_stat's CPU index).
func perturbValues(data []byte) []byte {
	out := bytes.Clone(data)
	for i := 0; i < len(out); {
		if !isDigit(out[i]) {
			i++
			continue
		}
		j := i
		for j < len(out) && isDigit(out[j]) {
			j++
		}
		before := i == 0 || bytes.IndexByte([]byte(" \t=(,"), out[i-1]) >= 0
		after := j == len(out) || bytes.IndexByte([]byte(" \t\r\n,)"), out[j]) >= 0
		if before && after && !bytes.HasSuffix(out[:i], []byte("Node ")) {
			out[j-1] = '0' + (out[j-1]-'0'+7)%10
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// countersOK checks the invariants of every Counters reachable from v through exported
// fields: as many values and index entries as names, and each name indexed at its place.
// The fast paths write values in place, trusting them.
func countersOK(t testing.TB, v any) {
	t.Helper()
	var walk func(r reflect.Value)
	walk = func(r reflect.Value) {
		switch r.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !r.IsNil() {
				walk(r.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range r.Len() {
				walk(r.Index(i))
			}
		case reflect.Struct:
			if c, ok := r.Interface().(Counters); ok {
				if len(c.values) != len(c.names) || len(c.index) != len(c.names) {
					t.Fatalf("counters with %d names, %d values, %d index entries", len(c.names), len(c.values), len(c.index))
				}
				for i, n := range c.names {
					if j, ok := c.index[n]; !ok || j != i {
						t.Fatalf("counter %q at %d indexed at %d, %v", n, i, j, ok)
					}
				}
				return
			}
			for i := range r.NumField() {
				if r.Type().Field(i).IsExported() {
					walk(r.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(v))
}

// sameLayoutParser is one parser with a same-layout fast path, for the tests below: check
// runs checkReparse, and taken parses data into a fresh value and reports whether the fast
// path then takes data again (same), and data with other values (perturbed), giving what
// a fresh parse gives.
type sameLayoutParser struct {
	name  string
	match func(rel string) bool
	check func(t testing.TB, prev, data []byte)
	taken func(t testing.TB, data []byte) (same, perturbed bool)
}

func layoutParser[T any](name string, match func(string) bool, parse func(*T, []byte) error, fast func(*T, []byte) bool) sameLayoutParser {
	return sameLayoutParser{
		name:  name,
		match: match,
		check: func(t testing.TB, prev, data []byte) { checkReparse(t, parse, prev, data) },
		taken: func(t testing.TB, data []byte) (same, perturbed bool) {
			t.Helper()
			var v T
			if err := parse(&v, data); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if fast == nil || !fast(&v, data) {
				return false, false
			}
			next := perturbValues(data)
			if !fast(&v, next) {
				return true, false
			}
			var fresh T
			if err := parse(&fresh, next); err != nil {
				t.Fatalf("%s with other values: %v", name, err)
			}
			sameJSON(t, fresh, v)
			return true, true
		},
	}
}

// sliceFast adapts a fast path over a slice's capacity.
func sliceFast[S ~[]E, E any](fast func(S, []byte) int) func(*S, []byte) bool {
	return func(v *S, data []byte) bool {
		if k := fast((*v)[:cap(*v)], data); k > 0 {
			*v = (*v)[:k]
			return true
		}
		return false
	}
}

var sameLayoutParsers = []sameLayoutParser{
	layoutParser("meminfo", exact("proc/meminfo"), ParseMemInfoInto, memInfoSameLayout),
	layoutParser("vmstat", exact("proc/vmstat"), ParseVMStatInto, vmStatSameLayout),
	layoutParser("buddyinfo", exact("proc/buddyinfo"), ParseBuddyInfoInto, sliceFast(buddyInfoSameLayout)),
	layoutParser("zoneinfo", exact("proc/zoneinfo"), ParseZoneInfoInto, sliceFast(zoneInfoSameLayout)),
	layoutParser("pagetypeinfo", exact("proc/pagetypeinfo"), ParsePageTypeInfoInto, nil),
	layoutParser("net/dev", exact("proc/net/dev"), ParseNetDevInto, sliceFast(netDevSameLayout)),
	layoutParser("net/netstat", func(rel string) bool { return rel == "proc/net/netstat" || rel == "proc/net/snmp" },
		ParseNetStatInto, sliceFast(netStatSameLayout)),
	layoutParser("net/snmp6", exact("proc/net/snmp6"), ParseSNMP6Into, sliceFast(snmp6SameLayout)),
	layoutParser("net/sockstat", func(rel string) bool { return rel == "proc/net/sockstat" || rel == "proc/net/sockstat6" },
		ParseSockStatInto, sliceFast(sockStatSameLayout)),
	layoutParser("net/protocols", exact("proc/net/protocols"), ParseProtocolsInto, sliceFast(protocolsSameLayout)),
	layoutParser("net/softnet_stat", exact("proc/net/softnet_stat"), ParseSoftnetInto, sliceFast(softnetSameLayout)),
	layoutParser("stat", exact("proc/stat"), ParseStatInto, statSameLayout),
	layoutParser("interrupts", exact("proc/interrupts"), ParseInterruptsInto, func(in *Interrupts, data []byte) bool {
		if k := interruptsSameLayout(in, data); k > 0 {
			in.Lines = in.Lines[:k]
			return true
		}
		return false
	}),
	layoutParser("pressure", func(rel string) bool { return strings.HasPrefix(rel, "proc/pressure/") },
		func(p *Pressure, b []byte) error { return ParsePSIInto(p, "memory", b) }, psiSameLayout),
	layoutParser("PID/stat", taskStatRE.MatchString, ParseTaskStatInto, taskStatSameLayout),
	layoutParser("loadavg", exact("proc/loadavg"), ParseLoadAvgInto, nil),
}

// Fuzz inputs are bounded. go test minimises every new interesting input for up to 60 s by
// default, one execution per candidate and some candidates per byte; at 0.8 ms an
// execution (fuzzInto on the host's 5 KB zoneinfo: four parses, two perturbations and
// their JSON comparison) FuzzParseZoneInfo spent all its time minimising and executed 13
// inputs in 30 s (issue 22, item 14). Seeds are cut to fuzzSeedMax at a line end — a
// fixture's first zones, counters or rows have every construct its later ones repeat —
// and inputs above fuzzInputMax are skipped, so an input that grew large is never
// interesting and never minimised.
const (
	fuzzSeedMax  = 2 << 10
	fuzzInputMax = 8 << 10
)

// boundedSeed cuts data to at most fuzzSeedMax bytes, at the end of a line when it has one.
func boundedSeed(data []byte) []byte {
	if len(data) <= fuzzSeedMax {
		return data
	}
	if cut := bytes.LastIndexByte(data[:fuzzSeedMax], '\n'); cut > 0 {
		return data[:cut+1]
	}
	return data[:fuzzSeedMax]
}

// seedFuzz adds every fixture member matching match to the corpus (bounded), and returns one
// of them, whole, to use as the "other" text of fuzzInto.
func seedFuzz(f *testing.F, match func(string) bool, extra ...string) []byte {
	var other []byte
	for _, data := range fixtureMembers(f, match) {
		f.Add(boundedSeed(data))
		other = data
	}
	for _, e := range extra {
		f.Add([]byte(e))
	}
	return other
}

// benchInto measures re-parsing data into the same value, as the sampler does.
func benchInto[T any](b *testing.B, data []byte, parse func(*T, []byte) error) {
	var v T
	if err := parse(&v, data); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := parse(&v, data); err != nil {
			b.Fatal(err)
		}
	}
}

// captureFixture is the committed capture of the same 6.18 VM that the source package
// samples in its tests.
const captureFixture = "../testdata/captures/vm-6.18.txtar"

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
