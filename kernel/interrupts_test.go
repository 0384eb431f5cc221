package kernel

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestParseInterrupts(t *testing.T) {
	in, err := ParseInterrupts(bytes.NewReader(member(t, hostFixture, "proc/interrupts")))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in.CPUs, []string{"CPU0", "CPU1"}) {
		t.Fatalf("CPUs %v", in.CPUs)
	}
	byName := map[string]Interrupt{}
	for _, l := range in.Lines {
		byName[l.Name] = l
		var sum int64
		for _, v := range l.PerCPU {
			sum += v
		}
		if sum != l.Total {
			t.Errorf("%s: total %d, sum %d", l.Name, l.Total, sum)
		}
	}
	for _, name := range []string{"NMI", "LOC", "RES", "CAL", "TLB", "24"} {
		if l := byName[name]; len(l.PerCPU) != 2 {
			t.Errorf("%s: %+v", name, l)
		}
	}
	if d := byName["TLB"].Desc; d != "TLB shootdowns" {
		t.Errorf("TLB desc %q", d)
	}
	if d := byName["24"].Desc; !strings.HasPrefix(d, "IO-APIC") || !strings.HasSuffix(d, "ACPI:Ged") {
		t.Errorf("IRQ 24 desc %q", d)
	}
	for _, name := range []string{"ERR", "MIS"} {
		if l := byName[name]; len(l.PerCPU) != 1 || l.Desc != "" {
			t.Errorf("%s: %+v", name, l)
		}
	}
	if v, ok := in.Total("TLB"); !ok || v != byName["TLB"].Total {
		t.Errorf("Total(TLB) = %d, %v", v, ok)
	}
	if _, ok := in.Total("NOPE"); ok {
		t.Error("Total of an absent source")
	}
}

func TestParseInterruptsARM(t *testing.T) {
	const arch = "testdata/layouts/arm-interrupts.txtar"
	in, err := ParseInterrupts(bytes.NewReader(member(t, arch, "arm64-6.x/proc/interrupts")))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.CPUs) != 4 {
		t.Fatalf("CPUs %v", in.CPUs)
	}
	want := map[string]Interrupt{
		"11":   {Name: "11", PerCPU: []int64{63545, 55381, 60232, 59019}, Total: 238177, Desc: "GICv2  30 Level     arch_timer"},
		"IPI0": {Name: "IPI0", PerCPU: []int64{5723, 6611, 7018, 6354}, Total: 25706, Desc: "Rescheduling interrupts"},
		"IPI3": {Name: "IPI3", PerCPU: []int64{0, 0, 0, 0}, Total: 0, Desc: "CPU stop (for crash dump) interrupts"},
		"Err":  {Name: "Err", PerCPU: []int64{0}, Total: 0},
	}
	for _, l := range in.Lines {
		if w, ok := want[l.Name]; ok {
			if !reflect.DeepEqual(l, w) {
				t.Errorf("got %+v\nwant %+v", l, w)
			}
			delete(want, l.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("lines not found: %v", want)
	}

	kw, err := ParseInterrupts(bytes.NewReader(member(t, arch, "kirkwood-2.6.30/proc/interrupts")))
	if err != nil {
		t.Fatal(err)
	}
	if len(kw.CPUs) != 1 || kw.Lines[2].Name != "11" || kw.Lines[2].Total != 40512343 || kw.Lines[2].Desc != "orion_irq  mv643xx_eth" {
		t.Errorf("kirkwood %+v", kw)
	}
}

func TestParseInterruptsHeaderless(t *testing.T) {
	// A pasted excerpt without the CPU header: every leading integer is a count.
	in, err := ParseInterrupts(strings.NewReader("TLB:  123  456   TLB shootdowns\nERR:          0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.CPUs) != 0 || in.Lines[0].Total != 579 || in.Lines[0].Desc != "TLB shootdowns" || in.Lines[1].Total != 0 {
		t.Errorf("%+v", in)
	}
}

func TestParseInterruptsMalformed(t *testing.T) {
	const hdr = "           CPU0       CPU1\n"
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"header only", hdr, 0},
		{"no colon", hdr + "  0  1 2 timer\n", 2},
		{"no counts", hdr + "  0:  timer\n", 2},
		{"negative", hdr + "  0:  -1 2 timer\n", 2},
		{"bad name", hdr + "a b: 1 2\n", 2},
		{"truncated", hdr + "NMI:          0          0   Non-maskable interrupts\nLO", 3},
	}, func(b []byte) error { var in Interrupts; return ParseInterruptsInto(&in, b) })
}

func TestParseInterruptsInto(t *testing.T) {
	checkInto(t, ParseInterruptsInto, member(t, hostFixture, "proc/interrupts"),
		member(t, "testdata/layouts/arm-interrupts.txtar", "arm64-6.x/proc/interrupts"))
}

func FuzzParseInterrupts(f *testing.F) {
	other := seedFuzz(f, exact("proc/interrupts"), "CPU0 CPU2\n x: 1 2 3 4\n", "CPU0\nCPU1\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseInterruptsInto) })
}

func BenchmarkParseInterruptsInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/interrupts"), ParseInterruptsInto)
}
