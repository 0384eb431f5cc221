package artifact

import (
	"testing"

	"headroom/model"
)

// A kill the author attributes to the OOM killer after the fact (bazel #3020: "Turns out this
// was the OOM killer, the CI machines were running out of memory during the Bazel run"); a
// question, a negation, a condition, a hedge and advice state none.
func TestFix26cStatedOOMBlame(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"Turns out this was the OOM killer, the CI machines were running out of memory during the Bazel run.\n", 1},
		{"The build died again last night. It turned out to be the OOM killer.\n", 1},
		{"The culprit was the oom-killer.\n", 1},
		// counter-cases
		{"Could it be the OOM killer?\n", 0},
		{"Was this the OOM killer? The jvm.out file is empty.\n", 0},
		{"It was not the OOM killer, dmesg is clean.\n", 0},
		{"I don't think it was the OOM killer.\n", 0},
		{"If it was the OOM killer, dmesg would show a line for it.\n", 0},
		{"Maybe it was the OOM killer.\n", 0},
		{"Check whether it was the OOM killer by reading dmesg.\n", 0},
		{"The OOM killer is a last resort of the kernel.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated kill %v, want %v", c.text, got, c.want)
		}
	}
}

// A tracker's title under its breadcrumb that names the kernel's OOM killer at work (bazel
// #4616: "bazel 0.10.0 too aggressive with memory, causes OOM-killer to be invoked"); a
// title that asks, plans work, negates or names only a program's out-of-memory states none.
func TestFix26cCrumbTitleKillerAtWork(t *testing.T) {
	const crumb = "owner/repo · issue #12 · closed · Java\n"
	const body = "\nauthor · description · 2018-02-09\nWe switched versions and our workers started to fail.\n"
	for _, c := range []struct {
		title string
		want  float64
	}{
		{"# bazel 0.10.0 too aggressive with memory, causes OOM-killer to be invoked", 1},
		{"# OOM Killer Invoked for FRR zebra", 1},
		// counter-cases
		{"# Could the new scheduler cause the OOM killer to be invoked?", 0},
		{"# Document when the OOM killer is invoked", 0},
		{"# No OOM killer invoked since 2.1", 0},
		{"# Raylet out of memory", 0},
		{"# bazel 0.10.0 too aggressive with memory", 0},
	} {
		if got := statedRate(t, crumb+c.title+"\n"+body, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated kill %v, want %v", c.title, got, c.want)
		}
	}
}
