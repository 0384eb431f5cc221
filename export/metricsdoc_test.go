package export

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

var updateMetricsDoc = flag.Bool("update-metrics-doc", false, "rewrite docs/metrics.md from the registry")

// metricsDoc is docs/metrics.md: every family serve can expose, from the definitions
// themselves (name, type, labels, HELP).
func metricsDoc() []byte {
	defs := append([]*metricDef(nil), allDescs...)
	sort.Slice(defs, func(i, j int) bool { return defs[i].name < defs[j].name })
	var b bytes.Buffer
	fmt.Fprintln(&b, "# headroom serve: metrics")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "Generated from serve's registry (export/metrics.go) by `go test ./export -run TestMetricsDoc -update-metrics-doc`;")
	fmt.Fprintln(&b, "the test fails when this page is stale. docs/serve.md says how serve samples and what needs root.")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "| Metric | Type | Labels | Meaning |")
	fmt.Fprintln(&b, "|---|---|---|---|")
	for _, d := range defs {
		typ := "gauge"
		if d.typ == counter {
			typ = "counter"
		}
		labels := strings.Join(d.labels, ", ")
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", d.name, typ, labels, strings.ReplaceAll(d.help, "|", `\|`))
	}
	return b.Bytes()
}

func TestMetricsDoc(t *testing.T) {
	want := metricsDoc()
	if *updateMetricsDoc {
		if err := os.WriteFile("../docs/metrics.md", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../docs/metrics.md")
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/metrics.md is stale (err %v): go test ./export -run TestMetricsDoc -update-metrics-doc", err)
	}
}
