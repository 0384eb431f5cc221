package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix54c: OOM kills and a busy kswapd told in prose, and the OOM killer's trace quoted in a
// mail flattened onto one line.

// The stated out-of-memory and busy kswapd of each form, and counter-cases of the same shape.
func TestFix54cStatedForms(t *testing.T) {
	for _, c := range []struct{ text, key string }{
		// corpus 4519: the killer as the agent of a signal and of a reaping.
		{"Root cause analysis surfaced two compounding faults: a legacy firmware backup file at ~897 MB had pushed the OS partition to 99% capacity, and the Linux Out-of-Memory killer was issuing SIGKILL to the unifi-core process when available memory dropped to ~66 MB.\n", model.RateStatedOOM},
		{"A year of intermittent console disconnections, traced to two root causes — a full OS partition and an OOM killer reaping the unifi-core process under a four-application load.\n", model.RateStatedOOM},
		{"Last night the oom-killer sent SIGKILL to mysqld.\n", model.RateStatedOOM},
		// corpus 4545: the kubelet's SystemOOM event named in prose.
		{"Blue Matador creates an alert saying that one of the Kubernetes nodes in our production cluster had a SystemOOM event\n", model.RateStatedOOM},
		{"We saw SystemOOM events on two nodes over the weekend.\n", model.RateStatedOOM},
		// corpus 4500: the killer's firing in the past.
		{"The kernel OOM killer triggered repeatedly due to unreclaimable slab caches consuming nearly all 31 GB RAM.\n", model.RateStatedOOM},
		// corpus 4511: kswapd's CPU climbing, under an issue form's observed heading.
		{"### Actual Behavior ###\n\nkswapd0 cpu usage skyrockets until the machine becomes unresponsive. Eventually, it will fail ec2 status checks, and be terminated.\n", model.RateStatedKswapdBusy},
		{"Yesterday kswapd0's CPU spiked and the box froze.\n", model.RateStatedKswapdBusy},
	} {
		if got := statedRate(t, c.text, c.key); got != 1 {
			t.Errorf("%q: %s %v, want 1", c.text, c.key, got)
		}
	}
	for _, c := range []struct{ text, key string }{
		{"The OOM killer reaps the process with the highest badness score.\n", model.RateStatedOOM},                    // the mechanism
		{"If the OOM killer was issuing SIGKILL to the agent, we would see it in dmesg.\n", model.RateStatedOOM},       // a condition
		{"The OOM killer is triggered when memory runs out.\n", model.RateStatedOOM},                                   // the mechanism
		{"Did the OOM killer get triggered on this node?\n", model.RateStatedOOM},                                      // a question
		{"What is a SystemOOM event and when does the kubelet emit one?\n", model.RateStatedOOM},                       // asked
		{"We never had a SystemOOM event on these nodes.\n", model.RateStatedOOM},                                      // negated
		{"# kswapd0 cpu usage\n\nThe node is slow.\n", model.RateStatedKswapdBusy},                                     // a heading, no verb
		{"kswapd0 cpu usage skyrockets until the machine becomes unresponsive.\n", model.RateStatedKswapdBusy},         // no observed section: general
		{"### Actual Behavior ###\n\nkswapd0 cpu usage might spike when memory is low.\n", model.RateStatedKswapdBusy}, // hedged
	} {
		if got := statedRate(t, c.text, c.key); got != 0 {
			t.Errorf("%q: %s %v, want 0", c.text, c.key, got)
		}
	}
}

