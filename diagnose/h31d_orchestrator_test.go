package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
)

// h31d (round 31, blind, a FORM): service managers' and orchestrators' verdicts on a
// process's memory, in the forms users paste them: plain, CRLF, quoted mail, a markdown
// fence and flattened onto one line. Each reaches oom-kill once per kill, with its reporter
// and figures; a SIGKILL without a reason, OOMKilled false and oom_kill 0 stay no kill.

const (
	h31dPodID = "4a7b3c9e2f1d8a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b"

	h31dSystemctl = "● myapp.service - My App\n" +
		"     Loaded: loaded (/etc/systemd/system/myapp.service; enabled; vendor preset: enabled)\n" +
		"     Active: failed (Result: oom-kill) since Mon 2024-03-04 10:12:01 UTC; 5min ago\n" +
		"   Main PID: 1234 (code=killed, signal=KILL)\n" +
		"     Memory: 1.9G (high: 1.8G max: 2.0G peak: 2.0G)\n" +
		"        CPU: 1min 3.201s\n" +
		"\n" +
		"Mar 04 10:12:01 host systemd[1]: myapp.service: A process of this unit has been killed by the OOM killer.\n" +
		"Mar 04 10:12:01 host systemd[1]: myapp.service: Main process exited, code=killed, status=9/KILL\n" +
		"Mar 04 10:12:01 host systemd[1]: myapp.service: Failed with result 'oom-kill'.\n"
)

// h31dForms are the paste forms of a snippet: as printed, CRLF, quoted mail, fenced, and
// (when flat) its lines joined with spaces.
func h31dForms(text string, flat bool) map[string]string {
	f := map[string]string{
		"plain": text,
		"crlf":  strings.ReplaceAll(text, "\n", "\r\n"),
		"quote": "> " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n> ") + "\n",
		"fence": "Here is what I see:\n\n```\n" + text + "```\n",
	}
	if flat {
		f["flat"] = strings.Join(strings.Fields(text), " ") + "\n"
	}
	return f
}

func TestH31dOrchestratorOOMVerdicts(t *testing.T) {
	for _, c := range []struct {
		name, text string
		flat       bool
		figures    []string
	}{
		{"systemctl status with its journal tail", h31dSystemctl, true,
			[]string{"myapp.service", "max: 2.0G peak: 2.0G"}},
		{"journalctl -o cat", "myapp.service: A process of this unit has been killed by the OOM killer.\nmyapp.service: Main process exited, code=killed, status=9/KILL\nmyapp.service: Failed with result 'oom-kill'.\n", false,
			[]string{"systemd for myapp.service"}},
		{"journalctl -o json", `{"__CURSOR":"s=abc;i=1","__REALTIME_TIMESTAMP":"1709547121123456","_BOOT_ID":"b1","_TRANSPORT":"journal","PRIORITY":"4","SYSLOG_IDENTIFIER":"systemd","_PID":"1","_HOSTNAME":"host","UNIT":"myapp.service","MESSAGE":"myapp.service: A process of this unit has been killed by the OOM killer."}` + "\n", false,
			[]string{"systemd for myapp.service"}},
		{"kubectl get pod -o yaml", "status:\n  containerStatuses:\n  - name: web\n    lastState:\n      terminated:\n        containerID: containerd://abc\n        exitCode: 137\n        finishedAt: \"2024-03-04T10:12:58Z\"\n        reason: OOMKilled\n        startedAt: \"2024-03-04T09:00:00Z\"\n    restartCount: 5\n", false,
			[]string{"OOMKilled"}},
		{"kubectl get pod -o json, one line", `{"status":{"containerStatuses":[{"name":"web","restartCount":5,"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2024-03-04T09:00:00Z","finishedAt":"2024-03-04T10:12:58Z"}}}]}}` + "\n", false,
			[]string{"OOMKilled"}},
		{"kubectl get pod -o json, pretty", "        \"lastState\": {\n          \"terminated\": {\n            \"exitCode\": 137,\n            \"reason\": \"OOMKilled\",\n            \"finishedAt\": \"2024-03-04T10:12:58Z\"\n          }\n        },\n", true,
			[]string{"OOMKilled"}},
		{"kubectl describe pod", "Name:         web-7d4b9c6f5-abcde\nContainers:\n  web:\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Mon, 04 Mar 2024 09:00:00 +0000\n      Finished:     Mon, 04 Mar 2024 10:12:58 +0000\n    Restart Count:  5\n", true,
			[]string{"OOMKilled"}},
		{"docker inspect", "[\n    {\n        \"State\": {\n            \"Status\": \"exited\",\n            \"Running\": false,\n            \"OOMKilled\": true,\n            \"Dead\": false,\n            \"ExitCode\": 137\n        }\n    }\n]\n", true,
			[]string{"OOMKilled"}},
		{"nomad alloc status", "Recent Events:\nTime                       Type        Description\n2024-03-04T10:12:58Z       Terminated  Exit Code: 137, Exit Message: \"OOM Killed\"\n", true,
			[]string{"OOMKilled"}},
		{"containerd TaskOOM, gogo", "Mar 04 10:12:58 host containerd[700]: time=\"2024-03-04T10:12:58.123456Z\" level=info msg=\"TaskOOM event &TaskOOM{ContainerID:" + h31dPodID + ",XXX_unrecognized:[],}\"\n", false,
			[]string{"containerd (TaskOOM", h31dPodID[:12]}},
		{"containerd TaskOOM, google protobuf, bare", "time=\"2025-05-19T18:14:43.578084676Z\" level=info msg=\"TaskOOM event container_id:\\\"" + h31dPodID + "\\\"\"\n", false,
			[]string{"containerd (TaskOOM"}},
		{"memory.events after its cat", "$ cat /sys/fs/cgroup/system.slice/myapp.service/memory.events\nlow 0\nhigh 812\nmax 40211\noom 7\noom_kill 7\n", true,
			[]string{"7"}},
	} {
		for form, text := range h31dForms(c.text, c.flat) {
			name := c.name + " (" + form + ")"
			tl := pasteTimeline(t, text)
			n := len(tl.RuntimeOOMs)
			for _, cg := range tl.CgroupMemory {
				if cg.Events != nil && h31dOOMKills(cg.Events) > 0 {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: %d kill reports, want 1: %+v", name, n, tl.RuntimeOOMs)
				continue
			}
			f := mustFire(t, run(t, "oom-kill", tl), Warning)
			all := f.Title
			for _, e := range f.Evidence {
				all += " | " + e.What + " " + e.Value
			}
			if !strings.Contains(all, "1×") && !strings.Contains(all, "7×") {
				t.Errorf("%s: count not in %q", name, all)
			}
			for _, fig := range c.figures {
				if !strings.Contains(all, fig) {
					t.Errorf("%s: %q missing from %q", name, fig, all)
				}
			}
		}
	}
}

// systemctl status's Memory: field is the unit's memory.current, never the host's RAM, and
// its Active: field no show_mem; an owner's "Memory: 16G" among a machine's specs still is.
func TestH31dSystemctlFieldsAreTheUnits(t *testing.T) {
	status := "● myapp.service - My App\n     Loaded: loaded (/etc/systemd/system/myapp.service; enabled)\n     Active: active (running) since Mon 2024-03-04 10:12:01 UTC; 5min ago\n   Main PID: 1234 (myapp)\n      Tasks: 12 (limit: 4915)\n     Memory: 1.9G (high: 1.8G max: 2.0G peak: 2.0G)\n     CGroup: /system.slice/myapp.service\n"
	for form, text := range h31dForms(status, true) {
		tl := pasteTimeline(t, text)
		if tl.Memory().TotalKB != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%s: memory %+v, kills %+v", form, tl.Memory(), tl.RuntimeOOMs)
		}
	}
	if tl := pasteTimeline(t, "My server:\n- CPU: 4 cores\n- Memory: 16G\n"); tl.Host.MemTotalKB != 16<<20 {
		t.Errorf("owner's specs: host memory %d kB, want %d", tl.Host.MemTotalKB, 16<<20)
	}
}

