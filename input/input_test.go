package input

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/model"
	"headroom/record"
)

const allocLine = "[ 4113.507402] kworker/u16:2: page allocation failure: order:3, mode:0x820(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0\n"

// The live host sampled for 200 ms: the first sample has no rates, the others do.
func TestLiveHost(t *testing.T) {
	if _, err := os.Stat("/proc/vmstat"); err != nil {
		t.Skip("not a Linux host")
	}
	tl, err := Open(context.Background(), "/", Options{Kind: Live, Duration: 200 * time.Millisecond, Interval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 3 || len(tl.Samples[0].Rates) != 0 || tl.Source.Kind != model.SourceLive {
		t.Fatalf("%d samples, first rates %v, kind %s", len(tl.Samples), tl.Samples[0].Rates, tl.Source.Kind)
	}
	for _, k := range []string{model.RateCtxtPerSec, model.RateCPUIdlePct} {
		if _, ok := tl.Samples[2].Rates[k]; !ok {
			t.Errorf("rate %s missing from a live sample", k)
		}
	}
	if _, err := Open(context.Background(), "/no/such/root", Options{Kind: Live}); err == nil {
		t.Error("a missing root accepted")
	}
}

func TestTextBeyondTheLimitIsSkippedAndSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	var b strings.Builder
	b.WriteString(allocLine)
	for b.Len() < 3<<20 {
		b.WriteString("Nov 26 10:00:00 host kernel: an ordinary line of a long syslog\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tl, err := Open(context.Background(), path, Options{Kind: Text, MaxTextBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.NotAvailable) != 1 || !strings.Contains(tl.NotAvailable[0].Why, "longer than 1 MiB") || !strings.Contains(tl.NotAvailable[0].Why, "skipped") {
		t.Errorf("not available: %+v", tl.NotAvailable)
	}
	if len(tl.Events) != 1 || tl.Events[0].Kind != model.EventAllocFailure {
		t.Errorf("the failure in the part read: %+v", tl.Events)
	}
	// Within the limit nothing is said.
	tl, err = Open(context.Background(), path, Options{Kind: Text})
	if err != nil || len(tl.NotAvailable) != 0 {
		t.Errorf("3 MiB under the default limit: %v %+v", err, tl.NotAvailable)
	}
}

func TestReadBoundedCutsAtALineEnd(t *testing.T) {
	data, more, err := readBounded(strings.NewReader("aaaa\nbbbb\ncccc\n"), 12, true)
	if err != nil || !more || string(data) != "aaaa\nbbbb\n" {
		t.Errorf("%q %v %v", data, more, err)
	}
	// A reader that does not say its size grows its buffer by doubling, never past the limit.
	data, more, err = readBounded(io.LimitReader(strings.NewReader(strings.Repeat("x\n", 3<<20)), 6<<20), 5<<20, true)
	if err != nil || !more || len(data) != 5<<20 || cap(data) > 5<<20+readChunk {
		t.Errorf("%d bytes (cap %d) %v %v", len(data), cap(data), more, err)
	}
	data, more, err = readBounded(strings.NewReader("short\n"), 1<<20, true)
	if err != nil || more || string(data) != "short\n" {
		t.Errorf("%q %v %v", data, more, err)
	}
}

// /dev/zero never ends: as text it is binary after its first bytes, as a capture it is a
// device. Both are clear errors, not an out-of-memory death.
func TestDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	ctx := context.Background()
	if _, err := Open(ctx, "/dev/zero", Options{Kind: Text}); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("text: %v", err)
	}
	if _, err := Open(ctx, "/dev/zero", Options{Kind: Snapshot}); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("snapshot: %v", err)
	}
	if _, err := Open(ctx, "/dev/zero", Options{}); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("auto: %v", err)
	}
}

func TestKinds(t *testing.T) {
	dir := t.TempDir()
	if guess("-") != Text || guess("x.txtar") != Snapshot || guess("x.jsonl.gz") != Snapshot || guess(dir) != Snapshot || guess(filepath.Join(dir, "post.txt")) != Text {
		t.Error("guess")
	}
	if _, err := Open(context.Background(), dir, Options{Kind: Text}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory as text: %v", err)
	}
	empty := filepath.Join(dir, "empty.txtar")
	os.WriteFile(empty, []byte("no files here\n"), 0o644)
	if _, err := Open(context.Background(), empty, Options{}); err == nil || !strings.Contains(err.Error(), "not a capture") {
		t.Errorf("empty txtar: %v", err)
	}
	if _, err := OpenAll(context.Background(), nil, Options{}); err == nil {
		t.Error("no inputs accepted")
	}
	// A captured directory beyond the capture limit is refused before anything is read.
	capDir := filepath.Join(dir, "cap")
	os.MkdirAll(filepath.Join(capDir, "dev"), 0o755)
	os.WriteFile(filepath.Join(capDir, "dev", "kmsg"), make([]byte, 2<<20), 0o644)
	if _, err := Open(context.Background(), capDir, Options{MaxCaptureBytes: 1 << 20}); err == nil || !strings.Contains(err.Error(), "larger than a capture can be") {
		t.Errorf("oversized capture directory: %v", err)
	}
}

