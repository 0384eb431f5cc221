package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A logwatch summary's lines (fix57c). logwatch (its services' scripts) counts the lines of
// a log that are alike and prints each once with its count, the lines sorted: in front
// ("1 Time(s): oom-killer: gfp_mask=0x1d2", an older summary's form) or behind, indented
// ("   Out of memory: Killed process 812 (java) ...:  2 Time(s)", the kernel service's
// "Kernel Errors Present" list). What is left is the line as the log held it (a kernel
// line sorted away from its report's order, which the readers take line by line). A line
// logwatch cut to its first characters ("...:  538 Time(s)") stays as it is: its values
// are cut too.
var (
	reLogwatchFront = lazyre.New(`^\d{1,9} ?Time\(s\): +(\S.*)$`)
	reLogwatchBack  = lazyre.New(`^\s*(\S.*?):\s+\d{1,9} ?Time\(s\)\s*$`)
)

// stripLogwatchCount removes the count and returns the line logwatch summarised.
func stripLogwatchCount(s string) (string, bool) {
	if !strings.Contains(s, "Time(s)") {
		return s, false
	}
	if m := reLogwatchFront.FindStringSubmatch(s); m != nil {
		return m[1], true
	}
	if m := reLogwatchBack.FindStringSubmatch(s); m != nil && !strings.HasSuffix(m[1], "...") {
		return m[1], true
	}
	return s, false
}