// A SIGKILL without a reason, a healthy state and the words in a sentence are no kill.
func TestH31dOrchestratorCounterCases(t *testing.T) {
	for name, text := range map[string]string{
		"OOMKilled false":          "        \"State\": {\n            \"Status\": \"exited\",\n            \"OOMKilled\": false,\n            \"ExitCode\": 137\n        },\n",
		"OOMKilled false, flat":    `"State": { "Status": "exited", "Running": false, "OOMKilled": false, "Dead": false, "ExitCode": 137 },` + "\n",
		"memory.events zero, flat": "low 0 high 0 max 0 oom 0 oom_kill 0\n",
		"yaml Error 137":           "    lastState:\n      terminated:\n        exitCode: 137\n        reason: Error\n",
		"json Completed":           `{"lastState":{"terminated":{"exitCode":0,"reason":"Completed"}}}` + "\n",
		"describe 137 Error flat":  "Name: web Containers: web: State: Running Last State: Terminated Reason: Error Exit Code: 137 Restart Count: 5\n",
		"describe advice":          "If kubectl describe shows Last State: Terminated Reason: OOMKilled Exit Code: 137, raise the limit.\n",
		"systemd SIGKILL only":     "myapp.service: Main process exited, code=killed, status=9/KILL\nmyapp.service: Failed with result 'signal'.\n",
		"systemd timeout":          "myapp.service: State 'stop-sigterm' timed out. Killing.\nmyapp.service: Failed with result 'timeout'.\n",
		"unit words in a sentence": "We saw that a process of this unit has been killed by the OOM killer.\n",
		"TaskOOM named":            "Search the node's log for \"TaskOOM event\" to confirm the kill.\n",
		"TaskOOM gogo without id":  "TaskOOM event &TaskOOM{ContainerID:<id>,XXX_unrecognized:[],}\n",
		"systemctl quoted result":  "systemctl would show Result: oom-kill in its Active: line.\n",
		"events names in prose":    "the memory.events file has low high max oom oom_kill keys\n",
	} {
		tl := pasteTimeline(t, text)
		if len(tl.RuntimeOOMs) > 0 {
			t.Errorf("%s: kills %+v", name, tl.RuntimeOOMs)
		}
		for _, cg := range tl.CgroupMemory {
			if cg.Events != nil && h31dOOMKills(cg.Events) > 0 {
				t.Errorf("%s: memory.events %+v", name, cg.Events)
			}
		}
		if res := run(t, "oom-kill", tl); len(res.Findings) > 0 && res.Findings[0].Severity >= Warning && !strings.Contains(res.Findings[0].Title, "stated") && !strings.Contains(res.Findings[0].Title, "no OOM report") {
			t.Errorf("%s: %q", name, res.Findings[0].Title)
		}
	}
}

func h31dOOMKills(c *kernel.Counters) int64 {
	v, _ := c.Get("oom_kill")
	return v
}
