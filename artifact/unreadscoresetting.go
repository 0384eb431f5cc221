package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// Two forms (fix29a) of a figure in words or settings that statedFiguresUnread lists as unread
// when nothing else in the text is read (unreadprose.go).

// statedOOMScore: a sentence stating a process's OOM badness score as a tool showed it
// ("dstat --top-oom put rtorrent as the top ... with a 'score' of 465", "its oom_score is
// 812"): /proc/PID/oom_score, 0-1000, the process's share of RAM plus swap in per mille plus
// its oom_score_adj (mm/oom_kill.c oom_badness, fs/proc/base.c proc_oom_score), which
// dstat's top-oom plugin lists. A memory figure of the host headroom has no reader for.
// Not a statement: oom_score_adj (a setting), a score outside 0-1000, a question, a
// condition or advice, the word with no figure.
func statedOOMScore(t string) bool {
	if len(t) > 4096 || !hasDigit(t) {
		return false
	}
	l := strings.ToLower(t)
	if !strings.Contains(l, "oom") || !strings.Contains(l, "score") {
		return false
	}
	for _, re := range []*lazyre.Regexp{reOOMScoreFigure, reTopOOMScoreFigure} {
		m := re.FindStringSubmatchIndex(l)
		if m == nil {
			continue
		}
		v, err := strconv.Atoi(l[m[2]:m[3]])
		if err != nil || v > 1000 {
			continue
		}
		if end := strings.IndexAny(l[m[1]:], ".!?"); end >= 0 && l[m[1]+end] == '?' {
			continue
		}
		if reNotAStatement.MatchString(sentenceAround(l, m[0], m[1])) {
			continue
		}
		return true
	}
	return false
}

var (
	// "oom_score 465", "oom score of 465", "oom_score is 465", "oom_score: 465"; not oom_score_adj.
	reOOMScoreFigure = lazyre.New("\\boom[_ -]?score\\b['\"`]*\\s*(?:(?:of|was|is|at|=|:)\\s*)?['\"`]?(\\d{1,4})\\b")
	// dstat --top-oom naming a process and its "score" in the same sentence.
	reTopOOMScoreFigure = lazyre.New("\\btop-oom\\b[^.;!?]{0,100}?\\bscore\\b['\"`]*\\s*(?:(?:of|was|is|at|=|:)\\s*)?['\"`]?(\\d{1,4})\\b")
)

const whyStatedOOMScore = "a process's OOM badness score stated (/proc/PID/oom_score as dstat --top-oom or ps shows it: " +
	"its share of RAM plus swap in per mille, plus oom_score_adj; the process the OOM killer picks first): headroom has no reader for it"

// bufferSizeSetting: a program's own buffer or ring size in its config file, a whole
// "name=value" line whose name ends in buffer, buf or ring (with _size, _bytes and the like)
// and whose value is a byte count or a product of integers as zeekctl's node.cfg allows
// ("af_packet_buffer_size=1*1024*1024*1024", per worker process: lb_procs of them). Memory the
// program asks for, not a kernel setting (sysctl.go reads those) nor a figure the host had.
// Not one: a commented-out line, a sentence, a value that is not a number ("buffer_size=large"),
// a count of retries or processes ("max_buffer_retries=3", "lb_procs=50").
func bufferSizeSetting(t string) bool {
	if len(t) > 256 || strings.IndexByte(t, '=') < 0 || !hasDigit(t) {
		return false
	}
	return reBufferSizeSetting.MatchString(strings.TrimSpace(t))
}

var reBufferSizeSetting = lazyre.New(`(?i)^(?:[a-z][\w.-]*?[_.-])?(?:buffer|buf|ring)(?:[_.-]?(?:size|bytes|len|mb|kb|mem|memory))?\s*=\s*\d+(?:\s*\*\s*\d+)*\s*$`)

const whyBufferSizeSetting = "a program's own buffer or ring size in its config (name=bytes; a product such as 1*1024*1024*1024 as written; " +
	"zeekctl node.cfg's af_packet_buffer_size is per worker, lb_procs workers each): memory the program asks for, headroom has no reader for it"
