package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/diagnose"
	"headroom/kernel"
)

// The committed capture of a 6.18 VM reads with every interface present.
func TestCommittedCapture(t *testing.T) {
	a, err := txtar.ParseFile("../testdata/captures/vm-6.18.txtar")
	if err != nil {
		t.Fatal(err)
	}
	tl, err := Collect(context.Background(), kernel.TxtarRoot(a, "vm-6.18.txtar"), CollectOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 1 {
		t.Fatalf("a capture is one instant; got %d samples", len(tl.Samples))
	}
	s := tl.Samples[0]
	if s.MemInfo == nil || s.VMStat == nil || len(s.Zones) == 0 || len(s.Buddy) == 0 || len(s.NetDev) == 0 ||
		len(s.NetStat) == 0 || len(s.SockStat) == 0 || len(s.Softnet) == 0 || s.Stat == nil || s.Interrupts == nil ||
		len(s.PSI) != 3 || len(s.Threads) == 0 || s.Sockets == nil {
		t.Errorf("capture sample incomplete: %+v", s)
	}
	if tl.Host.Kernel != "6.18.44-fc-v669" || tl.Host.Arch != "x86_64" || tl.Host.PageSize != 4096 {
		t.Errorf("host facts: %+v", tl.Host)
	}
	if tl.Log.Len() == 0 {
		t.Error("no kernel log in the capture")
	}
	for _, u := range tl.NotAvailable {
		t.Logf("not available: %s: %s", u.What, u.Why)
	}
}

// A capture without PSI and pagetypeinfo (an older kernel, or psi=0) reports them as not
// available and gives no PSI values: absent is not zero.
func TestCaptureWithoutPSI(t *testing.T) {
	a, err := txtar.ParseFile("../testdata/captures/vm-6.18.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var kept []txtar.File
	for _, f := range a.Files {
		if len(f.Name) >= 13 && f.Name[:13] == "proc/pressure" {
			continue
		}
		kept = append(kept, f)
	}
	a.Files = kept
	tl, err := Collect(context.Background(), kernel.TxtarRoot(a, "nopsi.txtar"), CollectOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples[0].PSI) != 0 {
		t.Errorf("PSI values without PSI files: %+v", tl.Samples[0].PSI)
	}
	found := false
	for _, u := range tl.NotAvailable {
		if u.What == "/proc/pressure/memory" {
			found = true
		}
	}
	if !found {
		t.Errorf("missing PSI not reported: %+v", tl.NotAvailable)
	}
}

func TestProcFileMissing(t *testing.T) {
	p := openProcFile(kernel.DirRoot(t.TempDir()), "proc/pressure/memory")
	if _, err := p.read(); !errors.Is(err, kernel.ErrNotSupported) {
		t.Fatalf("missing file: %v, want ErrNotSupported", err)
	}
}

// A live sample reads every file once through the kept-open descriptors.
func TestLiveSamplerCounters(t *testing.T) {
	if _, err := os.Stat("/proc/vmstat"); err != nil {
		t.Skip("not a Linux host")
	}
	tl, err := Collect(context.Background(), kernel.HostRoot(), CollectOptions{Options: Options{}, Duration: 200e6, Interval: 100e6})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 3 {
		t.Fatalf("%d samples, want 3", len(tl.Samples))
	}
	// The rates are derived by input.Finish (input's TestLiveHost); here, the counters they
	// come from, in every sample.
	for i, s := range tl.Samples {
		if s.Stat == nil || s.Stat.Total.Fields == nil || !s.Stat.Scalars.Has("ctxt") {
			t.Errorf("sample %d lacks /proc/stat: %+v", i, s.Stat)
		}
	}
}

// Persistent sysctl settings are read from /etc/sysctl.d and /etc/sysctl.conf, with their
// file and line, so the sysctl rules check them on live hosts and captures alike.
func TestSysctlConfSettings(t *testing.T) {
	a, err := txtar.ParseFile("../testdata/captures/vm-6.18.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a.Files = append(a.Files,
		txtar.File{Name: "etc/sysctl.d/90-nas.conf", Data: []byte("# from a blog\nvm.min_kbytes_free = 20248\nnet.core.rmem_max=16777216\n")},
		txtar.File{Name: "etc/sysctl.conf", Data: []byte("net.ipv4.tcp_rmem = 4096 87380 1048576\n")})
	tl, err := Collect(context.Background(), kernel.TxtarRoot(a, "conf.txtar"), CollectOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range tl.Settings {
		got[m.Key] = m.Value + " @ " + m.Source
	}
	want := map[string]string{
		"vm.min_kbytes_free": "20248 @ /etc/sysctl.d/90-nas.conf line 2",
		"net.core.rmem_max":  "16777216 @ /etc/sysctl.d/90-nas.conf line 3",
		"net.ipv4.tcp_rmem":  "4096 87380 1048576 @ /etc/sysctl.conf line 1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings:\n got %v\nwant %v", got, want)
	}
	// And the rule sees them as it sees a paste.
	fired := false
	for _, f := range diagnose.Run(tl, nil).Findings {
		if f.ID == "sysctl-unknown-key" {
			fired = true
			if !strings.Contains(fmt.Sprint(f.Evidence), "/etc/sysctl.d/90-nas.conf line 2") {
				t.Errorf("evidence does not cite the file and line: %+v", f.Evidence)
			}
		}
	}
	if !fired {
		t.Error("sysctl-unknown-key did not fire on vm.min_kbytes_free in /etc/sysctl.d")
	}
}
