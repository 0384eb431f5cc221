// Package judge runs the rules over time: the one place where a host is judged window by
// window. watch's sliding window (Runner.Add, Runner.Judge), serve's window
// (Runner.JudgeWindow on the window serve keeps packed), tune --verify's before and after
// windows (Runner.JudgeWindow, Verdict.Critical) and the placement of a recording's findings
// in time (Place) all go through it, so that a window is cut (Sub, Bounds), finished
// (Finish) and judged (a Verdict: what fires, what started and what stopped) one way.
//
// It sits above diagnose (the rules) and artifact (the kernel log's events) and below
// every consumer: record, report, export, tune and input import it, and it imports none of
// them.
package judge

import (
	"headroom/artifact"
	"headroom/model"
)

// Finish derives what every Timeline needs before the rules read it: the events of its
// kernel log (allocation failures, OOM kills, SLUB failures; pasted text has its events from
// the text's own parser) and the rates of every sample that has none from its predecessor,
// never across a break. input.Open finishes every Timeline it reads with it, tune --verify
// each window it records, and Runner.Judge each window of a stream; serve's collector
// derives incrementally (its kernel-log watcher parses each record once).
func Finish(tl *model.Timeline) {
	if tl.Source.Kind != model.SourceText && len(tl.Events) == 0 && tl.Log.Len() > 0 {
		tl.Events = artifact.ParseKernelLog(tl.Log.Records(), tl.Host.Kernel)
	}
	tl.DeriveRates()
}
