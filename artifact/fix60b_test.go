package artifact

import (
	"testing"

	"headroom/model"
)

// fix60b (round 55, g241): a top header typed by hand (a Swap line without its colon, a unit
// letter touching its label) and free's header on the command's line.

func TestFix60bHandTypedTopHeader(t *testing.T) {
	text := "top - 08:27:08 up. 5 users, load average 1.89, 2.12, 1.74\n" +
		"Tasks: 164 total, 1 running, 163 sleeping, 0 stopped, 0 zombie\n" +
		"Cpu(s): 2.2%us, 3.8%sys,,9.8%ni, 35.2%id, 47.3%wa, 0.2*hi, 0.5%si, 0.0%st\n" +
		"Mem: 6106120K total, 6008372k used, 37388kfree, 3140k buffers\n" +
		"Swap12008576l total, 6911328k used, 5097248k free, 43652k cached\n"
	tl := ParseString(text, "t", Options{})
	if len(tl.Samples) != 1 || tl.Samples[0].MemInfo == nil {
		t.Fatalf("no sample: %+v", tl.Artifacts)
	}
	m := tl.Samples[0].MemInfo
	for name, want := range map[string]int64{"MemTotal": 6106120, "MemFree": 37388, "Buffers": 3140, "SwapUsed": 6911328, "SwapFree": 5097248, "SwapTotal": 12008576, "Cached": 43652} {
		if v, ok := m.Get(name); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", name, v, ok, want)
		}
	}
	// Counter-cases: prose starting with "Swap" and a Swap line without used and free are no
	// Swap line of top's.
	for _, text := range []string{
		"Mem: 6106120K total, 6008372k used, 37388k free, 3140k buffers\nSwapping is slow, 12 GB total on the disk\n",
		"Mem: 6106120K total, 6008372k used, 37388k free, 3140k buffers\nSwap 12008576k total\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, s := range tl.Samples {
			if s.MemInfo != nil && s.MemInfo.Has("SwapTotal") {
				t.Errorf("swap read from %q", text)
			}
		}
	}
}

func TestFix60bFreeHeaderOnCommandLine(t *testing.T) {
	text := "# free -h total used free shared buff/cache available\n" +
		"Mem: 125G 34G 4.2G 150M 86G 80G\n" +
		"Swap: 2.0G 238M 1.8G\n"
	tl := ParseString(text, "t", Options{})
	if len(artifactsOf(tl, KindFree)) != 1 || len(tl.Samples) != 1 {
		t.Fatalf("free not read: %+v", tl.Artifacts)
	}
	m := tl.Samples[0].MemInfo
	for name, want := range map[string]int64{"MemTotal": 125 << 20, "MemAvailable": 80 << 20, "SwapTotal": 2 << 20, "BuffCache": 86 << 20} {
		if v, ok := m.Get(name); !ok || v != want {
			t.Errorf("%s = %d %v, want %d", name, v, ok, want)
		}
	}
	// Counter-case: a sentence about free's columns is no header.
	tl = ParseString("# free shows total used free as columns\nMem: is the first row\n", "t", Options{})
	if len(artifactsOf(tl, KindFree)) != 0 {
		t.Errorf("a sentence read as free: %+v", tl.Artifacts)
	}
}

// The CPU named first and kswapd as who takes it: kswapd busy, stated without a figure.
func TestFix60bCPUTakenByKswapd(t *testing.T) {
	for _, text := range []string{
		"CPU at 100% mostly used by kswapd0\nSystem is slow but is running somehow\n",
		"All the CPU is eaten by kswapd on this box.\n",
	} {
		if got := statedRate(t, text, model.RateStatedKswapdBusy); got != 1 {
			t.Errorf("%q: %v, want 1", text, got)
		}
	}
	for _, text := range []string{
		"CPU at 100% mostly used by mysqld; kswapd0 is idle.\n",     // someone else takes it
		"Is the CPU used by kswapd0 when memory runs low?\n",        // asked
		"If the CPU were eaten by kswapd we would see it in top.\n", // a condition
	} {
		if got := statedRate(t, text, model.RateStatedKswapdBusy); got != 0 {
			t.Errorf("%q: %v, want 0", text, got)
		}
	}
}
