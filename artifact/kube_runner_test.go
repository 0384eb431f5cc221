package artifact

import (
	"testing"

	"headroom/model"
)

// GitLab Runner's container error (corpus case 2042) and docker inspect's State: OOMKilled
// is a runtime OOM with the container's name and exit code; another reason is a terminated
// state, no OOM.
func TestRunnerContainerError(t *testing.T) {
	for _, text := range []string{
		"Pod termination cause:\nError in container build: exit code: 137, reason: 'OOMKilled'\n",
		"Once the job starts, the Java process fails:\nERROR: Job failed (system failure): Error in container build: exit code: 137, reason: 'OOMKilled'\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Container != "build" {
			t.Fatalf("%q: runtime OOMs %+v", text, tl.RuntimeOOMs)
		}
		s := terminatedIn(tl)
		if s == nil || s.ExitCode == nil || *s.ExitCode != 137 || s.Reason != "OOMKilled" || s.Container != "build" {
			t.Fatalf("%q: terminated state %+v", text, s)
		}
	}
	tl := ParseString("ERROR: Job failed (system failure): Error in container helper: exit code: 137, reason: 'Error'\n", "t", Options{})
	if len(tl.RuntimeOOMs) != 0 {
		t.Errorf("exit code 137 with reason Error read as an OOM: %+v", tl.RuntimeOOMs)
	}
	if s := terminatedIn(tl); s == nil || s.Signal == "" {
		t.Errorf("exit code 137 not read as a SIGKILL: %+v", s)
	}
}

func TestDockerStateOOMKilled(t *testing.T) {
	for _, text := range []string{
		"        \"State\": {\n            \"Status\": \"exited\",\n            \"Running\": false,\n            \"Paused\": false,\n            \"Restarting\": false,\n            \"OOMKilled\": true,\n            \"Dead\": false,\n            \"Pid\": 0,\n            \"ExitCode\": 137,\n",
		`{"Status":"exited","Running":false,"Paused":false,"Restarting":false,"OOMKilled":true,"Dead":false,"Pid":0,"ExitCode":137,"Error":""}` + "\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 1 {
			t.Fatalf("%q: runtime OOMs %+v", text, tl.RuntimeOOMs)
		}
		if s := terminatedIn(tl); s == nil || s.ExitCode == nil || *s.ExitCode != 137 {
			t.Fatalf("%q: terminated state %+v", text, s)
		}
	}
}

// Sentences, advice, a question, exit code 137 alone and a false flag are not read as an OOM.
func TestRunnerContainerErrorCounterCases(t *testing.T) {
	for _, text := range []string{
		"We keep getting Error in container build: exit code: 137, reason: 'OOMKilled' on big jobs\n",
		"If you see Error in container build: exit code: 137, reason: 'OOMKilled', raise the memory limit.\n",
		"What does reason: 'OOMKilled' mean in Error in container build?\n",
		"ERROR: Job failed: command terminated with exit code 137\n",
		"ERROR: Job failed: exit code 137\n",
		"            \"OOMKilled\": false,\n            \"Dead\": false,\n            \"Pid\": 0,\n            \"ExitCode\": 137,\n",
		"Check whether \"OOMKilled\": true appears in docker inspect.\n",
		"Set the memory limit higher so that \"OOMKilled\": true does not show.\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an OOM: %+v", text, tl.RuntimeOOMs)
		}
	}
}

// terminatedIn is the last terminated state read from tl.
func terminatedIn(tl *model.Timeline) *KubeTerminated {
	var got *KubeTerminated
	for _, a := range tl.Artifacts {
		if a.Kind == KindKubeTerminated {
			s := a.Data.(KubeTerminated)
			got = &s
		}
	}
	return got
}

// A container's memory limit stated with Kubernetes' quantity suffix (corpus 2043: "helper
// memory requests and limits are set to 256Mi"): listed as unread, not exit 3.
// Counter-cases: the suffix beside no memory word (a distance in miles, a disk of 20Gi), and
// the command that sets it.
func TestKubeQuantityStatedUnread(t *testing.T) {
	if w := unparsedWhy("The helper container is killed when its memory requests and limits are set to 256Mi.\n"); !anyHas(w, whyStatedFigure) {
		t.Errorf("stated: unparsed %q", w)
	}
	for _, s := range []string{
		"The data center is 12 mi from the office.\n",
		"We gave the volume 20Gi and the job still failed.\n",
		"kubectl set resources deployment web --limits=memory=256Mi\n",
	} {
		if w := unparsedWhy(s); anyHas(w, whyStatedFigure) {
			t.Errorf("%q: unparsed %q", s, w)
		}
	}
}

// Nomad's Terminated event and ECS's container reason: a runtime OOM each. Counter-cases: the
// same words in a sentence or advice, another event type's row, another stopped reason.
func TestNomadECSOOMReason(t *testing.T) {
	for _, text := range []string{
		"Recent Events:\nTime                       Type        Description\n2024-03-01T10:00:00Z       Terminated  Exit Code: 137, Exit Message: \"OOM Killed\"\n",
		"\"DisplayMessage\": \"Exit Code: 137, Exit Message: \\\"OOM Killed\\\"\",\n",
		"\"reason\": \"OutOfMemoryError: Container killed due to memory usage\",\n",
		"Stopped reason: OutOfMemoryError: Container killed due to memory usage\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 1 {
			t.Errorf("%q: runtime OOMs %+v", text, tl.RuntimeOOMs)
		}
	}
	for _, text := range []string{
		"Nomad shows Terminated  Exit Code: 137, Exit Message: \"OOM Killed\" when you exceed memory_max\n",
		"2024-03-01T10:00:00Z       Terminated  Exit Code: 137, Exit Message: \"Error\"\n",
		"If the reason is OutOfMemoryError: Container killed due to memory usage, raise the task's memory.\n",
		"\"reason\": \"Essential container in task exited\",\n",
		"**Error:** Container killed due to memory usage\n",
	} {
		tl := ParseString(text, "t", Options{})
		if len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as an OOM: %+v", text, tl.RuntimeOOMs)
		}
	}
}
