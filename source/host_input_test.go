package source

import (
	"context"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/kernel"
)

// Issue 22 item 13: a capture whose headroom/host.json or tcp_mem is damaged says so,
// instead of silently leaving the value out; a MemTotal of zero is an input error.
func captureRoot(files map[string]string) kernel.Root {
	a := &txtar.Archive{}
	for name, data := range files {
		a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	return kernel.TxtarRoot(a, "test.txtar")
}

const testMemInfo = "MemTotal:        8000000 kB\nMemFree:         4000000 kB\nMemAvailable:    6000000 kB\n"

func unavailableWhy(t *testing.T, files map[string]string, what string) string {
	t.Helper()
	_, missing := ReadHost(captureRoot(files), nil)
	for _, u := range missing {
		if u.What == what {
			return u.Why
		}
	}
	t.Fatalf("nothing said about %s: %+v", what, missing)
	return ""
}

func TestCaptureMalformedHostJSONIsReported(t *testing.T) {
	for _, data := range []string{`{"arch":"x86_64","page_size":"4096"}`, `{"arch":`, `{"page_size":3000}`} {
		why := unavailableWhy(t, map[string]string{"proc/meminfo": testMemInfo, hostFile: data}, hostFile)
		if !strings.Contains(why, "left unknown") {
			t.Errorf("%s: %q", data, why)
		}
	}
	h, missing := ReadHost(captureRoot(map[string]string{"proc/meminfo": testMemInfo, hostFile: `{"arch":"x86_64","page_size":4096}`}), nil)
	for _, u := range missing {
		if u.What == hostFile {
			t.Errorf("a good host.json reported: %+v", u)
		}
	}
	if h.PageSize != 4096 || h.Arch != "x86_64" {
		t.Errorf("good host.json: %+v", h)
	}
}

func TestCaptureMalformedTCPMemIsReported(t *testing.T) {
	files := map[string]string{"proc/meminfo": testMemInfo, "proc/sys/net/ipv4/tcp_mem": "287901 38386x8 575802\n",
		"proc/sys/net/ipv4/tcp_rmem": "4096 131072\n"}
	if why := unavailableWhy(t, files, "sysctl net.ipv4.tcp_mem"); !strings.Contains(why, `"38386x8" is not an integer`) {
		t.Errorf("tcp_mem: %q", why)
	}
	if why := unavailableWhy(t, files, "sysctl net.ipv4.tcp_rmem"); !strings.Contains(why, "want 3 integers") {
		t.Errorf("tcp_rmem: %q", why)
	}
	h, _ := ReadHost(captureRoot(files), nil)
	if _, ok := h.Sysctls["net.ipv4.tcp_mem"]; ok {
		t.Error("the malformed value was kept")
	}
}

func TestCaptureMemTotalZeroIsAnInputError(t *testing.T) {
	for _, mi := range []string{"MemTotal:        0 kB\nMemFree: 10 kB\n", "MemTotal:  -8000 kB\nMemFree: 10 kB\n", "MemTotal: 8000 kB\nMemFree: -10 kB\n"} {
		why := unavailableWhy(t, map[string]string{"proc/meminfo": mi}, "/proc/meminfo")
		if !strings.Contains(why, "damaged or edited") {
			t.Errorf("%q: %q", mi, why)
		}
		if h, _ := ReadHost(captureRoot(map[string]string{"proc/meminfo": mi}), nil); h.MemTotalKB != 0 {
			t.Errorf("%q: MemTotal taken as %d", mi, h.MemTotalKB)
		}
	}
}

// A capture taken without the kernel log (an unprivileged capture) says why when read: the
// verdict names the source and its reason (issue 27), not "not available on this kernel".
func TestCaptureKeepsWhyTheKernelLogIsMissing(t *testing.T) {
	root := captureRoot(map[string]string{"proc/meminfo": testMemInfo,
		hostFile: `{"arch":"x86_64","page_size":4096,"kernel_log_error":"/dev/kmsg: permission denied by the kernel"}`})
	tl, err := Collect(context.Background(), root, CollectOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range tl.NotAvailable {
		if u.What == "kernel log (/dev/kmsg)" {
			if !strings.Contains(u.Why, "when it was taken, /dev/kmsg: permission denied") {
				t.Errorf("why: %q", u.Why)
			}
			return
		}
	}
	t.Fatalf("kernel log not said unavailable: %+v", tl.NotAvailable)
}
