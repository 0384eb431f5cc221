package artifact

import (
	"strings"
	"testing"
)

// GHC's runtime's own commit failure (fix26b): rts/posix/OSMem.c osCommitMemory's barf, as
// the program prints it, is named unread as a refusal of memory to the process. Counter-cases:
// another program's "Unable to commit" with no byte count, a sentence without the figure.
func TestFix26bGHCCommitFailure(t *testing.T) {
	for _, l := range []string{
		"cardano-cli: internal error: Unable to commit 1048576 bytes of memory",
		"    (GHC version 8.10.4 for x86_64_unknown_linux) pandoc: internal error: Unable to commit 2097152 bytes of memory",
	} {
		why, ok := runtimeOOMLine(l)
		if !ok || !strings.Contains(why, "osCommitMemory") {
			t.Errorf("%q: not named: %q", l, why)
		}
	}
	for _, l := range []string{
		"error: Unable to commit transaction: out of memory, 4096 bytes of memory left",
		"Unable to commit changes to the repository",
		"Unable to commit some bytes of memory, says the log",
	} {
		if why, ok := runtimeOOMLine(l); ok {
			t.Errorf("%q: named %q", l, why)
		}
	}
}
