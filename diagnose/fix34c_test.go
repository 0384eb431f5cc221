package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"headroom/model"
)

// fix34c (round 29's misses): moonlight-common-c's own queue and frame lines named; Celery's
// pool children SIGKILLed and Flyte's task error with exit code 137 kept as SIGKILL notices;
// an admin's account of swap pushed to zero and the OOM killer's choice read as stated.

func TestFix34cMoonlightCommonNamed(t *testing.T) {
	text := "Starting input stream...done\nDiscarding RTP packet queued for too long\nDiscarding RTP packet after queue overgrowth\nNetwork dropped middle of a frame\nNetwork dropped beginning of a frame\nWaiting for IDR frame\nResync complete\n"
	namedNoNICFinding(t, text, "moonlight-common-c's own RTP reorder queue", "moonlight-common-c's line")
	namedNoNICFinding(t, "Network dropped end of a frame\n", "moonlight-common-c's depacketizer", "moonlight-common-c's line")
	tl := parseText19b(t, text)
	d := Run(tl, nil)
	for _, id := range []string{"udp-rcvbuf-errors", "rx-dropped-software", "softnet-backlog-drops", "nic-rx-overruns"} {
		if findingOf(d, id) != nil {
			t.Errorf("moonlight's lines: %s fired", id)
		}
	}
	// A sentence in the same words, and the words run on, are not the library's lines.
	for _, s := range []string{
		"moonlight keeps discarding packages at 1080p\n",
		"It says Discarding RTP packet queued for too long every second, why?\n",
		"Discarding RTP packet queued for too long because of the kernel\n",
		"Network dropped beginning of a frame and the kernel dropped 500 packets\n",
	} {
		if tl := parseText19b(t, s); h23cNamed(tl, "moonlight-common-c") {
			t.Errorf("%q: named as moonlight-common-c's line", s)
		}
	}
}

func TestFix34cCelerySigkill(t *testing.T) {
	for name, c := range map[string]struct {
		text string
		n    int
	}{
		"celery MainProcess": {"[2023-07-17 16:09:21,326: ERROR/MainProcess] Process 'ForkPoolWorker-410' pid:600 exited with 'signal 9 (SIGKILL)'\n[2023-07-17 16:09:22,426: ERROR/MainProcess] Process 'ForkPoolWorker-411' pid:601 exited with 'signal 9 (SIGKILL)'\n[2023-07-17 16:09:23,551: WARNING/MainProcess] process with pid=600 already exited\n", 2},
		"celery in a fence":  {"```\n[2023-07-17 16:09:21,326: ERROR/MainProcess] Process 'ForkPoolWorker-410' pid:600 exited with 'signal 9 (SIGKILL)'\n```\n", 1},
		"WorkerLostError":    {"[2024-01-02 10:00:00,000: ERROR/MainProcess] Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 12.')\nbilliard.exceptions.WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL) Job: 12.\n", 1},
	} {
		tl := pasteTimeline(t, c.text)
		got := 0
		for _, k := range tl.SigkillNotices {
			got += k.Count
		}
		if len(tl.RuntimeOOMs) > 0 || got != c.n || !h23cNamed(tl, "Celery's worker pool") {
			t.Errorf("%s: ooms %+v notices %+v unparsed %+v", name, tl.RuntimeOOMs, tl.SigkillNotices, tl.Unparsed)
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "Celery") {
			t.Errorf("%s: %+v", name, res)
		}
	}
	for _, text := range []string{
		"# [bitnami/airflow] ERROR/MainProcess] Process 'ForkPoolWorker-301' pid:491 exited with 'signal 9 (SIGKILL) in bitnami/airflow\n",
		"I keep getting Process 'ForkPoolWorker-1' pid:12 exited with 'signal 9 (SIGKILL)' on every task\n",
		"[2023-07-17 16:09:21,326: ERROR/MainProcess] Process 'ForkPoolWorker-410' pid:600 exited with 'signal 15 (SIGTERM)'\n",
		"[2023-07-17 16:09:21,326: ERROR/MainProcess] Process 'ForkPoolWorker-410' pid:600 exited with 'exitcode 1'\n",
		"If you see WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL), raise the memory.\n",
	} {
		if tl := pasteTimeline(t, text); len(tl.SigkillNotices) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%q: %+v %+v", text, tl.SigkillNotices, tl.RuntimeOOMs)
		}
	}
}

func TestFix34cFlyteTaskError(t *testing.T) {
	text := "```\n[1/1] currentAttempt done. Last Error: USER::Pod failed. No message received from kubernetes.\n[f8107735c673549d7acd-n0-0] terminated with exit code (137). Reason [Error]. Message: \n.\n```\n"
	tl := pasteTimeline(t, text)
	if len(tl.RuntimeOOMs) > 0 || len(tl.SigkillNotices) != 1 {
		t.Fatalf("exit 137, reason Error: %+v %+v", tl.RuntimeOOMs, tl.SigkillNotices)
	}
	if a := fmt.Sprint(tl.Artifacts); !strings.Contains(a, "SIGKILL (128+9)") || !strings.Contains(a, "f8107735c673549d7acd-n0-0") {
		t.Errorf("no terminated state with its code: %s", a)
	}
	if res := run(t, "oom-kill", tl); len(res.Findings) > 0 || !strings.Contains(res.NotChecked, "Flyte") {
		t.Errorf("%+v", res)
	}
	// Reason [OOMKilled]: the runtime's OOM, as kubectl describe's.
	tl = pasteTimeline(t, "[a1b2-n0-0] terminated with exit code (137). Reason [OOMKilled]. Message: \n.\n")
	if len(tl.RuntimeOOMs) != 1 || len(tl.SigkillNotices) > 0 {
		t.Errorf("reason OOMKilled: %+v %+v", tl.RuntimeOOMs, tl.SigkillNotices)
	}
	for _, s := range []string{
		"the task terminated with exit code (137). Reason [Error]. Message: empty\n",
		"[a1b2-n0-0] terminated with exit code (1). Reason [Error]. Message: \n.\n",
		"[a1b2-n0-0] terminated with ExitCode 0.\n",
	} {
		if tl := pasteTimeline(t, s); len(tl.SigkillNotices) > 0 || len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%q: %+v %+v", s, tl.SigkillNotices, tl.RuntimeOOMs)
		}
	}
}

func TestFix34cStatedSwapPushedAndOOMChoice(t *testing.T) {
	text := "Whatever condition occurs on systems with your larger memory jobs I show them pushing swap to zero.\n\nI don't show anything odd about system processes but for some reason I show swap filling and then the OOM picks the largest consumer to kill.\n"
	tl := pasteTimeline(t, text)
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSwapping] > 0 }); s == nil {
		t.Errorf("swap pushed to zero: not stated")
	}
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedOOM] > 0 }); s == nil {
		t.Errorf("the OOM picks the largest to kill: not stated")
	}
	for _, s := range []string{
		"When memory runs out and then the OOM killer picks the largest process to kill.\n",
		"If swap fills and then the OOM killer picks a process to kill, raise the limit.\n",
		"Add more swap to avoid pushing swap to zero.\n",
		"The OOM killer picks the process with the highest oom_score to kill.\n",
		"swap fills up when the working set exceeds RAM\n",
		"Set vm.swappiness=10 so the node stops swapping.\n",
	} {
		tl := pasteTimeline(t, s)
		if x := tl.LastWith(func(s *model.Sample) bool {
			return s.Rates[model.RateStatedOOM] > 0 || s.Rates[model.RateStatedSwapping] > 0
		}); x != nil {
			t.Errorf("%q: stated %+v", s, x.Rates)
		}
	}
}