// Several texts are one timeline with a break between them: a vmstat in one file and
// another in the next are not one series.
func TestOpenAllBreaks(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, text := range []string{allocLine, "Mem: 1000 total\n"} {
		p := filepath.Join(dir, fmt.Sprintf("%d.txt", i))
		os.WriteFile(p, []byte(text), 0o644)
		paths = append(paths, p)
	}
	tl, err := OpenAll(context.Background(), paths, Options{Kind: Text})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tl.Source.Name, "0.txt") || !strings.Contains(tl.Source.Name, "1.txt") || len(tl.Events) != 1 {
		t.Errorf("merged: %+v, %d events", tl.Source, len(tl.Events))
	}
}

// A read of standard input that never gets data returns when the context is cancelled.
func TestStdinCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := Open(ctx, "-", Options{Kind: Text, Stdin: r})
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "standard input: interrupted") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %v", d)
	}
}

// Opening a FIFO blocks until a writer comes: that too returns when the context is done.
func TestFIFOCancelled(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Open(ctx, fifo, Options{Kind: Text})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %v", d)
	}
	// Release the reader still blocked in open(2).
	if f, err := os.OpenFile(fifo, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// writeRecording writes a recording whose kernel log inflates to logBytes: a gzip bomb of
// the kind issue 22 found (2.2 MB on disk, 1 GB of log).
func writeRecording(t testing.TB, path string, logBytes int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	bw := bufio.NewWriterSize(zw, 1<<20)
	h := record.Header{Version: record.FormatVersion, Started: time.Unix(1_700_000_000, 0).UTC()}
	h.Host.Kernel, h.Host.Arch = "6.6.15", "x86_64"
	hb, _ := json.Marshal(record.Entry{Header: &h})
	bw.Write(append(hb, '\n'))
	recs := make([]model.LogRecord, 200)
	for i := range recs {
		recs[i] = model.LogRecord{Priority: 6, Message: strings.Repeat("a noisy driver message ", 20)}
	}
	line, _ := json.Marshal(record.Entry{Log: recs})
	line = append(line, '\n')
	// Each line starts with a record of its own uptime, as a recorder's lines differ: a
	// line repeated verbatim is read once and reported (record.ReadStats.Duplicates).
	rest := bytes.TrimPrefix(line, []byte(`{"log":[`))
	var lead []byte
	for n, i := int64(0), 0; n < logBytes; i++ {
		lead = fmt.Appendf(lead[:0], `{"log":[{"uptime_usec":%d,"priority":6,"message":"tick"},`, i)
		bw.Write(lead)
		bw.Write(rest)
		n += int64(len(lead) + len(rest))
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRecordingLogLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bomb.jsonl.gz")
	writeRecording(t, path, 8<<20)
	tl, err := Open(context.Background(), path, Options{MaxLogBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var kept int
	for _, r := range tl.Log.All() {
		kept += len(r.Message)
	}
	if kept > 1<<20 || kept == 0 || len(tl.NotAvailable) != 1 || !strings.Contains(tl.NotAvailable[0].Why, "kernel log lines skipped after the first 1 MiB") {
		t.Errorf("kept %d bytes of log; not available %+v", kept, tl.NotAvailable)
	}
	tl, err = Open(context.Background(), path, Options{MaxRecordingBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.NotAvailable) == 0 || !strings.Contains(tl.NotAvailable[0].Why, "after 2 MiB of decompressed data") {
		t.Errorf("not available %+v", tl.NotAvailable)
	}
}

// The memory tests run the reading in a child process (this test binary again) and read its
// peak resident set (VmHWM) from /proc/self/status, so that the figure is the input's alone.

const helperEnv = "HEADROOM_INPUT_HELPER"

// TestHelperProcess is the child: it opens its argument (or standard input) as the commands
// do, with SIGINT and SIGTERM cancelling the read, and prints what it read and its peak RSS.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("run by the memory and signal tests")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tl, err := Open(ctx, os.Getenv(helperEnv+"_PATH"), Options{})
	out := map[string]any{"vmhwm_kb": vmHWM()}
	if err != nil {
		out["error"] = err.Error()
	} else {
		out["log"] = tl.Log.Len()
		out["not_available"] = tl.NotAvailable
	}
	json.NewEncoder(os.Stdout).Encode(out)
	os.Exit(0)
}

func vmHWM() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

type helperResult struct {
	VmHWMKB      int64               `json:"vmhwm_kb"`
	Error        string              `json:"error"`
	Log          int                 `json:"log"`
	NotAvailable []model.Unavailable `json:"not_available"`
}

func helper(t *testing.T, path string, stdin io.Reader) (*exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperEnv+"_PATH="+path)
	cmd.Stdin = stdin
	var out strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	return cmd, &out
}

func parseHelper(t *testing.T, out string) helperResult {
	t.Helper()
	var r helperResult
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.VmHWMKB == 0 {
		t.Fatalf("child said %q (%v)", out, err)
	}
	return r
}

// 300 MB of text on standard input peaked at 1.26 GB RSS when read whole (issue 22).
func TestTextMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 300 MB through a pipe")
	}
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriterSize(pw, 1<<20)
		bw.WriteString(allocLine)
		line := "Nov 26 10:00:00 host kernel: [ 1.000000] an ordinary line of a long syslog, number\n"
		for n := 0; n < 300<<20; n += len(line) {
			if _, err := bw.WriteString(line); err != nil {
				break // the child stopped reading at its limit
			}
		}
		bw.Flush()
		pw.Close()
	}()
	cmd, out := helper(t, "-", pr)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	r := parseHelper(t, out.String())
	t.Logf("300 MB of text on stdin: peak RSS %d MiB", r.VmHWMKB>>10)
	if r.Error != "" || len(r.NotAvailable) != 1 || !strings.Contains(r.NotAvailable[0].Why, "skipped") {
		t.Errorf("child: %+v", r)
	}
	if r.VmHWMKB > 450<<10 {
		t.Errorf("peak RSS %d MiB reading 300 MB of text, want under 450 MiB (64 MiB read)", r.VmHWMKB>>10)
	}
}

