package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix50b: round 45's OOM kills missed on the first run, by class: a memory cgroup OOM report
// cut to its "Memory cgroup stats for PATH:" dump (corpus 4181); the kernel's OOM entries in
// dmesg named by the admin who read them (corpus 4200); a launcher's SIGKILL line beside the
// author's need over the node's RAM (corpus 4199); the OOM killer "kicking into action"
// (corpus 4186); Python's MemoryError named with when it happened (corpus 4164).

// memcgOOMEvents: the OOM kill events of text.
func memcgOOMEvents(text string) []*model.OOMKill {
	var out []*model.OOMKill
	for _, e := range ParseString(text, "t", Options{}).Events {
		if e.OOMKill != nil {
			out = append(out, e.OOMKill)
		}
	}
	return out
}

// wantStatedOOM: each text's stated out-of-memory is want (1 read, 0 not), with prefix before it.
func wantStatedOOM(t *testing.T, want float64, prefix string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if got := statedRate(t, prefix+s, model.RateStatedOOM); got != want {
			t.Errorf("%q: stated OOM %v, want %v", s, got, want)
		}
	}
}

func TestFix50bMemcgStatsLineIsAMemcgOOM(t *testing.T) {
	// cgroup v2 (5.x+): the stats line, then memory.stat as continuation lines of one record.
	const v2 = "[529207.647707] Memory cgroup stats for /system.slice/owntone.service:\n" +
		"[529207.647720] anon 255795200\n                file 12288\n                kernel 9297920\n" +
		"                sock 8192\n                anon_thp 119537664\n                inactive_file 8192\n"
	ev := memcgOOMEvents(v2)
	if len(ev) != 1 || ev[0].Constraint != "CONSTRAINT_MEMCG" || ev[0].Memcg != "/system.slice/owntone.service" {
		t.Fatalf("v2 stats line: events %+v, want one memcg OOM of /system.slice/owntone.service", ev)
	}
	tl := ParseString(v2, "t", Options{})
	if len(tl.CgroupMemory) != 1 {
		t.Fatalf("the memory.stat below the line is no longer read: %+v", tl.CgroupMemory)
	}
	if v, _ := tl.CgroupMemory[0].Stat.Get("file"); v != 12288 {
		t.Errorf("the memory.stat below the line is no longer read: %+v", tl.CgroupMemory)
	}
	// cgroup v1 (3.x-4.x): the stats on the line itself.
	const v1 = "[ 1234.567890] Memory cgroup stats for /docker/4f2a: cache:28030012KB rss:3958288KB rss_huge:0KB mapped_file:0KB swap:0KB\n"
	ev = memcgOOMEvents(v1)
	if len(ev) != 1 || ev[0].Memcg != "/docker/4f2a" {
		t.Fatalf("v1 stats line: events %+v, want one memcg OOM of /docker/4f2a", ev)
	}
	for _, s := range []string{"Memory cgroup stats for /a:", "  Memory cgroup stats for /kubepods/pod1/c2: rss:10KB cache:0KB"} {
		if !startsMemcgOOMStats(s) {
			t.Errorf("%q: not read as the stats line", s)
		}
	}
	// counter-cases: a sentence about the line, no path, words after the path, a field that
	// is not "name:NKB", another program's similar heading.
	for _, s := range []string{
		"Memory cgroup stats for /system.slice/x.service show anon at 240 MB",
		"Memory cgroup stats for the container:",
		"The Memory cgroup stats for /a: are printed by the OOM killer",
		"Memory cgroup stats for /a: look at anon",
		"Memory cgroup stats for /a: cache:lots rss:12KB",
		"cgroup stats for /system.slice/x.service:",
	} {
		if startsMemcgOOMStats(s) {
			t.Errorf("%q: read as the kernel's stats line", s)
		}
		if ev := memcgOOMEvents(s + "\n"); len(ev) != 0 {
			t.Errorf("%q: read as an OOM kill: %+v", s, ev)
		}
	}
}

