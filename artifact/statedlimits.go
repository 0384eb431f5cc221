package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Round 30's network labs and artifact registries (fix35c): two forms of a limit stated in a
// text where nothing else was read. Each is listed as unread, with what it holds, when nothing
// else was read (statedFiguresUnread); no rule fires from them.
//
//   - a tc command that sets an interface's qdisc with a queue limit ("tc qdisc replace dev
//     s1-eth1 root pfifo limit 1000", iproute2 tc/q_fifo.c "limit N"): the queue's length as
//     configured, in packets (bytes for bfifo), not a drop or memory figure. Only a line that
//     is the command itself (after an optional prompt): a sentence that names tc, a show, a
//     delete or a qdisc set without a limit is not this form.
//   - a program's refusal to run because its descriptor limit is too low ("ERROR: Max number
//     of open files 1024, is too low. Cannot run Artifactory!", Elasticsearch's "max file
//     descriptors [4096] for elasticsearch process is too low"): RLIMIT_NOFILE of the
//     process (ulimit -n, --ulimit nofile=), not memory and not a sysctl; not a question, a
//     condition or advice.

const (
	whyTCQdiscLimitSet = "a tc command sets an interface's qdisc with a queue limit (tc qdisc add/replace/change dev IF ... limit N, iproute2): the queue's length as configured (packets; bytes for bfifo), not a drop counter or a memory figure; headroom has no rule for a qdisc's configured limit"
	whyFDLimitTooLow   = "a program refuses to run because its open-files limit is too low (\"Max number of open files N, is too low\", \"max file descriptors [N] ... is too low\"): RLIMIT_NOFILE of the process (ulimit -n, LimitNOFILE=, docker --ulimit nofile=), not memory, the network or a sysctl; no rule of headroom judges it"
)

// tcQdiscLimitSet: the line is a tc command (after an optional shell prompt) that adds,
// replaces or changes a qdisc and gives it a numeric limit.
func tcQdiscLimitSet(t string) bool {
	if !strings.Contains(t, "qdisc") || !strings.Contains(t, "limit") {
		return false
	}
	return reTCQdiscLimitSet.MatchString(t)
}

var reTCQdiscLimitSet = lazyre.New(`^\s*(?:[$#]\s+|sudo\s+)?(?:/\S*/)?tc\s+qdisc\s+(?:add|replace|change)\s+\S.*\slimit\s+\d+\b`)

// fdLimitTooLow: a statement that a program's open-files limit, with its figure, is too low.
func fdLimitTooLow(t string) bool {
	if !strings.Contains(t, "too low") {
		return false
	}
	l := strings.ToLower(t)
	return reFDLimitTooLow.MatchString(l) && !reFDLimitNotStated.MatchString(l)
}

var (
	reFDLimitTooLow = lazyre.New(`\b(?:max(?:imum)?\s+(?:number\s+of\s+)?(?:open\s+files|file\s+descriptors)|open\s+files\s+limit)\s*[:=]?\s*\[?\d+\]?[^.!?]{0,60}?\bis\s+too\s+low\b`)
	// reFDLimitNotStated: a question or a condition ("if max open files 1024 is too low?").
	reFDLimitNotStated = lazyre.New(`\?|\b(?:if|whether|when(?:ever)?|might|may|could)\b`)
)
