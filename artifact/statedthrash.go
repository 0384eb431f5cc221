package artifact

import "headroom/internal/lazyre"

// A stall in reclaim the author states for this host without a duration (h31b): "the box is
// thrashing", "the server keeps thrashing", "the system freezes for seconds while reclaiming
// memory", "all processes in D state waiting on memory reclaim", "stuck in direct reclaim".
// Thrashing is the kernel's word for a working set larger than memory (mm/workingset.c
// counts refaults of pages evicted recently, WORKINGSET_REFAULT, and PSI's memory stall
// includes them): tasks wait on reclaim and on the pages they need read back. It becomes
// RateStatedReclaimStall = 1, which direct-reclaim-stalls reads as a stall stated and not
// timed (a freeze the author timed is RateStatedStallSec). Advice ("to avoid thrashing"), a
// possibility ("the box would thrash"), a definition ("thrashing is when ...") and a negation
// ("it is not thrashing") and any system's ("a system that is thrashing will look slow")
// state nothing.
var reStatedThrash = lazyre.New(`(?i)\b(?:(?:is|was|are|were|keeps?|kept|starts?|started|begins?|began|goes|went)\s+(?:heavily\s+|constantly\s+|badly\s+|massively\s+|completely\s+|into\s+)?thrash(?:ing)?|thrashes|thrashed)\b` +
	// The host named right before a bare verb ("our node thrash when backup run"): a
	// non-native present without its -es.
	`|\b(?:server|node|box|machine|system|host|vps|vm|computer|pc)\s+(?:always\s+|often\s+|constantly\s+|starts?\s+to\s+)?thrash\b` +
	`|\b(?:freez\w*|stall\w*|hangs?|hung|lock(?:s|ed)?\s+up|unresponsive)\b[^.;!?]{0,40}?\b(?:while|when|during)\s+(?:it\s+|the\s+kernel\s+)?(?:is\s+|was\s+)?(?:\w+\s+)?reclaim\w*` +
	`|\b(?:waiting\s+(?:on|for)|stuck\s+in|blocked\s+in|hang(?:s|ing)?\s+in)\s+(?:the\s+)?(?:direct\s+|memory\s+|page\s+)?reclaim\b` +
	// fix71h (corpus 7277): allocations on the slow path reclaiming in their own context,
	// told with what it cost the host ("申请内存走慢速机制，触发回收……造成cpu高").
	`|(?:慢速|直接回收)[^。；;]{0,30}?回收?[^。；;]{0,60}?(?:cpu|CPU)\s*(?:使用率|占用率?)?\s*(?:高|飙升|暴涨|打满|100)`)

// reThrashAdvice: the match follows advice, a purpose or a definition's subject.
// reThrashOther: what is thrashed is a disk or a cache ("thrashed the disks", "thrashing the
// L2 cache"): I/O or a CPU cache, not memory reclaim.
var reThrashOther = lazyre.New(`(?i)^\s+(?:the\s+|my\s+|our\s+|its\s+)?(?:\w+\s+)?(?:disks?|drives?|hdds?|ssds?|cache|caches|tlb|i/o|io|database)\b`)

var reThrashAdvice = lazyre.New(`(?i)\b(?:prevent|avoid|stop|reduce|should|could|would|might|may|if|unless|until|whether|to)\b[^.;!?]{0,30}$`)

// statedThrashing reports the line and sentence of a statement that this host stalls in
// reclaim, if any.
func statedThrashing(para string, lineAt func(int) int) (int, string, bool) {
	for _, m := range matches(true, reStatedThrash, para) {
		sentence := sentenceAround(para, m[0], m[1])
		match := para[m[0]:m[1]]
		if notTheHostsEvent(para, m, guardOpts{neg: negNear}) ||
			reThrashAdvice.MatchString(para[max(0, m[0]-40):m[0]]) || reNotBusy.MatchString(match) || reThrashOther.MatchString(para[m[1]:min(len(para), m[1]+40)]) ||
			reSwappingIndefinite.MatchString(para[max(0, m[0]-60):m[0]]) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	return 0, "", false
}
