package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// fix44c: round 39's first-run misses by class. sacct's table with the job's number redacted
// by the one who pasted it ("[JOBID].0", corpus 3724) is still Slurm's accounting of
// OUT_OF_MEMORY steps; spades.py's "finished abnormally, OS return value: -9" (3738) is a
// SIGKILL whose sender the line does not say, beside SPAdes' log rows with the process's
// memory figures.

const fix44cSacct = "~# sacct -j [JOBID]\n" +
	"JobID           JobName  Partition    Account  AllocCPUS      State ExitCode\n" +
	"------------ ---------- ---------- ---------- ---------- ---------- --------\n" +
	"[JOBID]      [JOBNAME]-+      debug    default          1    RUNNING      0:0\n" +
	"[JOBID].bat+      batch               default          1    RUNNING      0:0\n" +
	"[JOBID].0    python3.12               default          1 OUT_OF_ME+    0:125\n" +
	"[JOBID].1    python3.12               default          1 OUT_OF_ME+    0:125\n"

func TestFix44cSacctRedactedJobID(t *testing.T) {
	tl := pasteTimeline(t, fix44cSacct)
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != artifact.KindSlurmSacct {
		t.Fatalf("artifacts: %+v", tl.Artifacts)
	}
	s, ok := tl.Artifacts[0].Data.(artifact.SlurmSacct)
	if !ok || s.Rows != 4 || s.OOMRows != 2 || len(s.OOMJob) != 1 || s.OOMJob[0] != "[JOBID]" {
		t.Errorf("sacct: %+v", tl.Artifacts[0].Data)
	}
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Scope != model.OOMScopeCgroup || !strings.HasPrefix(tl.RuntimeOOMs[0].Reporter, "sacct (State OUT_OF_MEMORY)") {
		t.Errorf("kills: %+v", tl.RuntimeOOMs)
	}
	mustFire(t, run(t, "oom-kill", tl), Warning)
	for _, id := range []string{"swap-under-load", "min-free-too-low"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on one job's cgroup: %+v", id, res.Findings)
		}
	}
	// The same table with its spaces squashed or turned into tabs by the paste.
	for _, form := range []string{strings.Join(strings.Fields(strings.ReplaceAll(fix44cSacct, "\n", " \x00 ")), " "), strings.ReplaceAll(fix44cSacct, "      ", "\t")} {
		form = strings.ReplaceAll(form, " \x00 ", "\n")
		form = strings.ReplaceAll(form, " \x00", "\n")
		tl := pasteTimeline(t, form)
		if len(tl.RuntimeOOMs) != 1 {
			t.Errorf("shifted columns: %q: %+v", form, tl.RuntimeOOMs)
		}
	}
	// Placeholders of the same table that name no job, and a healthy redacted table.
	for name, text := range map[string]string{
		"not a job's placeholder": strings.ReplaceAll(fix44cSacct, "[JOBID]", "[HOST]"),
		"healthy redacted":        strings.ReplaceAll(strings.ReplaceAll(fix44cSacct, "OUT_OF_ME+", " COMPLETED"), "0:125", "  0:0"),
		"advice":                  "If sacct shows the state OUT_OF_ME+ for [JOBID].0, raise --mem.\n",
		"question":                "Why does sacct -j <jobid> print OUT_OF_ME+ for <jobid>.0?\n",
	} {
		tl := pasteTimeline(t, text)
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%s: %+v %+v", name, res.Findings, tl.RuntimeOOMs)
		}
	}
}

const fix44cSPAdes = "  5:48:38.082    23G / 39G   INFO    General                 (sequence_mapper_notifier.h:  77)   Processed 1000000 reads\n" +
	"  7:29:23.996    31G / 75G   INFO    General                 (sequence_mapper_notifier.h:  77)   Processed 16800000 reads\n" +
	"\n" +
	"== Error ==  system call for: \"['/opt/spades/bin/spades-core', '/w/K55/configs/config.info']\" finished abnormally, OS return value: -9\n"

