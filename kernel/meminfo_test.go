package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// This file also holds the fixture, golden and fuzz helpers shared by the tests of the /proc
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
// an error must say something, and a successful parse must be the same into a fresh value
// and into one that held another parse.
func fuzzInto[T any](t *testing.T, data, other []byte, parse func(*T, []byte) error) {
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
		return
	}
	var reused T
	_ = parse(&reused, other)
	if err := parse(&reused, data); err != nil {
		t.Fatalf("parse into a reused value failed (%v) where a fresh parse succeeded", err)
	}
	sameJSON(t, fresh, reused)
}

// seedFuzz adds every fixture member matching match to the corpus, and returns one of them
// to use as the "other" text of fuzzInto.
func seedFuzz(f *testing.F, match func(string) bool, extra ...string) []byte {
	var other []byte
	for _, data := range fixtureMembers(f, match) {
		f.Add(data)
		other = data
	}
	for _, e := range extra {
		f.Add([]byte(e))
	}
	return other
}

func TestParseMemInfo(t *testing.T) {
	host, err := ParseMemInfo(bytes.NewReader(member(t, hostFixture, "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(member(t, hostFixture, "proc/meminfo"), []byte("\n"))
	if host.Len() != lines {
		t.Errorf("%d counters from %d lines", host.Len(), lines)
	}
	for _, name := range []string{"MemTotal", "MemFree", "MemAvailable", "Active(file)", "HugePages_Total", "Hugepagesize"} {
		if !host.Has(name) {
			t.Errorf("6.18 meminfo lacks %s", name)
		}
	}
	if host.Has("LowTotal") {
		t.Error("a 64-bit kernel has no LowTotal")
	}
	total, _ := host.Get("MemTotal")
	free, _ := host.Get("MemFree")
	if total <= 0 || free <= 0 || free > total {
		t.Errorf("MemTotal %d, MemFree %d", total, free)
	}

	// 2.6.13 with HIGHMEM: the lowmem lines exist and add up.
	old, err := ParseMemInfo(bytes.NewReader(member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	get := func(c Counters, name string) int64 {
		t.Helper()
		v, ok := c.Get(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		return v
	}
	if lt, ht, mt := get(old, "LowTotal"), get(old, "HighTotal"), get(old, "MemTotal"); lt != 917504 || lt+ht != mt {
		t.Errorf("LowTotal %d + HighTotal %d != MemTotal %d", lt, ht, mt)
	}
	if v := get(old, "HugePages_Total"); v != 0 {
		t.Errorf("HugePages_Total = %d", v)
	}
	if v := get(old, "Hugepagesize"); v != 2048 {
		t.Errorf("Hugepagesize = %d kB", v)
	}

	// 2.4: the byte table is skipped, its figures are in the kB lines.
	v24, err := ParseMemInfo(bytes.NewReader(member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/meminfo")))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Mem", "Swap", "total"} {
		if v24.Has(name) {
			t.Errorf("2.4 byte table row %q kept", name)
		}
	}
	if get(v24, "MemTotal") != 257536 || get(v24, "MemShared") != 0 || v24.Names()[0] != "MemTotal" {
		t.Errorf("2.4 meminfo parsed as %v", v24.Names())
	}
}

func TestParseMemInfoMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"blank", "\n  \n", 0},
		{"no colon", "MemTotal 123 kB\n", 1},
		{"not a number", "MemTotal: 12x kB\n", 1},
		{"no value", "MemTotal:   12 kB\nMemFree:\n", 2},
		{"unknown unit", "MemTotal: 1 kB\nMemFree: 1 MB\n", 2},
		{"extra field", "MemTotal: 1 kB\nMemFree: 1 kB 7\n", 2},
		{"empty name", "MemTotal: 1 kB\n : 5 kB\n", 2},
		{"overflow", "A: 1 kB\nB: 1 kB\nC: 99999999999999999999 kB\n", 3},
		{"truncated line", "MemTotal:       24684084 kB\nMemFr", 2},
	}, func(b []byte) error { var c Counters; return ParseMemInfoInto(&c, b) })
}

func TestParseMemInfoInto(t *testing.T) {
	checkInto(t, ParseMemInfoInto,
		member(t, hostFixture, "proc/meminfo"),
		member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/meminfo"),
		member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/meminfo"))
}

func TestCountersFillChanges(t *testing.T) {
	var c Counters
	steps := []struct {
		text  string
		names string
	}{
		{"A: 1\nB: 2\nC: 3\n", "A B C"},
		{"A: 1\nB: 5\n", "A B"},         // shrinks: C is gone, not zero
		{"A: 1\nX: 9\nB: 5\n", "A X B"}, // diverges after A
		{"B: 5\nA: 1\nA: 7\n", "B A"},   // duplicate name: the later value wins, as with Set
	}
	for _, s := range steps {
		if err := ParseMemInfoInto(&c, []byte(s.text)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(c.Names(), " "); got != s.names {
			t.Fatalf("after %q names are %q, want %q", s.text, got, s.names)
		}
		fresh, err := ParseMemInfo(strings.NewReader(s.text))
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fresh, c)
	}
	if c.Has("C") || c.Has("X") {
		t.Error("dropped names are still present")
	}
	if v, _ := c.Get("A"); v != 7 {
		t.Errorf("A = %d, want the later 7", v)
	}
}

func TestTxtNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"+5", 5, true}, {"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true}, {"9223372036854775808", 0, false},
		{"18446744073709551615", 0, false}, {"", 0, false}, {"-", 0, false}, {"1.5", 0, false},
		{"0x10", 0, false}, {"12 ", 0, false},
	}
	for _, c := range ints {
		got, ok := txtInt([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("txtInt(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	hexes := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0000097f", 0x97f, true}, {"ffffffff", 0xffffffff, true}, {"ABCdef", 0xabcdef, true},
		{"7fffffffffffffff", math.MaxInt64, true}, {"8000000000000000", 0, false},
		{"00000000000000001", 0, false}, {"", 0, false}, {"0x1", 0, false}, {"g", 0, false},
	}
	for _, c := range hexes {
		got, ok := txtHex([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("txtHex(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	// The fast decimal path must agree with strconv.ParseFloat bit for bit.
	floats := []string{"0.00", "0.85", "13.35", "100.00", "7.57", "1234567.89", "0.1", "3", "2.",
		".5", "99999999999999.9", "1234567890123456.5", "1e3", "-1.5", "0.000000000000001"}
	for i := 0; i < 5000; i++ {
		floats = append(floats, strconv.Itoa(i*7919%100000)+"."+strconv.Itoa(100 + i%100)[1:])
	}
	for _, s := range floats {
		want, err := strconv.ParseFloat(s, 64)
		got, ok := txtFloat([]byte(s))
		if ok != (err == nil) || (ok && math.Float64bits(got) != math.Float64bits(want)) {
			t.Errorf("txtFloat(%q) = %v, %v; ParseFloat gives %v, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"", ".", "x", "1.2.3", "NaN", "Inf"} {
		if _, ok := txtFloat([]byte(s)); ok {
			t.Errorf("txtFloat(%q) accepted", s)
		}
	}
}

func FuzzParseMemInfo(f *testing.F) {
	other := seedFuzz(f, exact("proc/meminfo"), "MemTotal: 1 kB\nMem: 1 2 3\n", "A:\n", ": 1 kB")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseMemInfoInto) })
}

func BenchmarkParseMemInfoInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/meminfo"), ParseMemInfoInto)
}

func BenchmarkParseMemInfo(b *testing.B) {
	data := member(b, hostFixture, "proc/meminfo")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseMemInfo(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
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

// readers lists every ReadX of the /proc text files with the fixture member it reads.
var readers = []struct {
	name   string
	member string
	read   func(Root) (any, error)
	parse  func([]byte) (any, error)
}{
	{"meminfo", "proc/meminfo", func(r Root) (any, error) { return ReadMemInfo(r) }, func(b []byte) (any, error) { return ParseMemInfo(bytes.NewReader(b)) }},
	{"vmstat", "proc/vmstat", func(r Root) (any, error) { return ReadVMStat(r) }, func(b []byte) (any, error) { return ParseVMStat(bytes.NewReader(b)) }},
	{"buddyinfo", "proc/buddyinfo", func(r Root) (any, error) { return ReadBuddyInfo(r) }, func(b []byte) (any, error) { return ParseBuddyInfo(bytes.NewReader(b)) }},
	{"zoneinfo", "proc/zoneinfo", func(r Root) (any, error) { return ReadZoneInfo(r) }, func(b []byte) (any, error) { return ParseZoneInfo(bytes.NewReader(b)) }},
	{"pagetypeinfo", "proc/pagetypeinfo", func(r Root) (any, error) { return ReadPageTypeInfo(r) }, func(b []byte) (any, error) { return ParsePageTypeInfo(bytes.NewReader(b)) }},
	{"net/dev", "proc/net/dev", func(r Root) (any, error) { return ReadNetDev(r) }, func(b []byte) (any, error) { return ParseNetDev(bytes.NewReader(b)) }},
	{"net/protocols", "proc/net/protocols", func(r Root) (any, error) { return ReadProtocols(r) }, func(b []byte) (any, error) { return ParseProtocols(bytes.NewReader(b)) }},
	{"net/softnet_stat", "proc/net/softnet_stat", func(r Root) (any, error) { return ReadSoftnet(r) }, func(b []byte) (any, error) { return ParseSoftnet(bytes.NewReader(b)) }},
	{"pressure/memory", "proc/pressure/memory", func(r Root) (any, error) { return ReadPSI(r, "memory") }, func(b []byte) (any, error) { return ParsePSI("memory", bytes.NewReader(b)) }},
	{"stat", "proc/stat", func(r Root) (any, error) { return ReadStat(r) }, func(b []byte) (any, error) { return ParseStat(bytes.NewReader(b)) }},
	{"interrupts", "proc/interrupts", func(r Root) (any, error) { return ReadInterrupts(r) }, func(b []byte) (any, error) { return ParseInterrupts(bytes.NewReader(b)) }},
	{"loadavg", "proc/loadavg", func(r Root) (any, error) { return ReadLoadAvg(r) }, func(b []byte) (any, error) { return ParseLoadAvg(bytes.NewReader(b)) }},
}

// TestReadersFixture reads each file through a Root over the 6.18 capture: ReadX must give
// what ParseX gives for the same bytes.
func TestReadersFixture(t *testing.T) {
	root := TxtarRoot(loadArchive(t, hostFixture), hostFixture)
	for _, r := range readers {
		got, err := r.read(root)
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		want, err := r.parse(member(t, hostFixture, r.member))
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, got, want)
	}
	// A missing file is "not supported", named by its path.
	empty := FSRoot(fstestEmpty{}, "empty")
	for _, r := range readers {
		_, err := r.read(empty)
		if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "/proc/") {
			t.Errorf("%s on an empty root: %v", r.name, err)
		}
	}
	// A parse error names the file and the line.
	bad := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "proc/vmstat", Data: []byte("a 1\nb x\n")}}}, "bad")
	_, err := ReadVMStat(bad)
	wantLineErrorIn(t, err, "/proc/vmstat: line 2: ")
}

type fstestEmpty struct{}

func (fstestEmpty) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// TestReadersLive reads this host's files. Every reader must succeed or say "not
// supported"; pagetypeinfo needs root since 5.4.
func TestReadersLive(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc here")
	}
	host := HostRoot()
	for _, r := range readers {
		v, err := r.read(host)
		if errors.Is(err, ErrNotSupported) || (r.name == "pagetypeinfo" && errors.Is(err, fs.ErrPermission)) {
			t.Logf("%s: %v", r.name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		if _, err := json.Marshal(v); err != nil {
			t.Errorf("%s: %v", r.name, err)
		}
	}
	for name, read := range map[string]func(Root) (Groups, error){"netstat": ReadNetStat, "sockstat": ReadSockStat} {
		g, err := read(host)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if g.Group("TCP") == nil && g.Group("Tcp") == nil {
			t.Errorf("%s: no TCP group in %d groups", name, len(g))
		}
	}
	if _, err := ReadAllPSI(host); err != nil && !errors.Is(err, ErrNotSupported) {
		t.Errorf("psi: %v", err)
	}
	// The same network files through /proc/thread-self/net (4.1+), as a thread in another
	// namespace reads them.
	if _, err := os.Stat("/proc/thread-self/net/dev"); err == nil {
		devs, err := ReadNetDev(host.InThreadNetns())
		if err != nil || len(devs) == 0 {
			t.Errorf("thread-self net/dev: %v %+v", err, devs)
		}
	}
}
