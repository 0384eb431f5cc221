package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix46a: an application's own check of the host's memory against a threshold it was
// given, logged with its result. Two line forms of programs:
//
//   - Friendica's worker (src/Core/Worker/Process.php, isMinMemoryReached): it reads
//     /proc/meminfo, divides MemFree and MemTotal by 1024, and when MemFree is below the
//     configured min_memory it logs `Minimal memory reached. {"free":502,"memtotal":64318,
//     "limit":"1024"}` and the worker quits (corpus 3844). MemFree alone leaves out the page
//     cache the kernel reclaims on demand: the line proves the app's threshold was crossed,
//     not that the host was short of memory.
//   - An installer's requirement check, logged at a level ("2019-08-05 09:01:51,151:
//     WARNING - You need at least 2500 Mo of RAM+Swap to install Mastodon", YunoHost's
//     mastodon_ynh install script after summing free's Mem and Swap totals, corpus 3859):
//     this host's RAM (and swap) are below the program's requirement, size not given.
//
// Both are this host's evidence headroom has no reader for: named unread with what they
// prove, when nothing else was read (statedFiguresUnread); no rule fires from them. The same
// sentence in a README or a guide ("You need at least 2 GB of RAM"), with no log level
// before it, is advice for any host (statedrequirement.go) and is not matched here.

const (
	whyAppMinFreeMemory   = "an application's own free-memory check logged its figures (Friendica's worker, Process::isMinMemoryReached: MemFree and MemTotal from /proc/meminfo in MiB, below its configured min_memory limit, so the worker quits): the app's threshold on MemFree alone, which leaves out the page cache the kernel reclaims; no measure of memory pressure and no kill; headroom has no reader for it"
	whyInstallerMemNeeded = "an installer's logged memory check (\"You need at least N of RAM\" at a log level, e.g. YunoHost's app install script summing free's Mem and Swap totals): this host's RAM or RAM+swap is below the program's requirement; the host's size is not in the line and no kill or pressure follows from it; headroom has no reader for it"
)

// reAppMinFreeMemory: Friendica's line, its message and the context's free and memtotal
// figures (JSON keys, numbers in MiB).
var reAppMinFreeMemory = lazyre.New(`Minimal memory reached\.?\s*\{[^}]*"free"\s*:\s*\d+[^}]*"memtotal"\s*:\s*\d+`)

// appMinFreeMemory: t is Friendica's worker line with its figures.
func appMinFreeMemory(t string) bool {
	return strings.Contains(t, "Minimal memory reached") && reAppMinFreeMemory.MatchString(t)
}

// reInstallerMemNeeded: a log level and its separator, then the requirement with a size
// and a memory word ("Mo" is French for MB, as YunoHost writes it).
var reInstallerMemNeeded = lazyre.New(`(?i)\b(?:WARNING|WARN|ERROR|CRITICAL|FATAL)\b\]?\s*(?:-|:|\|)\s*(?:\[[^\]]*\]\s*)?(?:you\s+need|[\w.-]+\s+(?:needs|requires))\s+(?:at\s+least|a\s+minimum\s+of)\s+\d+(?:[.,]\d+)?\s*(?:[kmgt]i?b|mo|go|[mg])\s+(?:of\s+)?(?:ram|memory|mem)\b`)

// installerMemNeeded: t is a program's logged requirement check on this host's memory.
func installerMemNeeded(t string) bool {
	return hasDigit(t) && reInstallerMemNeeded.MatchString(t)
}

// fix46a (corpus 3860): what the author saw in a process viewer, told in words: "ran htop
// and saw the memory exhausted", "htopコマンドを実行してみました。そこで見たものはメモリの
// 枯渇と複数のffmpegプロセス" (Japanese: what I saw was memory exhaustion and several ffmpeg
// processes). This host's memory was used up by the author's reading of htop or top, with no
// figure and no kill: named unread, no rule fires. The viewer named, then within the next
// sentences memory said used up; a condition, a question or advice ("if memory is
// exhausted, htop shows ...", "メモリが枯渇したら", "htopで確認してください") tells nothing seen.
const whyViewerMemoryExhausted = "the author says a process viewer (htop or top) showed this host's memory used up, in words: no figure of memory or swap and no kill is given, so no rule can decide pressure or an OOM from it; headroom has no reader for it"

var (
	reViewerMemoryExhausted = lazyre.New(`(?i)\b(?:h?top)\b[^\n]{0,160}?(?:\b(?:memory|ram)\s+(?:was\s+|is\s+|had\s+been\s+)?(?:completely\s+|totally\s+)?(?:exhausted|used\s+up|maxed\s+out|full)\b|\b(?:ran|run|running)\s+out\s+of\s+(?:memory|ram)\b|メモリ(?:の|が)?(?:枯渇|使い切|食い尽く|いっぱい))`)
	reViewerNotSeen         = lazyre.New(`(?i)\b(?:if|when(?:ever)?|unless|should|could|would|might)\b|\?|？|たら|すれば|てください|しましょう|場合`)
)

// viewerMemoryExhausted: prose line t says htop or top showed the memory used up.
func viewerMemoryExhausted(t string) bool {
	if len(t) > 4096 || !containsFoldASCII(t, "top") {
		return false
	}
	for _, m := range reViewerMemoryExhausted.FindAllStringIndex(t, -1) {
		tail := t[m[1]:min(len(t), m[1]+48)] // the rest of the match's sentence
		if k := strings.IndexAny(tail, ".!\n"); k >= 0 {
			tail = tail[:k]
		}
		if k := strings.Index(tail, "。"); k >= 0 {
			tail = tail[:k]
		}
		if !reViewerNotSeen.MatchString(t[m[0]:m[1]]) && !reViewerNotSeen.MatchString(tail) {
			return true
		}
	}
	return false
}
