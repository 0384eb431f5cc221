package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/sys/unix"
)

// kmsgFixture is records 80-230 of this machine's /dev/kmsg (Linux 6.18, x86_64), read
// with dd iflag=nonblock: tab escapes (\x09) and records with SUBSYSTEM/DEVICE
// dictionaries.
const kmsgFixture = "testdata/kmsg-6.18-x86_64.txt"

func TestParseKmsgFixture(t *testing.T) {
	f, err := os.Open(kmsgFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ParseKmsg(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 151 {
		t.Fatalf("got %d records, want 151 (seq 80..230)", len(recs))
	}
	for i, r := range recs {
		if r.Seq != uint64(80+i) {
			t.Fatalf("record %d has seq %d, want %d", i, r.Seq, 80+i)
		}
		if i > 0 && r.TimestampUsec < recs[i-1].TimestampUsec {
			t.Errorf("seq %d: timestamp %d goes backwards", r.Seq, r.TimestampUsec)
		}
		if r.Facility != 0 || r.Flag != "-" {
			t.Errorf("seq %d: facility %d flag %q, want kernel facility 0 and '-'", r.Seq, r.Facility, r.Flag)
		}
	}
	byseq := func(s uint64) KmsgRecord { return recs[s-80] }

	r := byseq(91)
	if r.Priority != 6 || r.TimestampUsec != 96051 ||
		r.Message != "rcu: \tRCU restricting CPUs from NR_CPUS=256 to nr_cpu_ids=2." {
		t.Errorf("seq 91 = %+v", r)
	}
	if r := byseq(230); r.Priority != 7 || r.Message != "PCI: pci_cache_line_size set to 64 bytes" {
		t.Errorf("seq 230 = %+v", r)
	}
	want := map[string]string{"SUBSYSTEM": "acpi", "DEVICE": "+acpi:PNP0A08:00"}
	if r := byseq(199); !reflect.DeepEqual(r.Dict, want) {
		t.Errorf("seq 199 dict = %v, want %v", r.Dict, want)
	}
	dicts := 0
	for _, r := range recs {
		if r.Dict != nil {
			dicts++
			if len(r.Dict) != 2 || r.Dict["SUBSYSTEM"] == "" || !strings.HasPrefix(r.Dict["DEVICE"], "+") {
				t.Errorf("seq %d: dict %v", r.Seq, r.Dict)
			}
		}
	}
	if dicts != 20 { // 40 dictionary lines, two per record
		t.Errorf("%d records with a dictionary, want 20", dicts)
	}
}

func TestParseKmsgRecords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []KmsgRecord
	}{
		{
			name: "continuation and user facility",
			in:   "6,167,0,c;[\n4,168,0,+;0\n12,169,5,-;user message\n",
			want: []KmsgRecord{
				{Priority: 6, Seq: 167, Flag: "c", Message: "["},
				{Priority: 4, Seq: 168, Flag: "+", Message: "0"},
				{Priority: 4, Facility: 1, Seq: 169, TimestampUsec: 5, Flag: "-", Message: "user message"},
			},
		},
		{
			name: "caller field and unknown fields are tolerated",
			in:   "4,10,20,-,caller=T1234,future=1;mv643xx_eth: page allocation failure\n",
			want: []KmsgRecord{{Priority: 4, Seq: 10, TimestampUsec: 20, Flag: "-", Caller: "T1234",
				Message: "mv643xx_eth: page allocation failure"}},
		},
		{
			name: "escapes in message and dictionary",
			in:   "3,1,2,-;a\\x5cb\\x0ac\\xe2\\x82\\xac \\xZZ \\x4;x\n SUBSYSTEM=net\n DEVICE=n2\\x09x\n",
			want: []KmsgRecord{{Priority: 3, Seq: 1, TimestampUsec: 2, Flag: "-",
				Message: "a\\b\nc€ \\xZZ \\x4;x",
				Dict:    map[string]string{"SUBSYSTEM": "net", "DEVICE": "n2\tx"}}},
		},
		{
			name: "blank lines and empty message",
			in:   "\n6,5,6,-;\n\n",
			want: []KmsgRecord{{Priority: 6, Seq: 5, TimestampUsec: 6, Flag: "-"}},
		},
		{
			name: "facility 8 bits wide",
			in:   "2047,1,1,-;x\n",
			want: []KmsgRecord{{Priority: 7, Facility: 255, Seq: 1, TimestampUsec: 1, Flag: "-", Message: "x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKmsg(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseKmsgMalformed(t *testing.T) {
	tests := []struct{ in, errHas string }{
		{" SUBSYSTEM=pci\n", "line 1: dictionary line before any record"},
		{"6,1,2,-;ok\n6,2,3,- no semicolon\n", "line 2: no ';'"},
		{"6,1,2;three fields\n", "has 3 fields"},
		{"x,1,2,-;bad prio\n", "priority"},
		{"6,-1,2,-;bad seq\n", "sequence"},
		{"6,1,-2,-;negative time\n", "timestamp"},
		{"6,1,2,--;long flag\n", "flag"},
		{"6,1,2,-;m\n nokey\n", "line 2: dictionary line"},
		{"6,1,2,-;m\n =v\n", "not KEY=VALUE"},
		{"[    0.000000] Linux version 2.6.30-1\n", "no ';'"}, // dmesg output is not record format
	}
	for _, tt := range tests {
		_, err := ParseKmsg(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.errHas) {
			t.Errorf("ParseKmsg(%q) error = %v, want one containing %q", tt.in, err, tt.errHas)
		}
	}
}

func TestParseKmsgRecordOneRead(t *testing.T) {
	r, err := ParseKmsgRecord([]byte("6,199,143851,-;acpi PNP0A08:00: _OSC\n SUBSYSTEM=acpi\n DEVICE=+acpi:PNP0A08:00\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 199 || r.Message != "acpi PNP0A08:00: _OSC" || r.Dict["DEVICE"] != "+acpi:PNP0A08:00" {
		t.Errorf("got %+v", r)
	}
	if _, err := ParseKmsgRecord([]byte("6,1,1,-;m\nSUBSYSTEM=x\n")); err == nil {
		t.Error("dictionary line without leading space accepted")
	}
}

func TestFormatKmsgRoundTrip(t *testing.T) {
	b, err := os.ReadFile(kmsgFixture)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ParseKmsg(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's dictionaries are SUBSYSTEM then DEVICE; FormatKmsg sorts keys, so
	// compare records, not bytes.
	again, err := ParseKmsg(bytes.NewReader(FormatKmsg(recs)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs, again) {
		t.Error("FormatKmsg then ParseKmsg changed the records")
	}
	// Escaping matches the kernel's: the tab of seq 91 is written as \x09.
	if out := string(FormatKmsg(recs[11:12])); out != "6,91,96051,-;rcu: \\x09RCU restricting CPUs from NR_CPUS=256 to nr_cpu_ids=2.\n" {
		t.Errorf("formatted seq 91 as %q", out)
	}
}

func TestReadKmsgCapture(t *testing.T) {
	b, err := os.ReadFile(kmsgFixture)
	if err != nil {
		t.Fatal(err)
	}
	root := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "dev/kmsg", Data: b}}}, "capture")
	recs, err := ReadKmsg(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 151 {
		t.Errorf("ReadKmsg(capture) = %d records, want 151", len(recs))
	}
	// A follower on a capture returns the file once.
	f, err := NewKmsgFollower(root, false)
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.ReadNew()
	if err != nil || len(first) != 151 {
		t.Fatalf("first ReadNew = %d records, %v", len(first), err)
	}
	if again, err := f.ReadNew(); err != nil || len(again) != 0 {
		t.Errorf("second ReadNew = %d records, %v; want none", len(again), err)
	}
	capb, err := CaptureKmsg(root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(capb, FormatKmsg(recs)) {
		t.Error("CaptureKmsg differs from FormatKmsg(ReadKmsg)")
	}

	if _, err := ReadKmsg(TxtarRoot(&txtar.Archive{}, "empty")); !errors.Is(err, ErrNotSupported) {
		t.Errorf("capture without dev/kmsg: err = %v, want ErrNotSupported", err)
	}
	bad := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "dev/kmsg", Data: []byte("6,1,1,-;ok\ngarbage\n")}}}, "bad")
	if _, err := ReadKmsg(bad); err == nil || !strings.Contains(err.Error(), "/dev/kmsg: kmsg: line 2") {
		t.Errorf("bad capture: err = %v, want one naming /dev/kmsg line 2", err)
	}
}

func nsRequireRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
}

