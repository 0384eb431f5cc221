package input

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// What a pasted text costs is bounded by what the parser keeps, not by the text (issue 30
// item 6, issue 33 item 2). Measured in a child process (helper): its peak resident set.
// Before: 50 MB of seed 004 pasted over and over peaked at 843 MB, 200,000 zoneinfo blocks
// (28 MB) at 792 MB, a million buddyinfo lines (64 MiB read) at 969 MB.
func TestPastedTextMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and parses 150 MB of text")
	}
	seed, err := os.ReadFile(filepath.Join("..", "testdata", "seeds", "004_acd4bf0469cc77db.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, size int, next func(w *bufio.Writer, k int)) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for k := 0; int(fileSize(t, f))+w.Buffered() < size; k++ {
			next(w, k)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	cases := []struct {
		name  string
		path  string
		limit int64 // peak RSS, KiB
	}{
		// The target: a 50 MB paste under 200 MB.
		{"50 MB of seed 004", write("seed004", 50_000_000, func(w *bufio.Writer, _ int) { w.Write(seed) }), 200_000_000 >> 10},
		{"200,000 zoneinfo blocks", write("zoneinfo", 27_600_000, func(w *bufio.Writer, k int) {
			fmt.Fprintf(w, "Node 0, zone   Normal\n  pages free     %d\n        min      11387\n        low      14233\n        high     17079\n        spanned  1048576\n", 5000+k%7)
		}), 150 << 10},
		// 64 MiB of it is read: within four times that.
		{"a million buddyinfo lines", write("buddyinfo", 100_000_000, func(w *bufio.Writer, k int) {
			fmt.Fprintf(w, "Node 0, zone   Normal   %4d    213    131     55     22      9      3      1      0      0      0\n", k%1000)
		}), 256 << 10},
	}
	for _, c := range cases {
		cmd, out := helper(t, c.path, nil)
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		r := parseHelper(t, out.String())
		t.Logf("%s: peak RSS %d MiB", c.name, r.VmHWMKB>>10)
		if r.Error != "" {
			t.Errorf("%s: %s", c.name, r.Error)
		}
		if r.VmHWMKB > c.limit {
			t.Errorf("%s: peak RSS %d MiB, want under %d MiB", c.name, r.VmHWMKB>>10, c.limit>>10)
		}
	}
}

func fileSize(t *testing.T, f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
