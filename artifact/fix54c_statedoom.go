package artifact

import "headroom/internal/lazyre"

// fix54c: an OOM kill or a busy kswapd told in prose in forms no other stated reader takes.
//
//   - The killer as the agent of a signal or a reaping, its name spelled out or not: "the
//     Linux Out-of-Memory killer was issuing SIGKILL to the unifi-core process", "an OOM
//     killer reaping the unifi-core process", "the oom-killer sent SIGKILL to mysqld". The
//     kernel's killer kills with SIGKILL (mm/oom_kill.c __oom_kill_process:
//     do_send_sig_info(SIGKILL, ...)); the progressive or the past only, with the process
//     it hit ("reaps the process with the highest score" is the mechanism's voice).
//   - The killer's firing told in the past: "the kernel OOM killer triggered repeatedly".
//   - The kubelet's event SystemOOM named in prose as what a node had: "one of the
//     Kubernetes nodes had a SystemOOM event", "we saw SystemOOM events on two nodes". The
//     kubelet records SystemOOM when cAdvisor's oomparser finds a kernel OOM kill whose
//     cgroup is the root (pkg/kubelet/oom/oom_watcher_linux.go; kube_events.go reads the
//     event's own row): the kernel's OOM killer ran on the node.
//
// Both are event words of the one stated-event reader (statedevent.go), under its guard:
// a condition, a question, a negation, advice or another machine state nothing.
var fix54cEventWords = []statedEventWord{
	{eventOOMKill, lazyre.New("(?i)\\b(?:oom|out[ -]of[ -]memory)[- _]?killer\\s+(?:(?:was|were|is|are|kept|keeps|had\\s+been|has\\s+been|started|began)\\s+)?(?:issu(?:ing|ed)|sen(?:ding|t)|deliver(?:ing|ed))\\s+(?:an?\\s+)?SIGKILL\\s+to\\b" +
		"|\\b(?:oom|out[ -]of[ -]memory)[- _]?killer\\s+(?:(?:was|were|is|are|kept|keeps|had\\s+been|has\\s+been|started|began)\\s+)?reap(?:ing|ed)\\s+(?:the\\s+|our\\s+|my\\s+|its\\s+|their\\s+)?[`*\"']*[\\w.-]+")},
	// The killer as the subject of its own firing, past only: "The kernel OOM killer
	// triggered repeatedly due to unreclaimable slab caches", "the oom-killer got triggered
	// twice" ("is triggered when memory runs out" is the mechanism, not read).
	{eventOOMKill, lazyre.New(`(?i)\b(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:(?:was|were|got|has\s+been|had\s+been)\s+)?triggered\b`)},
	{eventOOMKill, lazyre.New("(?i)\\b(?:had|has|have|having|got|gets|getting|saw|seen|seeing|logged|recorded|reported|raised|fired|emitted|generated|showed|shown|triggered)\\s+(?:an?\\s+|the\\s+|another\\s+|two\\s+|three\\s+|several\\s+|multiple\\s+|many\\s+|repeated\\s+|\\d+\\s+)?[`*\"']*SystemOOM[`*\"']*\\s+(?:events?|alerts?|warnings?)\\b" +
		"|\\bSystemOOM[`*\"']*\\s+events?\\s+(?:was|were|got|have\\s+been|has\\s+been)\\s+(?:seen|logged|recorded|reported|raised|fired|emitted|generated)\\b")},
}

func init() { statedEventWords = append(statedEventWords, fix54cEventWords...) }

// kswapdCPUClimbs: kswapd's CPU told as climbing without a figure, "kswapd0 cpu usage
// skyrockets until the machine becomes unresponsive", "kswapd's CPU spiked", "kswapd0 CPU
// load went through the roof": an alternative of reStatedKswapdBusy (stated.go), so its
// guard (a condition, a negation, a question) holds; the heading "kswapd0 cpu usage" has no
// verb and states nothing.
const kswapdCPUClimbs = `|\bkswap\w*\b[` + "`" + `'"*]*(?:['’]s)?\s+(?:(?:process|thread|kernel\s+thread)(?:['’]s)?\s+)?cpu(?:\s+(?:usage|load|use|utili[sz]ation|consumption|time))?\s+(?:(?:has|had|then|just|suddenly)\s+)?(?:skyrocket(?:s|ed|ing)?|spik(?:es|ed|ing)|soar(?:s|ed|ing)?|shoots?\s+up|shot\s+up|explod(?:es|ed|ing)|(?:goes|went|gone|going)\s+through\s+the\s+roof)\b`

// genericIn is genericStatement for the sentence at line no, except that under an issue
// form's observed-behaviour heading (observedSection: "### Actual Behavior ###") a sentence
// in the present without a hedge (reObservedHedge) is what the reporter saw happen: "kswapd0
// cpu usage skyrockets until the machine becomes unresponsive" tells the bug, not how
// kswapd works in general ("until the machine" is reGenericMarker's).
func genericIn(s *subjects, no int, sentence, match string) bool {
	if !genericStatement(sentence, match) {
		return false
	}
	return s == nil || !s.observedSection(no) || reObservedHedge.MatchString(sentence)
}

// reMemFreedBefore: the verb of an amount of memory won back, right before its size:
// "optional services tuned ... to recover ~233 MB of RAM", "freed about 2 GB of memory",
// "trimming the cache saved 500 MB of RAM". The size is what a change released, not the
// machine's (the host's own size is elsewhere or not given), as reMemRequirementBefore's
// is a program's.
var reMemFreedBefore = lazyre.New(`(?i)\b(?:recover(?:s|ed|ing)?|free(?:s|d|ing)?(?:\s+up)?|releas(?:e|es|ed|ing)|reclaim(?:s|ed|ing)?|sav(?:e|es|ed|ing)|(?:won|win|get|got|gain(?:s|ed)?)\s+back)(?:\s+(?:about|around|roughly|approximately|nearly|almost|over|some|another|an?\s+(?:extra|additional)))?\s*[~≈]?\s*$`)

// memFreedBefore: the size at text[i:] is an amount freed (reMemFreedBefore on the 40 bytes
// before it).
func memFreedBefore(text string, i int) bool {
	return reMemFreedBefore.MatchString(text[max(0, i-40):i])
}

// reMemConsumedBefore: the verb of an amount of memory something took, right before its
// size: "ebitmap_node ate over 40GB of memory" (g259), "the process consumed about 12 GB of
// RAM", "a leak hogging 3 GB of memory", "the cache grew to 20 GB of RAM". The size is what
// one consumer holds, not the machine's (fix65b), as reMemFreedBefore's is what a change
// released. "using"/"uses" are left out: "we are using 32GB RAM machines" is the host's size.
var reMemConsumedBefore = lazyre.New(`(?i)\b(?:ate|eat(?:s|ing)?|consum(?:e|es|ed|ing)|hog(?:s|ged|ging)?|leak(?:s|ed|ing)?|occup(?:y|ies|ied|ying)|(?:took|takes?|taking)\s+up|(?:grew|grows?|growing|ballooned|balloons?)\s+to|swallow(?:s|ed|ing)?|gobbl(?:e|es|ed|ing)(?:\s+up)?|chew(?:s|ed|ing)?\s+(?:up|through))(?:\s+(?:all|over|about|around|roughly|approximately|nearly|almost|some|up\s+to|more\s+than|close\s+to))?\s*[~≈]?\s*$`)

// memConsumedBefore: the size at text[i:] is an amount one consumer took
// (reMemConsumedBefore on the 40 bytes before it).
func memConsumedBefore(text string, i int) bool {
	return reMemConsumedBefore.MatchString(text[max(0, i-40):i])
}
