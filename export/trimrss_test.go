package export

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestMapsLine(t *testing.T) {
	for _, c := range []struct {
		line        string
		lo, hi      uint64
		perms, path string
		ok          bool
	}{
		{"00400000-00cdc000 r-xp 00000000 fd:01 123                      /usr/bin/headroom", 0x400000, 0xcdc000, "r-xp", "/usr/bin/headroom", true},
		{"01581000-015f6000 rw-p 01180000 fd:01 123    /opt/my dir/headroom (deleted)", 0x1581000, 0x15f6000, "rw-p", "/opt/my dir/headroom (deleted)", true},
		{"7f88d1380000-7f88d1700000 rw-p 00000000 00:00 0 ", 0x7f88d1380000, 0x7f88d1700000, "rw-p", "", true},
		{"7f88d1380000-7f88d1700000 rw-p 00000000 00:00 0", 0, 0, "", "", false},
		{"zz-7f r-xp 0 0 0 x", 0, 0, "", "", false},
		{"", 0, 0, "", "", false},
	} {
		lo, hi, perms, path, ok := mapsLine([]byte(c.line))
		if lo != c.lo || hi != c.hi || perms != c.perms || path != c.path || ok != c.ok {
			t.Errorf("%q: %x-%x %q %q %v", c.line, lo, hi, perms, path, ok)
		}
	}
}

// rssFileKB is RssFile from /proc/self/status: the file-backed pages mapped.
func rssFileKB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// TestDropStartupPages: the test binary's read-only mappings of itself are advised and
// leave its RSS, and it runs on (the code it needs faults back in).
func TestDropStartupPages(t *testing.T) {
	before := rssFileKB(t)
	n := dropStartupPages()
	after := rssFileKB(t)
	if n < 2 {
		t.Fatalf("%d mappings of the executable advised, want its text and read-only data", n)
	}
	if after >= before {
		t.Errorf("RssFile %d kB before, %d kB after", before, after)
	}
	t.Logf("RssFile %d kB -> %d kB, %d mappings", before, after, n)
}
