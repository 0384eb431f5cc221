package diagnose

import (
	"headroom/model"
	"strings"
	"testing"
)

// The seed reports through the whole text pipeline: artifact.Parse, then every rule. These
// are the "done when" findings of the network rules.

func TestSeed004(t *testing.T) {
	d := Run(parseSeed(t, "004"), nil)
	t.Run("tcp_mem or buffers against lowmem", func(t *testing.T) {
		if len(findings(d, "tcp-mem-oversized"))+len(findings(d, "tcp-buffers-exceed-budget")) == 0 {
			t.Fatal("neither tcp-mem-oversized nor tcp-buffers-exceed-budget fired")
		}
		// The host's tcp_mem is the stated 1.6 GBytes; 98304 pages is the slides' 256 MB
		// test box, never judged as this host's.
		if fs := findings(d, "tcp-mem-oversized"); len(fs) > 0 && (!evidenceHas(fs[0], "tcp_mem named in the text", "(1.6 GiB)") || evidenceHas(fs[0], "tcp_mem", "98304 pages")) {
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
		// The storm is on the "64 bit machines" slide: context, not this 32-bit host's.
		f := mustHave(t, d, "context-switch-storm", Info)[0]
		if f.Severity != Info || !strings.Contains(f.Title, model.ForeignMark) {
			t.Errorf("another machine's storm judged as this host's: %s %q", f.Severity, f.Title)
		}
		if !strings.Contains(f.Evidence[0].Source, "lines 662-684") {
			t.Errorf("storm not placed in the last vmstat table: %+v", f.Evidence)
		}
	})
}
