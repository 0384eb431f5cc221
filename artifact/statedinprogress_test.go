package artifact

import (
	"testing"

	"headroom/model"
)

// fix60c: the OOM killer told at work now ("the oom killer is terminating processes"), with
// the writer pointing at the evidence he sees ("you can see that ..."), is a stated
// out-of-memory; the same words as a condition, a habit, a question or the mechanism are not.
func TestFix60cKillInProgress(t *testing.T) {
	for _, text := range []string{
		// corpus 5066: a maintainer reading the user's screenshot.
		"Your system is running out of memory, you can see that as the oom killer is terminating processes.\n",
		"As you can see, the OOM killer is killing processes.\n",
		"The oom killer is now killing processes every few minutes.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
			t.Errorf("%q: stated OOM %v, want 1", text, got)
		}
	}
	for _, text := range []string{
		"If the OOM killer is killing processes, add more memory.\n",                        // a condition
		"When your system is running out of memory, the OOM killer kills processes.\n",      // the mechanism
		"If your system is running out of memory, the oom killer terminates processes.\n",   // a condition
		"Is the oom killer killing processes?\n",                                            // a question
		"The OOM killer kills processes to free memory.\n",                                  // the mechanism
		"Check whether the oom killer is killing processes.\n",                              // advice
		"The oom killer is not killing processes.\n",                                        // negated
		"If you run out of memory, you can see that the oom killer is killing processes.\n", // a condition
		"Typically the OOM killer is killing processes with the highest score.\n",           // a habit
		"You can see the OOM killer terminates processes with the highest score.\n",         // the mechanism
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v, want 0", text, got)
		}
	}
}
