package artifact

import (
	"testing"

	"headroom/model"
)

// fix46c: earlyoom 0.x-1.0's bare terminal output (corpus 3904), VS Code's "Memory (System)"
// (corpus 3916).

// earlyoomKills is what a text's low-memory kills and earlyoom artifacts carry.
func earlyoomKills(t *testing.T, text string) (kills []model.RuntimeOOM, lows []EarlyoomLow) {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, o := range tl.RuntimeOOMs {
		if o.Scope == model.OOMScopeLowMemKiller {
			kills = append(kills, o)
		}
	}
	for _, a := range tl.Artifacts {
		if a.Kind == KindEarlyoom {
			if v, ok := a.Data.(EarlyoomLow); ok {
				lows = append(lows, v)
			}
		}
	}
	return
}

func TestFix46cEarlyoomZeroXKills(t *testing.T) {
	// corpus 3904 (rfjakob/earlyoom#8): a patched 0.x build's terminal output, indented
	text := "    Killing process 26967 (chrome) with badness 337 time_running=5323.8m\n" +
		"    Out of memory! avail: 313 MiB < min: 314 MiB\n" +
		"    [9928] Uptime=342063.062 start_time=325267.125 time_running=16795.938 badness=350\n" +
		"    [9928] (chrome) Reduced badness by 241.9 to 108 because time running = 279.9 minutes.\n" +
		"    Killing process 8437 (chrome) with badness 332 time_running=5698.4m\n"
	kills, lows := earlyoomKills(t, text)
	if len(kills) != 2 || kills[0].PID != 26967 || kills[0].Victim != "chrome" || kills[0].Badness == nil || *kills[0].Badness != 337 ||
		kills[1].PID != 8437 || kills[1].Reporter != "earlyoom" {
		t.Fatalf("kills = %+v", kills)
	}
	if len(lows) != 1 || lows[0].MemAvailMiB != 313 || lows[0].MinMiB != 314 {
		t.Fatalf("lows = %+v", lows)
	}
	// stock 0.10 (main.c and kill.c handle_oom): the comm in /proc/PID/stat's parentheses
	kills, _ = earlyoomKills(t, "Out of memory! avail: 95 MiB < min: 98 MiB\nKilling process 1234 (firefox)\n")
	if len(kills) != 1 || kills[0].Victim != "firefox" || kills[0].PID != 1234 || kills[0].Badness != nil {
		t.Fatalf("stock 0.10: kills = %+v", kills)
	}
	// the finding: oom-kill of scope low-memory killer is decided from these kills (diagnose)
	for _, c := range []string{
		// without earlyoom's line, the words are any supervisor's
		"Killing process 1234 (firefox)\n",
		"supervisord: Killing process 1234 (worker) with signal 9\n",
		// another program's "Out of memory!" (perl's), a question, advice
		"Out of memory!\nKilling process 1234 (perl)\n",
		"Why does it print Killing process 1234 (chrome)? Out of memory! avail: 313 MiB < min: 314 MiB was before it.\n",
		"Set -m so that Out of memory! avail: N MiB < min: N MiB triggers later.\n",
	} {
		if kills, lows := earlyoomKills(t, c); len(kills) != 0 || len(lows) != 0 {
			t.Errorf("%q: kills %+v lows %+v, want none", c, kills, lows)
		}
	}
}

func TestFix46cVSCodeMemorySystem(t *testing.T) {
	for _, c := range []struct {
		text        string
		total, free float64
		memKB       int64
	}{
		// corpus 3916: the issue reporter's table row
		{"|Item|Value|\n|---|---|\n|Load (avg)|3, 2, 1|\n|Memory (System)|7.75GB (1.68GB free)|\n|Process Argv|--unity-launch|\n", 7.75, 1.68, 8126464},
		// code --status (formatEnvironment)
		{"Version:          Code 1.30.0\nMemory (System):  15.55GB (9.20GB free)\n", 15.55, 9.20, 16305356},
		// counter-cases: prose about it, another app's similar row, free above total
		{"My Memory (System) shows 7.75GB (1.68GB free) in the table.\n", 0, 0, 0},
		{"|Memory (System)|62% used, 812 MB free|\n", 0, 0, 0},
		{"|Memory (System)|1.00GB (4.00GB free)|\n", 0, 0, 0},
	} {
		tl := ParseString(c.text, "p", Options{})
		var got *VSCodeMemory
		for _, a := range tl.Artifacts {
			if v, ok := a.Data.(VSCodeMemory); ok && a.Kind == KindVSCodeMemory {
				got = &v
			}
		}
		if c.total == 0 {
			if got != nil {
				t.Errorf("%q: read %+v, want nothing", c.text, *got)
			}
			continue
		}
		if got == nil || got.TotalGiB != c.total || got.FreeGiB != c.free || tl.Host.MemTotalKB != c.memKB {
			t.Errorf("%q: got %+v host %d kB, want %v/%v %d kB", c.text, got, tl.Host.MemTotalKB, c.total, c.free, c.memKB)
		}
		if len(tl.Samples) != 0 {
			t.Errorf("%q: samples %d, want none (the free figure is no pressure)", c.text, len(tl.Samples))
		}
	}
}

func TestFix46cStatedExit137(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		// corpus 3853 (bluesky-social/pds#179)
		{"PDS latest (0.4.74) seems to crash after 10 minutes with error codes 137 when running via docker on a docker swarm as a single replica - why is it not stable?", true},
		{"The worker container keeps dying with exit code 137.", true},
		{"Since 2.3 the job fails with Exit Status 137 every night.", true},
		// counter-cases: advice, what the code means, a negation, another code
		{"If it exits with exit code 137, raise the memory limit.", false},
		{"Exit code 137 means the container was killed with code 137 by SIGKILL.", false},
		{"After the upgrade it no longer crashes with exit code 137.", false},
		{"The job ended with exit code 1370 after the timeout.", false},
		{"The job ended with exit code 1.", false},
	} {
		if got := statedExit137(c.text); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
	// the line is named unread with what it proves, and nothing is diagnosed from it
	tl := ParseString("PDS latest (0.4.74) seems to crash after 10 minutes with error codes 137 when running via docker\n", "p", Options{})
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != statedExit137Why || len(tl.RuntimeOOMs) != 0 {
		t.Errorf("unparsed %+v, runtime OOMs %+v", tl.Unparsed, tl.RuntimeOOMs)
	}
}
