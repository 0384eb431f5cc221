package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix20c: OpenVZ/Virtuozzo's container OOM killer's line (kernel/bc/oom_kill.c passes "Out of
// memory in UB" to oom_kill_process) is a kill scoped to the container (its beancounter).
func TestFix20cUBOOMKill(t *testing.T) {
	for _, c := range []struct {
		text, comm string
		pid        int
		vm         int64 // 0: OpenVZ's "vm:"/"rss:" are not 3.x's total-vm/anon-rss/file-rss
	}{
		{"[1982048.529636] Out of memory in UB 317592: OOM killed process 2946 (npm) score 0 vm:1506164kB, rss:237752kB, swap:120052kB\n", "npm", 2946, 0},
		{"Oct 17 10:00:01 vps kernel: [4038014.625029] Out of memory in UB 815792: OOM killed process 601 (mysqld) score 0 vm:1212112kB, rss:84964kB, swap:748kB\n", "mysqld", 601, 0},
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

// bcRows: the beancounter rows a text was read as.
func bcRows(text string) []model.Beancounter { return ParseString(text, "t", Options{}).Beancounters }

// fix20c: /proc/user_beancounters flattened onto one line, its last row cut before failcnt,
// ohai's JSON of it, and vzubc's humanized table.
func TestFix20cBeancounterForms(t *testing.T) {
	flat := "Version: 2.5 uid resource held maxheld barrier limit failcnt 101: kmemsize 2490368 3276800 14372700 14790164 0 lockedpages 0 0 256 256 0 numproc 20 96 240 240 7\n"
	if bs := bcRows(flat); len(bs) != 3 || bs[0].Container != "101" || bs[2].Resource != "numproc" || bs[2].Failcnt != 7 || bs[1].Limit != 256 {
		t.Errorf("flattened: %+v", bs)
	}
	cut := "Version: 2.5\n       uid  resource                     held              maxheld              barrier                limit              failcnt\n" +
		"      101:  kmemsize                  2490368              3276800             14372700             14790164                    0\n" +
		"            numflock                       40                   76                  188                  206                \n"
	if bs := bcRows(cut); len(bs) != 2 || bs[1].Resource != "numflock" || bs[1].Limit != 206 || bs[1].Failcnt != -1 {
		t.Errorf("cut row: %+v", bs)
	}
	// a row cut inside a number (no blanks after it) is not read
	cut2 := strings.Replace(cut, "206                \n", "20\n", 1)
	if bs := bcRows(cut2); len(bs) != 1 {
		t.Errorf("row cut inside its limit read: %+v", bs)
	}
	js := "{\n  \"othersockbuf\": {\n    \"maxheld\": 65760,\n    \"failcnt\": 0,\n    \"barrier\": 4194304,\n    \"limit\": 8388608,\n    \"held\": 25432\n  },\n" +
		"  \"memory\": {\n    \"total\": 1048576\n  },\n  \"numproc\": {\n    \"maxheld\": 69,\n    \"failcnt\": 3,\n    \"barrier\": 64,\n    \"limit\": 64,\n    \"held\": 60\n  },\n  \"kmemsize\": {\n    \"\n"
	if bs := bcRows(js); len(bs) != 2 || bs[0].MaxHeld != 65760 || bs[1].Resource != "numproc" || bs[1].Failcnt != 3 {
		t.Errorf("JSON: %+v", bs)
	}
	ubc := "CT 3580      | HELD Bar% Lim%| MAXH Bar% Lim%| BAR | LIM | **FAIL**\n-------------+---------------+---------------+-----+-----+------\n" +
		"     kmemsize|19.3M 0.9% 0.9%|20.8M   1%   1%|   2G|   2G|    -\n" +
		"  privvmpages**| 500M  97%  97%| 512M 100% 100%| 512M| 512M| **1021**\n" +
		"      numproc|  97    2%   2%| 129    2%   2%|4.88K|4.88K|    -\n" +
		"  vmguarpages|   -    -    - |   -    -    - | 256M|   - |    -\n"
	bs := bcRows(ubc)
	if len(bs) != 4 || bs[0].Container != "3580" || bs[1].Failcnt != 1021 || bs[1].Limit != 131072 || bs[2].Held != 97 || bs[2].MaxHeld != 129 || bs[0].Failcnt != 0 || bs[3].Limit != -1 {
		t.Errorf("vzubc: %+v", bs)
	}
}

// Counter-cases: the header's words in a sentence, another JSON object of the same shape
// with other keys, another table under "CT": no rows.
func TestFix20cBeancounterFormsNotFromOthers(t *testing.T) {
	for _, s := range []string{
		"the columns are uid resource held maxheld barrier limit failcnt and the last one matters\n",
		"{\n  \"eth0\": {\n    \"held\": 1,\n    \"failcnt\": 2\n  }\n}\n",
		"  \"kmemsize\": \"a string, not an object\"\n",
		"CT 101 | NAME | STATUS\n-----+-----\n 101 | web | running\n",
	} {
		if bs := bcRows(s); len(bs) != 0 {
			t.Errorf("%q read as beancounters: %+v", s, bs)
		}
	}
}

// fix20c: free's header and Mem row on one line (the line break lost), the Swap row below.
func TestFix20cFreeHeaderJoined(t *testing.T) {
	tl := ParseString("total used free shared buff/cache available Mem: 7817 6910 225 139 681 412\nSwap: 1023 733 290\n", "t", Options{})
	tb := lastArtifact[*FreeTable](tl, KindFree)
	if tb == nil || len(tb.Rows["Mem"]) != 6 || tb.Rows["Mem"][5] != 412 || len(tb.Rows["Swap"]) != 3 || tb.Rows["Swap"][1] != 733 {
		t.Fatalf("joined free: %+v, unparsed %+v", tb, tl.Unparsed)
	}
	// counter-cases: a sentence with the words, the header alone (stays as before)
	for _, s := range []string{
		"the total used free memory Mem: 7817 of it\n",
		"total used free shared buff/cache available Mem: is what free prints\n",
	} {
		tl := ParseString(s, "t", Options{})
		if tb := lastArtifact[*FreeTable](tl, KindFree); tb != nil && len(tb.Rows["Mem"]) > 0 {
			t.Errorf("%q read as free: %+v", s, tb.Rows)
		}
	}
}

// fix20c: a sentence stating a container reached a beancounter's limit is named as unread;
// one that only names the resource, asks or supposes is not.
func TestFix20cBeancounterLimitStated(t *testing.T) {
	for _, s := range []string{
		"Since upgrading I get resource alerts on my virtual servers (openvz based), saying they reached the *dcachesize* limit.",
		"The VPS keeps hitting its numothersock barrier every night.",
	} {
		if why, ok := beancounterLimitStated(s); !ok || !strings.Contains(why, "beancounter limit") {
			t.Errorf("%q not named", s)
		}
	}
	if why, _ := beancounterLimitStated("alerts: reached the numothersock limit, then the dcachesize limit"); !strings.Contains(why, "numothersock") {
		t.Errorf("not the first resource: %s", why)
	}
	for _, s := range []string{
		"I have since set higher hard limits for numothersocks.",
		"What happens if you hit the privvmpages limit?",
		"When a container reaches its kmemsize barrier, allocations fail.",
		"We reached the memory limit of the plan.",
		"the kmemsize_total limit was reached", // no resource of that name
	} {
		if why, ok := beancounterLimitStated(s); ok {
			t.Errorf("%q named: %s", s, why)
		}
	}
}