func TestFix50bOOMEntriesInTheKernelLog(t *testing.T) {
	wantStatedOOM(t, 1, "",
		"Hmm. No obvious system ones either. Looking closely at the oom dmesg entries again.",
		"I went through the OOM entries in kern.log and mysqld is the victim every time.",
		"Those oom-killer messages in syslog line up with the backups.")
	// counter-cases: advice, a question, a negation, no determiner, no kernel log, an
	// application's own log.
	wantStatedOOM(t, 0, "",
		"Look at the OOM entries in dmesg for the victim.",
		"Can you check the oom dmesg entries on all your nodes?",
		"Are there oom entries in dmesg?",
		"There are no oom entries in dmesg.",
		"Check dmesg for oom entries.",
		"The OOM entries are explained in the wiki.",
		"the out of memory entries in the application log grow")
}

func TestFix50bLauncherSigkillBesideNeedOverRAM(t *testing.T) {
	const kill = "[puneet@host02 bin]$ mpirun -np 4 -npernode 1 -machinefile hosts.txt ./bt.E.4.mpi_io_full\n" +
		"mpirun noticed that process rank 0 with PID 21183 on node host01 exited on signal 9 (Killed).\n\n"
	if why := unreadWhyAt(kill, 2); !strings.HasPrefix(why, "Open MPI's launcher: a rank of the job was killed by SIGKILL") {
		t.Errorf("mpirun's signal 9 line named %q", why)
	}
	if got := statedRate(t, kill, model.RateStatedOOM); got != 0 {
		t.Errorf("the SIGKILL line alone read as an OOM kill (%v)", got)
	}
	wantStatedOOM(t, 1, kill,
		"As per him, every rank requires atleast 98GB  per rank. Whereas i have 64GB per node.\n",
		"Each process needs about 40 GB but our nodes only have 32GB.\n",
		"The solver uses 12GB and I only have 8 GB of RAM.\n")
	// counter-cases: the need fits, a question, a condition, and the need without a kill line.
	wantStatedOOM(t, 0, kill,
		"Every rank requires 48GB per rank and I have 64GB per node.\n",
		"Does every rank require 98GB when I have 64GB per node?\n",
		"If a rank needs 98GB, I have 64GB per node, so it would fail.\n")
	if got := statedRate(t, "Every rank requires atleast 98GB per rank. Whereas i have 64GB per node.\n", model.RateStatedOOM); got != 0 {
		t.Errorf("a need over the RAM without a kill read as an OOM kill (%v)", got)
	}
	// Another program's similar line: PHP-FPM's child "exited on signal 9 (SIGKILL)" keeps its own why.
	if why := unreadWhyAt("[pool www] child 1234 exited on signal 9 (SIGKILL) after 12.5 seconds from start\n", 1); strings.HasPrefix(why, "Open MPI") {
		t.Errorf("php-fpm's line named as Open MPI's: %q", why)
	}
}

func TestFix50bOOMKillerKickingIntoAction(t *testing.T) {
	const s = "I listened to the track the other day and noticed the OOM killer of my media player kicking into action (it killed mythfrontend)."
	wantStatedOOM(t, 1, "", s)
	wantStatedOOM(t, 0, "",
		"To avoid the OOM killer kicking into action, add swap.",
		"Is the OOM killer kicking into action here?",
		"The OOM killer is a mechanism that kicks into action when memory runs out.")
}

func TestFix50bPyMemoryErrorWithWhen(t *testing.T) {
	for _, s := range []string{"# MemoryError during a print", "MemoryError while loading the model", "Crash: `MemoryError` after 3 hours"} {
		if !pyMemoryErrorTold(s) {
			t.Errorf("%q: not read as a MemoryError told", s)
		}
	}
	if why := unreadWhyAt("# MemoryError during a print\n\nIt restarted silently.\n", 1); why != pyMemoryErrorToldWhy {
		t.Errorf("the title named %q", why)
	}
	for _, s := range []string{
		"A `MemoryError` is sadly something outside of the control of OctoPrint.",
		"How to avoid MemoryError during training?",
		"java.lang.OutOfMemoryError during startup",
		"If you see MemoryError during a print, disable plugins.",
	} {
		if pyMemoryErrorTold(s) {
			t.Errorf("%q: read as a MemoryError told", s)
		}
	}
}