// corpus 4499: a memory cgroup's OOM stack, quoted in a reply, the mail flattened onto one
// line with its quote marks inline; and the same stack quoted on its own lines.
func TestFix54cQuotedKillerTrace(t *testing.T) {
	frames := []string{
		"[<ffffffff810d1a5e>] dump_header+0x7e/0x1e0",
		"[<ffffffff810d195f>] ? find_lock_task_mm+0x2f/0x70",
		"[<ffffffff810d1f25>] oom_kill_process+0x85/0x2a0",
		"[<ffffffff810d24a8>] mem_cgroup_out_of_memory+0xa8/0xf0",
		"[<ffffffff8110fb76>] mem_cgroup_oom_synchronize+0x2e6/0x310",
		"[<ffffffff810d2703>] pagefault_out_of_memory+0x13/0x130",
	}
	flat := "On Wed, Sep 18, 2013 at 02:19:46PM -0400, J. W. wrote: > On Tue 17-09-13 13:15:35, A. wrote: > > Is something unusual on this stack? > > > > " +
		strings.Join(frames, " > > ") + " > > This is a regular memcg OOM killer.\n"
	lines := "> Is something unusual on this stack?\n>\n> " + strings.Join(frames, "\n> ") + "\n"
	for _, text := range []string{flat, lines} {
		tl := ParseString(text, "p", Options{})
		n := 0
		for _, e := range tl.Events {
			if e.OOMKill != nil {
				n++
				if e.OOMKill.Constraint != "CONSTRAINT_MEMCG" {
					t.Errorf("%q: constraint %q, want CONSTRAINT_MEMCG", text, e.OOMKill.Constraint)
				}
			}
		}
		if n != 1 {
			t.Errorf("%q: %d OOM kills, want 1", text, n)
		}
	}
	// Not a kill: dump_header's frame with no oom_kill_process below it, or only "? " frames
	// of the killer; and a one-line text with "wrote: >" but no quote runs keeps its line.
	for _, text := range []string{
		"[<ffffffff810d1a5e>] dump_header+0x7e/0x1e0\n[<ffffffff810d24a8>] mem_cgroup_out_of_memory+0xa8/0xf0\n",
		"[<ffffffff810d1a5e>] dump_header+0x7e/0x1e0\n[<ffffffff810d1f25>] ? oom_kill_process+0x85/0x2a0\n[<ffffffff810d24a8>] ? out_of_memory+0xa8/0xf0\n",
	} {
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.OOMKill != nil {
				t.Errorf("%q: read as an OOM kill", text)
			}
		}
	}
	if got := quotedMailPieces("He wrote: > 5 items, and x > 3 here."); got != nil {
		t.Errorf("quotedMailPieces cut a sentence: %q", got)
	}
	if got := quotedMailPieces("A wrote: > one > > [<c0105a3b>] two > > > [<c0105a3c>] three > four"); strings.Join(got, "|") != "A wrote:|> one|> > [<c0105a3b>] two|> > > [<c0105a3c>] three|> four" {
		t.Errorf("quotedMailPieces: %q", got)
	}
	// The same mail in an archive page's source, its quote marks as entities.
	if got := quotedMailPieces("A wrote: &gt; one &gt; &gt; [&lt;c0105a3b&gt;] two &gt; &gt; &gt; [&lt;c0105a3c&gt;] three &gt; four"); len(got) != 5 || got[2] != "> > [<c0105a3b>] two" {
		t.Errorf("quotedMailPieces (entities): %q", got)
	}
	// A flattened mail that quotes no kernel stack is left whole, for the flattened readers.
	if got := quotedMailPieces("A wrote: > one > > two > > > three > four rx_missed_errors: 270102"); got != nil {
		t.Errorf("quotedMailPieces cut a mail without a stack: %q", got)
	}
}

// corpus 4519: an amount of memory won back is not the machine's size; the machine's own
// size beside it still is.
func TestFix54cFreedAmountNoHostSize(t *testing.T) {
	for _, c := range []struct {
		text string
		kb   int64
	}{
		{"Optional services were tuned in coordination with the client to recover ~233 MB of RAM.\n", 0},
		{"Dropping the page cache freed about 2 GB of memory.\n", 0},
		{"Optional services were tuned to recover ~233 MB of RAM on this 4 GB RAM box.\n", 4 << 20},
		{"Our server has 16 GB of RAM and it was slow.\n", 16 << 20},
	} {
		if got := ParseString(c.text, "p", Options{}).Host.MemTotalKB; got != c.kb {
			t.Errorf("%q: MemTotalKB %d, want %d", c.text, got, c.kb)
		}
	}
}