// writeKmsg logs a line to the kernel log as facility user, level debug ("<15>").
func writeKmsg(t *testing.T, msg string) {
	t.Helper()
	if err := os.WriteFile("/dev/kmsg", []byte("<15>"+msg+"\n"), 0); err != nil {
		t.Skipf("cannot write /dev/kmsg: %v", err)
	}
}

func TestReadKmsgLive(t *testing.T) {
	nsRequireRoot(t)
	marker := fmt.Sprintf("headroom kernel test: kmsg marker %d \\ tab\t.", rand.Uint64())
	writeKmsg(t, marker)
	recs, err := ReadKmsg(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no records")
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Seq <= recs[i-1].Seq {
			t.Fatalf("seq %d after %d", recs[i].Seq, recs[i-1].Seq)
		}
	}
	last := recs[len(recs)-1]
	found := false
	for _, r := range recs {
		if r.Message == marker {
			found = true
			if r.Facility != 1 || r.Priority != 7 {
				t.Errorf("marker record facility %d priority %d, want 1 and 7", r.Facility, r.Priority)
			}
		}
	}
	if !found {
		t.Errorf("marker %q not among %d records (last: %+v)", marker, len(recs), last)
	}
}

func TestKmsgFollowerLive(t *testing.T) {
	nsRequireRoot(t)
	for _, fromBoot := range []bool{false, true} {
		f, err := NewKmsgFollower(HostRoot(), fromBoot)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		old, err := f.ReadNew()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("ReadNew took %v: it must not block", d)
		}
		if fromBoot && len(old) == 0 {
			t.Error("fromBoot follower returned no history")
		}
		if !fromBoot && len(old) != 0 {
			// Another process may log in between; none may be older than the open.
			t.Logf("fromNow follower saw %d records logged meanwhile", len(old))
		}
		m1 := fmt.Sprintf("headroom kernel test: follower %d a", rand.Uint64())
		m2 := fmt.Sprintf("headroom kernel test: follower %d b", rand.Uint64())
		writeKmsg(t, m1)
		writeKmsg(t, m2)
		got, err := f.ReadNew()
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, r := range got {
			msgs = append(msgs, r.Message)
		}
		if !containsInOrder(msgs, m1, m2) {
			t.Errorf("ReadNew after two writes = %q, want %q then %q", msgs, m1, m2)
		}
		if again, err := f.ReadNew(); err != nil {
			t.Fatal(err)
		} else {
			for _, r := range again {
				if r.Message == m1 || r.Message == m2 {
					t.Errorf("record %q returned twice", r.Message)
				}
			}
		}
		if f.Lost() != 0 {
			t.Logf("kernel overwrote %d records while reading", f.Lost())
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	}
}

