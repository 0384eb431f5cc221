package artifact

import "testing"

// A one-line last state (Rancher's dashboard, corpus case 1600): OOMKilled is a runtime OOM,
// its exit code and finish time read; another reason is a terminated state, no OOM.
func TestKubeLastStateLine(t *testing.T) {
	tl := ParseString("如果做资源限制 一直出现：\n"+
		"OOMKilled | Last state: Terminated with 137: OOMKilled, started: Sun, Apr 6 2025 9:18:56 pm, finished: Sun, Apr 6 2025 9:19:07 pm\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 1 {
		t.Fatalf("runtime OOMs %+v", tl.RuntimeOOMs)
	}
	var got *KubeTerminated
	for _, a := range tl.Artifacts {
		if a.Kind == KindKubeTerminated {
			s := a.Data.(KubeTerminated)
			got = &s
		}
	}
	if got == nil || got.ExitCode == nil || *got.ExitCode != 137 || got.Reason != "OOMKilled" || got.Finished != "Sun, Apr 6 2025 9:19:07 pm" {
		t.Fatalf("terminated state %+v", got)
	}
	tl = ParseString("Last state: Terminated with 1: Error, started: 2026-02-03 09:46:17, finished: 2026-02-10 11:07:19\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 0 {
		t.Errorf("reason Error read as an OOM: %+v", tl.RuntimeOOMs)
	}
}

// Sentences and advice that only mention a terminated state are not read.
func TestKubeLastStateLineCounterCases(t *testing.T) {
	for _, text := range []string{
		"`kubectl describe pod` shows `Last State: Terminated with Reason: OOMKilled, Exit Code: 137`.\n",
		"But describe shows Last state: Terminated with 137: OOMKilled after a restart\n",
		"# Last State: Terminated with exit code 137\n",
		"If you see Last state: Terminated with 137: OOMKilled, raise the limit.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an OOM: %+v", text, tl.RuntimeOOMs)
		}
	}
}
