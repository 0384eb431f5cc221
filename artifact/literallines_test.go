package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// A Go test's []string of /dev/kmsg records (corpus 6310's form): the records are read, the
// lines keep their numbers, and a quoted argv list beside it stays as it is.
func TestLiteralLinesReadAsRecords(t *testing.T) {
	text := strings.Join([]string{
		"\t\t\tmsgs: []string{",
		"\t\t\t\t\"memhog invoked oom-killer: gfp_mask=0x24000c0(GFP_KERNEL), order=0, oom_score_adj=0\",",
		"\t\t\t\t\"CPU: 0 PID: 1381 Comm: memhog Tainted: G           O    4.8.0-gentoo #2\",",
		"\t\t\t\t\"Task in /docker/2e08 killed as a result of limit of /docker/2e08\",",
		"\t\t\t\t\"memory: usage 20480kB, limit 20480kB, failcnt 1204\",",
		"\t\t\t\t\"memory+swap: usage 40940kB, limit 40960kB, failcnt 6\",",
		"\t\t\t\t\"Memory cgroup out of memory: Kill process 1381 (memhog) score 1046 or sacrifice child\",",
		"\t\t\t\t\"Killed process 1381 (memhog) total-vm:2121528kB, anon-rss:18624kB, file-rss:2140kB, shmem-rss:0kB\",",
		"\t\t\t},",
		"\t\t\targs: []string{",
		"\t\t\t\t\"--disable-gpu\",",
		"\t\t\t\t\"--no-zygote\",",
		"\t\t\t\t\"--renderer-process-limit=2\",",
		"\t\t\t},",
	}, "\n") + "\n"
	got := unquoteLiteralLines(text)
	lines := strings.Split(got, "\n")
	if len(lines) != strings.Count(text, "\n")+1 {
		t.Fatalf("%d lines, want %d", len(lines), strings.Count(text, "\n")+1)
	}
	if lines[4] != "memory: usage 20480kB, limit 20480kB, failcnt 1204" {
		t.Errorf("line 5 = %q", lines[4])
	}
	if lines[10] != "\t\t\t\t\"--disable-gpu\"," {
		t.Errorf("the argv list was unquoted: %q", lines[10])
	}
	tl := ParseString(text, "fixture", Options{})
	var kills []*model.OOMKill
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			kills = append(kills, e.OOMKill)
		}
	}
	if len(kills) != 1 {
		t.Fatalf("%d OOM kills read, want 1", len(kills))
	}
	k := kills[0]
	want := model.MemcgCounter{Name: "memory", UsageKB: 20480, LimitKB: 20480, Failcnt: 1204}
	if k.Memcg != "/docker/2e08" || k.KilledPID != 1381 || len(k.MemcgCounters) == 0 || k.MemcgCounters[0] != want {
		t.Errorf("the kill read as %+v", k)
	}
}

func TestLiteralLineForms(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string
		ok   bool
	}{
		{`    "Out of memory: Kill process 42 (java) score 900",`, "Out of memory: Kill process 42 (java) score 900", true},
		{`"[ 12.345678] e1000e: eth0 NIC Link is Up\n"`, "[ 12.345678] e1000e: eth0 NIC Link is Up", true},
		{`  "path \/proc\/meminfo" +`, "path /proc/meminfo", true}, // JSON's solidus
		{`"two \"quoted\" words",`, `two "quoted" words`, true},
		{`"one" "two"`, "", false},          // two literals
		{`"line one\nline two"`, "", false}, // a break inside
		{`msg: "Out of memory"`, "", false}, // a key before it
		{`"unterminated \"`, "", false},
	} {
		got, ok := literalLine(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("literalLine(%q) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// Two /dev/kmsg records held as the only literals of a Go test (corpus 7103): each a 4.19+
// kill summary of its own memory cgroup's OOM, so two kills, each with its own task.
func TestLiteralKmsgSummariesAreTwoKills(t *testing.T) {
	text := "\tklog = []string{\n" +
		"\t\t\"6,22743,6115623303887,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=9f02,mems_allowed=0-1,oom_memcg=/kubepods/burstable/poda/9f02,task_memcg=/kubepods/burstable/poda/9f02,task=prometheus-conf,pid=3401999,uid=0\",\n" +
		"\t\t\"6,23800,6780904484233,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-2260,mems_allowed=0,oom_memcg=/kubepods.slice/podb.slice,task_memcg=/kubepods.slice/podb.slice/cri-2260.scope,task=stress,pid=255629,uid=0\",\n" +
		"\t}\n"
	if got := unquoteLiteralLines(text); !strings.Contains(got, "\n6,22743,") {
		t.Fatalf("two stamped records were left quoted:\n%s", got)
	}
	// Under a mail's quoting, with CRLF line ends, and in inline code spans, the same.
	forms := map[string]string{"plain": text, "crlf": strings.ReplaceAll(text, "\n", "\r\n")}
	var quoted, code strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			quoted.WriteString("> " + l)
			code.WriteString("`" + strings.TrimSuffix(strings.TrimSpace(l), "\n") + "`\n")
		}
	}
	forms["quoted"], forms["inline-code"] = quoted.String(), code.String()
	for name, form := range forms {
		if n := countKills(ParseString(form, "fixture", Options{})); n != 2 {
			t.Errorf("%s: %d kills read, want 2", name, n)
		}
	}
	tl := ParseString(text, "fixture", Options{})
	var kills []*model.OOMKill
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			kills = append(kills, e.OOMKill)
		}
	}
	if len(kills) != 2 || kills[0].KilledPID != 3401999 || kills[1].KilledPID != 255629 || kills[1].Memcg != "/kubepods.slice/podb.slice" {
		for _, k := range kills {
			t.Logf("kill %+v", k)
		}
		t.Fatalf("%d kills read, want prometheus-conf's and then stress's", len(kills))
	}
}

func countKills(tl *model.Timeline) int {
	n := 0
	for _, e := range tl.Events {
		if e.OOMKill != nil {
			n++
		}
	}
	return n
}