func containsInOrder(xs []string, a, b string) bool {
	i := -1
	for k, x := range xs {
		if x == a {
			i = k
		}
		if x == b && i >= 0 {
			return true
		}
	}
	return false
}

// TestReadKmsgPermission drops CAP_SYSLOG on a throwaway thread and checks that
// dmesg_restrict's refusal is reported as ErrPermission.
func TestReadKmsgPermission(t *testing.T) {
	nsRequireRoot(t)
	b, err := os.ReadFile("/proc/sys/kernel/dmesg_restrict")
	if err != nil || strings.TrimSpace(string(b)) != "1" {
		t.Skip("kernel.dmesg_restrict is not 1: anyone may read /dev/kmsg")
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with its reduced capabilities
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		if err := unix.Capget(&hdr, &data[0]); err != nil {
			errc <- err
			return
		}
		const capSyslog = 34
		data[capSyslog/32].Effective &^= 1 << (capSyslog % 32)
		if err := unix.Capset(&hdr, &data[0]); err != nil {
			errc <- err
			return
		}
		_, err := ReadKmsg(HostRoot())
		errc <- err
	}()
	err = <-errc
	if !errors.Is(err, ErrPermission) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("err = %v, want ErrPermission and fs.ErrPermission", err)
	}
	if !strings.Contains(err.Error(), "kernel.dmesg_restrict=1") {
		t.Errorf("error %q does not name the sysctl", err)
	}
}

