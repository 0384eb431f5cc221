package export

import (
	"os"
	"testing"

	"headroom/artifact"
	"headroom/diagnose"
)

// The root causes of the diagnosis are exposed as labels (issue 19): seed 004's main root
// cause is tcp-mem-oversized, and each finding of its chain points to it.
func TestRootCauseMetrics(t *testing.T) {
	f, err := os.Open("../testdata/seeds/004_acd4bf0469cc77db.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, "004", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := diagnose.Run(tl, nil)
	b := &pointBuf{labels: &labelCache{}}
	findingMetrics(b, d)
	main := ""
	roots := map[string]string{}
	for _, p := range b.out {
		switch p.d {
		case mRootCause:
			if p.ls.values[2] == "true" {
				if main != "" {
					t.Errorf("two main root causes: %s and %s", main, p.ls.values[0])
				}
				main = p.ls.values[0]
			}
		case mFindingRoot:
			roots[p.ls.values[0]] = p.ls.values[1]
		}
	}
	if main != "tcp-mem-oversized" {
		t.Errorf("main root cause %q, want tcp-mem-oversized", main)
	}
	for _, id := range []string{"alloc-fail-lowmem", "swap-under-load", "nic-rx-overruns"} {
		if roots[id] != "tcp-mem-oversized" {
			t.Errorf("%s: root cause %q, want tcp-mem-oversized", id, roots[id])
		}
	}
	if roots["orphan-send-queues"] != "orphan-send-queues" {
		t.Errorf("orphan-send-queues is its own root cause, got %q", roots["orphan-send-queues"])
	}
}
