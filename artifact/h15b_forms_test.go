package artifact

import "testing"

// Pre-round 15 (h15b): bbcode's code tags on the block's own first and last lines (Arch's,
// Gentoo's, openSUSE's phpBB/FluxBB forums) come off; other brackets stay.
func TestH15bInlineCodeTags(t *testing.T) {
	for in, want := range map[string]string{
		"[code]Linux box 6.6.8-arch1-1 #1 SMP x86_64 GNU/Linux[/code]": "Linux box 6.6.8-arch1-1 #1 SMP x86_64 GNU/Linux",
		"[code]               total        used":                       "               total        used",
		"Swap:             0B          0B          0B[/code]":          "Swap:             0B          0B          0B",
		"[CODE=text][ 12.3] Out of memory[/CODE]":                      "[ 12.3] Out of memory",
		// Counters: a dmesg stamp, a quote tag, a bracket that closes a sentence, a tag alone.
		"[ 9123.456789] Out of memory: Killed process 1 (x)": "[ 9123.456789] Out of memory: Killed process 1 (x)",
		"[quote=user]Did you check dmesg?[/quote]":           "[quote=user]Did you check dmesg?[/quote]",
		"see the log [attached]":                             "see the log [attached]",
		"[code]":                                             "",
	} {
		if got := stripFence(in); got != want {
			t.Errorf("stripFence(%q) = %q, want %q", in, got, want)
		}
	}
}

// The kernel's __warn() line without a prefix is a kernel line; a sentence or another
// program's WARNING is not.
func TestH15bBareWarnLine(t *testing.T) {
	for s, want := range map[string]bool{
		"WARNING: CPU: 2 PID: 0 at net/sched/sch_generic.c:443 dev_watchdog+0x248/0x250": true,
		"WARNING: CPU: 13 PID: 812 at mm/page_alloc.c:4890 __alloc_pages+0x2a4/0x300":    true,
		"WARNING: CPU: high load on the database":                                        false,
		"WARNING: CPU: 2 PID: 0":          false,
		"[WARNING] CPU: 2 PID: 0 at boot": false,
	} {
		if got := bareWarnLine(s); got != want {
			t.Errorf("bareWarnLine(%q) = %v, want %v", s, got, want)
		}
	}
}
