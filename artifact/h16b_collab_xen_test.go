package artifact

import (
	"strings"
	"testing"
)

// Pre-round 16 (h16b): self-hosted collaboration servers' own lines and Xen's tools, read
// from their sources (unreadcollab.go). Snippets written from the format strings in the
// forms users paste them; none copied from a case.

// Each line is named as the program's (or Xen's) with what it proves; none states an OOM
// of the host or a kill; a text of only such lines is read (not exit 3).
func TestH16bCollabOwnLinesNamed(t *testing.T) {
	checkOwnLinesNamed(t, []ownLineCase{
		{`{"timestamp":"2026-11-28T04:02:11.113Z","pid":1130,"message":"PumaWorkerKiller: Out of memory. 4 workers consuming total: 4871.23828125 mb out of max: 4798.08 mb. Sending TERM to pid 26668 consuming 1001.00390625 mb."}` + "\n", "puma_worker_killer"},
		{"gitlab-1  | PumaWorkerKiller: Out of memory. 2 workers consuming total: 2400.5 mb out of max: 2048 mb. Sending TERM to pid 311 consuming 1300.2 mb.\n", "per_worker_max_memory_mb"},
		{`2026-11-28_03:14:07.51234 {"severity":"WARN","class":"Gitlab::SidekiqDaemon::MemoryKiller","message":"Sidekiq worker RSS out of range","pid":24188,"current_rss":2411520,"soft_limit_rss":2000000,"hard_limit_rss":3000000}` + "\n", "SidekiqDaemon::MemoryKiller"},
		{"2026-11-28T03:14:07.513Z 24188 TID-gq7 WARN: Sidekiq worker PID-24188 current RSS 2411520 exceeds maximum RSS 2000000 after finishing job PipelineProcessWorker JID-8a1b2c3d\n", "SIDEKIQ_MEMORY_KILLER_MAX_RSS"},
		{"mastodon-sidekiq-1  | [FATAL] failed to allocate memory\n", "rb_memerror"},
		{"Nov 28 06:01:02 matrix python[2211]: MemoryError\n", "MemoryError"},
		{"Nov 28 03:14:07 git1 bundle[24188]: Sidekiq worker RSS out of range pid=24188 current_rss=2411520\n", "SidekiqDaemon::MemoryKiller"},
		{"Nov 28 05:10:00 git1 gitaly[811]: fork/exec /opt/gitlab/embedded/bin/git: cannot allocate memory\n", "overcommit"},
		{"2026/11/28 10:00:00 ...dules/git/command.go:267:Run() [E] git command failed: fork/exec /usr/bin/git: cannot allocate memory\n", "clone()"},
		{"Nov 28 12:00:00 xcp-ng-01 xapi: [error||1234 :::80||backtrace] Async.VM.start R:5f1c failed with exception Server_error(HOST_NOT_ENOUGH_FREE_MEMORY, [ 8623489024; 1073741824 ])\n", "squeezed"},
		{"Nov 28 08:00:01 meet jvb.sh[901]: Exception in thread \"Smack-Cached Executor\" java.lang.OutOfMemoryError: unable to create new native thread\n", "RLIMIT_NPROC"},
		{"total_memory           : 65442\nfree_memory            : 1024\n", "xl info"},
		{"xen_version            : 4.14.6\n", "hypervisor's release"},
		{"memory-actual ( RO)    : 8589934592\n", "XAPI VM record"},
		{"GRUB_CMDLINE_XEN_DEFAULT=\"dom0_mem=2048M,max:2048M dom0_max_vcpus=2\"\n", "dom0_mem"},
		{"(XEN) Command line: placeholder dom0_mem=4G,max:4G loglvl=all\n", "dom0_mem"},
	})
}

