package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix28b (corpus 2460): psutil's memory figures printed by a Python shell, the call at its
// ">>> " (or IPython "In [N]: ") prompt or with the prompt lost to a quote marker, "psutil.virtual_memory().used/(1024*1024*1024)"
// followed by its result, or the namedtuple it prints, "svmem(total=5000000000,
// available=..., ...)". They are the host's MemTotal/MemAvailable as psutil computes them
// (psutil/_pslinux.py virtual_memory reads /proc/meminfo), often divided by the author into
// GiB: evidence headroom has no reader for. Listed as unread when nothing else was read
// (statedFiguresUnread), so such a text is not "no evidence" (exit 3); no rule fires from
// them. A sentence that names the call and an import line are no printout.

const whyPsutilMemory = "a Python shell's psutil memory figures (virtual_memory()/swap_memory(): the host's meminfo as psutil computes it, often divided into GiB by the author); headroom has no reader for them and no rule judges them"

// psutilMemOut: line t is a Python prompt's psutil memory call or psutil's printed memory
// namedtuple.
func psutilMemOut(t string) bool {
	if !strings.Contains(t, "mem(") && !strings.Contains(t, "_memory(") {
		return false
	}
	return rePsutilMemCall.MatchString(t) || rePsutilMemTuple.MatchString(t)
}

var (
	// The prompt is optional: a quoted paste loses its ">>>" to the quote marker. Only an
	// attribute and arithmetic may follow the call: "psutil.virtual_memory() shows 3 GB" is
	// a sentence.
	rePsutilMemCall  = lazyre.New(`^\s*(?:>>>\s*|In\s*\[\d+\]:\s*)?(?:print\()?psutil\.(?:virtual|swap)_memory\(\)(?:\.\w+)?[\s\d()*/+.-]*$`)
	rePsutilMemTuple = lazyre.New(`^\s*(?:Out\[\d+\]:\s*)?s(?:v|wap)mem\(total=\d+`)
)
