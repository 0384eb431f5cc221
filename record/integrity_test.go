package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/model"
)

// Issue 22 item 13: a bit flipped anywhere in a recording never yields a value that was not
// recorded, and the line count reported is the count of lines actually read; a repeated
// line is reported and read once.

// memberLines returns, for an intact archive, the number of lines in each gzip member.
func memberLines(t *testing.T, data []byte) []int {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader(data))
	zr := new(gzip.Reader)
	var out []int
	for {
		if err := zr.Reset(br); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bytes.Count(b, []byte("\n")))
	}
}

func TestBitFlipNeverYieldsAWrongValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	writeSynth(t, path, 30, WriterOptions{MemberFlushes: 10})
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	members := memberLines(t, full)
	if len(members) < 3 {
		t.Fatalf("want several members, got %v", members)
	}
	// The line counts a read may stop at: the end of a member before a damaged one.
	boundary := map[int]bool{}
	sum := 0
	for _, n := range members {
		sum += n
		boundary[sum] = true
	}
	damaged := 0
	// Every byte, each with one of its eight bits in turn (every bit of every byte would
	// take eight times as long and finds nothing more).
	for pos := 0; pos < len(full); pos++ {
		for _, bit := range []byte{1 << (pos % 8)} {
			b := append([]byte(nil), full...)
			b[pos] ^= bit
			var samples []model.Sample
			st, err := Read(bytes.NewReader(b), func(e *Entry) error {
				if e.Sample != nil {
					samples = append(samples, *e.Sample)
				}
				return nil
			})
			if err != nil {
				continue // the first member is damaged: nothing is read, and it says so
			}
			for i, s := range samples {
				free, _ := s.MemInfo.Get("MemFree")
				if !s.Time.Equal(t0.Add(time.Duration(i)*time.Second)) || free != int64(400000-i*100) {
					t.Fatalf("flip %#x at byte %d: sample %d read as time %v MemFree %d, which was never recorded", bit, pos, i, s.Time, free)
				}
			}
			if st.Skipped != 0 {
				t.Fatalf("flip %#x at byte %d: %d garbage lines skipped: lines of a damaged member were read", bit, pos, st.Skipped)
			}
			// A member whose end is missing has no checksum to check: the lines of a torn
			// tail are read as they are. A flip that makes the deflate stream run past the
			// member's end looks the same (unexpected end of file), so there the count may
			// stop inside a member; everywhere else it stops at a member's end.
			torn := strings.HasPrefix(st.TruncatedWhy, "the archive ends inside")
			if !boundary[st.Lines] && !torn {
				t.Fatalf("flip %#x at byte %d: %d lines read, not the end of a member (members %v): %s", bit, pos, st.Lines, members, st.TruncatedWhy)
			}
			if st.Truncated {
				damaged++
				if !strings.Contains(st.TruncatedWhy, "read the ") {
					t.Fatalf("flip at %d: %q", pos, st.TruncatedWhy)
				}
			}
		}
	}
	if damaged == 0 {
		t.Fatal("no flip was noticed")
	}
}

// A line repeated verbatim is read once and reported.
func TestDuplicatedLineReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	writeSynth(t, path, 5, WriterOptions{})
	f, _ := os.Open(path)
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	f.Close()
	lines := strings.SplitAfter(string(plain), "\n")
	// Line 3 (the second sample) written twice.
	dup := strings.Join(lines[:3], "") + lines[2] + strings.Join(lines[3:], "")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(dup))
	zw.Close()
	tl, st, err := FromReader(&gz, "dup")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 5 || st.Duplicates != 1 || st.FirstDuplicate != "line 4 repeats line 3" {
		t.Fatalf("%d samples, %+v", len(tl.Samples), st)
	}
	found := false
	for _, u := range tl.NotAvailable {
		found = found || strings.Contains(u.Why, "1 duplicated lines read once (line 4 repeats line 3)")
	}
	if !found {
		t.Errorf("not reported: %+v", tl.NotAvailable)
	}
}
