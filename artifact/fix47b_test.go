package artifact

import (
	"testing"

	"headroom/model"
)

// fix47b (corpus 3966): a docker stats row pasted without its header, in the custom table's
// columns (NAME, CPU %, MEM USAGE / LIMIT) or the default row's, read as the header's rows
// are. A sentence with the same figures, a kubectl top row, free's Mem: line and a row whose
// usage is not in docker's units are not read.
func TestFix47bDockerStatsBareRow(t *testing.T) {
	text := "Found by starting the stack.\n\n```\nagenticos_prefect_runner   1040.27%   6.02GiB / 7.75GiB\n```\n\nThe kernel resolved it.\n"
	arts := artifactsOf(ParseString(text, "p", Options{}), KindContainerMem)
	if len(arts) != 1 {
		t.Fatalf("container tables %d, want 1", len(arts))
	}
	tb, ok := arts[0].Data.(ContainerMemTable)
	if !ok || tb.Tool != "docker stats" || len(tb.Rows) != 1 {
		t.Fatalf("table %+v", arts[0].Data)
	}
	r := tb.Rows[0]
	if r.Name != "agenticos_prefect_runner" || r.Printed == nil || r.Printed.Usage != 6.02 || r.Printed.UsageUnit != "GiB" || r.Printed.Limit != 7.75 || r.LimitBytes != int64(7.75*(1<<30)) || r.Percent != nil {
		t.Errorf("row %+v printed %+v", r, r.Printed)
	}
	if arts[0].FirstLine != 4 || arts[0].LastLine != 4 {
		t.Errorf("lines %d-%d, want 4", arts[0].FirstLine, arts[0].LastLine)
	}
	// The default row without its header: id, name, CPU %, usage / limit, MEM %, the rest.
	full := "3f2a1b9c8d7e   web   0.50%   1.95GiB / 2GiB   97.51%   1.2kB / 0B   0B / 0B   12\n"
	arts = artifactsOf(ParseString(full, "p", Options{}), KindContainerMem)
	if len(arts) != 1 || arts[0].Data.(ContainerMemTable).Rows[0].Name != "web" || arts[0].Data.(ContainerMemTable).Rows[0].Percent == nil {
		t.Errorf("default row: %+v", arts)
	}
	for _, c := range []string{
		"The runner used 6.02GiB / 7.75GiB at 1040.27% CPU.\n",
		"Docker stats showed the runner at 6.02GiB / 7.75GiB.\n",
		"kube-system   multus-5hq4j   0m   10Mi\n",
		"Mem:   7.75Gi   6.02Gi   1.1Gi\n",
		"runner   12%   6.02GB / 7.75GB\n",
		"runner 12% 6.02GiB / 7.75GiB\n",
	} {
		if arts := artifactsOf(ParseString(c, "p", Options{}), KindContainerMem); len(arts) != 0 {
			t.Errorf("%q: read as docker stats rows %+v", c, arts[0].Data)
		}
	}
}

// fix47b (corpus 3966): an OOM kill as a noun whose victim follows in a past relative clause
// ("a global OOM kill that took the API container's worker") is stated. The present (a
// reference page's "an OOM kill that kills the largest process"), a condition, a question
// and a negation are not.
func TestFix47bStatedOOMKillTook(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"The kernel resolved it with a global OOM kill that took the API container's worker (`OOMKilled: true`).\n", 1},
		{"Last night an OOM kill which killed the postgres backend stopped the site.\n", 1},
		{"An OOM kill that kills the largest process is how Linux frees memory.\n", 0},
		{"If there is an OOM kill that took the worker, restart the stack.\n", 0},
		{"Was there an OOM kill that took the worker?\n", 0},
		{"There was no OOM kill that took the worker; the liveness probe failed.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

// fix47b (corpus 3976): an issue form's "Observed behavior" heading with its Markdown lost
// (a forum's rendered post): the bare words alone on a line, a bullet list right under it.
// Its items state what happened as the "###" heading's do ("Eventually the history pod is
// OOM killed"). The same item under another bare line, with no heading, or with a condition
// is not read.
func TestFix47bObservedBareHeading(t *testing.T) {
	list := func(head, item string) string {
		return head + "\n\t•\tHistory pod memory usage continuously accumulates over time\n\t•\t" + item + "\n"
	}
	for _, c := range []struct {
		text string
		want float64
	}{
		{list("Observed behavior", "Eventually the history pod is OOM killed"), 1},
		{list("Actual behaviour:", "Eventually the history pod is OOM killed"), 1},
		{list("Expected behavior", "Eventually the history pod is OOM killed"), 0},
		{list("Notes", "Eventually the history pod is OOM killed"), 0},
		{list("Observed behavior", "If the limit is too low the history pod is OOM killed"), 0},
		{"Observed behavior\nEventually the history pod is OOM killed, as the docs say.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}
