package artifact

import (
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

func parseGlob(t *testing.T, glob string) *model.Timeline {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) != 1 {
		t.Fatalf("%s: %v", glob, files)
	}
	return parseFile(t, files[0], Options{})
}

func mentionsOf(tl *model.Timeline, key string) map[string]string {
	out := map[string]string{}
	for _, m := range tl.Settings {
		if m.Names() == key && m.Value != "" {
			out[strings.TrimSpace(m.Value)] = m.Subject
		}
	}
	return out
}

func foreignSamples(tl *model.Timeline) []string {
	var out []string
	for _, s := range tl.Samples {
		if strings.Contains(s.Source, model.ForeignMark) {
			out = append(out, s.Source)
		}
	}
	return out
}

// Whose numbers in the seeds (issue 29), as the reader assigns them.
func TestSubjectsSeeds(t *testing.T) {
	t.Run("000 outcome and advice", func(t *testing.T) {
		tl := parseGlob(t, "../testdata/seeds/000_*.txt")
		got := mentionsOf(tl, "vm.min_free_kbytes")
		want := map[string]string{"2000": "", "20000": model.SubjectOutcome, "20248": model.SubjectAdvice}
		for v, s := range want {
			if g, ok := got[v]; !ok || g != s {
				t.Errorf("min_free_kbytes %s: subject %q (present %v), want %q; all %v", v, g, ok, s, got)
			}
		}
		var trace []string
		for _, e := range tl.Events {
			if e.AllocFailure != nil {
				trace = e.AllocFailure.CallTrace
			}
		}
		if strings.Join(trace, " ") != "mv643xx_eth_poll rxq_refill" {
			t.Errorf("call trace from the prose: %v", trace)
		}
	})
	t.Run("003 quoted rate, host memory", func(t *testing.T) {
		tl := parseGlob(t, "../testdata/seeds/003_*.txt")
		fs := foreignSamples(tl)
		if len(fs) != 1 || !strings.Contains(fs[0], "quoted from another message") {
			t.Errorf("foreign samples %v", fs)
		}
		for _, s := range tl.Samples {
			_, tlb := s.Rates[model.RateTLBShootdownPerSec]
			if tlb != strings.Contains(s.Source, model.ForeignMark) {
				t.Errorf("the 900K/s belongs to the quote only: %s %v", s.Source, s.Rates)
			}
			if _, scan := s.Rates[model.RatePgscanKswapdPerSec]; scan {
				t.Errorf("a stated reclaim rate is no scan rate: %v", s.Rates)
			}
		}
		if tl.Host.MemTotalKB != 256<<20 {
			t.Errorf("memory %d kB, want 256 GiB", tl.Host.MemTotalKB)
		}
	})
	t.Run("004 test box, host tcp_mem, bonded link, 64-bit slide", func(t *testing.T) {
		tl := parseGlob(t, "../testdata/seeds/004_*.txt")
		got := mentionsOf(tl, "net.ipv4.tcp_mem")
		if got["98304"] != model.SubjectOther || got["40960"] != model.SubjectOther {
			t.Errorf("the 256 MB test box's tcp_mem: %v", got)
		}
		if s, ok := got["419430"]; !ok || s != "" {
			t.Errorf("\"1.6 GBytes on 32 bit highmem machine\" as the host's tcp_mem pages: %v", got)
		}
		fs := foreignSamples(tl)
		if len(fs) == 0 {
			t.Fatal("the 64 bit machines' tables are not marked")
		}
		for _, s := range fs {
			if !strings.Contains(s, "64 bit machines") {
				t.Errorf("foreign sample %s", s)
			}
		}
		n := 0
		for _, nic := range tl.Host.NICs {
			if nic.SpeedMbps == 1000 {
				n++
			}
		}
		if n != 2 {
			t.Errorf("\"2 × 1Gbps (bonded)\": %+v", tl.Host.NICs)
		}
	})
}

// The classes of subject on minimal texts.
func TestSubjectClasses(t *testing.T) {
	parse := func(text string) *model.Timeline {
		tl, err := Parse(strings.NewReader(text), "t.txt", Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	host := parse("Our box shows kswapd0 at 99% CPU all day and 2M pages reclaimed per second.\n")
	if len(foreignSamples(host)) != 0 || len(host.Samples) != 1 {
		t.Errorf("the author's own numbers: %+v", host.Samples)
	}
	seen := parse("Looking at top, you can see kswapd0 at 99% CPU for minutes.\n")
	if len(seen.Samples) != 1 || len(foreignSamples(seen)) != 0 {
		t.Errorf("\"you can see\" is an observation, not advice: %+v", seen.Samples)
	}
	gloss := parse("RX overruns: the number of frames the NIC dropped because its FIFO was full.\n")
	for _, s := range gloss.Samples {
		if s.Rates[model.RateStatedRxOverrun] > 0 {
			t.Errorf("a glossary line states no overrun: %+v", s)
		}
	}
	box := parse("I wrote this up after a week of tests.\n\nOn my test box kswapd0 sat at 99% CPU.\n")
	if fs := foreignSamples(box); len(fs) != 1 || !strings.Contains(fs[0], "test box") {
		t.Errorf("a test box's numbers: %v", fs)
	}
	quote := parse("Mel wrote:\n> in the optimistic case the series reduces TLB shootdowns from 900K IPIs/s\n\nThanks, this helps on my machine a lot.\nWe see freezes here and I wonder why.\nThe kernel is 4.0.0 and the box is busy.\n")
	if fs := foreignSamples(quote); len(fs) != 1 {
		t.Errorf("a quoted message's numbers: %v (samples %+v)", fs, quote.Samples)
	}
	outcome := parse("The vm.min_free_kbytes value was something like 2000. After setting it to 65536 the problem went away.\n")
	if got := mentionsOf(outcome, "vm.min_free_kbytes"); got["65536"] != model.SubjectOutcome || got["2000"] != "" {
		t.Errorf("outcome: %v", got)
	}
}

// Corpus cases that quote the reporter's own output in a reply: the quoted tables stay the
// host's (a reply's quote is foreign only for prose numbers of a text that mostly speaks
// unquoted), and the memory a reporter states in prose is the host's.
func TestSubjectsCorpusQuoted(t *testing.T) {
	for _, id := range []string{"002", "028", "042", "102", "103", "126", "139", "233", "337", "338", "343", "350", "351", "402", "413"} {
		t.Run(id, func(t *testing.T) {
			tl := parseGlob(t, "../testdata/corpus/"+id+"-*.txt")
			if fs := foreignSamples(tl); len(fs) != 0 {
				t.Errorf("quoted output read as another machine's: %v", fs)
			}
			for _, m := range tl.Settings {
				if m.Subject == model.SubjectOther {
					t.Errorf("setting %s=%s at line %d read as another machine's", m.Key, m.Value, m.Line)
				}
			}
		})
	}
	for id, kb := range map[string]int64{"104": 4 << 20, "106": 4 << 20, "146": 128 << 10, "161": 128 << 20, "339": 512 << 10, "342": 2 << 20} {
		if tl := parseGlob(t, "../testdata/corpus/"+id+"-*.txt"); tl.Host.MemTotalKB != kb {
			t.Errorf("%s: memory %d kB, want %d (stated by its reporter)", id, tl.Host.MemTotalKB, kb)
		}
	}
}
