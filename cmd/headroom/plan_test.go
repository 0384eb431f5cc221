package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/plan"
)

// -update-plan rewrites the plan goldens (named apart from other commands' -update flags).
var updatePlan = flag.Bool("update-plan", false, "rewrite cmd/headroom/testdata/plan goldens")

func runPlanArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runPlan(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

// Seed 004's link and host, fully described by flags so nothing of this machine leaks in.
var seed004Args = []string{"--bandwidth", "1Gbit", "--rtt", "125ms", "--streams", "20", "--memory", "8GiB", "--kernel", "2.6.13", "--arch", "i686"}

func TestPlanGoldens(t *testing.T) {
	for _, c := range []struct{ format, file string }{{"text", "seed004.txt"}, {"json", "seed004.json"}, {"sysctl", "seed004.conf"}} {
		t.Run(c.format, func(t *testing.T) {
			out, errOut, code := runPlanArgs(t, append(seed004Args, "--format", c.format)...)
			if code != exitOK || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			path := filepath.Join("testdata", "plan", c.file)
			if *updatePlan {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-plan to create)", err)
			}
			if out != string(want) {
				t.Errorf("%s differs from the golden; run go test ./cmd/headroom -run TestPlanGoldens -update-plan and review the diff.\ngot:\n%s", path, out)
			}
		})
	}
}

