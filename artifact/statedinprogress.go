package artifact

import "headroom/internal/lazyre"

// reKillInProgress (fix60c): a sentence that tells the OOM killer at work now, on a host the
// writer addresses or watches, is an event even when its victims are named by kind: a
// maintainer reading a user's screenshot writes "Your system is running out of memory, you
// can see that as the oom killer is terminating processes". Two marks, each of an event in
// progress rather than of a reference page's voice (which tells the mechanism in the simple
// present: "the OOM killer kills processes to free memory", genericStatement):
//   - the killer in the progressive, "the oom killer is terminating/killing/reaping ...";
//   - the host addressed in the second person and short now, "your system/server/box is
//     running out of memory", "your host is out of RAM".
//
// A condition ("if the OOM killer is killing processes", "when your system is running out
// of memory") is still one (hypotheticalIn), a question still one (oomAskedAt).
var reKillInProgress = lazyre.New(`(?i)\b(?:oom[- ]?killer|out[ -]of[ -]memory[- ]killer)\s+(?:is|are)\s+(?:(?:now|constantly|repeatedly|clearly|actively|still)\s+)?(?:killing|terminating|reaping)\b` +
	`|\byour\s+(?:system|host|server|machine|box|node|vm|device|instance)\s+is\s+(?:(?:clearly|now|still)\s+)?(?:running\s+)?out\s+of\s+(?:memory|ram)\b`)

// reInProgressTimeless: words that make a progressive timeless again, a condition's time
// ("when your system is running out of memory, the OOM killer kills processes") or a habit
// ("typically the OOM killer is killing ...").
var reInProgressTimeless = lazyre.New(`(?i)\b(?:when|whenever|once|until|as\s+soon\s+as|every\s+time|each\s+time|typically|usually|generally|normally)\b`)

// reYouCanSee: "you can see (that)", "as you can see": the writer points at evidence he has
// in front of him (a screenshot, a log); its "can" is no possibility (hypotheticalUpTo).
var reYouCanSee = lazyre.New(`(?i)\b(?:as\s+)?you\s+can\s+(?:clearly\s+)?see\b`)

// killInProgress reports whether the sentence tells an out-of-memory kill under way on a
// host (reKillInProgress).
func killInProgress(sentence string) bool {
	return reKillInProgress.MatchString(sentence) && !reInProgressTimeless.MatchString(sentence)
}