func TestFix44cSPAdesKilled(t *testing.T) {
	tl := pasteTimeline(t, fix44cSPAdes)
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != artifact.KindSPAdesLog {
		t.Fatalf("artifacts: %+v", tl.Artifacts)
	}
	s := tl.Artifacts[0].Data.(artifact.SPAdesLog)
	if len(s.Rows) != 2 || s.Rows[1].Mem != "31G" || s.Rows[1].PeakBytes != 75<<30 || s.PeakRSS != 75<<30 || s.LastCMem != 31<<30 ||
		s.Rows[0].File != "sequence_mapper_notifier.h" || s.Rows[0].Line != 77 || s.Rows[0].Level != "INFO" || s.Rows[0].Elapsed != "5:48:38.082" || s.Rows[1].Reads != 16800000 {
		t.Errorf("spades log: %+v", s)
	}
	if len(tl.SigkillNotices) != 1 || !strings.Contains(tl.SigkillNotices[0].Reporter, "OS return value -9") || tl.SigkillNotices[0].Source != "line 4" {
		t.Errorf("notices: %+v", tl.SigkillNotices)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 4 || !strings.Contains(tl.Unparsed[0].Why, "SIGKILL") {
		t.Errorf("unread: %+v", tl.Unparsed)
	}
	// A SIGKILL whose sender is not stated: oom-kill is not decided, no finding; the
	// process's figures are no host's memory.
	if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "SIGKILL") {
		t.Errorf("oom-kill: %+v", res)
	}
	for _, id := range []string{"swap-under-load", "min-free-too-low"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on one process's figures: %+v", id, res.Findings)
		}
	}
	// Not SIGKILL, quoted as advice, a question, or another program's similar lines.
	for name, text := range map[string]string{
		"segfault":       "== Error ==  system call for: \"['/opt/spades/bin/spades-hammer', 'c.info']\" finished abnormally, OS return value: -11\n",
		"exit status":    "== Error ==  system call for: \"['/opt/spades/bin/spades-core', 'c.info']\" finished abnormally, OS return value: 255\n",
		"advice":         "If you see system call for: \"['spades-core']\" finished abnormally, OS return value: -9 then raise -m.\n",
		"question":       "Why did system call for: spades-core finish abnormally with OS return value -9?\n",
		"python log row": "2021-03-01 10:00:00,123 INFO  General (mapper.py:  77)   Processed 1000000 reads\n",
		"bare figures":   "  5:48:38.082    23 / 39   INFO    General   (sequence_mapper_notifier.h:  77)   Processed 1000000 reads\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.SigkillNotices) > 0 || len(tl.Artifacts) > 0 {
			t.Errorf("%s: %+v %+v", name, tl.SigkillNotices, tl.Artifacts)
		}
	}
}

// GNU time's default report (3732 whole, 3737 wrapped by a mail client before
// "maxresident)k", after "Command terminated by signal 9").
func TestFix44cGNUTime(t *testing.T) {
	whole := "6292.08user 57.20system 1:47:00elapsed 98%CPU (0avgtext+0avgdata 4596492maxresident)k\n" +
		"0inputs+13786480outputs (0major+83721376minor)pagefaults 0swaps\n"
	tl := pasteTimeline(t, whole)
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != artifact.KindGNUTime {
		t.Fatalf("artifacts: %+v", tl.Artifacts)
	}
	g := tl.Artifacts[0].Data.(artifact.GNUTime)
	if g.UserS != 6292.08 || g.SystemS != 57.2 || g.Elapsed != "1:47:00" || g.CPUPct != 98 || g.MaxResidentKB != 4596492 ||
		g.Outputs != 13786480 || g.MinorFaults != 83721376 || g.Signal != 0 || tl.Artifacts[0].LastLine != 2 {
		t.Errorf("gnu time: %+v", g)
	}
	if len(tl.SigkillNotices) > 0 || len(tl.Unparsed) > 0 {
		t.Errorf("a clean run named: %+v %+v", tl.SigkillNotices, tl.Unparsed)
	}
	for _, id := range []string{"oom-kill", "swap-under-load", "min-free-too-low"} {
		if res := run(t, id, tl); len(res.Findings) > 0 {
			t.Errorf("%s fired on one command's figures: %+v", id, res.Findings)
		}
	}
	wrapped := "Command terminated by signal 9\n" +
		"17338.05user 51.88system 24:48.81elapsed 1168%CPU (0avgtext+0avgdata\n" +
		"63427456maxresident)k\n" +
		"4194696inputs+0outputs (24116major+24879817minor)pagefaults 0swaps\n"
	tl = pasteTimeline(t, wrapped)
	if len(tl.Artifacts) != 1 {
		t.Fatalf("artifacts: %+v", tl.Artifacts)
	}
	g = tl.Artifacts[0].Data.(artifact.GNUTime)
	if g.Signal != 9 || g.MaxResidentKB != 63427456 || g.MajorFaults != 24116 || g.Inputs != 4194696 || g.CPUPct != 1168 {
		t.Errorf("wrapped: %+v", g)
	}
	if len(tl.SigkillNotices) != 1 || tl.SigkillNotices[0].Source != "line 1" || len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 1 {
		t.Errorf("signal 9: %+v %+v", tl.SigkillNotices, tl.Unparsed)
	}
	if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "SIGKILL") {
		t.Errorf("oom-kill: %+v", res)
	}
	// Another exit, and lines that are not GNU time's report.
	tl = pasteTimeline(t, "Command exited with non-zero status 1\n"+strings.SplitAfter(whole, "\n")[0])
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Data.(artifact.GNUTime).ExitStatus != 1 || len(tl.SigkillNotices) > 0 {
		t.Errorf("exit 1: %+v %+v", tl.Artifacts, tl.SigkillNotices)
	}
	for name, text := range map[string]string{
		"status alone": "Command terminated by signal 9\n",
		"bash time":    "real\t1m47.000s\nuser\t104m52.080s\nsys\t0m57.200s\n",
		"question":     "Why does time print 6292.08user 57.20system for a command that used 4596492maxresident?\n",
		"advice":       "Use /usr/bin/time -v and look at the maxresident figure, e.g. 4596492maxresident)k.\n",
		"zsh time":     "minimap2 -t 12 a.fq  17338.05s user 51.88s system 1168% cpu 24:48.81 total\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.Artifacts) > 0 || len(tl.SigkillNotices) > 0 {
			t.Errorf("%s: %+v %+v", name, tl.Artifacts, tl.SigkillNotices)
		}
	}
}

