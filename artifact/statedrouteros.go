package artifact

import (
	"headroom/internal/lazyre"
	"headroom/model"
)

// fix49c (corpus 4143): RouterOS's own record, after the reboot, of the previous boot's end.
// RouterOS (MikroTik; a Linux kernel under its own userland) logs each entry as its time and
// its topics, comma-separated, then the message ("2024-11-13 09:57:41 system,error,critical
// out of memory condition was detected", "/log print": "jan/02 09:57:41" or "09:57:41" for
// today's). After an unclean restart it logs "router was rebooted without proper shutdown,
// probably kernel failure", "kernel failure in previous boot" and, when the kernel's memory
// ran out in that boot, "out of memory condition was detected": the router's kernel ran out
// of memory and the router restarted instead of living on (as a vendor kernel's
// MsgOOMVendorNoKill). The line is RouterOS's, not the author's, but says only that memory
// ran out, not what was killed or whether a container's limit was reached: read as the
// stated out-of-memory (model.RateStatedOOM, host or cgroup undecided). Only under the
// system topic with an error level (RouterOS's critical topic on this message): a
// document quoting the message's words in a sentence has no topics before it.
var reRouterOSOOM = lazyre.New(`(?i)^\s*(?:[a-z]{3}/\d{1,2}(?:/\d{4})?\s+|\d{4}-\d{2}-\d{2}\s+)?\d{2}:\d{2}:\d{2}\s+(?:[a-z]+,)*system(?:,[a-z]+)*,(?:error|critical)(?:,[a-z]+)*\s+out\s+of\s+memory\s+condition\s+was\s+detected\b`)

// routerOSOOMLine: prose line t is RouterOS's "out of memory condition was detected" record.
func routerOSOOMLine(t string) bool {
	return len(t) < 300 && containsFoldASCII(t, "out of memory condition") && reRouterOSOOM.MatchString(t)
}

// ownLogStatement: a program's own log line at line no that states an event of this host
// (fix50a): its source names the program's log line, not the author (model.OwnLogSource),
// so the finding's evidence says whose words it read.
type ownLogStatement struct {
	no      int
	program string
}

// ownLogStatements adds one stated sample of key for each statement, after the author's
// stated sample: the newest sample with the key is the program's line, the finding cites it.
func (d *doc) ownLogStatements(key string, sts []ownLogStatement) {
	for _, st := range sts {
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: model.OwnLogSource(st.no, st.program), Rates: model.Rates{key: 1}})
		d.addArtifact(KindStated, st.no, st.no, map[string]any{key: 1, "stated_by": st.program + "'s " + model.OwnLogMark})
		d.cite(st.no)
	}
}
