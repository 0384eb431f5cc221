package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runLabCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = runLab(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	return code, o.String(), e.String()
}

func TestLabList(t *testing.T) {
	code, out, _ := runLabCmd("list")
	if code != exitOK {
		t.Fatalf("lab list exited %d", code)
	}
	for _, want := range []string{"long-fat-pipe", "kernel-default", "fermilab", "headroom", "tuned-network-throughput", "esnet"} {
		if !strings.Contains(out, want) {
			t.Errorf("lab list output lacks %q:\n%s", want, out)
		}
	}
}

func TestLabUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "usage"},
		{[]string{"frobnicate"}, "unknown subcommand"},
		{[]string{"run"}, "exactly one scenario"},
		{[]string{"run", "no-such-scenario"}, "no scenario"},
		{[]string{"run", "long-fat-pipe", "extra"}, "exactly one scenario"},
		{[]string{"run", "long-fat-pipe", "--format", "xml"}, "want text or json"},
		{[]string{"run", "long-fat-pipe", "--rate", "100"}, "unit missing"},
		{[]string{"run", "long-fat-pipe", "--settings", "/no/such/file"}, "neither a set"},
		{[]string{"run", "long-fat-pipe", "--loss", "1.5"}, "loss fraction"},
		{[]string{"compare", "long-fat-pipe", "--settings", "fermilab"}, "compare runs every set"},
		{[]string{"run", "readers"}, "--kernel"},
		{[]string{"run", "readers", "--kernel", "debian-0.1-vax"}, "does not run on kernel"},
		{[]string{"run", "readers", "--kernel", "debian-6.1-amd64", "--rate", "1Gbit"}, "--rate do not apply"},
		{[]string{"run", "long-fat-pipe", "--kernel", "debian-6.1-amd64"}, "not a guest scenario"},
		{[]string{"compare", "readers"}, "guest scenarios run with"},
		{[]string{"run", "long-fat-pipe", "--trace"}, "runs no doctor"},
		{[]string{"compare", "long-fat-pipe", "--trace"}, "runs no doctor"},
		{[]string{"kernels", "extra"}, "usage: headroom lab kernels"},
	} {
		code, out, errOut := runLabCmd(tc.args...)
		if code != exitFailure {
			t.Errorf("lab %v exited %d, want %d", tc.args, code, exitFailure)
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("lab %v: stderr %q lacks %q", tc.args, errOut, tc.want)
		}
		if out != "" {
			t.Errorf("lab %v printed on stdout: %q", tc.args, out)
		}
	}
}

// TestLabRunJSON runs a short real case (root only) and checks the JSON document the issue
// specifies, the progress on stderr, and the text table.
func TestLabRunJSON(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: needs root to create network namespaces")
	}
	args := []string{"run", "long-fat-pipe", "--settings", "fermilab", "--rate", "100Mbit", "--rtt", "20ms", "--streams", "2",
		"--warmup", "1s", "--measure", "1s", "--timeout", "40s"}
	code, out, errOut := runLabCmd(append(args, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var doc struct {
		Scenario string `json:"scenario"`
		Runs     []struct {
			Settings        string         `json:"settings"`
			Params          map[string]any `json:"params"`
			Throughput      *float64       `json:"throughput_mbps"`
			Retransmits     *uint64        `json:"retransmits"`
			PeakTCPMemPages *int64         `json:"peak_tcp_mem_pages"`
			PeakSocketPages *int64         `json:"peak_socket_mem_pages"`
			BudgetOK        *bool          `json:"budget_ok"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
	}
	if doc.Scenario != "long-fat-pipe" || len(doc.Runs) != 1 {
		t.Fatalf("report %+v", doc)
	}
	r := doc.Runs[0]
	// peak_tcp_mem_pages is the kernel-wide counter, which per-CPU batching
	// (net.core.mem_pcpu_rsv) can leave at 0 for a small run; the run's own sockets are
	// always measured.
	if r.Settings != "fermilab" || r.Throughput == nil || *r.Throughput <= 0 || r.Retransmits == nil || r.PeakTCPMemPages == nil ||
		r.PeakSocketPages == nil || *r.PeakSocketPages <= 0 || r.BudgetOK == nil {
		t.Errorf("run %s", out)
	}
	if r.Params["rate_mbps"] != 100.0 || r.Params["streams"] != 2.0 || r.Params["rtt_ms"] != 20.0 || r.Params["tcp_wmem"] != "4096 32768 131072" {
		t.Errorf("params %v", r.Params)
	}
	if !strings.Contains(errOut, "Mbit/s") || !strings.Contains(errOut, "ping RTT") {
		t.Errorf("no progress on stderr:\n%s", errOut)
	}

	code, out, errOut = runLabCmd(args...)
	if code != exitOK {
		t.Fatalf("text: exit %d; stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "long-fat-pipe: 100Mbit, RTT 20ms, 2 streams") || !strings.Contains(out, "fermilab") || !strings.Contains(out, "peak TCP mem pages") {
		t.Errorf("text table:\n%s", out)
	}
}

// TestLabKernels lists the QEMU lab's kernels from an empty cache: both named, both absent,
// with how to fetch them; --format json says the same.
func TestLabKernels(t *testing.T) {
	t.Setenv("HEADROOM_VM_CACHE", t.TempDir())
	code, out, errOut := runLabCmd("kernels")
	if code != exitOK {
		t.Fatalf("lab kernels exited %d: %s", code, errOut)
	}
	for _, want := range []string{"debian-6.1-amd64     absent", "debian-6.1-686-pae   absent", "make vmkernels"} {
		if !strings.Contains(out, want) {
			t.Errorf("lab kernels lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runLabCmd("kernels", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"name": "debian-6.1-686-pae"`) || !strings.Contains(out, `"present": false`) {
		t.Errorf("lab kernels --format json exited %d:\n%s", code, out)
	}
}
