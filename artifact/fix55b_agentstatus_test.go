package artifact

import "testing"

const fix55bAgentStatus = "```\n===============\nAgent (v7.37.1)\n===============\n\n" +
	"  Status date: 2022-06-29 15:40:32.344 UTC (1656517232344)\n  Pid: 16001\n\n" +
	"  Host Info\n  =========\n    bootTime: 2022-04-26 08:22:45 UTC (1650961365000)\n" +
	"    kernelArch: x86_64\n    kernelVersion: 4.19.0-20-amd64\n    os: linux\n    procs: 165\n    uptime: 1519h36m25s\n\n" +
	"[...]\n\n=========\nCollector\n=========\n\n  Running Checks\n  ==============\n\n" +
	"    oom_kill\n    --------\n      Instance ID: oom_kill [OK]\n" +
	"      Configuration Source: file:/etc/datadog-agent/conf.d/oom_kill.d/conf.yaml\n" +
	"      Total Runs: 5,686\n      Metric Samples: Last Run: 0, Total: 0\n      Events: Last Run: 0, Total: 0\n" +
	"      Service Checks: Last Run: 0, Total: 0\n```\n"

// The Datadog agent's status page is read: its host facts and its checks' counts, and no
// check's name becomes an OOM kill.
func TestFix55bAgentStatus(t *testing.T) {
	tl := ParseString(fix55bAgentStatus, "p", Options{})
	if tl.Host.Kernel != "4.19.0-20-amd64" || tl.Host.Arch != "x86_64" {
		t.Errorf("host: %+v", tl.Host)
	}
	var st *AgentStatus
	for _, a := range tl.Artifacts {
		if a.Kind == KindAgentStatus {
			s := a.Data.(AgentStatus)
			st = &s
		}
	}
	if st == nil {
		t.Fatalf("no agent_status artifact: %+v", tl.Artifacts)
	}
	if st.Version != "7.37.1" || st.Host["uptime"] != "1519h36m25s" || len(st.Checks) != 1 {
		t.Fatalf("status: %+v", st)
	}
	if c := st.Checks[0]; c.Name != "oom_kill" || c.TotalRuns != 5686 || c.Events != 0 || c.MetricSamples != 0 {
		t.Errorf("check: %+v", c)
	}
	if len(tl.Events) > 0 || len(tl.RuntimeOOMs) > 0 || len(tl.Unparsed) > 0 {
		t.Errorf("events %+v, runtime OOMs %+v, unparsed %+v", tl.Events, tl.RuntimeOOMs, tl.Unparsed)
	}
	// Counter-cases: prose naming the agent, and a banner with no page under it.
	for _, text := range []string{
		"The Agent (v7.37.1) reports no OOM events from the oom_kill check.\n",
		"Agent (v7.37.1)\nwas installed yesterday\n",
	} {
		for _, a := range ParseString(text, "p", Options{}).Artifacts {
			if a.Kind == KindAgentStatus {
				t.Errorf("%q read as a status page", text)
			}
		}
	}
}