// A 1 GiB kernel log in a recording of a few megabytes peaked at 1.8 GB (issue 22).
func TestRecordingMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 1 GiB")
	}
	path := filepath.Join(t.TempDir(), "bomb.jsonl.gz")
	writeRecording(t, path, 1<<30)
	st, _ := os.Stat(path)
	cmd, out := helper(t, path, nil)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r := parseHelper(t, out.String())
	t.Logf("%d MiB recording holding 1 GiB of log: peak RSS %d MiB, %d records kept", st.Size()>>20, r.VmHWMKB>>10, r.Log)
	if r.Error != "" || len(r.NotAvailable) != 1 || !strings.Contains(r.NotAvailable[0].Why, "kernel log lines skipped") {
		t.Errorf("child: %+v", r)
	}
	if r.VmHWMKB > 400<<10 {
		t.Errorf("peak RSS %d MiB, want under 400 MiB (64 MiB of log kept)", r.VmHWMKB>>10)
	}
}

// doctor - and doctor FIFO ignored SIGINT and SIGTERM while blocked on input (issue 22).
func TestSignalsCancelBlockedReads(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name string
		path string
		sig  os.Signal
	}{{"stdin SIGINT", "-", os.Interrupt}, {"FIFO SIGTERM", fifo, syscall.SIGTERM}, {"FIFO SIGINT", fifo, os.Interrupt}} {
		t.Run(c.name, func(t *testing.T) {
			pr, pw, err := os.Pipe() // never written: the child's stdin stays open and empty
			if err != nil {
				t.Fatal(err)
			}
			defer pw.Close()
			cmd, out := helper(t, c.path, pr)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pr.Close()
			time.Sleep(300 * time.Millisecond) // let it block in open or read
			start := time.Now()
			cmd.Process.Signal(c.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the child did not return within 5 s of the signal")
			}
			r := parseHelper(t, out.String())
			if !strings.Contains(r.Error, "interrupted") {
				t.Errorf("child: %+v", r)
			}
			t.Logf("returned %v after the signal: %s", time.Since(start).Round(time.Millisecond), r.Error)
		})
	}
}

// tune --from reads through ReadFile: bounded, and cancellable like text.
func TestReadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "changes.json")
	os.WriteFile(p, []byte(`[{"kind":"sysctl"}]`), 0o644)
	if b, err := ReadFile(context.Background(), p, nil, 100); err != nil || string(b) != `[{"kind":"sysctl"}]` {
		t.Errorf("%q %v", b, err)
	}
	if _, err := ReadFile(context.Background(), p, nil, 5); err == nil || !strings.Contains(err.Error(), "larger than 5 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := ReadFile(ctx, "-", r, 100); err == nil || !strings.Contains(err.Error(), "reading standard input: interrupted") {
		t.Errorf("stdin never written: %v", err)
	}
	// A capture that is a device is refused by CaptureRoot too (serve --from).
	if _, err := CaptureRoot("/dev/null", 0); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("serve --from /dev/null: %v", err)
	}
}
