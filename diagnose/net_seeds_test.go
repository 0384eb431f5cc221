package diagnose

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// The seed reports through the whole text pipeline: artifact.Parse, then every rule. These
// are the "done when" findings of the network rules.

func parseSeed(t *testing.T, prefix string) *model.Timeline {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "seeds", prefix+"_*.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("seed %s: %v %v", prefix, files, err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, filepath.Base(files[0]), artifact.Options{})
	if err != nil {
		t.Fatalf("parse %s: %v", files[0], err)
	}
	return tl
}

// findings returns the findings of one rule over the whole registry run.
func findings(d Diagnosis, id string) []Finding {
	var out []Finding
	for _, f := range d.Findings {
		if f.ID == id {
			out = append(out, f)
		}
	}
	return out
}

func mustHave(t *testing.T, d Diagnosis, id string, min Severity) []Finding {
	t.Helper()
	fs := findings(d, id)
	if len(fs) == 0 {
		for _, c := range d.Checks {
			if c.ID == id {
				t.Fatalf("%s did not fire: %s %s", id, c.Status, c.Why)
			}
		}
		t.Fatalf("%s did not run", id)
	}
	if fs[0].Severity < min {
		t.Errorf("%s severity %v, want at least %v", id, fs[0].Severity, min)
	}
	return fs
}

func TestSeed000SysctlUnknownKey(t *testing.T) {
	d := Run(parseSeed(t, "000"), nil)
	f := mustHave(t, d, "sysctl-unknown-key", Warning)[0]
	if !evidenceHas(f, "vm.min_kbytes_free", "vm.min_free_kbytes") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

func TestSeed001AllocatorChurn(t *testing.T) {
	d := Run(parseSeed(t, "001"), nil)
	f := mustHave(t, d, "allocator-churn", Warning)[0]
	// Before: skb_release_data 733 + kmalloc 645 + kfree 638 + alloc_skb 382 + kfree_skbmem 241
	// + __kfree_skb 194 = 2833 of 36324 − 28044 idle = 8280 non-idle ticks (34%). After:
	// 657 + alloc_skb_frame 335 + 193 + 160 + 43 = 1388 of 34880 − 28581 = 6299 (22%).
	if !evidenceHas(f, "profile 1", "34% of non-idle (2833 of 8280") || !evidenceHas(f, "profile 2", "22% of non-idle (1388 of 6299") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

func TestSeed002KernelTimeGrowth(t *testing.T) {
	d := Run(parseSeed(t, "002"), nil)
	f := mustHave(t, d, "kernel-time-growth", Warning)[0]
	if !evidenceHas(f, "comparable load", "5xab -n 5000 -c 200") || !evidenceHas(f, "baseline phase", "stated load 210 connections/s") || !evidenceHas(f, "later phase", "stated load 40 connections/s") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

func TestSeed004(t *testing.T) {
	d := Run(parseSeed(t, "004"), nil)
	t.Run("tcp_mem or buffers against lowmem", func(t *testing.T) {
		if len(findings(d, "tcp-mem-oversized"))+len(findings(d, "tcp-buffers-exceed-budget")) == 0 {
			t.Fatal("neither tcp-mem-oversized nor tcp-buffers-exceed-budget fired")
		}
		if fs := findings(d, "tcp-mem-oversized"); len(fs) > 0 && !evidenceHas(fs[0], "tcp_mem named in the text", "98304 pages") {
			t.Errorf("evidence: %+v", fs[0].Evidence)
		}
	})
	t.Run("Recv-Q table", func(t *testing.T) {
		f := mustHave(t, d, "rcvq-pruning", Warning)[0]
		if !evidenceHas(f, "Recv-Q", "14 of 14 connections; largest 1897545 bytes") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("FIN_WAIT1 rows", func(t *testing.T) {
		f := mustHave(t, d, "orphan-send-queues", Warning)[0]
		if !evidenceHas(f, "FIN_WAIT1", "19 of 19 closing sockets") || !evidenceHas(f, "FIN_WAIT1", "largest 389821 bytes") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("ifconfig overruns", func(t *testing.T) {
		fs := mustHave(t, d, "nic-rx-overruns", Warning)
		found := false
		for _, f := range fs {
			found = found || evidenceHas(f, "bond0 rx_fifo_errors", "1491402")
		}
		if !found {
			t.Errorf("no bond0 overruns: %+v", fs)
		}
		if len(findings(d, "rx-dropped-software")) != 0 {
			t.Error("ifconfig's dropped = 2 × overruns is the same loss, not software drops")
		}
	})
	t.Run("last vmstat table", func(t *testing.T) {
		f := mustHave(t, d, "context-switch-storm", Warning)[0]
		if !strings.Contains(f.Evidence[0].Source, "lines 662-684") {
			t.Errorf("storm not placed in the last vmstat table: %+v", f.Evidence)
		}
	})
}
