package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// A userspace low-memory killer's kills counted in the author's words (fix43c, corpus 3674):
// "73 of 121 earlyoom kills were production jobs", "earlyoom killed 40 processes last week",
// "12 processes were killed by systemd-oomd". earlyoom (rfjakob/earlyoom, kill.c
// kill_process), systemd-oomd (src/oom/oomd-util.c oomd_kill_by_*), nohang and Android's lmkd
// kill before the kernel's OOM killer runs, when memory or its pressure crosses their own
// threshold: each kill says memory ran low on the host by that killer's measure, and none is
// the kernel's. Their log lines are read by lowmemkill.go, systemdoomdkill.go and nohang.go;
// here the count the author gives, with the killer named, is kept as the same kind of kill
// (scope low-memory killer), never as the kernel's. Only a count of kills that happened: a
// question, a condition, a general description of what the daemon does ("earlyoom kills the
// largest process"), a negation ("earlyoom never killed anything") and another machine's
// kills are not read.
var reStatedLowMemKillCount = lazyre.New(`(?i)\b(\d[\d,]*)\s+(?:of\s+(?:the\s+|its\s+|our\s+|all\s+)?(\d[\d,]*)\s+)?(earlyoom|systemd-oomd|oomd|nohang|lmkd)(?:'s|’s)?\s+kills\b` +
	`|\b(earlyoom|systemd-oomd|nohang|lmkd)\s+(?:has\s+|had\s+)?killed\s+(\d[\d,]*)\s+(?:of\s+(?:our|my|the)\s+)?(?:processes|process|jobs?|tasks?|programs?|apps?|applications?|services?|containers?|workers?)\b` +
	`|\b(\d[\d,]*)\s+(?:processes|jobs|tasks|programs|apps|applications|services|containers|workers)\s+(?:were|have\s+been|had\s+been|got)\s+killed\s+by\s+(earlyoom|systemd-oomd|nohang|lmkd)\b`)

// statedLowMemKill is one such count: the killer, the kills and the match's offsets in para.
type statedLowMemKill struct {
	killer string
	count  int
	at, to int
}

// statedLowMemKills finds the counts in para that state kills on the author's host; subjectAt
// decides whose host a sentence is about.
func statedLowMemKills(para string, lineAt func(int) int, sub *subjects) []statedLowMemKill {
	var out []statedLowMemKill
	for _, m := range reStatedLowMemKillCount.FindAllStringSubmatchIndex(para, -1) {
		g := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return para[m[2*k]:m[2*k+1]]
		}
		var killer, n string
		switch {
		case g(3) != "":
			killer, n = g(3), g(1)
			if g(2) != "" {
				n = g(2) // "73 of 121 earlyoom kills": 121 kills, 73 of them of one kind
			}
		case g(4) != "":
			killer, n = g(4), g(5)
		default:
			killer, n = g(7), g(6)
		}
		count, ok := atoi(strings.ReplaceAll(n, ",", ""))
		if !ok || count <= 0 {
			continue
		}
		sentence := sentenceAround(para, m[0], m[1])
		if notTheHostsEvent(para, m, guardOpts{neg: negNear}) {
			continue
		}
		if subj, _ := sub.subjectAt(lineAt(m[0]), sentence); subj == model.SubjectOther {
			continue
		}
		out = append(out, statedLowMemKill{killer: strings.ToLower(killer), count: int(count), at: m[0], to: m[1]})
	}
	return out
}
