package kernel

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseStat(t *testing.T) {
	s, err := ParseStat(bytes.NewReader(member(t, hostFixture, "proc/stat")))
	if err != nil {
		t.Fatal(err)
	}
	if s.Total.CPU != "cpu" || len(s.Total.Fields) != 10 || len(s.PerCPU) != 2 || s.PerCPU[1].CPU != "cpu1" {
		t.Fatalf("cpu lines %+v %+v", s.Total, s.PerCPU)
	}
	// The total is the sum of the CPUs, column by column, give or take one tick per CPU:
	// fs/proc/stat.c show_stat converts the nanosecond sum once and each CPU separately.
	for i := range s.Total.Fields {
		var sum int64
		for _, c := range s.PerCPU {
			sum += c.Fields[i]
		}
		if d := sum - s.Total.Fields[i]; d < -int64(len(s.PerCPU)) || d > int64(len(s.PerCPU)) {
			t.Errorf("column %d: total %d, sum %d", i, s.Total.Fields[i], sum)
		}
	}
	if got := strings.Join(s.Scalars.Names(), " "); got != "intr ctxt btime processes procs_running procs_blocked" {
		t.Errorf("scalars %q", got)
	}
	if got := strings.Join(s.SoftIRQ.Names(), " "); got != "total HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU" {
		t.Errorf("softirq %q", got)
	}
	var sum int64
	for i := 1; i < s.SoftIRQ.Len(); i++ {
		_, v := s.SoftIRQ.At(i)
		sum += v
	}
	if total, _ := s.SoftIRQ.Get("total"); total != sum {
		t.Errorf("softirq total %d, sum %d", total, sum)
	}

	// 2.4: four cpu columns, page and swap lines, disk_io skipped, no softirq line.
	old, err := ParseStat(bytes.NewReader(member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/stat")))
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Total.Fields) != 4 || old.SoftIRQ.Len() != 0 {
		t.Errorf("2.4 cpu %+v softirq %v", old.Total, old.SoftIRQ.Names())
	}
	for name, want := range map[string]int64{"pgpgin": 91265, "pgpgout": 1441303, "pswpin": 1, "pswpout": 0, "intr": 1113390282, "ctxt": 40118831, "processes": 1913} {
		if v, ok := old.Scalars.Get(name); !ok || v != want {
			t.Errorf("2.4 %s = %d, %v; want %d", name, v, ok, want)
		}
	}
	if old.Scalars.Has("disk_io:") || old.Scalars.Has("procs_running") {
		t.Error("2.4 scalars hold a name the file did not have")
	}

	// 2.6.31 had nine softirqs (no BLOCK_IOPOLL).
	s31, err := ParseStat(strings.NewReader("cpu  1 2 3 4 5 6 7 0 0\nsoftirq 45 1 2 3 4 5 6 7 8 9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s31.SoftIRQ.Get("TASKLET"); v != 6 || s31.SoftIRQ.Has("IRQ_POLL") {
		t.Errorf("2.6.31 softirq %v", s31.SoftIRQ)
	}
}

func TestParseStatMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"no cpu line", "ctxt 5\n", 0},
		{"short cpu line", "cpu  1 2 3\n", 1},
		{"bad cpu value", "cpu  1 2 3 4\ncpu0 1 x 3 4\n", 2},
		{"bad cpu name", "cpu  1 2 3 4\ncpux 1 2 3 4\n", 2},
		{"signed cpu name", "cpu  1 2 3 4\ncpu-1 1 2 3 4\n", 2},
		{"second total", "cpu  1 2 3 4\ncpu  1 2 3 4\n", 2},
		{"bad intr", "cpu  1 2 3 4\nintr x 1 2\n", 2},
		{"softirq count", "cpu  1 2 3 4\nsoftirq 1 2 3\n", 2},
		{"bad scalar", "cpu  1 2 3 4\nctxt 12 13\n", 2},
		{"scalar without value", "cpu  1 2 3 4\nbtime\n", 2},
		{"bad page line", "cpu  1 2 3 4\npage 1\n", 2},
		{"truncated", "cpu  1 2 3 4\nctxt 340358\nbti", 3},
	}, func(b []byte) error { var s Stat; return ParseStatInto(&s, b) })
}

func TestParseStatInto(t *testing.T) {
	checkInto(t, ParseStatInto, member(t, hostFixture, "proc/stat"), member(t, "testdata/layouts/2.4-i686-seed001.txtar", "proc/stat"))
}

func FuzzParseStat(f *testing.F) {
	other := seedFuzz(f, exact("proc/stat"), "cpu 1 2 3 4\nsoftirq 0 1 2 3 4 5 6 7 8 9 10\n", "cpu0 1 2 3 4\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseStatInto) })
}

func BenchmarkParseStatInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/stat"), ParseStatInto)
}
