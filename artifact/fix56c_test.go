package artifact

import (
	"strings"
	"testing"
)

// fix56c (round 51, g221): a series of Mem-Info buddy lines grepped out of dmesg
// (fix56c_buddyseries.go) and a failure header quoted inside parentheses in prose
// (fix56c_allocmode.go).

func TestFix56cBuddyLineSeriesAreBuddySamples(t *testing.T) {
	text := `The large blocks go away over time:
[ 1166.110205] Node 0 Normal: 4801*4kB (UE) 1461*8kB (UMEC) 290*16kB (UMEC) 715*32kB (UM) 67*64kB (UME) 7*128kB (UMEC) 3*256kB (MEC) 6*512kB (UMEC) 3*1024kB (MEC) 10*2048kB (UME) 219*4096kB (M) = 988012kB
[ 1320.848763] MemAlloc: khugepaged(32) gfp=0xcf52ca order=9 delay=4574
[30085.744771] Node 0 Normal: 212267*4kB (UME) 10914*8kB (UE) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 936380kB
`
	tl := ParseString(text, "t", Options{})
	var got [][]int64
	for _, s := range tl.Samples {
		for _, b := range s.Buddy {
			if b.Zone == "Normal" {
				got = append(got, b.Free)
			}
		}
	}
	if len(got) != 2 {
		t.Fatalf("want 2 Normal buddy samples, got %d: %+v", len(got), tl.Samples)
	}
	if got[0][10] != 219 || got[1][0] != 212267 || got[1][2] != 0 {
		t.Errorf("counts: %v", got)
	}
}

// A full Mem-Info dump keeps its zones' reading: its buddy lines are not fed as buddyinfo
// (the zone line with the watermarks is there), nor is a dump attached to its failure.
func TestFix56cFullDumpBuddyNotFed(t *testing.T) {
	for _, text := range []string{
		`[  100.000001] Normal free:16504kB min:13224kB low:16528kB high:19836kB active_anon:45480kB inactive_anon:30792kB present:13445120kB
[  100.000002] lowmem_reserve[]: 0 0 0 0
[  100.000003] Normal: 3755*4kB 1*8kB 0*16kB 10*32kB 8*64kB 4*128kB 1*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 16628kB
`,
		`[ 8513.740326] swapper/3: page allocation failure: order:2, mode:0xc020
[ 8514.247719] Node 0 Normal: 207920*4kB (UE) 18052*8kB (U) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 976096kB
`,
		// A single buddy line quoted alone is no series.
		"[  100.000003] Normal: 1445*4kB 1781*8kB 15*16kB 2*32kB 1*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 20396kB\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, s := range tl.Samples {
			if len(s.Buddy) > 0 {
				t.Errorf("%q: buddy sample %+v", text[:40], s.Buddy)
			}
		}
	}
}

func TestFix56cHeaderQuotedInParentheses(t *testing.T) {
	cases := map[string]string{
		"> kernel log, it failed for 32KB. (e.g.\n> swapper: page allocation failure: order:3, mode:0x20)\n": "0x20",
		"It was (swapper: page allocation failure: order:3, mode:0x20).\n":                                   "0x20",
		// The kernel's own parenthesis is kept.
		"kworker/0:1: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC|__GFP_NOTRACK)\n": "0x2080020(GFP_ATOMIC|__GFP_NOTRACK)",
		"(see: kworker/0:1: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC))\n":        "0x2080020(GFP_ATOMIC)",
	}
	for text, want := range cases {
		tl := ParseString(text, "t", Options{})
		var modes []string
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				modes = append(modes, e.AllocFailure.Mode)
			}
		}
		if len(modes) != 1 || modes[0] != want {
			t.Errorf("%q: modes %v, want %s", strings.TrimSpace(text), modes, want)
		}
	}
}
