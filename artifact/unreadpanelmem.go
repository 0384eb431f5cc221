package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix40b: a program's or a host report's own memory and service lines, in a text where
// nothing else was read (statedFiguresUnread's proseLineForms). Each is this host's figure
// or state in a form no reader takes; the text is evidence, not "nothing" (exit 3).
//
//   - A control panel's memory line "USED used / CACHED cached / TOTAL total" (Webmin's
//     system-information dashboard and its Authentic theme: the language strings
//     body_used_cached_total "$1 used / $2 cached / $3 total" and body_used "$1 used / $2
//     total", filled from the host's memory figures as sizes with units). It says how much
//     of the RAM is in use; the cached part is page cache the kernel reclaims on demand. No
//     free, available or swap figure, no watermark: no rule decides pressure from it.
//   - A memory dump's string counts ("3147985 occurences of "body_used_cached_total" ... in
//     that dump", after strings | sort | uniq -c): copies of a string in one process's heap,
//     a sign the program keeps them (a leak of its own), not a size of the host's memory.
//   - NextcloudPi's ncp-report (bin/ncp-diag: its "key   value" table): "swapfile   PATH"
//     (the host swaps to a file, swapon's first device; its size and use are not printed)
//     and "NAME service   up|down" (systemctl is-active of the service): a service's state
//     and the swap's place, no memory or network figure.

var (
	rePanelMemLine    = lazyre.New(`(?i)^(?:[a-z ]{0,24}memory\s*:?\s*)?\d+(?:\.\d+)?\s*[kmgt]i?b\s+used\s*/\s*(?:\d+(?:\.\d+)?\s*[kmgt]i?b\s+cached\s*/\s*)?\d+(?:\.\d+)?\s*[kmgt]i?b\s+total\.?$`)
	reDumpStringCount = lazyre.New(`(?i)\b\d{2,}\s+(?:occurrences?|occurences?|copies|instances)\s+of\s+["'“]`)
	reReportSwapfile  = lazyre.New(`^swapfile\s{2,}/\S+$`)
	reReportService   = lazyre.New(`^[A-Za-z][A-Za-z0-9-]{1,20} service\s{2,}(?:up|down)$`)
)

const (
	whyPanelMemLine    = "a control panel's memory line (Webmin's system information, body_used_cached_total: \"USED used / CACHED cached / TOTAL total\"): how much of this host's RAM is in use, the cached part being page cache the kernel reclaims on demand; no free, available or swap figure and no watermark, so no rule decides memory pressure from it"
	whyDumpStringCount = "counts of a string's copies in a dump of a process's memory (strings | sort | uniq -c): how many times the program holds it in its heap, a sign of its own growth (a leak), not a size of the host's memory, a kernel counter or an OOM; headroom has no reader for a process's heap"
	whyReportSwapfile  = "NextcloudPi's ncp-report (ncp-diag's \"swapfile\" row, swapon's first device): this host swaps to a file at that path; its size and how much of it is used are not printed, so no rule decides swapping from it"
	whyReportService   = "a host report's service row (NextcloudPi's ncp-report: \"NAME service  up|down\", systemctl is-active): the service's state; why it is down (its own error, a configuration, a kill) is in its log or the kernel's, not in this row; no memory or network figure"
)

// panelMemLine: t is a control panel's "USED used / [CACHED cached /] TOTAL total" line, not
// a question.
func panelMemLine(t string) bool {
	t = strings.TrimSpace(t)
	return len(t) <= 120 && containsFoldASCII(t, " total") && rePanelMemLine.MatchString(t)
}

// dumpStringCount: t counts a quoted string's copies in a dump.
func dumpStringCount(t string) bool {
	return len(t) <= maxErrnoLineBytes && containsFoldASCII(t, "dump") && !strings.HasSuffix(strings.TrimSpace(t), "?") && reDumpStringCount.MatchString(t)
}

// reportSwapfileRow and reportServiceRow: ncp-report's rows, the whole line.
func reportSwapfileRow(t string) bool {
	return strings.HasPrefix(t, "swapfile ") && reReportSwapfile.MatchString(strings.TrimSpace(t))
}

func reportServiceRow(t string) bool {
	return strings.Contains(t, " service ") && reReportService.MatchString(strings.TrimSpace(t))
}
