package tune

import (
	"bytes"
	"fmt"
	"headroom/plan"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// fakeFS is an in-memory SysctlFS that can fail a chosen write, to test what apply does
// when the kernel says no halfway through.
type fakeFS struct {
	mu       sync.Mutex
	vals     map[string]string
	readonly map[string]bool
	writes   []string // "key=value" in order
	failNth  int      // fail the nth write (1-based); 0 never
	failErr  error
	clamp    map[string][2]string // writing [0] stores [1], as a driver clamping a value
}

func newFakeFS(vals map[string]string) *fakeFS {
	return &fakeFS{vals: vals, readonly: map[string]bool{}, clamp: map[string][2]string{}}
}

func (f *fakeFS) Read(key string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.vals[key]
	if !ok {
		return "", &SysctlError{Op: "open", Key: key, Path: "fake/" + key, Err: unix.ENOENT}
	}
	return v, nil
}

func (f *fakeFS) Write(key, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes = append(f.writes, key+"="+value)
	if f.failNth > 0 && len(f.writes) == f.failNth {
		return &SysctlError{Op: "write", Key: key, Path: "fake/" + key, Value: value, Err: f.failErr}
	}
	if _, ok := f.vals[key]; !ok {
		return &SysctlError{Op: "open", Key: key, Path: "fake/" + key, Err: unix.ENOENT}
	}
	if f.readonly[key] {
		return &SysctlError{Op: "open", Key: key, Path: "fake/" + key, Err: unix.EACCES}
	}
	if c, ok := f.clamp[key]; ok && c[0] == value {
		value = c[1]
	}
	f.vals[key] = value
	return nil
}

func (f *fakeFS) Writable(key string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.readonly[key], nil
}

func (f *fakeFS) snapshot() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := make(map[string]string, len(f.vals))
	for k, v := range f.vals {
		m[k] = v
	}
	return m
}

// testLimits is a 512 MiB host with 4 KiB pages, like seed 000's NAS.
var testLimits = plan.Limits{MemTotalKB: 512 * 1024, PageSizeBytes: 4096}

// logBuffer collects slog output for assertions.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func testLogger(buf *logBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}

func openTestJournal(t *testing.T, dir string) *Journal {
	t.Helper()
	j, err := OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func mustReadJournal(t *testing.T, dir string) *JournalFile {
	t.Helper()
	jf, err := ReadJournal(filepath.Join(dir, JournalName))
	if err != nil {
		t.Fatal(err)
	}
	return jf
}

func fsOpener(fs SysctlFS) func(string) (SysctlFS, func(), error) {
	return func(string) (SysctlFS, func(), error) { return fs, func() {}, nil }
}

func diffMaps(a, b map[string]string) string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var d []string
	for _, k := range keys {
		if a[k] != b[k] {
			d = append(d, fmt.Sprintf("%s: %q vs %q", k, a[k], b[k]))
		}
	}
	return strings.Join(d, "\n")
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
