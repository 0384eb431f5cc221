package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix41c (corpus 3473, a SONiC design document under review: "Currently SONiC enabled OOM
// killer, and set /proc/sys/vm/panic_on_oom to 2, which will trigger kernal panic when
// OOM"): reStatedOOM's crash, panic, kill or reboot word was the inside of a setting's name,
// "panic_on_oom" (\bpanic\w* takes the whole key), so a sentence about the policy a system
// sets read as an OOM that panicked the host. The kernel's keys and paths that hold those
// words (vm.panic_on_oom, kernel.panic, kernel.panic_on_oops, vm.oom_kill_allocating_task,
// /proc/sys/kernel/panic, sysrq's crash, a unit's OOMPolicy=kill) name a setting, not an
// event; the event's word stands as a word of its own ("panicked", "kernel panic", "was
// killed").

// oomWordInKey: the word reStatedOOM matched at either end of match (the event word, or
// the OOM word opposite it) is part of an identifier: glued to '_', or after '.', '/' or
// '=' (a key, a path or a value written key=value).
func oomWordInKey(match string) bool {
	fs := strings.Fields(match)
	if len(fs) == 0 {
		return false
	}
	for _, w := range []string{fs[0], fs[len(fs)-1]} {
		w = strings.Trim(w, "`'\",;:()[]")
		l := strings.ToLower(w)
		for _, ev := range []string{"panic", "crash", "kill", "reboot"} {
			k := strings.Index(l, ev)
			if k < 0 {
				continue
			}
			if strings.ContainsRune(l[k:], '_') || k > 0 && strings.ContainsRune("_./=", rune(l[k-1])) {
				return true
			}
		}
	}
	return false
}

// A design document's or an explainer's budget for a class of machines ("A typical switch
// device have 4 GB memory and sonic usually will use 1.5 GB for dockers", corpus 3473) is
// no host's size: the sentence names what such machines usually have. reTypicalMachine is
// looked for in the sentence before the size, and names the machine ("a typical switch
// device", "most servers", "switches usually"): a "usually" that qualifies a usage ("usage
// is usually 12-16gb ... out of 32gb of ram", corpus 2406) is the author's own machine.
var reTypicalMachine = lazyre.New(`(?i)\b(?:(?:a\s+)?typical(?:ly)?,?\s+(?:a\s+|an\s+|the\s+)?(?:[\w-]+\s+){0,2}?|most\s+(?:[\w-]+\s+)?)(?:devices?|switch(?:es)?|servers?|machines?|systems?|boxes|box|hosts?|nodes?|routers?|platforms?|appliances?)\b|\b(?:devices|switches|servers|machines|systems|hosts|nodes|routers|platforms|appliances)\s+(?:usually|typically|generally|often)\b`)

// typicalMachineBefore: the sentence of t that holds offset at says, before at, that it
// describes a typical machine, and not in the first person ("our server typically runs
// hot; it has 16 GB RAM" is the author's machine).
func typicalMachineBefore(t string, at int) bool {
	head := t[:at]
	if j := strings.LastIndexAny(head, ".!?;"); j >= 0 {
		head = head[j+1:]
	}
	return reTypicalMachine.MatchString(head) && !reFirstPerson.MatchString(head)
}