func TestKmsgOpenError(t *testing.T) {
	root := TxtarRoot(&txtar.Archive{Files: []txtar.File{{Name: "proc/sys/kernel/dmesg_restrict", Data: []byte("1\n")}}}, "t")
	err := kmsgOpenError(root, "/dev/kmsg", unix.EPERM)
	if !errors.Is(err, ErrPermission) || !errors.Is(err, unix.EPERM) || !strings.Contains(err.Error(), "dmesg_restrict=1") {
		t.Errorf("EPERM: %v", err)
	}
	if err := kmsgOpenError(root, "/dev/kmsg", unix.ENOENT); !errors.Is(err, ErrNotSupported) {
		t.Errorf("ENOENT: %v, want ErrNotSupported", err)
	}
	if err := kmsgOpenError(root, "/dev/kmsg", unix.EIO); errors.Is(err, ErrNotSupported) || errors.Is(err, ErrPermission) {
		t.Errorf("EIO: %v must be a plain failure", err)
	}
}

func FuzzParseKmsg(f *testing.F) {
	if b, err := os.ReadFile(kmsgFixture); err == nil {
		f.Add(b[:min(len(b), 4000)])
	}
	f.Add([]byte("6,167,0,c;[\n4,168,0,+;0\n SUBSYSTEM=x\n"))
	f.Add([]byte("3,1,2,-,caller=T1;a\\x5cb\\x0\\xe2\n DEVICE=n2\\x09x\n"))
	f.Add([]byte(" K=V\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := ParseKmsg(bytes.NewReader(b))
		if err != nil {
			return
		}
		// Whatever parses must survive a format/parse round trip unchanged.
		again, err := ParseKmsg(bytes.NewReader(FormatKmsg(recs)))
		if err != nil {
			t.Fatalf("re-parse of formatted records: %v\n%q", err, FormatKmsg(recs))
		}
		if len(recs) == 0 && len(again) == 0 {
			return
		}
		if !reflect.DeepEqual(recs, again) {
			t.Fatalf("round trip changed records:\n%+v\n%+v", recs, again)
		}
	})
}

// Issue 27: --host-root on an empty directory judged 11 rules healthy from this process's
// /dev/kmsg. A mounted host's kernel log is its own dev/kmsg, a character device, or not
// available.
func TestKmsgMountedHostReadsOnlyItsOwnLog(t *testing.T) {
	dir := t.TempDir()
	_, err := NewKmsgFollower(MountedHostRoot(dir), true)
	if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), filepath.Join(dir, "dev", "kmsg")) {
		t.Fatalf("empty host root: %v, want not supported naming %s/dev/kmsg", err, dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, "dev"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dev", "kmsg"), []byte("6,1,0,-;planted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewKmsgFollower(MountedHostRoot(dir), true); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("regular file as dev/kmsg: %v", err)
	}
	// A link to this process's /dev/kmsg resolves inside the directory: not this log.
	link := t.TempDir()
	if err := os.Symlink("/dev", filepath.Join(link, "dev")); err != nil {
		t.Fatal(err)
	}
	if f, err := NewKmsgFollower(MountedHostRoot(link), true); err == nil {
		f.Close()
		t.Fatal("dev -> /dev in a mounted host's directory opened this process's /dev/kmsg")
	}
}
