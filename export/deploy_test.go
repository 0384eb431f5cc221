package export

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"headroom/diagnose"
	"headroom/docs"
)

const (
	alertsPath        = "../deploy/prometheus/alerts.yml"
	alertTestsDir     = "../deploy/prometheus/tests"
	promRulePath      = "../deploy/kubernetes/prometheusrule.yaml"
	dashboardPath     = "../deploy/grafana/headroom.json"
	generatedBegin    = "  # BEGIN generated: headroom-findings\n"
	generatedEnd      = "  # END generated: headroom-findings\n"
	runbookURLPattern = "http://{{ $labels.instance }}/docs/rules/%s.md"
)

// alertName is the alert of a rule id: "alloc-fail-reserve" → HeadroomFindingAllocFailReserve.
func alertName(id string) string {
	var b strings.Builder
	b.WriteString("HeadroomFinding")
	for _, part := range strings.Split(id, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// yamlString quotes s as a YAML double-quoted scalar (a JSON string is one).
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// findingsGroup is the generated part of alerts.yml: one alert per registered rule for its
// critical findings, a catch-all for rules added after the file was generated (a newer
// headroom on some hosts), and one alert for warning findings that last.
func findingsGroup() string {
	var b strings.Builder
	b.WriteString(generatedBegin)
	b.WriteString("  - name: headroom-findings\n    rules:\n")
	var ids []string
	for _, r := range diagnose.Rules() {
		ids = append(ids, r.ID)
		fmt.Fprintf(&b, "      - alert: %s\n", alertName(r.ID))
		fmt.Fprintf(&b, "        expr: headroom_finding{id=%q, severity=\"critical\"} == 1\n", r.ID)
		b.WriteString("        for: 1m\n")
		b.WriteString("        annotations:\n")
		fmt.Fprintf(&b, "          summary: %s\n", yamlString("{{ $labels.instance }}: "+r.Title))
		fmt.Fprintf(&b, "          description: %s\n", yamlString("headroom's rule "+r.ID+" ("+string(r.Family)+") has a critical finding in its window on {{ $labels.instance }}. The evidence and the changes that fix it: `headroom doctor` on the host; the live status: http://{{ $labels.instance }}/."))
		fmt.Fprintf(&b, "          runbook_url: %s\n", yamlString(fmt.Sprintf(runbookURLPattern, r.ID)))
	}
	b.WriteString("      - alert: HeadroomFindingOther\n")
	fmt.Fprintf(&b, "        expr: headroom_finding{severity=\"critical\", id!~%q} == 1\n", strings.Join(ids, "|"))
	b.WriteString("        for: 1m\n")
	b.WriteString("        annotations:\n")
	fmt.Fprintf(&b, "          summary: %s\n", yamlString("{{ $labels.instance }}: critical finding {{ $labels.id }}"))
	fmt.Fprintf(&b, "          description: %s\n", yamlString("A rule this file does not know (a newer headroom) has a critical finding: regenerate the rules from that version."))
	fmt.Fprintf(&b, "          runbook_url: %s\n", yamlString(fmt.Sprintf(runbookURLPattern, "{{ $labels.id }}")))
	b.WriteString("      - alert: HeadroomWarningFinding\n")
	b.WriteString("        expr: headroom_finding{severity=\"warning\"} == 1\n")
	b.WriteString("        for: 30m\n")
	b.WriteString("        annotations:\n")
	fmt.Fprintf(&b, "          summary: %s\n", yamlString("{{ $labels.instance }}: warning {{ $labels.id }} for 30 minutes"))
	fmt.Fprintf(&b, "          description: %s\n", yamlString("headroom's rule {{ $labels.id }} has reported a warning for 30 minutes: suboptimal and likely to hurt under load. `headroom doctor` on the host shows the evidence and the fix."))
	fmt.Fprintf(&b, "          runbook_url: %s\n", yamlString(fmt.Sprintf(runbookURLPattern, "{{ $labels.id }}")))
	b.WriteString(generatedEnd)
	return b.String()
}

// prometheusRule wraps the groups of alerts.yml in a PrometheusRule object.
func prometheusRule(alerts string) string {
	var b strings.Builder
	b.WriteString("# Generated from deploy/prometheus/alerts.yml by go test ./export -run TestAlertRules -update.\n")
	b.WriteString("# The Prometheus Operator selects it by its labels; adjust them to your ruleSelector.\n")
	b.WriteString("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: headroom\n  namespace: monitoring\n  labels:\n    app.kubernetes.io/name: headroom\nspec:\n")
	inGroups := false
	for _, line := range strings.SplitAfter(alerts, "\n") {
		if strings.HasPrefix(line, "groups:") {
			inGroups = true
		}
		if !inGroups || line == "" {
			continue
		}
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("  " + line)
	}
	return b.String()
}

// The generated part of alerts.yml matches the rule registry, and the PrometheusRule
// matches alerts.yml. -update rewrites both.
func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile(alertsPath)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	i, j := strings.Index(s, generatedBegin), strings.Index(s, generatedEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the generated markers", alertsPath)
	}
	want := s[:i] + findingsGroup() + s[j+len(generatedEnd):]
	if *update {
		if err := os.WriteFile(alertsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(promRulePath, []byte(prometheusRule(want)), 0o644); err != nil {
			t.Fatal(err)
		}
		s = want
	}
	if s != want {
		t.Errorf("%s: the findings group is out of date with the rule registry; run go test ./export -run TestAlertRules -update", alertsPath)
	}
	pr, err := os.ReadFile(promRulePath)
	if err != nil {
		t.Fatal(err)
	}
	if string(pr) != prometheusRule(s) {
		t.Errorf("%s is out of date with alerts.yml; run go test ./export -run TestAlertRules -update", promRulePath)
	}

	// Every alert has a severity (its own label, or the finding's), a summary and a
	// runbook that exists.
	pages, err := docs.RuleIDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range parseAlerts(t, s) {
		if a.fields["summary"] == "" {
			t.Errorf("%s: no summary", a.name)
		}
		rb := a.fields["runbook_url"]
		m := regexp.MustCompile(`/docs/rules/([a-z0-9-]+|\{\{ \$labels\.id \}\})\.md"$`).FindStringSubmatch(rb)
		if m == nil {
			t.Errorf("%s: runbook_url %q is not a rule page", a.name, rb)
			continue
		}
		if m[1] != "{{ $labels.id }}" && !slices.Contains(pages, m[1]) {
			t.Errorf("%s: runbook docs/rules/%s.md does not exist", a.name, m[1])
		}
		if a.fields["severity"] == "" && !strings.Contains(a.expr, "headroom_finding") {
			t.Errorf("%s: no severity label", a.name)
		}
	}
}

type alertRule struct {
	name, expr string
	fields     map[string]string
}

// parseAlerts reads the alerts of a rule file written in this repository's layout (one
// "key: value" per line, expr as a one-line value or a "|" block). It is not a YAML parser;
// promtool checks the YAML.
func parseAlerts(t *testing.T, s string) []alertRule {
	var out []alertRule
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if name, ok := strings.CutPrefix(l, "- alert: "); ok {
			out = append(out, alertRule{name: name, fields: map[string]string{}})
			continue
		}
		if len(out) == 0 {
			continue
		}
		a := &out[len(out)-1]
		key, val, ok := strings.Cut(l, ": ")
		if !ok {
			if l == "expr: |" {
				key, val, ok = "expr", "|", true
			} else {
				continue
			}
		}
		if key == "expr" {
			if val == "|" {
				var e []string
				for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "            ") {
					i++
					e = append(e, strings.TrimSpace(lines[i]))
				}
				val = strings.Join(e, " ")
			}
			a.expr = val
			continue
		}
		a.fields[key] = val
	}
	if len(out) == 0 {
		t.Fatal("no alerts parsed")
	}
	return out
}

