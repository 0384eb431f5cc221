package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix44a (corpus 3681): systemd's result line quoted whole in a tracker's title, over a
// journal paste that does not log it, is the unit's OOM kill (systemdResultInTitle).
func TestSystemdResultQuotedInTitle(t *testing.T) {
	body := "\nI was using ollama via WebUI and met with an error.\n\n```shell\nJun 28 08:05:25 nixos ollama[1300]: load_tensors:          CPU model buffer size =  4977.62 MiB\n```\n"
	for _, c := range []struct {
		title, unit string
	}{
		{"# ollama continues to run, and cannot kill ollama: \"nixos systemd[1]: ollama.service: Failed with result 'oom-kill'.\"", "ollama.service"},
		{"# worker dies: `myapp-worker.service: Failed with result 'oom-kill'.`", "myapp-worker.service"},
		{"Build aborted with “systemd[1]: buildkite-agent.scope: Failed with result 'oom-kill'.”", "buildkite-agent.scope"},
	} {
		tl := ParseString(c.title+"\n"+body, "p", Options{})
		if len(tl.RuntimeOOMs) != 1 {
			t.Errorf("%q: RuntimeOOMs %+v, want one", c.title, tl.RuntimeOOMs)
			continue
		}
		o := tl.RuntimeOOMs[0]
		if !strings.HasPrefix(o.Reporter, "systemd for "+c.unit+" (Failed with result 'oom-kill', its journal line quoted in the text)") || o.Source != "line 1" || o.Count != 1 || o.Scope != "" {
			t.Errorf("%q: %+v, want systemd for %s from line 1", c.title, o, c.unit)
		}
	}
	// Counter-cases: a question, a supposition, the result without a unit, another
	// result, a quote that does not end with the line, a sentence in the body (not the title).
	for _, title := range []string{
		"# What does \"ollama.service: Failed with result 'oom-kill'.\" mean",
		"# If \"ollama.service: Failed with result 'oom-kill'.\" shows, raise MemoryMax",
		"# ollama dies: \"Failed with result 'oom-kill'.\"",
		"# ollama dies: \"ollama.service: Failed with result 'exit-code'.\"",
		"# ollama dies: \"ollama.service: Failed with result 'oom-kill'. Restarting\"",
		"# ollama dies: \"my ollama: Failed with result 'oom-kill'.\"",
		"# ollama dies: \"nixos kernel[1]: ollama.service: Failed with result 'oom-kill'.\"",
	} {
		if tl := ParseString(title+"\n"+body, "p", Options{}); len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: RuntimeOOMs %+v, want none", title, tl.RuntimeOOMs)
		}
	}
	// A wrapped paste moves the title: the quote in a sentence of the body is read too.
	tl := ParseString("Left it idle; the journal then said \"ollama.service: Failed with result 'oom-kill'.\" and it stopped.\n", "p", Options{})
	if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Source != "line 1" {
		t.Errorf("quote in a sentence: %+v, want one kill from line 1", tl.RuntimeOOMs)
	}
	// The title over the journal line itself: one kill, not two.
	tl = ParseString("# ollama killed: \"ollama.service: Failed with result 'oom-kill'.\"\n\nJun 28 08:05:25 nixos systemd[1]: ollama.service: Failed with result 'oom-kill'.\n", "p", Options{})
	if n := len(tl.RuntimeOOMs); n != 1 || tl.RuntimeOOMs[0].Count != 1 {
		t.Errorf("title over its journal line: %+v, want the line's one kill", tl.RuntimeOOMs)
	}
}

// fix44a (corpus 3698): Kubernetes' reason OOMKilled as the participle in markdown's
// emphasis, and the exit code with more of the state in one parenthesis.
func TestStatedOOMKilledMarkupAndExitParen(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"Pod restarts\n\n`ollama-0` was being **OOMKilled** (exit 137, `reason: OOMKilled`) roughly **every 1.5 days** — a true host-RAM cgroup kill, not VRAM, not a liveness probe.\n", 1},
		{"Pod restarts\n\nOur worker pod was **OOMKilled** twice last night.\n", 1},
		{"Pod restarts\n\nThe api container got `OOMKilled` yesterday.\n", 1},
		{"Pod restarts\n\nIt showed OOMKilled (exit code 137; restarted 4 times) on the dashboard.\n", 1},
		// Counter-cases: a question, a condition, a negation, a general statement, a
		// question with the state in the parenthesis.
		{"Pod restarts\n\nWas it **OOMKilled**? Check `kubectl describe`.\n", 0},
		{"Pod restarts\n\nIf the container was **OOMKilled**, raise its limit.\n", 0},
		{"Pod restarts\n\nThe pod was not **OOMKilled**; it failed its liveness probe.\n", 0},
		{"Pod restarts\n\nA container that exceeds its limit is `OOMKilled` by the kernel.\n", 0},
		{"Pod restarts\n\nIs the pod **OOMKilled** (exit 137, `reason: OOMKilled`) or killed by its liveness probe?\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// fix44a (corpora 3691, 3695): an LLM server's memory lines in a text with nothing else read
// are named unread with what they prove: ollama's reading of the host's RAM, a GPU's memory,
// the ROCm runtime's GPU memory fault.
func TestLLMServerMemoryLinesUnread(t *testing.T) {
	for _, c := range []struct {
		text, why string
	}{
		// ollama's "updating system memory data" is read as the host's memory since h40c (h40c_test.go)
		{`Feb 21 01:41:19 paibo ollama[402476]: time=2025-02-21T01:41:19.649Z level=DEBUG source=gpu.go:441 msg="updating cuda memory data" gpu=GPU-17189970 name="NVIDIA A800-SXM4-80GB" overhead="0 B" before.total="79.3 GiB" before.free="78.9 GiB" now.total="79.3 GiB" now.free="78.9 GiB" now.used="420.8 MiB"`, whyLLMGPUMemory},
		{`jun 18 22:37:35 bruno-laptop ollama[146230]: llama_model_load_from_file_impl: using device ROCm0 (AMD Radeon Graphics) - 23860 MiB free`, whyLLMGPUMemory},
		{`Jun 18 22:16:41 ollama[116408]: Memory critical error by agent node-0 (Agent handle: 0x561adbeb8a80) on address 0x7f401b600000. Reason: Memory in use.`, whyHSAMemFault},
	} {
		tl := ParseString(c.text+"\n", "p", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != c.why || tl.Unparsed[0].FirstLine != 1 {
			t.Errorf("%q: unread %+v, want line 1 for %q", c.text, tl.Unparsed, c.why)
		}
		if len(tl.RuntimeOOMs) != 0 || statedRate(t, c.text+"\n", model.RateStatedOOM) != 0 {
			t.Errorf("%q: an OOM read from a GPU or program memory line", c.text)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: the messages named in a sentence, another program's similar words.
	for _, text := range []string{
		"What does \"Memory critical error by agent\" mean, and why updating system memory data?\n",
		"The docs list msg=\"updating system memory data\" among the debug messages.\n",
		"we are using device ROCm0 and it has plenty of memory free\n",
	} {
		for _, u := range ParseString(text, "p", Options{}).Unparsed {
			if u.Why == whyLLMHostMemory || u.Why == whyLLMGPUMemory || u.Why == whyHSAMemFault {
				t.Errorf("%q: named %+v", text, u)
			}
		}
	}
}
