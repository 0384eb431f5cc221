package diagnose

import "testing"

// fix42a: the round 37 must classes end to end, from a minimal snippet of each case to its
// finding (warning: no figure or kernel report says more), with a counter-case of the same
// shape.
func TestFix42aClassesFindings(t *testing.T) {
	wantWarnings(t, []warningCase{
		// corpus 3595: a negation closed in a parenthesis before the kill.
		{"`sonarr-0` ran with **request == limit == 1G** (Guaranteed QoS, no burst headroom) and OOM-killed (exit 137) on **2026-06-08** during an import/scan spike.\n", "oom-kill", true},
		{"The worker was not (yet) OOM-killed.\n", "oom-kill", false},
		// corpus 3573: OOMKilled as the pod's shown status.
		{"Early the following morning, alerts fire when the Openscapes workshop hub fails a health check, with hub pod showing OOMKilled status.\n", "oom-kill", true},
		{"If the pod shows OOMKilled status, raise its memory limit.\n", "oom-kill", false},
		// corpus 3596: counted OOMKill restarts.
		{"`soularr` has **8 lifetime OOMKill restarts** against its `768Mi` memory limit.\n", "oom-kill", true},
		{"How many OOMKill restarts did it have?\n", "oom-kill", false},
		// corpora 3555, 3559: a platform's restart or stop at its memory limit or for memory.
		{"Noticed this as my server is constantly restarting after hitting a memory limit.\n", "oom-kill", true},
		{"Since then, ECS repeatedly kept shutting down and restarting _that specific instance_ due to it running out of memory.\n", "oom-kill", true},
		{"The container might get restarted for exceeding its memory limit.\n", "oom-kill", false},
		// corpus 3557: kswapd0 worked hard, no CPU figure.
		{"We identified it usually extensively used `kswapd0`,  a few minutes before shutting down.\n", "kswapd-saturated", true},
		{"Is kswapd0 heavily used on your box?\n", "kswapd-saturated", false},
		// corpus 3589: the sized swap used up, told with a pronoun.
		{"i installed the swap plugin and gave it a 200gb swap just so i have time to see what is happening. it used all of that also.\n", "swap-under-load", true},
		{"I gave the VM 16 GB of RAM. It used all of that too.\n", "swap-under-load", false},
	})
}

// warningCase: a text and a rule whose finding it must give at warning (want) or not at all.
type warningCase struct {
	text, id string
	want     bool
}

// wantWarnings diagnoses each text and checks its finding for the rule: a warning when
// wanted, none otherwise.
func wantWarnings(t *testing.T, cases []warningCase) {
	t.Helper()
	for _, c := range cases {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, c.id)
		if c.want && (f == nil || f.Severity != Warning) {
			t.Errorf("%q: %s %+v, want a warning", c.text, c.id, f)
		}
		if !c.want && f != nil {
			t.Errorf("%q: %s %+v, want none", c.text, c.id, f)
		}
	}
}
