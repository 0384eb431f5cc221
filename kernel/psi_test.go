package kernel

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"testing/fstest"
)

func TestParsePSI(t *testing.T) {
	p, err := ParsePSI("cpu", bytes.NewReader([]byte("some avg10=0.50 avg60=0.85 avg300=0.68 total=3884781\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")))
	if err != nil {
		t.Fatal(err)
	}
	if p.Resource != "cpu" || p.Some == nil || *p.Some != (PSILine{0.5, 0.85, 0.68, 3884781}) || p.Full == nil || *p.Full != (PSILine{}) {
		t.Errorf("%+v some %+v full %+v", p, p.Some, p.Full)
	}
	// cpu before 5.13: no full line; irq (6.1+): only a full line.
	old, err := ParsePSI("cpu", bytes.NewReader([]byte("some avg10=12.34 avg60=1.00 avg300=0.10 total=99\n")))
	if err != nil || old.Full != nil || old.Some.Avg10 != 12.34 {
		t.Errorf("pre-5.13 cpu: %v %+v", err, old)
	}
	irq, err := ParsePSI("irq", bytes.NewReader([]byte("full avg10=0.01 avg60=0.00 avg300=0.00 total=1761\n")))
	if err != nil || irq.Some != nil || irq.Full.TotalUsec != 1761 {
		t.Errorf("irq: %v %+v", err, irq)
	}
}

func TestParsePSIMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"unknown kind", "most avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 1},
		{"twice some", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 2},
		{"missing key", "some avg10=0.00 avg60=0.00 total=0\n", 1},
		{"unknown key", "some avg10=0.00 avg60=0.00 avg300=0.00 avg900=1 total=0\n", 1},
		{"duplicate key", "some avg10=0.00 avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 1},
		{"not a number", "some avg10=x avg60=0.00 avg300=0.00 total=0\n", 1},
		{"negative total", "some avg10=0 avg60=0.00 avg300=0.00 total=-1\n", 1},
		{"no equals", "some avg10 avg60=0.00 avg300=0.00 total=0\n", 1},
		{"truncated", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg6", 2},
	}, func(b []byte) error { var p Pressure; return ParsePSIInto(&p, "memory", b) })
}

func TestParsePSIInto(t *testing.T) {
	into := func(p *Pressure, b []byte) error { return ParsePSIInto(p, "io", b) }
	checkInto(t, into, member(t, hostFixture, "proc/pressure/io"), []byte("some avg10=1.00 avg60=2.00 avg300=3.00 total=4\n"))
}

// eopnotsuppFS fails reads of every file with EOPNOTSUPP, as PSI files do when psi is
// disabled (kernel/sched/psi.c psi_show) or irq time accounting is off.
type eopnotsuppFS struct{ fstest.MapFS }

func (e eopnotsuppFS) Open(name string) (fs.File, error) {
	f, err := e.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return failingFile{f}, nil
}

type failingFile struct{ fs.File }

func (failingFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: "pressure", Err: syscall.EOPNOTSUPP}
}

func TestReadPSI(t *testing.T) {
	root := TxtarRoot(loadArchive(t, hostFixture), hostFixture)
	all, err := ReadAllPSI(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || all[0].Resource != "cpu" || all[2].Resource != "io" {
		t.Errorf("%+v", all)
	}
	if _, err := ReadPSI(root, "irq"); !errors.Is(err, ErrNotSupported) {
		t.Errorf("absent irq: %v", err)
	}
	if _, err := ReadPSI(root, "../meminfo"); err == nil || errors.Is(err, ErrNotSupported) {
		t.Errorf("bad resource name: %v", err)
	}
	_, err = ReadAllPSI(FSRoot(fstest.MapFS{"proc/meminfo": {Data: []byte("A: 1\n")}}, "no-psi"))
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("no /proc/pressure: %v", err)
	}
	disabled := FSRoot(eopnotsuppFS{fstest.MapFS{"proc/pressure/cpu": {Data: []byte("x")}}}, "psi=0")
	_, err = ReadPSI(disabled, "cpu")
	if !errors.Is(err, ErrNotSupported) || !errors.Is(err, syscall.EOPNOTSUPP) {
		t.Errorf("EOPNOTSUPP read: %v", err)
	}
	if _, err := ReadAllPSI(disabled); !errors.Is(err, ErrNotSupported) {
		t.Errorf("all disabled: %v", err)
	}
}

func FuzzParsePSI(f *testing.F) {
	other := seedFuzz(f, func(rel string) bool { return len(rel) > 14 && rel[:14] == "proc/pressure/" },
		"full avg10=1e5 avg60=NaN avg300=0 total=1\n", "some total=1 avg300=0 avg60=0 avg10=0\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzInto(t, data, other, func(p *Pressure, b []byte) error { return ParsePSIInto(p, "memory", b) })
	})
}

func BenchmarkParsePSIInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/pressure/memory"), func(p *Pressure, d []byte) error { return ParsePSIInto(p, "memory", d) })
}
