package artifact

import "testing"

// fix28a (corpus 2473, 2475): the kernel's one-line oom-kill summary under a bare "kernel: "
// tag, and an OOM kill asked about rather than stated.

// The 4.19+ dump_oom_summary line under the bare tag, whole or with fields elided by the
// poster, is the kernel's kill; an inventory's "kernel:" field or one key=value is not.
func TestFix28aBareTagOOMSummary(t *testing.T) {
	for _, line := range []string{
		"kernel: oom-kill:constraint=CONSTRAINT_NONE,...,global_oom,task_memcg=/user.slice/.../yb-tserver.service,task=yb-tserver,pid=18858,uid=1994",
		"kernel: oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/db.service,task=db,pid=42,uid=0",
	} {
		tl := ParseString(line+"\n", "t", Options{})
		ks := f15Kills(tl)
		if len(ks) != 1 || ks[0].Constraint != "CONSTRAINT_NONE" || ks[0].KilledComm == "" || ks[0].KilledPID == 0 {
			t.Errorf("%q: kills %+v, want one global kill with its victim", line, ks)
		}
	}
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),oom_memcg=/a,task=x,pid=1,uid=0", true},
		{"oom-kill:constraint=CONSTRAINT_NONE,...,global_oom,task=x,pid=1", true},
		// counter-cases: an inventory's field, one key=value, a sentence, a cmdline
		{"x86_64", false},
		{"5.15.0-91-generic", false},
		{"cmdline=quiet", false},
		{"panic=10,oops=panic", false},
		{"a=1, b=2", false},
	} {
		if got := kvListRecord(c.t); got != c.want {
			t.Errorf("kvListRecord(%q) = %v, want %v", c.t, got, c.want)
		}
	}
	// counter-case: an issue template's "kernel:" field stays a field, no kill.
	if tl := ParseString("kernel: 5.15.0-91-generic\n", "t", Options{}); len(f15Kills(tl)) != 0 {
		t.Errorf("a kernel: field read as a kill")
	}
}

// "Can you check whether it got OOM-killed?" asks; the author's own "it got OOM-killed" states.
func TestFix28aOOMKillAsked(t *testing.T) {
	for _, text := range []string{
		"Hmm. Can you check whether it got OOM-killed? The process must have been SIGKILL'ed or else there would be shutdown messages.\n",
		"Was it OOM killed?\n",
		"I am not sure whether the worker was oom-killed, nothing in syslog.\n",
	} {
		if tl := ParseString(text, "t", Options{}); statedOOM(tl) {
			t.Errorf("%q: an asked OOM kill read as stated", text)
		}
	}
	// counter-cases: the same words stated keep the finding.
	for _, text := range []string{
		"Our worker got OOM-killed twice last night.\n",
		"I checked dmesg, and the process got OOM-killed at 03:00.\n",
		"Why does my java process keep getting OOM killed every day? It got OOM killed again today.\n",
	} {
		if tl := ParseString(text, "t", Options{}); !statedOOM(tl) {
			t.Errorf("%q: a stated OOM kill no longer read", text)
		}
	}
}

// A CHECK on a program's own malloc result (corpus 2479's glog FATAL) is named as unread, no
// kill; the words elsewhere, and another CHECK, are not this form.
func TestFix28aCheckAllocFailed(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"F0620 08:25:19.899902 19641 malloc.cc:53] Check failed: data != nullptr failed to allocate 411675 bytes", true},
		{"F1201 10:00:00.000000 7 arena.cc:12] Check failed: p != nullptr Failed to allocate 4096 bytes", true},
		// counter-cases: another CHECK, Seastar's pool (its own form), a sentence without a CHECK,
		// a CHECK whose message is not a byte count
		{"F0620 08:25:19.899902 19641 memory_monitor.cc:77] Check failed: (_left_ > _right_) 5 vs 3", false},
		{"seastar_memory - Failed to allocate 131072 bytes", false},
		{"the server failed to allocate 411675 bytes and crashed", false},
		{"Check failed: buf != nullptr failed to allocate buffer", false},
	} {
		if got := checkAllocFailed(c.t); got != c.want {
			t.Errorf("checkAllocFailed(%q) = %v, want %v", c.t, got, c.want)
		}
	}
	tl := ParseString("```\nF0620 08:25:19.899902 19641 malloc.cc:53] Check failed: data != nullptr failed to allocate 411675 bytes\n```\n", "t", Options{})
	if !f15Unread(tl, "malloc") || len(f15Kills(tl)) != 0 || statedOOM(tl) {
		t.Fatalf("unparsed %+v kills %d stated %v: want the CHECK named unread, no kill", tl.Unparsed, len(f15Kills(tl)), statedOOM(tl))
	}
}
