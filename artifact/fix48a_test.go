package artifact

import (
	"testing"

	"headroom/model"
)

// fix48a: three forms of an OOM kill told in words, read by the stated readers with their
// guards: the killer's passive "reaped by OOMKiller" with the author's own sighting after it
// (corpus 4004), an orchestrator's kill by the memory size exceeded (corpus 4003), and the
// orchestrator's OOMKilled told as its act on a named pod (corpus 4002).
func TestFix48aStatedOOMKillForms(t *testing.T) {
	for _, text := range []string{
		// corpus 4004 (mozilla/redash#364)
		"I've added `--max-memory-per-child` to 1/4 of the available system memory. I think this will assist with workers being reaped by OOMKiller and other memory issues we have seen.\n",
		"Our celery workers were reaped by the OOM killer twice last night.\n",
		// corpus 4003 (metabase#4149)
		"I started with 2GB (as this was the physical memory of the elasticbeanstalk deployment's provisioned hosts), but we just had a container automatically killed for exceeding that.\n",
		"The task was killed for exceeding 512 MiB of memory.\n",
		// corpus 4002 (openmetadata-helm-charts#177)
		"It probably leaves no memory space for Container Processes and Kubernetes issues OOMKilled operation on elasticsearch pod.\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 1 {
			t.Errorf("%q: stated OOM %v, want 1", text, got)
		}
	}
	// Counter-cases: a hope without a sighting, a question, a condition, a negation, a
	// general statement, "that" with no memory size before it, a quantified pod.
	for _, text := range []string{
		"I think this will assist with workers being reaped by OOMKiller.\n",
		"Were the workers reaped by the OOM killer?\n",
		"If workers get reaped by the OOM killer, lower the concurrency.\n",
		"Is there a recommended memory setting so a container is not killed for exceeding 2GB?\n",
		"If the container gets killed for exceeding 2GB, raise the memory limit.\n",
		"We set the memory reservation to the defaults, and the job was killed for exceeding that deadline.\n",
		"Kubernetes issues OOMKilled on any pod that exceeds its memory limit.\n",
		"Does Kubernetes issue OOMKilled operation on the elasticsearch pod?\n",
	} {
		if got := statedRate(t, text, model.RateStatedOOM); got != 0 {
			t.Errorf("%q: stated OOM %v, want none", text, got)
		}
	}
}
