package artifact

import (
	"fmt"
	"strings"
	"testing"
)

// Round 16's g79/g80 misses fixed by class (fix21b).

// An issue's title that is the OOM killer's whole victim phrase, as a markdown heading over
// a body of configs: the kill, with its pid and comm.
func TestFix21bKillPhraseHeading(t *testing.T) {
	body := "\nwhen I used the daemon with the storage backend it was killed by the os\n\n```\nEXPORT { Export_Id = 101; }\n```\n"
	tl := ParseString("# Kill process 204002 (ganesha.nfsd)\n"+body, "t", Options{})
	ks := f15Kills(tl)
	if len(ks) != 1 || ks[0].KilledPID != 204002 || ks[0].KilledComm != "ganesha.nfsd" {
		t.Fatalf("kills %+v, want ganesha.nfsd (204002)", ks)
	}
	checkAccount(t, tl)
	// Counters: a heading that says more, a sentence, the phrase without a heading's '#'
	// run and another shell's "kill" are no kill.
	for _, h := range []string{
		"# Kill process 1234 (java) to free memory?",
		"# How do I kill process 1234 (java)",
		"#Kill process 1234 (java)",
		"Please kill process 1234 (java) before the upgrade.",
		"# Kill process <pid> (<comm>)",
	} {
		tl := ParseString(h+body, "t", Options{})
		if ks := f15Kills(tl); len(ks) != 0 {
			t.Errorf("%q: kills %+v, want none", h, ks)
		}
	}
}

// A design text that says a program can end up OOM killed, or that a host avoids getting
// OOM killed, states no OOM of a host.
func TestFix21bOOMPossibleOrAvoided(t *testing.T) {
	for _, s := range []string{
		"When we hit memory pressure there are many unfreeable pages, so we can end up OOM killed because we cannot free them.\n",
		"On systems without cgroups we stay below the global limits and avoid getting OOM killed.\n",
	} {
		tl := ParseString("Description\n\n"+s, "t", Options{})
		if statedOOM(tl) {
			t.Errorf("%q: stated OOM, want none", s)
		}
	}
	// Counters: a kill the author saw still states it.
	for _, s := range []string{
		"Last night the client ended up OOM killed twice while writing.\n",
		"The mount process got OOM killed during the copy.\n",
	} {
		tl := ParseString("Description\n\n"+s, "t", Options{})
		if !statedOOM(tl) {
			t.Errorf("%q: no stated OOM, want one", s)
		}
	}
}

// MooseFS's daemons' start-up lines under their own tags: listed as unread with what they
// prove, the descriptor limit as the program's figure, no OOM.
func TestFix21bMooseFSStartup(t *testing.T) {
	text := "Jul 30 09:36:05 pi mfsmaster[4713]: [info] open files limit has been set to: 16384\n" +
		"Jul 30 09:36:05 pi mfsmaster[4713]: [info] out of memory killer disabled\n" +
		"Jul 30 09:36:05 pi mfsmaster[4713]: [info] set gid to 124\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "oom_score_adj set to -1000") || !f15Unread(tl, "RLIMIT_NOFILE") || statedOOM(tl) || len(f15Kills(tl)) != 0 {
		t.Fatalf("unparsed %+v stated %v: want both lines named, no OOM", tl.Unparsed, statedOOM(tl))
	}
	found := false
	for _, a := range tl.Artifacts {
		if a.Kind == KindProgramLimit && strings.Contains(fmt.Sprint(a.Data), "open_files_limit:16384") {
			found = true
		}
	}
	if !found {
		t.Errorf("artifacts %+v: want open_files_limit 16384", tl.Artifacts)
	}
	checkAccount(t, tl)
	// Counter: the same words under another program's tag are not MooseFS's.
	tl = ParseString(strings.ReplaceAll(text, "mfsmaster", "myapp"), "t", Options{})
	if f15Unread(tl, "MooseFS") {
		t.Errorf("another tag's line named as MooseFS's: %+v", tl.Unparsed)
	}
}

