package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/source/tracetest"
)

// serve --trace during a UDP flood into a 4 KiB receive buffer (a lab namespace, loopback
// only): headroom_trace_drops_total{reason="SOCKET_RCVBUFF"} counts the kernel's drops and
// grows between scrapes, the exposition passes promtool check metrics, and once serve has
// returned its instance is gone and every tracing setting is as it was.
func TestServeTraceRcvbuff(t *testing.T) {
	tracetest.Need(t)
	view := tracetest.View(t)
	before := tracetest.State(t, view)
	// Registered before startServe's cleanup, so it runs after serve has stopped.
	t.Cleanup(func() { tracetest.Restored(t, view, os.Getpid(), before) })
	stop, _ := tracetest.Flood(t, 20000)
	defer stop()
	base := startServe(t, "--trace", "--window-interval", "-1s", "--min-interval", "100ms", "--rules-interval", "0")
	re := regexp.MustCompile(`(?m)^headroom_trace_drops_total\{reason="SOCKET_RCVBUFF"\} (\S+)$`)
	scrape := func() (float64, string) {
		code, body := httpGet(t, base+"/metrics")
		if code != 200 {
			t.Fatalf("/metrics: %d", code)
		}
		m := re.FindStringSubmatch(body)
		if m == nil {
			return 0, body
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v, body
	}
	first, _ := scrape()
	time.Sleep(1500 * time.Millisecond)
	second, body := scrape()
	t.Logf("SOCKET_RCVBUFF drops: %g at the first scrape, %g 1.5 s later", first, second)
	if second < 1000 || second <= first {
		t.Errorf("headroom_trace_drops_total{reason=\"SOCKET_RCVBUFF\"} %g then %g during a 20k/s flood into a full buffer:\n%s", first, second, grepLines(body, "headroom_trace_"))
	}
	// The rules read the traced drops too: serve runs in the host's namespace, whose own
	// Udp RcvbufErrors the flood (in a lab namespace) does not raise, so only the kernel's
	// reason count can make udp-rcvbuf-errors fire.
	if !regexp.MustCompile(`(?m)^headroom_finding\{[^}]*id="udp-rcvbuf-errors"[^}]*\} 1$`).MatchString(body) {
		t.Errorf("no udp-rcvbuf-errors finding from the traced drops:\n%s", grepLines(body, "headroom_finding{"))
	}
	for _, name := range []string{"headroom_trace_seconds_total", "headroom_trace_lost_events_total", `headroom_trace_stall_seconds_total{kind="direct_reclaim"}`} {
		if !strings.Contains(body, "\n"+name+" ") {
			t.Errorf("no %s in the exposition", name)
		}
	}
	if p, err := exec.LookPath("promtool"); err == nil {
		cmd := exec.Command(p, "check", "metrics")
		cmd.Stdin = strings.NewReader(body)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool check metrics: %v\n%s", err, out)
		}
	} else {
		t.Log("promtool not installed: the exposition is not linted")
	}
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// --trace counts this host's kernel over time: refused with --once, --from and --root.
func TestServeTraceRefused(t *testing.T) {
	for _, args := range [][]string{{"--once"}, {"--root", t.TempDir()}} {
		var errb syncBuffer
		code := runServe(t.Context(), append([]string{"--trace"}, args...), IO{Stdin: strings.NewReader(""), Stdout: &errb, Stderr: &errb})
		if code != exitFailure || !strings.Contains(errb.String(), "--trace counts this host's kernel") {
			t.Errorf("serve --trace %v: exit %d: %s", args, code, errb.String())
		}
	}
}
