package kernel

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func TestSysctlPath(t *testing.T) {
	for key, want := range map[string]string{
		"net.ipv4.tcp_mem":                 "proc/sys/net/ipv4/tcp_mem",
		"vm.min_free_kbytes":               "proc/sys/vm/min_free_kbytes",
		"net/ipv4/conf/eth0.100/rp_filter": "proc/sys/net/ipv4/conf/eth0.100/rp_filter",
	} {
		if got, err := SysctlPath(key); err != nil || got != want {
			t.Errorf("SysctlPath(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
	for _, bad := range []string{"", ".", "vm..swappiness", "vm.", ".vm", "net/../../etc/passwd", "/proc/sys/vm", "vm/"} {
		if p, err := SysctlPath(bad); err == nil {
			t.Errorf("SysctlPath(%q) = %q, want an error", bad, p)
		}
	}
}

func TestReadSysctl(t *testing.T) {
	root := TxtarRoot(loadArchive(t, hostFixture), hostFixture)
	v, err := ReadSysctl(root, "net.ipv4.tcp_mem")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(v); len(f) != 3 || strings.Join(f, " ") != v {
		t.Errorf("tcp_mem %q: want three values, single spaces", v)
	}
	if v, err := ReadSysctl(root, "net.ipv4.tcp_available_congestion_control"); err != nil || !strings.Contains(v, "reno") {
		t.Errorf("congestion controls %q %v", v, err)
	}
	if _, err := ReadSysctl(root, "net.ipv4.tcp_no_such_knob"); !errors.Is(err, ErrNotSupported) {
		t.Errorf("absent key: %v", err)
	}

	values, unavailable := ReadSysctls(root, RuleSysctls)
	if len(values)+len(unavailable) != len(RuleSysctls) {
		t.Errorf("%d values + %d unavailable for %d keys", len(values), len(unavailable), len(RuleSysctls))
	}
	for k, err := range unavailable {
		t.Errorf("%s unavailable in the 6.18 capture: %v", k, err)
	}
	if values["vm.lowmem_reserve_ratio"] == "" || strings.ContainsAny(values["vm.lowmem_reserve_ratio"], "\t\n") {
		t.Errorf("lowmem_reserve_ratio %q", values["vm.lowmem_reserve_ratio"])
	}

	// Values longer than one read are read on; multi-line text collapses.
	long := strings.Repeat("abcdefgh\t", 1000) + "\n"
	big := FSRoot(fstest.MapFS{"proc/sys/kernel/x": {Data: []byte(long)}, "proc/sys/kernel/y": {Data: []byte("a\nb\n\n c \n")}}, "t")
	got, err := ReadSysctl(big, "kernel.x")
	if err != nil || len(got) != 9*1000-1 || strings.Contains(got, "\t") {
		t.Errorf("long value: %d bytes, %v", len(got), err)
	}
	if got, _ := ReadSysctl(big, "kernel.y"); got != "a b c" {
		t.Errorf("multi-line value %q", got)
	}
	tooBig := FSRoot(fstest.MapFS{"proc/sys/kernel/z": {Data: make([]byte, sysctlMaxBytes+sysctlReadBytes+1)}}, "t")
	if _, err := ReadSysctl(tooBig, "kernel.z"); err == nil {
		t.Error("unbounded value accepted")
	}
}

// countingFS records the size of every Read on its files.
type countingFS struct {
	fs.FS
	reads *[]int
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return countingFile{f, c.reads}, nil
}

type countingFile struct {
	fs.File
	reads *[]int
}

func (c countingFile) Read(p []byte) (int, error) {
	*c.reads = append(*c.reads, len(p))
	return c.File.Read(p)
}

func TestReadSysctlReadSize(t *testing.T) {
	// proc_sys_call_handler allocates a kernel buffer as large as the read: never ask for more
	// than sysctlReadBytes.
	var reads []int
	root := FSRoot(countingFS{fstest.MapFS{"proc/sys/vm/swappiness": {Data: []byte("60\n")}}, &reads}, "t")
	if v, err := ReadSysctl(root, "vm.swappiness"); err != nil || v != "60" {
		t.Fatalf("%q %v", v, err)
	}
	for _, n := range reads {
		if n > sysctlReadBytes {
			t.Errorf("read of %d bytes", n)
		}
	}
}

func TestReadSysctlLive(t *testing.T) {
	if _, err := os.Stat("/proc/sys/vm/min_free_kbytes"); err != nil {
		t.Skip("no /proc/sys here")
	}
	values, unavailable := ReadSysctls(HostRoot(), RuleSysctls)
	for _, k := range []string{"vm.min_free_kbytes", "net.ipv4.tcp_mem", "net.core.netdev_max_backlog", "kernel.osrelease"} {
		if values[k] == "" {
			t.Errorf("%s: %v", k, unavailable[k])
		}
	}
	for k, err := range unavailable {
		// A key this kernel lacks is fine (nf_conntrack not loaded, tcp_rto_max_ms before 6.15);
		// anything else is a failure to read.
		if !errors.Is(err, ErrNotSupported) {
			t.Errorf("%s: %v", k, err)
		}
	}
}