func TestPlanJSONIsThePlan(t *testing.T) {
	out, _, code := runPlanArgs(t, append(seed004Args, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var p plan.Plan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if !p.Budget.Fits || p.Budget.Basis != "lowmem" || p.RcvBufBytes != 2084864 || len(p.Settings) == 0 || len(p.Guides) != 2 {
		t.Errorf("decoded plan: budget %+v, rcvbuf %d, %d settings, %d guides", p.Budget, p.RcvBufBytes, len(p.Settings), len(p.Guides))
	}
	for _, key := range []string{`"bdp_bytes_per_stream"`, `"worst_case_bytes"`, `"fits_budget"`, `"rtt_ns"`} {
		if !strings.Contains(out, key) {
			t.Errorf("json lacks %s", key)
		}
	}
}

func TestPlanSysctlIsLoadable(t *testing.T) {
	out, _, _ := runPlanArgs(t, append(seed004Args, "--format", "sysctl")...)
	// Every non-comment line is "key = value" with a dotted key, as sysctl.d(5) reads it.
	line := regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+ = [0-9a-z ]+$`)
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		n++
		if !line.MatchString(l) {
			t.Errorf("not a sysctl.d line: %q", l)
		}
	}
	if n < 6 {
		t.Errorf("only %d settings in the drop-in", n)
	}
}

func TestPlanExitCodesAndErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--rtt", "125ms"}, exitFailure, "--bandwidth is required"},
		{[]string{"--bandwidth", "1Gbit"}, exitFailure, "--rtt must be greater than zero"},
		{[]string{"--bandwidth", "1Gbit", "--rtt", "-5ms"}, exitFailure, "--rtt must be greater than zero"},
		{[]string{"--bandwidth", "1Gigabit", "--rtt", "125ms"}, exitFailure, "unknown unit"},
		{[]string{"--bandwidth", "1Gbit", "--rtt", "125ms", "--memory", "8Gb"}, exitFailure, "is bits"},
		{[]string{"--bandwidth", "1Gbit", "--rtt", "125ms", "--format", "yaml"}, exitFailure, "want text, json or sysctl"},
		{[]string{"--bandwidth", "1Gbit", "--rtt", "125ms", "--role", "relay", "--memory", "8GiB", "--arch", "x86_64", "--kernel", "6.1"}, exitFailure, "role"},
		{[]string{"--bandwidth", "1Gbit", "--rtt", "125ms", "extra"}, exitFailure, "unexpected argument"},
		{[]string{"--bogus"}, exitFailure, "flag provided but not defined"},
		// Lowmem too small for the link: the plan lowers buffers and exits 1.
		{append(seed004Args, "--lowmem", "64MiB"), exitWarning, ""},
	}
	for _, c := range cases {
		_, errOut, code := runPlanArgs(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d containing %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	if _, _, code := runPlanArgs(t, "-h"); code != exitOK {
		t.Errorf("-h exits %d", code)
	}
}

// The done-when check from the command line: one stream, 1 Gbit/s, 125 ms, 8 GiB x86_64 on
// a 6.18 kernel: the planned tcp_rmem max reaches ≥ 90% of 1 Gbit/s.
func TestPlanOneStreamCommand(t *testing.T) {
	out, _, code := runPlanArgs(t, "--bandwidth", "1Gbit", "--rtt", "125ms", "--streams", "1", "--memory", "8GiB", "--arch", "x86_64", "--kernel", "6.18.44", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var p plan.Plan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if r := plan.ThroughputBitsPerSec(p.RcvBufBytes, p.Input.RTT, p.WindowRatio); r < 0.9e9 {
		t.Errorf("tcp_rmem max %d reaches %v bit/s", p.RcvBufBytes, r)
	}
}

// Host facts come through the same readers as doctor; here from a captured tree (the layout
// `headroom capture` writes) shaped like seed 004's host.
func TestPlanReadsHostFacts(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/meminfo", "MemTotal:        8310800 kB\nMemFree:          141828 kB\nHighTotal:       7405568 kB\nLowTotal:         905232 kB\n")
	write("proc/sys/kernel/osrelease", "2.6.13-2smp\n")
	write("proc/sys/net/ipv4/tcp_rmem", "4096\t87380\t4194304\n")
	write("proc/sys/net/ipv4/tcp_mem", "196608\t262144\t393216\n")
	write("proc/sys/vm/min_free_kbytes", "3831\n")
	write("headroom/host.json", `{"arch":"i686","page_size":4096}`+"\n")
	write("proc/net/dev", "Inter-|   Receive                                                |  Transmit\n"+
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"+
		"  eth0: 1988145274 2050626316 1392055 2784110 1392055 0 0 0 2674276694 373778386 0 0 0 0 0 0\n"+
		"  eth1: 3358216724 1385841762 0 0 0 0 0 0 2097933871 318043851 0 0 0 0 0 0\n"+
		"    lo: 100 1 0 0 0 0 0 0 100 1 0 0 0 0 0 0\n")
	for _, nic := range []string{"eth0", "eth1"} {
		write("sys/class/net/"+nic+"/speed", "1000\n")
		write("sys/class/net/"+nic+"/mtu", "1500\n")
		write("sys/class/net/"+nic+"/tx_queue_len", "1000\n")
		write("sys/class/net/"+nic+"/operstate", "up\n")
		write("sys/class/net/"+nic+"/headroom_driver", "e1000\n")
		write("sys/class/net/"+nic+"/headroom_virtual", "0\n")
		write("headroom/ethtool/"+nic+".json", `{"name":"`+nic+`","ring":{"rx_max":4096,"tx_max":4096,"rx":256,"tx":256}}`)
	}
	for _, nic := range []string{"ifb0", "lo"} { // virtual, speedless: skipped
		write("sys/class/net/"+nic+"/speed", "-1\n")
		write("sys/class/net/"+nic+"/mtu", "1500\n")
		write("sys/class/net/"+nic+"/tx_queue_len", "32\n")
		write("sys/class/net/"+nic+"/headroom_virtual", "1\n")
	}

	saved := planRoot
	t.Cleanup(func() { planRoot = saved })
	planRoot = kernel.DirRoot(dir)
	out, errOut, code := runPlanArgs(t, "--bandwidth", "1Gbit", "--rtt", "125ms", "--streams", "20", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var p plan.Plan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	in := p.Input
	if in.MemoryBytes != 8310800*1024 || in.LowmemBytes != 905232*1024 || in.KernelVersion != "2.6.13-2smp" || in.Arch != "i686" {
		t.Errorf("host facts: %+v", in)
	}
	if len(in.NICs) != 2 || in.NICs[0].Name != "eth0" || !in.NICs[0].DropsSeen || in.NICs[1].DropsSeen || in.NICs[0].RxRingMax != 4096 {
		t.Errorf("nics: %+v", in.NICs)
	}
	if in.Current["net.ipv4.tcp_rmem"] != "4096 87380 4194304" || in.Current["vm.min_free_kbytes"] != "3831" {
		t.Errorf("current: %v", in.Current)
	}
	if _, ok := in.Current["net.ipv4.tcp_notsent_lowat"]; ok {
		t.Error("a sysctl this kernel lacks must be absent, not empty")
	}
	var ring, tcpMem string
	for _, c := range p.Settings {
		switch c.Key {
		case "eth0 rx":
			ring = c.Current + "→" + c.Recommended
		case "net.ipv4.tcp_mem":
			tcpMem = c.Current + "→" + c.Recommended
		}
	}
	if ring != "256→4096" {
		t.Errorf("eth0 ring change = %q, want 256→4096 (drops seen)", ring)
	}
	// LowTotal 905232 kB → budget ¼ = 226308 kB = 56577 pages.
	if tcpMem != "196608 262144 393216→28288 37718 56577" {
		t.Errorf("tcp_mem = %q", tcpMem)
	}

	// Describing another host (any of --memory/--kernel/--arch) must not use this host's
	// current values or NICs.
	out, _, _ = runPlanArgs(t, "--bandwidth", "1Gbit", "--rtt", "125ms", "--kernel", "6.1.0", "--format", "json")
	p = plan.Plan{}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Input.Current) != 0 || len(p.Input.NICs) != 0 {
		t.Errorf("current/NICs leaked into a plan for another kernel: %v %v", p.Input.Current, p.Input.NICs)
	}

	// A meminfo without MemTotal is an error naming the file.
	write("proc/meminfo", "MemFree: 1 kB\n")
	_, errOut, code = runPlanArgs(t, "--bandwidth", "1Gbit", "--rtt", "125ms")
	if code != exitFailure || !strings.Contains(errOut, "meminfo: no MemTotal") {
		t.Errorf("broken meminfo: exit %d, %q", code, errOut)
	}
}