// Galaxy's cgroup and core job metrics, as a pull request's list (3726) and as the job
// page's table copied with tabs under its plugin names (3727).
func TestFix44cGalaxyJobMetrics(t *testing.T) {
	list := "- CPU Time | 832 hours and 21 minutes\n" +
		"- Failed to allocate memory count | 2092589910\n" +
		"- Memory limit on cgroup (MEM) | 60.0 GB\n" +
		"- Max memory usage (MEM) | 70.1 GB\n" +
		"- Was OOM Killer active? | No\n" +
		"- Memory Allocated (MB) | 20480\n"
	table := "cgroup\nFailed to allocate memory count\t20214531.0000000\nMemory limit on cgroup (MEM)\t36.0 GB\n" +
		"Memory limit on cgroup (MEM+SWP)\t8.0 EB\nMemory softlimit on cgroup\t0 bytes\n\ncore\nCores Allocated\t8\nMemory Allocated (MB)\t4096\n"
	for name, c := range map[string]struct {
		text         string
		rows, first  int
		last         int
		failcnt, mib float64
	}{
		"list":  {list, 6, 1, 6, 2092589910, 20480},
		"table": {table, 6, 2, 9, 20214531, 4096},
	} {
		tl := pasteTimeline(t, c.text)
		if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != artifact.KindGalaxyJobMetrics {
			t.Fatalf("%s: artifacts %+v", name, tl.Artifacts)
		}
		a := tl.Artifacts[0]
		s := a.Data.(artifact.GalaxyJobMetrics)
		by := map[string]artifact.GalaxyMetric{}
		for _, m := range s.Metrics {
			by[m.Title] = m
		}
		if len(s.Metrics) != c.rows || a.FirstLine != c.first || a.LastLine != c.last ||
			by["Failed to allocate memory count"].Number != c.failcnt || by["Failed to allocate memory count"].File != "memory.failcnt" ||
			by["Memory Allocated (MB)"].Number != c.mib {
			t.Errorf("%s: %+v (lines %d-%d)", name, s, a.FirstLine, a.LastLine)
		}
		for _, id := range []string{"oom-kill", "swap-under-load", "min-free-too-low"} {
			if res := run(t, id, tl); len(res.Findings) > 0 {
				t.Errorf("%s: %s fired on one job's cgroup figures: %+v", name, id, res.Findings)
			}
		}
		if name == "list" && (by["Max memory usage (MEM)"].Bytes != 75269301862 || by["Memory limit on cgroup (MEM)"].Number != 60) {
			t.Errorf("list sizes: %+v", by)
		}
		if name == "table" && (!by["Memory limit on cgroup (MEM+SWP)"].Unlimited || by["Memory limit on cgroup (MEM+SWP)"].Bytes != 0) {
			t.Errorf("8.0 EB is no limit: %+v", by["Memory limit on cgroup (MEM+SWP)"])
		}
	}
	// One title in a sentence, a question, another tool's rows, and one memory row alone.
	for name, text := range map[string]string{
		"sentence": "The Max memory usage (MEM) was 70.1 GB according to Galaxy.\n",
		"question": "Why is Failed to allocate memory count  2092589910 so high?\n",
		"other":    "Memory limit  60.0 GB\nMax memory  70.1 GB\n",
		"one row":  "- Max memory usage (MEM) | 70.1 GB\n- CPU Time | 832 hours\n",
	} {
		tl := pasteTimeline(t, text)
		for _, a := range tl.Artifacts {
			if a.Kind == artifact.KindGalaxyJobMetrics {
				t.Errorf("%s: read %+v", name, a.Data)
			}
		}
	}
}
