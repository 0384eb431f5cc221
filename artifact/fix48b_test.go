package artifact

import (
	"testing"

	"headroom/model"
)

// fix48b (corpus 4022, 4023, 4027, 4036): OOM as a verb told three more ways, read by
// reStatedOOMVerb (statedoomverb.go) with every guard the verb loop in stated.go has.
func TestFix48bStatedOOMVerbForms(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		// "OOMKills" intransitive (corpus 4022)
		{"- netbox is currently stuck mid-rollout: the new pod OOMKills immediately under the 512Mi limit set by #12803's blanket resource backfill.\n", 1},
		// the state a thing goes into or is in (corpus 4027, 4036)
		{"With the K8s setup, we need to set memory restrictions, your defaults give the web container 1GB of memory\nWith this, the process have to be torn down by the memory manager as the container goes OOM, due to the processes not hitting the 100 requests before restarting. This causes the HTTP 500 errors.\n", 1},
		{"Roundabout every two weeks, we have to restart the semaphore service, because the server is oom.\n", 1},
		// the bare verb after a plural subject of processes, an aside naming which (corpus 4023)
		{"After a few hours/days, the web docker is filling up the RAM and random processes OOM (usually tasks because celery creates and deletes workers all the time)\n", 1},
		// counter-cases: a plural noun, a question, a condition, advice, a noun modified
		{"We saw 8 OOMKills last week in the dashboard export.\n", 0},
		{"Is the server OOM?\n", 0},
		{"If the limit is too low the container goes OOM after a while.\n", 0},
		{"To avoid the pod OOMKills under load, raise the limit.\n", 0},
		{"The default is OOM killer enabled for all containers.\n", 0},
		{"Our pods OOM score is set to -998 by the kubelet.\n", 0},
		{"When memory runs out, random processes OOM (usually the biggest).\n", 0},
		{"The pod never goes OOM.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", c.text, got, c.want)
		}
	}
}

// The aside is dropped only for the subject form's judgement; the sentence kept for the
// finding is the author's own.
func TestFix48bOOMVerbSentence(t *testing.T) {
	gs, gm := oomVerbSentence("the RAM fills and random processes OOM (usually tasks) daily", "random processes OOM (")
	if gm != "it OOM (" || gs != "the RAM fills and it OOM () daily" {
		t.Errorf("got %q, %q", gs, gm)
	}
	if gs, gm := oomVerbSentence("the container goes OOM, due to x", "goes OOM,"); gs != "the container goes OOM, due to x" || gm != "goes OOM," {
		t.Errorf("state form changed: %q %q", gs, gm)
	}
}
