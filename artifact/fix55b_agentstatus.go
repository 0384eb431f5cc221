package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// The Datadog agent's status page (fix55b), `datadog-agent status` or `agent status` as an
// issue template asks for it (datadog-agent cmd/agent/subcommands/status; the text templates
// of comp/core/status and pkg/status/render): a banner "Agent (v7.37.1)" between two lines of
// "=", then sections whose titles are underlined with "=" or "-" and whose lines are indented
// "key: value" pairs:
//
//	  Host Info
//	  =========
//	    bootTime: 2022-04-26 08:22:45 UTC (1650961365000)
//	    kernelArch: x86_64
//	    kernelVersion: 4.19.0-20-amd64
//	    procs: 165
//	    uptime: 1519h36m25s
//	...
//	    oom_kill
//	    --------
//	      Instance ID: oom_kill [OK]
//	      Total Runs: 5,686
//	      Metric Samples: Last Run: 0, Total: 0
//	      Events: Last Run: 0, Total: 0
//
// Host Info is gopsutil's host.Info: kernelVersion is uname's release, kernelArch its machine,
// uptime and bootTime the host's. The collector's table counts what each check sent, not what
// it measured: a check's name ("oom_kill", "memory", "network") is the agent's integration,
// and its counts are runs, metric samples, events and service checks. The oom_kill check
// (system-probe's eBPF kprobe on oom_kill_process) sends an event per OOM kill it saw; zero
// events say none reached the agent, not that the probe worked, so no rule reads it as the
// host's OOM count. The page is read so the text is not "nothing readable", with the host's
// facts and the checks' counts kept as printed.

// AgentStatus is what a Datadog agent status page holds of its host and checks.
type AgentStatus struct {
	Agent   string            `json:"agent"`   // "datadog-agent"
	Version string            `json:"version"` // "7.37.1"
	Host    map[string]string `json:"host,omitempty"`
	Checks  []AgentCheck      `json:"checks,omitempty"`
	NotRead string            `json:"not_read"`
}

// AgentCheck is one row of the collector's Running Checks: the counts of what it sent.
type AgentCheck struct {
	Name          string `json:"name"`
	Instance      string `json:"instance,omitempty"` // "oom_kill [OK]"
	TotalRuns     int64  `json:"total_runs"`
	MetricSamples int64  `json:"metric_samples_total"`
	Events        int64  `json:"events_total"`
	ServiceChecks int64  `json:"service_checks_total"`
	Error         string `json:"error,omitempty"`
}

var (
	reAgentStatusBanner = lazyre.New(`^\s*Agent \(v(\d+\.\d+\.\d+[^)\s]*)\)\s*$`)
	reAgentStatusTotal  = lazyre.New(`Total:\s*([\d,]+)`)
)

// agentStatusHostKeys are Host Info's keys kept (gopsutil host.InfoStat's JSON names).
var agentStatusHostKeys = []string{"kernelVersion", "kernelArch", "uptime", "bootTime", "procs", "os", "platform", "platformVersion", "virtualizationSystem", "virtualizationRole"}

const agentStatusNotRead = "the agent's own status: each check's counts are what it sent (runs, metric samples, events, service checks), not the values it measured; a check's name is the integration's, and the oom_kill check's zero events say no OOM-kill event reached the agent, not that its eBPF probe worked, so no rule reads them as the host's counters"

// isAgentStatusBanner: the banner's line "Agent (vX.Y.Z)".
func isAgentStatusBanner(_, t string) bool {
	return strings.HasPrefix(strings.TrimSpace(t), "Agent (v") && reAgentStatusBanner.MatchString(t)
}

// underline: a line of one repeated '=' or '-' (a section's underline).
func underline(t string) bool {
	t = strings.TrimSpace(t)
	return len(t) >= 3 && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}

// tryAgentStatus reads the status page from its banner to the end of its block: blank,
// indented and underline lines, section titles (a line whose next line underlines it) and
// the reporter's "[...]" elision.
func (d *doc) tryAgentStatus(i int) int {
	m := reAgentStatusBanner.FindStringSubmatch(d.ls[i].Text)
	if m == nil || i+1 >= len(d.ls) || !underline(d.ls[i+1].Text) || i > 0 && !underline(d.ls[i-1].Text) {
		return 0
	}
	st := AgentStatus{Agent: "datadog-agent", Version: m[1], Host: map[string]string{}, NotRead: agentStatusNotRead}
	k := i + 2
	var cur *AgentCheck
	hostLine := map[string]int{}
	for ; k < len(d.ls); k++ {
		raw := d.ls[k].Text
		t := strings.TrimSpace(raw)
		switch {
		case t == "" || underline(t) || t == "[...]" || t == "...":
			continue
		case raw[0] != ' ' && raw[0] != '\t':
			// An unindented line belongs to the page only as a title ("Collector") that an
			// underline follows.
			if k+1 < len(d.ls) && underline(d.ls[k+1].Text) {
				continue
			}
		}
		if raw[0] != ' ' && raw[0] != '\t' {
			break
		}
		if k+1 < len(d.ls) && underline(d.ls[k+1].Text) && !strings.Contains(t, ":") {
			// A check's name, "-" underlined, in the collector's table.
			if strings.HasPrefix(strings.TrimSpace(d.ls[k+1].Text), "-") {
				st.Checks = append(st.Checks, AgentCheck{Name: t})
				cur = &st.Checks[len(st.Checks)-1]
			} else {
				cur = nil
			}
			continue
		}
		key, val, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if cur == nil {
			for _, hk := range agentStatusHostKeys {
				if key == hk && val != "" {
					st.Host[hk] = val
					hostLine[hk] = k
				}
			}
			continue
		}
		total := int64(-1)
		if tm := reAgentStatusTotal.FindStringSubmatch(val); tm != nil {
			total, _ = strconv.ParseInt(strings.ReplaceAll(tm[1], ",", ""), 10, 64)
		}
		switch key {
		case "Instance ID":
			cur.Instance = val
		case "Total Runs":
			cur.TotalRuns, _ = strconv.ParseInt(strings.ReplaceAll(val, ",", ""), 10, 64)
		case "Metric Samples":
			cur.MetricSamples = total
		case "Events":
			cur.Events = total
		case "Service Checks":
			cur.ServiceChecks = total
		case "Error":
			cur.Error = val
		}
	}
	if len(st.Host) == 0 && len(st.Checks) == 0 {
		return 0
	}
	if os := st.Host["os"]; os == "" || os == "linux" {
		// gopsutil's kernelVersion is uname's release and kernelArch its machine, as uname -a
		// prints them; on Windows and macOS the agent prints their own (os names them).
		if k, ok := hostLine["kernelVersion"]; ok {
			d.host.setKernel(st.Host["kernelVersion"], 5, &d.ls[k], d.ls[k].Text)
		}
		if k, ok := hostLine["kernelArch"]; ok && kernel.ArchFamily(st.Host["kernelArch"]) != "" {
			d.host.setArch(st.Host["kernelArch"], 5, &d.ls[k])
		}
	}
	d.addArtifact(KindAgentStatus, d.ls[i].No, d.ls[k-1].No, st)
	return k - i
}
