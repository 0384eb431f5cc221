package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// On a live host with nf_conntrack loaded or built in (this VM's 6.18 kernel has it built in:
// `modprobe nf_conntrack` finds no module, /proc/net/stat/nf_conntrack exists), a sample
// carries the statistics summed over the CPUs.
func TestLiveConntrackStats(t *testing.T) {
	if _, err := os.Stat("/proc/net/stat/nf_conntrack"); err != nil {
		t.Skip("no /proc/net/stat/nf_conntrack: nf_conntrack not loaded on this host")
	}
	s := NewSampler(kernel.HostRoot(), filesOnly)
	defer s.Close()
	var dst model.Sample
	s.SampleInto(&dst, time.Now())
	if dst.Conntrack == nil || !dst.Conntrack.Has("insert_failed") || !dst.Conntrack.Has("drop") || !dst.Conntrack.Has("early_drop") {
		t.Fatalf("no conntrack statistics in a live sample: %+v, unavailable %v", dst.Conntrack, s.Unavailable())
	}
	// serve's scrapes between window samples leave the part out: the field keeps what the
	// last window sample read.
	prev := dst.Conntrack
	s.SamplePartsInto(&dst, time.Now(), AllParts&^PartConntrack)
	if dst.Conntrack != prev {
		t.Error("a sample without PartConntrack replaced the statistics")
	}
}

// Without the file (nf_conntrack not loaded, or not in this network namespace) the sample has
// no statistics and the sampler says why: not checked, never zero counters.
func TestConntrackStatsAbsent(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "proc", "net"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := NewSampler(kernel.DirRoot(dir), filesOnly)
	defer s.Close()
	var dst model.Sample
	dst.Conntrack = &kernel.Counters{}
	s.SampleInto(&dst, time.Now())
	if dst.Conntrack != nil {
		t.Errorf("statistics without the file: %+v", dst.Conntrack)
	}
	found := false
	for _, u := range s.Unavailable() {
		if strings.Contains(u.What, "nf_conntrack") {
			found = strings.Contains(u.Why, "not loaded") && strings.Contains(u.Why, "not checked")
		}
	}
	if !found {
		t.Errorf("absent nf_conntrack statistics not reported with the reason: %+v", s.Unavailable())
	}
}

// A directory root with the file (a mounted host, a captured directory) is read through the
// same parser: two readings whose drop grew give two samples the rule compares.
func TestConntrackStatsTwoReadings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "proc", "net", "stat", "nf_conntrack")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	head := "entries  searched found new invalid ignore delete delete_list insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart\n"
	row := func(drop string) string {
		return "0000fff0  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 " + drop + " 00000000 00000000  00000000 00000000 00000000 00000000\n"
	}
	var got []int64
	for _, drop := range []string{"00000002", "00000102"} {
		if err := os.WriteFile(path, []byte(head+row(drop)+row("00000000")), 0o644); err != nil {
			t.Fatal(err)
		}
		s := NewSampler(kernel.DirRoot(dir), filesOnly)
		sm := s.Sample(time.Now())
		s.Close()
		if sm.Conntrack == nil {
			t.Fatalf("no statistics: %v", s.Unavailable())
		}
		v, _ := sm.Conntrack.Get("drop")
		got = append(got, v)
	}
	if got[0] != 2 || got[1] != 0x102 {
		t.Errorf("drop readings %v, want [2 258]", got)
	}
}
