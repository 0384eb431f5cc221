package kernel

import (
	"bytes"
	"testing"
)

func TestParseSoftnet(t *testing.T) {
	host, err := ParseSoftnet(bytes.NewReader(member(t, hostFixture, "proc/net/softnet_stat")))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range host {
		if c.Columns != 15 || c.CPU != i { // 6.4+: index column present
			t.Errorf("6.18 line %d: %+v", i, c)
		}
		if c.BacklogLen != c.InputQueueLen+c.ProcessQueueLen {
			t.Errorf("backlog %d != %d + %d", c.BacklogLen, c.InputQueueLen, c.ProcessQueueLen)
		}
	}

	const layouts = "testdata/layouts/softnet-layouts.txtar"
	cases := []struct {
		archive, name string
		columns       int
		cpus          []int
		first         SoftnetCPU
	}{
		{"testdata/layouts/2.4-i686-seed001.txtar", "proc/net/softnet_stat", 9, []int{0, 1},
			SoftnetCPU{CPU: 0, Columns: 9, Processed: 0x3fa0f7a1, Dropped: 0x293b2, TimeSqueeze: 0x4e1, Throttled: 0x51}},
		{"testdata/layouts/2.6.32-i686.txtar", "proc/net/softnet_stat", 9, []int{0, 1},
			SoftnetCPU{CPU: 0, Columns: 9, Processed: 0x2f9b31c0, Dropped: 0x2db94, TimeSqueeze: 0x11a3, CPUCollision: 0x12}},
		{layouts, "3.10/proc/net/softnet_stat", 10, []int{0, 1},
			SoftnetCPU{CPU: 0, Columns: 10, Processed: 0x0a1f33c2, TimeSqueeze: 0x113, CPUCollision: 2}},
		{layouts, "4.8/proc/net/softnet_stat", 11, []int{0, 1},
			SoftnetCPU{CPU: 0, Columns: 11, Processed: 0x71b2c3d4, Dropped: 0x12c, TimeSqueeze: 0x2a10, ReceivedRPS: 0x1f00}},
		// CPU 2 offline: the index column says which CPU each line is.
		{layouts, "5.10/proc/net/softnet_stat", 13, []int{0, 1, 3},
			SoftnetCPU{CPU: 0, Columns: 13, Processed: 0x358fe3, Dropped: 0x6283, ReceivedRPS: 0x855fc}},
		{layouts, "6.4/proc/net/softnet_stat", 15, []int{0},
			SoftnetCPU{CPU: 0, Columns: 15, Processed: 0x1a2b3c4d, Dropped: 0x10, TimeSqueeze: 0x22, BacklogLen: 5, InputQueueLen: 2, ProcessQueueLen: 3}},
	}
	for _, c := range cases {
		got, err := ParseSoftnet(bytes.NewReader(member(t, c.archive, c.name)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var cpus []int
		for _, l := range got {
			cpus = append(cpus, l.CPU)
			if l.Columns != c.columns {
				t.Errorf("%s: %d columns", c.name, l.Columns)
			}
		}
		if len(cpus) != len(c.cpus) || (len(cpus) > 0 && cpus[len(cpus)-1] != c.cpus[len(c.cpus)-1]) {
			t.Errorf("%s: CPUs %v, want %v", c.name, cpus, c.cpus)
		}
		if got[0] != c.first {
			t.Errorf("%s: first line\n%+v\nwant\n%+v", c.name, got[0], c.first)
		}
	}
	// 12 columns never shipped; the backlog column is taken, the CPU is the line number.
	twelve, err := ParseSoftnet(bytes.NewReader([]byte("1 2 3 0 0 0 0 0 0 4 5 6\n1 2 3 0 0 0 0 0 0 4 5 6\n")))
	if err != nil || twelve[1].CPU != 1 || twelve[1].BacklogLen != 6 || twelve[1].FlowLimitCount != 5 {
		t.Errorf("12 columns: %v %+v", err, twelve)
	}
}

func TestParseSoftnetMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"too few columns", "00000001 00000002 00000003 00000000 00000000 00000000 00000000 00000000 00000000\n1 2 3\n", 2},
		{"not hex", "0000000g 0 0 0 0 0 0 0 0\n", 1},
		{"sign", "-1 0 0 0 0 0 0 0 0\n", 1},
		{"bad cpu index", "1 0 0 0 0 0 0 0 0 0 0 0 ffffffff\n", 1},
		{"truncated", "0000000d 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n0000097f 000", 2},
	}, func(b []byte) error { var c []SoftnetCPU; return ParseSoftnetInto(&c, b) })
}

func TestParseSoftnetInto(t *testing.T) {
	checkInto(t, ParseSoftnetInto, member(t, hostFixture, "proc/net/softnet_stat"),
		member(t, "testdata/layouts/softnet-layouts.txtar", "5.10/proc/net/softnet_stat"))
}

func FuzzParseSoftnet(f *testing.F) {
	other := seedFuzz(f, exact("proc/net/softnet_stat"), "0 0 0 0 0 0 0 0\n", "f f f f f f f f f f f f f f f f f f\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseSoftnetInto) })
}

func BenchmarkParseSoftnetInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/net/softnet_stat"), ParseSoftnetInto)
}
