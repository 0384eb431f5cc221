package diagnose

import "headroom/model"

// oomStatedNone: the author says the kernel's log shows no OOM kill (model.RateStatedNoOOMKill,
// fix19a) and the input holds neither the log nor a counter: healthy by the author's reading,
// said as such.
func oomStatedNone(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedNoOOMKill] > 0 })
	if s == nil {
		return Result{}, false
	}
	return Healthy("no OOM kill, as the author says the kernel's log shows (%s; the log itself is not in the input)", sampleSource(s, "the text")), true
}
