package artifact

import (
	"headroom/internal/lazyre"
)

// fix47c (corpora 3982, 3993): memory that grows until the host runs out, told as the end of
// the growth: "its still a memory leak problem but its slower until out of memory kill",
// "RAM usage grows until OOM is reached", "the heap kept growing till the OOM killer kicked
// in". A leak or a growth named before "until"/"till", and after it the out-of-memory with
// what makes it an event: the kill ("out of memory kill", "OOM-killed"), or the state reached
// or happening ("OOM is reached", "OOM happens", "the OOM killer kicks in"). The kernel only
// ends such a growth with its OOM killer (mm/oom_kill.c out_of_memory, reached when reclaim
// finds nothing for an allocation that may not fail), so the sentence states a kill of the
// author's process even when the kernel's report is an attachment.
//
// "until out of memory errors" (a program's own message), "will grow until OOM" and "could
// grow until it OOMs" (a possibility), "does it grow until OOM?" (a question) and "a leaking
// process grows until the OOM killer kills it" (the voice of documentation) state nothing.
var reStatedOOMUntil = lazyre.New(`(?i)\b(?:grow(?:s|ing|n)?|grew|increas(?:es|ed|ing)|leak(?:s|ed|ing)?|climb(?:s|ed|ing)?|ris(?:es|ing)|rose|fill(?:s|ed|ing)?\s+up|eat(?:s|ing)?|ate|slower|slowly)\b[^.;!?\n]{0,60}?\b(?:until|till|til|untill)\s+(?:it\s+(?:gets?\s+|got\s+|is\s+|was\s+)?|the\s+(?:host|system|server|machine|vm|box|kernel)\s+)?` +
	`(?:(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)[- ]?kill(?:s|ed|er)?\b(?:\s+(?:kicks|kicked|steps|stepped|comes|came)\s+in\b)?` +
	`|(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)(?:\s+(?:condition|state|situation))?\s+(?:is|was|gets|got)\s+(?:reached|hit|triggered)\b` +
	`|(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)(?:\s+(?:condition|state|situation))?\s+(?:happens|happened|occurs|occurred|kicks\s+in|kicked\s+in|strikes|struck|hits)\b` +
	`|(?:reach(?:es|ed)?|hit(?:s|ting)?)\s+(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)\b(?:\s+(?:condition|state|kill))?)`)

// fix47c (corpus 3984): the kernel told as the killer, in the present or the past, with the
// exhaustion of memory as the time of the kill: "the kernel is killing the service once all
// the memory including swap memory is exhausted", "the kernel killed coturn when the RAM and
// swap ran out". statedOSKill (statedoskill.go) reads the kill with memory as its purpose
// ("to free memory"); this is the same kill with memory's exhaustion as its moment. A kill by
// the kernel at that moment is its OOM killer (mm/oom_kill.c). A victim must be named ("the
// service", "coturn"): "the kernel kills a process once memory is exhausted" is the voice of
// documentation (genericStatement), "the kernel will kill it when memory runs out" a
// possibility.
var reStatedKernelKillsOnExhaustion = lazyre.New(`(?i)\b(?:the\s+)?(?:linux\s+)?(?:kernel|os|system)\s+(?:is\s+|was\s+|keeps\s+|kept\s+|has\s+been\s+|had\s+been\s+)?(?:kill(?:s|ed|ing))\s+(?:the\s+|my\s+|our\s+|its\s+)?[\w.-]+(?:\s+(?:process|server|daemon|service|container))?\s+(?:once|when|whenever|after|as\s+soon\s+as)\s+(?:all\s+(?:of\s+)?)?(?:the\s+|its\s+|my\s+|our\s+)?(?:available\s+|free\s+|physical\s+)?(?:memory|ram)\b[^.;!?\n]{0,50}?\b(?:(?:is|was|are|were|gets?|got|has\s+been|have\s+been)\s+(?:completely\s+|fully\s+|totally\s+)?(?:exhausted|used\s+up|depleted|consumed|full|filled(?:\s+up)?)|runs?\s+out|ran\s+out)\b`)

// fix48c (corpus 4047): the same kill told in the other order, the host's running out of
// memory first and the kill of a named victim as what followed: "my system got out of memory
// and started to kill electrs", "the server ran out of memory and killed mysqld". The host
// (system, server, machine, kernel, OS, VM) as the subject of both: when the host runs out
// the kernel's OOM killer (mm/oom_kill.c out_of_memory) is what kills, so the sentence
// states an OOM kill of that victim. A program that runs out of memory itself ("the JVM ran
// out of memory and crashed") names no host, and a victim is required: "the system will run
// out of memory and kill processes" is a possibility (reOOMUntilModal).
var reStatedRanOutThenKilled = lazyre.New(`(?i)\b(?:the\s+|my\s+|our\s+|this\s+)?(?:system|host|server|machine|kernel|os|vm|box|node)\s+(?:got|ran|went|runs|goes|gets|was\s+running|kept\s+running)\s+out[ -]of[ -]memory\s*(?:,\s*)?(?:and\s+)?(?:then\s+)?(?:started\s+(?:to\s+kill|killing)|began\s+(?:to\s+kill|killing)|killed|kills|kept\s+killing)\s+(?:the\s+|my\s+|our\s+|its\s+|a\s+)?[\w.-]+`)

// reOOMUntilModal: a modal or a condition before the match in its sentence.
var reOOMUntilModal = lazyre.New(`(?i)\b(?:if|unless|whether|will|would|could|might|may|can|should|shall|avoid\w*|prevent\w*|to\s+not|not\s+to|risk\w*|likel\w*|probab\w*)\b|['’]ll\b|n['’]t\b`)

// statedOOMUntil: the offsets of an out-of-memory kill stated in either form above as the
// host's event.
func statedOOMUntil(para string) [][]int {
	hasOOM := containsFoldASCII(para, "oom") || containsFoldASCII(para, "out of memory") || containsFoldASCII(para, "out-of-memory")
	hasKernelKill := containsFoldASCII(para, "kill") && (containsFoldASCII(para, "memory") || containsFoldASCII(para, "ram"))
	if !hasOOM && !hasKernelKill {
		return nil
	}
	var out [][]int
	keep := func(m []int) bool { return !notTheHostsEvent(para, m, guardOOMUntil) }
	if hasOOM {
		for _, m := range reStatedOOMUntil.FindAllStringIndex(para, -1) {
			if keep(m) {
				out = append(out, m)
			}
		}
	}
	if hasOOM {
		for _, m := range reStatedRanOutThenKilled.FindAllStringIndex(para, -1) {
			// A negation just before the host ("never", "no"), not anywhere in the lead: "after
			// a few minutes (usually 3-10min), my system got out of memory" is no negation.
			g := guardOOMUntil
			g.mechanism, g.neg = false, negJustBefore
			if !notTheHostsEvent(para, m, g) {
				out = append(out, m)
			}
		}
	}
	if hasKernelKill {
		for _, m := range reStatedKernelKillsOnExhaustion.FindAllStringIndex(para, -1) {
			if keep(m) {
				out = append(out, m)
			}
		}
	}
	return out
}
