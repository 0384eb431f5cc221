package source

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"headroom/kernel"
)

func TestSingleRecord(t *testing.T) {
	for name, want := range map[string]bool{
		"proc/meminfo": true, "proc/stat": true, "proc/loadavg": true,
		"proc/pressure/cpu": true, "proc/pressure/memory": true, "proc/pressure/io": true,
		"proc/net/netstat": true, "proc/net/snmp": true, "proc/net/snmp6": true,
		"proc/net/sockstat": true, "proc/1/net/sockstat6": true, "proc/thread-self/net/snmp": true,
		"proc/42/stat": true, "proc/42/task/43/stat": true,
		// Many records per file: a short read is no end.
		"proc/vmstat": false, "proc/zoneinfo": false, "proc/buddyinfo": false, "proc/pagetypeinfo": false,
		"proc/net/dev": false, "proc/net/softnet_stat": false, "proc/net/protocols": false,
		"proc/net/stat/nf_conntrack": false, "proc/interrupts": false,
		"proc/self/stat": false, "proc/42/task/x/stat": false, "proc/42/statm": false, "sys/net/stat": false,
	} {
		if got := SingleRecord(name); got != want {
			t.Errorf("SingleRecord(%q) = %v, want %v", name, got, want)
		}
	}
}

// threadReads is this thread's count of read system calls (/proc/thread-self/io syscr,
// which ksys_pread64 counts), read with one pread of fd; the read itself is counted after
// it returns, so two calls differ by the reads between them plus one.
func threadReads(t *testing.T, fd int) int64 {
	t.Helper()
	var b [1024]byte
	n, err := unix.Pread(fd, b[:], 0)
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(b[:n]) {
		if v, ok := bytes.CutPrefix(line, []byte("syscr: ")); ok {
			r, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	t.Fatalf("no syscr in /proc/thread-self/io: %q", b[:n])
	return 0
}

// A single-record file of the live host is read with one pread, not two (the second
// returned 0 at the end); one of many records is still read until pread returns 0.
func TestSingleRecordOneRead(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fd, err := unix.Open("/proc/thread-self/io", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no task I/O accounting here (CONFIG_TASK_IO_ACCOUNTING): %v", err)
	}
	defer unix.Close(fd)
	if _, err := os.Stat("/proc/vmstat"); err != nil {
		t.Skip("not a Linux host")
	}
	root := kernel.HostRoot()
	for _, tc := range []struct {
		name     string
		perRead  int64 // preads per read of the file, at least
		exactly  bool
		contains string
	}{
		{"proc/meminfo", 1, true, "MemTotal:"},
		{"proc/loadavg", 1, true, "/"},
		{"proc/vmstat", 2, false, "nr_free_pages "},
	} {
		p := openProcFile(root, tc.name)
		if p.err != nil {
			t.Fatalf("%s: %v", tc.name, p.err)
		}
		const reads = 10
		before := threadReads(t, fd)
		for range reads {
			b, err := p.read()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(tc.contains)) || b[len(b)-1] != '\n' {
				t.Fatalf("%s read as %q", tc.name, b)
			}
		}
		got := threadReads(t, fd) - before - 1
		p.close()
		if want := reads * tc.perRead; got < want || tc.exactly && got != want {
			t.Errorf("%d reads of /%s made %d preads, want %d", reads, tc.name, got, want)
		}
	}
}

// A file read in a captured directory is read to its end whatever its name: only the
// kernel's seq_files end at their first short read.
func TestSingleRecordCaptureReadToEnd(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/proc", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/proc/meminfo", []byte("MemTotal: 1 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := openProcFile(kernel.DirRoot(dir), "proc/meminfo")
	defer p.close()
	if p.oneRecord {
		t.Fatal("a captured directory's meminfo is taken for the kernel's single-record file")
	}
	if b, err := p.read(); err != nil || string(b) != "MemTotal: 1 kB\n" {
		t.Fatalf("read %q, %v", b, err)
	}
}