// The figures: puma_worker_killer's MB as written (fractions kept), the Sidekiq killers'
// KiB, XAPI's bytes needed and available, xl info's MiB, xe's bytes, dom0_mem's value.
func TestH16bCollabXenFigures(t *testing.T) {
	checkProgramFigures(t, []figureCase{
		{"Sidekiq worker PID-24188 current RSS 2411520 exceeds maximum RSS 2000000 after finishing job X JID-1\n", "sidekiq", "max_rss_kib", 2000000},
		{`{"class":"Gitlab::SidekiqDaemon::MemoryKiller","message":"Sidekiq worker RSS out of range","current_rss":2411520,"soft_limit_rss":2000000}` + "\n", "sidekiq", "soft_limit_rss_kib", 2000000},
		{"xapi: [error||1||backtrace] Raised Server_error(HOST_NOT_ENOUGH_FREE_MEMORY, [ 8623489024; 1073741824 ])\n", "xapi", "available_bytes", 1073741824},
		{"xapi: [error||1||backtrace] Raised Server_error(HOST_NOT_ENOUGH_FREE_MEMORY, [ 8623489024; 1073741824 ])\n", "xapi", "needed_bytes", 8623489024},
		{"total_memory           : 65442\n", "xen", "total_memory_mib", 65442},
		{"free_memory            : 1024\n", "xen", "free_memory_mib", 1024},
		{"memory-actual ( RO)    : 8589934592\n", "xen", "memory-actual_bytes", 8589934592},
	})
	for _, c := range []struct {
		text, name string
		want       any
	}{
		{"PumaWorkerKiller: Out of memory. 4 workers consuming total: 4871.23828125 mb out of max: 4798.08 mb. Sending TERM to pid 26668 consuming 1001.00390625 mb.\n", "max_mb", 4798.08},
		{"PumaWorkerKiller: Out of memory. 4 workers consuming total: 4871.23828125 mb out of max: 4798.08 mb. Sending TERM to pid 26668 consuming 1001.00390625 mb.\n", "total_mb", 4871.23828125},
		{"GRUB_CMDLINE_XEN_DEFAULT=\"dom0_mem=2048M,max:2048M dom0_max_vcpus=2\"\n", "dom0_mem", "2048M,max:2048M"},
		{"GRUB_CMDLINE_XEN=\"dom0_mem=1024M\"\n", "dom0_mem", "1024M"},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, a := range tl.Artifacts {
			if d, _ := a.Data.(map[string]any); a.Kind == KindProgramLimit && d[c.name] == c.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want %s=%v among %+v", c.text, c.name, c.want, tl.Artifacts)
		}
	}
}

// Counter-cases: sentences with the words, a recommendation of dom0_mem, xl info's other
// keys, another program's "current RSS", the same words in a question: none is named as
// the program's line or gives a figure.
func TestH16bCollabXenNotFromOthers(t *testing.T) {
	for _, text := range []string{
		"I think PumaWorkerKiller restarts workers when they run out of memory, is that right?\n",
		"You should set dom0_mem=4096M,max:4096M on the Xen command line.\n",
		"The free_memory value in xl info looks low to me.\n",
		"free_memory is what Xen has left\n",
		"Does the HOST_NOT_ENOUGH_FREE_MEMORY error mean dom0 is short?\n",
		"memory-actual is the field to look at\n",
	} {
		tl := ParseString(text, "t", Options{})
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "puma_worker_killer") || strings.Contains(u.Why, "dom0_mem=") || strings.Contains(u.Why, "xl info") || strings.Contains(u.Why, "XAPI") {
				t.Errorf("%q: named as a program's line: %+v", text, u)
			}
		}
		for _, a := range tl.Artifacts {
			if a.Kind == KindProgramLimit {
				t.Errorf("%q: figure %+v", text, a)
			}
		}
		if statedOOM(tl) || len(f15Kills(tl)) != 0 {
			t.Errorf("%q: an OOM or a kill read", text)
		}
	}
	// xl info's other keys stay as they were (not named as memory).
	tl := ParseString("nr_cpus                : 16\nsharing_freed_memory   : 0\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "xl info") {
			t.Errorf("xl info's other keys named: %+v", u)
		}
	}
}
