package artifact

import "testing"

// fix20c: OpenVZ/Virtuozzo's container OOM killer's line (kernel/bc/oom_kill.c passes "Out of
// memory in UB" to oom_kill_process) is a kill scoped to the container (its beancounter).
func TestFix20cUBOOMKill(t *testing.T) {
	for _, c := range []struct {
		text, comm string
		pid        int
		vm         int64
	}{
		{"[1982048.529636] Out of memory in UB 317592: OOM killed process 2946 (npm) score 0 vm:1506164kB, rss:237752kB, swap:120052kB\n", "npm", 2946, 1506164},
		{"Oct 17 10:00:01 vps kernel: [4038014.625029] Out of memory in UB 815792: OOM killed process 601 (mysqld) score 0 vm:1212112kB, rss:84964kB, swap:748kB\n", "mysqld", 601, 1212112},
		// the paste cut after "process": the kill is still stated, its victim is not
		{"[51136019.298166] Out of memory in UB 5299: OOM killed process\n", "", 0, 0},
	} {
		tl := ParseString(c.text, "t", Options{})
		ks := f15Kills(tl)
		if len(ks) != 1 {
			t.Errorf("%q: %d kills, want 1", c.text, len(ks))
			continue
		}
		k := ks[0]
		if k.KilledComm != c.comm || k.KilledPID != c.pid || k.TotalVMKB != c.vm || k.Constraint != "CONSTRAINT_MEMCG" || k.Memcg == "" {
			t.Errorf("%q: read %+v", c.text, *k)
		}
	}
}

// Counter-cases: the words in a sentence, the message's form with a placeholder, another
// kernel's line: no kill.
func TestFix20cUBOOMKillNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"the OOM killed process list is empty on this container\n",
		"Out of memory in UB <id>: OOM killed process <pid> (<name>)\n",
		"grep for 'Out of memory in UB' in dmesg to see whether the container ran out\n",
		"Fatal resource shortage: privvmpages, UB 3580.\n",
	} {
		if ks := f15Kills(ParseString(s, "t", Options{})); len(ks) != 0 {
			t.Errorf("%q: read as %d kills", s, len(ks))
		}
	}
}

// PHP-FPM's ondemand pool words its process limit without "pm." (fpm_process_ctl.c
// fpm_pctl_on_socket_accept): named as the pool's own limit, its figure read.
func TestFix20cFPMOndemandMaxChildren(t *testing.T) {
	checkOwnLinesNamed(t, []ownLineCase{
		{"[26-Nov-2026 05:05:58] WARNING: [pool example.com] server reached max_children setting (8), consider raising it\n", "max_children"},
		{"Nov 26 09:50:03 web1 php-fpm7.4[900]: [pool www] server reached max_children setting (5), consider raising it\n", "max_children"},
	})
	checkProgramFigures(t, []figureCase{
		{"WARNING: [pool www] server reached max_children setting (8), consider raising it\n", "php-fpm", "max_children", 8},
	})
	for _, s := range []string{
		"pm.max_children setting is 8 on this pool",
		"the server reached its max children once",
	} {
		if why, _, ok := webAppOwnLine(s); ok {
			t.Errorf("%q named as PHP-FPM's line: %s", s, why)
		}
	}
}