func promtool(t *testing.T) string {
	p, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (Debian package prometheus): cannot check the rules")
	}
	return p
}

func TestPromtoolCheckRules(t *testing.T) {
	out, err := exec.Command(promtool(t), "check", "rules", alertsPath).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// promtool test rules fires each alert on synthetic series and keeps it silent on healthy
// ones (deploy/prometheus/tests/*.yml). Every alert of alerts.yml must be exercised by name
// with at least one firing case.
func TestPromtoolTestRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(alertTestsDir, "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule tests in %s: %v", alertTestsDir, err)
	}
	out, err := exec.Command(promtool(t), append([]string{"test", "rules"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
	raw, _ := os.ReadFile(alertsPath)
	var tests strings.Builder
	for _, f := range files {
		b, _ := os.ReadFile(f)
		tests.Write(b)
	}
	fired := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+alertname: (\S+)\n\s+exp_alerts:\n\s+- exp_labels:`).FindAllStringSubmatch(tests.String(), -1) {
		fired[m[1]] = true
	}
	var missing []string
	for _, a := range parseAlerts(t, string(raw)) {
		if !strings.HasPrefix(a.name, "HeadroomFinding") || a.name == "HeadroomFindingOther" {
			if !fired[a.name] {
				missing = append(missing, a.name)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("alerts without a firing test case: %v", missing)
	}
}

var metricRef = regexp.MustCompile(`\bheadroom_[a-z0-9_]+`)

// The alert rules, their tests and the dashboard only use metrics the collector exposes.
func TestDeployMetricNames(t *testing.T) {
	known := MetricNames()
	files := []string{alertsPath, dashboardPath}
	tests, _ := filepath.Glob(filepath.Join(alertTestsDir, "*.yml"))
	files = append(files, tests...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, name := range metricRef.FindAllString(string(b), -1) {
			if !slices.Contains(known, name) && !seen[name] {
				seen[name] = true
				t.Errorf("%s uses %s, which the collector does not expose", f, name)
			}
		}
	}
}

// The dashboard is valid JSON, every panel has a query, and its queries cover the metric
// families the issue asks for.
func TestDashboard(t *testing.T) {
	b, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		UID    string `json:"uid"`
		Panels []struct {
			Title   string `json:"title"`
			Type    string `json:"type"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name string `json:"name"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", dashboardPath, err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("dashboard lacks title, uid or panels")
	}
	used := map[string]bool{}
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			if !strings.Contains(tg.Expr, `instance=~"$instance"`) {
				t.Errorf("panel %q: query %q is not filtered by the instance variable", p.Title, tg.Expr)
			}
			for _, n := range metricRef.FindAllString(tg.Expr, -1) {
				used[n] = true
			}
		}
	}
	var unused []string
	for _, n := range MetricNames() {
		switch n {
		case "headroom_zone_free_blocks_by_migratetype", "headroom_diagnosis_duration_seconds", "headroom_diagnosis_window_samples",
			"headroom_kernel_log_lost_records_total", "headroom_tcp_allocated_sockets", "headroom_kcompactd_wakeups_total",
			"headroom_zone_managed_pages", "headroom_page_size_bytes", "headroom_kernel_info", "headroom_network_view_info",
			"headroom_build_info":
			continue // exposed for ad-hoc queries; not worth a panel
		}
		if !used[n] {
			unused = append(unused, n)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("metrics without a dashboard panel: %v", unused)
	}
}