// A count pipeline's result retyped with the author's words after it is the command's
// output; a sentence that does not open with a figure ends the run as before.
func TestFix21bCountResultLine(t *testing.T) {
	for _, c := range []struct {
		res  string
		want bool
	}{
		{"~ 3K for a server with 4 rooms and 237 participants.", true},
		{"about 3012 connections on this box, seems too many.", true},
		{"3012", true},
		{"seems too many for a server with 4 rooms, but maybe it is normal.", false},
		{"The count was 3012 here, seems like a lot of sockets.", false},
	} {
		tl := ParseString("Some context first.\n\nnetstat -putan|grep media|wc -l\n"+c.res+"\n", "t", Options{})
		if got := f15Unread(tl, "wc -l"); got != c.want {
			t.Errorf("%q: listed %v, want %v (%+v)", c.res, got, c.want, tl.Unparsed)
		}
	}
	// Counter: the same sentence under a command that is no count ends the run.
	tl := ParseString("Some context first.\n\nnetstat -putan|grep media\n~ 3K for a server with 4 rooms and 237 participants.\n", "t", Options{})
	if f15Unread(tl, "netstat") {
		t.Errorf("a sentence under a listing read as its output: %+v", tl.Unparsed)
	}
	if !countResultLine("ss -tan | wc -l", "1,024 sockets") || countResultLine("wc -l /proc/net/tcp", "5 lines") {
		t.Error("countResultLine: a pipeline's count, not a file's line count")
	}
}

// A per-command RSS summary's rows are listed as unread; a sentence with a count in
// parentheses is not a row.
func TestFix21bCommCountRSSRows(t *testing.T) {
	text := "It is high here:\n\n```\nComm            # of instances      RSS in MiB\nceph            (183)               2654.61\nprometheus      (1)                 1403.9\nappregistry-ser (3)                 69.2188\n```\n"
	tl := ParseString(text, "t", Options{})
	var got *CommRSS
	for _, a := range tl.Artifacts {
		if a.Kind == KindCommRSS {
			got, _ = a.Data.(*CommRSS)
		}
	}
	if got == nil || len(got.Rows) != 3 || got.Rows[0] != (CommRSSRow{"ceph", 183, 2654.61}) || got.Rows[2].Comm != "appregistry-ser" {
		t.Fatalf("artifacts %+v: want the three rows read", tl.Artifacts)
	}
	checkAccount(t, tl)
	// The rows without their header: listed as unread.
	tl = ParseString(strings.Replace(text, "Comm            # of instances      RSS in MiB\n", "", 1), "t", Options{})
	if !f15Unread(tl, "per-command resident-memory") {
		t.Fatalf("unparsed %+v: want the rows listed", tl.Unparsed)
	}
	checkAccount(t, tl)
	for _, s := range []string{
		"We restarted the pods (183) times 2654.61",
		"ceph (183) 2654.61 MiB of RSS in total across the node",
	} {
		if _, ok := toolFormLine(s); ok {
			t.Errorf("%q read as a summary row", s)
		}
	}
}

// A GlusterFS statedump's mem-pool section is listed as unread; a lone "size=N" line or a
// sentence about active counts is not its form.
func TestFix21bGlusterStatedumpPools(t *testing.T) {
	text := "Here is the dump:\n\n```\npool-name=call_stack_t\nactive-count=109929\nsizeof-type=1824\npadded-sizeof=2048\nsize=225134592\nshared-pool=0x800362ea0\n-----=-----\n```\n"
	tl := ParseString(text, "t", Options{})
	if !f15Unread(tl, "GlusterFS statedump") {
		t.Fatalf("unparsed %+v: want the pool section listed", tl.Unparsed)
	}
	checkAccount(t, tl)
	for _, s := range []string{"size=225134592", "the active-count=109929 keeps growing", "pool-name is call_stack_t"} {
		if why, ok := toolFormLine(s); ok && why == glusterPoolWhy {
			t.Errorf("%q read as a statedump pool key", s)
		}
	}
}

// bbb-conf's "Kernel version: R" states the host's release; a program's version on the
// line before it is no kernel.
func TestFix21bKernelVersionColon(t *testing.T) {
	text := "here:\n\n```\nBigBlueButton Server 2.2.0-rc-2 (1613)\n                    Kernel version: 4.15.0-70-generic\n                            Memory: 8157 MB\n```\n"
	tl := ParseString(text, "t", Options{})
	if !strings.HasPrefix(tl.Host.Kernel, "4.15.0") {
		t.Fatalf("kernel %q, want 4.15.0", tl.Host.Kernel)
	}
	// Counter: a syslog line's "kernel:" tag names no release.
	tl = ParseString("Jan  1 00:00:00 h kernel: 3.2.1 something happened\n", "t", Options{})
	if tl.Host.Kernel == "3.2.1" {
		t.Errorf("the syslog tag read as a release statement")
	}
}
