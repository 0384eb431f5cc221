package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h25c: cluster and configuration-management agents (Consul/Nomad/Vault's memberlist and
// hclog, Salt, Puppet, Ansible, Swarm) and distribution tooling outside Ubuntu/Debian
// (systemd-oomd through systemd, earlyoom), written from their sources before round 25.

// h25cText: a finding's title, explanation and evidence as one string.
func h25cText(f *Finding) string {
	s := f.Title + " " + f.Explanation
	for _, e := range f.Evidence {
		s += "; " + e.What + " " + e.Value
	}
	return s
}

const h25cNomadEvent = `2026-11-30T11:00:01.123Z [INFO]  client.alloc_runner.task_runner: Task event: alloc_id=8ba85cef-6e26-9f5c-6a0f-3d1d1b3c2a11 task=web type=Terminated msg="Exit Code: 137, Exit Message: \"OOM Killed\"" failed=false`

// Nomad's task runner logs the driver's OOM kill as an hclog "Task event" (task_runner.go
// EmitEvent), under nomad's syslog tag, bare, or as log_json: the container's state, an OOM
// kill whose scope is not said (oom-kill, warning), the task named; beside the kernel's own
// report it is cited, not counted again.
func TestH25cNomadTaskEventOOM(t *testing.T) {
	for _, c := range []struct {
		text  string
		want  string
		count string
	}{
		{h25cNomadEvent + "\n", "container web", "1×"},
		{"Nov 30 11:00:01 worker-3 nomad[1234]:     " + h25cNomadEvent + "\n", "container web", "1×"},
		{`{"@level":"info","@message":"Task event","@module":"client.alloc_runner.task_runner","@timestamp":"2026-11-30T11:00:01.123456Z","alloc_id":"8ba85cef","failed":false,"msg":"Exit Code: 137, Exit Message: \"OOM Killed\"","task":"api","type":"Terminated"}` + "\n", "container api", "1×"},
		{"> Nov 30 11:00:01 worker-3 nomad[1234]: " + strings.Replace(h25cNomadEvent, "task=web", "task=redis", 1) + "\n> Nov 30 11:00:01 worker-3 kernel: Memory cgroup out of memory: Killed process 2345 (redis-server) total-vm:5123456kB, anon-rss:1048000kB, file-rss:12000kB, shmem-rss:0kB, UID:1000 pgtables:3000kB oom_score_adj:0\n", "redis-server", "1×"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "oom-kill")
		if f == nil {
			t.Errorf("%q: no oom-kill", c.text)
			continue
		}
		if s := h25cText(f); !strings.Contains(s, c.want) || !strings.Contains(f.Title, c.count) {
			t.Errorf("%q: oom-kill %q lacks %q or %q", c.text, s, c.want, c.count)
		}
	}
	// Counter-cases: the event named in a sentence, another exit message (a SIGKILL, no OOM),
	// another event type.
	for _, text := range []string{
		`Nomad writes a Task event with msg="Exit Code: 137, Exit Message: \"OOM Killed\"" when the driver reports it, is that the kernel?` + "\n",
		strings.Replace(h25cNomadEvent, `\"OOM Killed\"`, `\"Docker container exited with non-zero exit code: 137\"`, 1) + "\n",
		strings.Replace(h25cNomadEvent, "type=Terminated", "type=Restarting", 1) + "\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: oom-kill fired", text)
		}
	}
}

// Consul's and Nomad's memberlist under the agents' syslog tags: a UDP send refused with
// ENOBUFS reaches udp-rcvbuf-errors' send side, as the other daemons' records do.
func TestH25cMemberlistSendENOBUFS(t *testing.T) {
	for _, text := range []string{
		"Nov 30 10:05:01 consul-1 consul[812]:     2026/11/30 10:05:01 [ERR] memberlist: Failed to send UDP ping: write udp 10.0.0.5:8301->10.0.0.7:8301: sendto: no buffer space available\n",
		"Nov 30 10:05:01 worker-3 nomad[1234]: 2026/11/30 10:05:01 [ERR] memberlist: Failed to send gossip to 10.0.0.7:4648: write udp [::]:4648->10.0.0.7:4648: sendto: no buffer space available\n",
	} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "udp-rcvbuf-errors")
		if f == nil || !strings.Contains(f.Title, "ENOBUFS") {
			t.Errorf("%q: no udp-rcvbuf-errors send finding: %+v", text, f)
		}
	}
	// Counter-cases: the agent's EMFILE is named, no finding; another tag's line is as before.
	for _, text := range []string{
		"Nov 30 10:05:02 consul-1 consul[812]:     2026/11/30 10:05:02 [ERR] memberlist: Error accepting TCP connection: accept tcp [::]:8301: accept4: too many open files\n",
	} {
		d, _ := rootOf(t, text)
		if len(d.Findings) != 0 {
			t.Errorf("%q: findings %v", text, d.Findings)
		}
	}
}

// The agents' own lines no rule reads are named with what they prove and raise no finding:
// a paste of only such lines no longer exits 3.
func TestH25cAgentLinesNamed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Nov 30 10:10:00 web-1 puppet-agent[4412]: Could not run: Cannot allocate memory - fork(2)\n", "overcommit-exposed"},
		{"Error: Could not run: Cannot allocate memory - fork(2)\n", "Errno::ENOMEM from fork(2)"},
		{`fatal: [web-1]: FAILED! => {"changed": false, "module_stderr": "Shared connection to 10.0.0.5 closed.\r\n", "module_stdout": "Killed\r\n", "msg": "MODULE FAILURE\nSee stdout/stderr for the exact error", "rc": 137}` + "\n", "SIGKILL"},
		{`fatal: [db-2]: FAILED! => {"changed": true, "cmd": ["pg_restore", "-d", "app", "/tmp/dump"], "delta": "0:05:01.123456", "msg": "non-zero return code", "rc": -9, "stderr": "", "stdout": ""}` + "\n", "SIGKILL"},
		{"a1b2c3d4e5f6   \\_ web.1   nginx:1.25   node-2   Shutdown   Failed 3 minutes ago   \"task: non-zero exit (137)\"\n", "State.OOMKilled"},
		{"Error initializing core: Failed to lock memory: cannot allocate memory\n", "RLIMIT_MEMLOCK"},
		{"Nov 30 10:40:01 fcos rpm-ostree[1234]: Txn Upgrade on /org/projectatomic/rpmostree1/fedora_coreos failed: Cannot allocate memory\n", "ENOMEM"},
		{"[WARNING ] The number of accepted minion keys(2014) should be lower than 1/4 of the max open files soft setting(4096). According to the system's hard limit, there's still a margin of 61440 to raise the salt's max_open_files setting. Please consider raising this value.\n", "RLIMIT_NOFILE"},
	} {
		tl, err := artifact.Parse(strings.NewReader(c.text), "paste.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		named := false
		for _, u := range tl.Unparsed {
			named = named || strings.Contains(u.Why, c.want)
		}
		if !named {
			t.Errorf("%q: not named with %q: %+v", c.text, c.want, tl.Unparsed)
		}
		if d := Run(tl, nil); len(d.Findings) != 0 {
			t.Errorf("%q: findings %v", c.text, d.Findings)
		}
	}
	// A healthy agents' log under the new tags stays other programs' lines: nothing named as
	// the agents' own, no finding.
	healthy := "Nov 30 10:05:01 consul-1 consul[812]: 2026-11-30T10:05:01.123Z [INFO]  agent: Synced node info\n" +
		"Nov 30 10:05:03 consul-1 consul[812]: 2026-11-30T10:05:03.789Z [INFO]  agent.server.memberlist.lan: memberlist: Suspect node-7 has failed, no acks received\n" +
		"Nov 30 10:05:05 web-1 puppet-agent[4412]: Applied catalog in 12.34 seconds\n" +
		"Nov 30 10:05:06 salt-1 salt-minion[991]: [WARNING ] Minion received a SIGTERM. Exiting.\n"
	if tl, err := artifact.Parse(strings.NewReader(healthy), "paste.txt", artifact.Options{}); err != nil || len(tl.Unparsed) != 0 || len(Run(tl, nil).Findings) != 0 {
		t.Errorf("healthy agents' log: %v %+v", err, tl.Unparsed)
	}
	// Counter-cases: a successful task, another exit code, Ansible's ok result; none named so.
	for _, text := range []string{
		"a1b2c3d4e5f6   \\_ web.1   nginx:1.25   node-2   Shutdown   Failed 3 minutes ago   \"task: non-zero exit (1)\"\n",
		`fatal: [web-1]: FAILED! => {"changed": false, "msg": "non-zero return code", "rc": 2, "stderr": "ls: cannot access '/x': No such file or directory"}` + "\n",
		`ok: [web-1] => {"changed": false, "rc": 0}` + "\n",
	} {
		tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, "SIGKILL") {
				t.Errorf("%q: named as a SIGKILL: %q", text, u.Why)
			}
		}
	}
}

// systemd's "UNIT: systemd-oomd killed N process(es) in this unit." is systemd-oomd's kill
// (oom-kill, scope low-memory killer, not the kernel's), and the unit's "Failed with result
// 'oom-kill'." beside it is that kill's result, in either order; systemd-oomd's own line of
// the same unit is not counted twice. A kernel kill's result stays the kernel's.
func TestH25cSystemdOomdKill(t *testing.T) {
	const unitLine = "Nov 30 10:20:02 fedora systemd[1450]: vte-spawn-1b2c.scope: systemd-oomd killed 291 process(es) in this unit.\n"
	const result = "Nov 30 10:20:02 fedora systemd[1450]: vte-spawn-1b2c.scope: Failed with result 'oom-kill'.\n"
	const oomd = "Nov 30 10:20:01 fedora systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-1b2c.scope due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 72.35% > 50.00% for > 20s with reclaim activity\n"
	for _, text := range []string{
		unitLine,
		unitLine + result,
		result + unitLine,
		oomd + unitLine + result,
		result + unitLine + oomd,
	} {
		d, _ := rootOf(t, text)
		f := findingOf(d, "oom-kill")
		if f == nil {
			t.Errorf("%q: no oom-kill", text)
			continue
		}
		if !strings.Contains(f.Title, "systemd-oomd") || !strings.Contains(f.Title, "killed 1×") || !strings.Contains(f.Title, "not the kernel's") || f.Severity == Critical {
			t.Errorf("%q: oom-kill %q (%v)", text, f.Title, f.Severity)
		}
	}
	// Counter-cases: a kernel kill's unit result stays the kernel's; the words in a sentence.
	d, _ := rootOf(t, "Nov 30 10:20:01 fedora kernel: Out of memory: Killed process 2345 (java) total-vm:12345678kB, anon-rss:9876543kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:20000kB oom_score_adj:0\nNov 30 10:20:02 fedora systemd[1]: app.service: Failed with result 'oom-kill'.\n")
	if f := findingOf(d, "oom-kill"); f == nil || f.Severity != Critical || strings.Contains(f.Title, "systemd-oomd") {
		t.Errorf("kernel kill: %+v", f)
	}
	if d, _ := rootOf(t, "When memory gets tight you may see: systemd-oomd killed 291 process(es) in this unit. Is that normal?\n"); findingOf(d, "oom-kill") != nil {
		t.Error("a sentence raised oom-kill")
	}
}

// earlyoom prints its percentages with PRIPCT ("%5.2lf%%"): under 10% a space follows the
// parenthesis, "( 1.57%)", the line of a machine about to kill. It is read as the machine's
// memory (MemAvailable, SwapFree), as the line above 10% always was.
func TestH25cEarlyoomLowStatus(t *testing.T) {
	text := "Nov 30 10:30:01 fedora earlyoom[701]: mem avail:   123 of  7834 MiB ( 1.57%), swap free:    0 of 2047 MiB ( 0.00%)\n"
	tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	read := false
	for _, a := range tl.Artifacts {
		read = read || a.Kind == artifact.KindEarlyoom
	}
	if !read || len(tl.Unparsed) != 0 {
		t.Errorf("earlyoom status not read: %+v", tl.Unparsed)
	}
	d := Run(tl, nil)
	if f := findingOf(d, "swap-under-load"); f == nil || !strings.Contains(h25cText(f), "100%") {
		t.Errorf("swap exhausted not reported: %+v", f)
	}
}

// journalctl -o short-monotonic puts the uptime before the host and the identifier: another
// program's record in that mode is its syslog line, not the kernel's ("[ 8812.123456] fedora
// systemd-oomd[812]: Killed ..." was read as a kernel line and reached no rule). The
// kernel's records in the same mode, and a bare dmesg's "systemd[1]: ..." line, read as before.
func TestH25cShortMonotonicProgramLine(t *testing.T) {
	d, _ := rootOf(t, "[ 8812.123456] fedora systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-4321.scope due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 72.35% > 50.00% for > 20s with reclaim activity\n")
	if f := findingOf(d, "oom-kill"); f == nil || !strings.Contains(f.Title, "systemd-oomd") {
		t.Errorf("short-monotonic systemd-oomd kill: %+v", f)
	}
	for _, text := range []string{
		"[    5.123456] fedora systemd[1]: Started systemd-oomd.service - Userspace Out-Of-Memory (OOM) Killer.\n[ 8812.123456] fedora kernel: Out of memory: Killed process 2345 (java) total-vm:12345678kB, anon-rss:9876543kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:20000kB oom_score_adj:0\n",
		"[   12.345678] systemd[1]: Started Journal Service.\n[ 8812.123456] Out of memory: Killed process 2345 (java) total-vm:12345678kB, anon-rss:9876543kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:20000kB oom_score_adj:0\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "oom-kill"); f == nil || f.Severity != Critical || !strings.Contains(h25cText(f), "java (pid 2345)") {
			t.Errorf("%q: kernel kill not read: %+v", text, f)
		}
	}
}

// swarmkit's task error in dockerd's journal (the node agent's taskmanager) is named as the
// `docker service ps` column is.
func TestH25cSwarmTaskErrorInDockerd(t *testing.T) {
	text := `Nov 30 10:50:01 node-2 dockerd[1021]: time="2026-11-30T10:50:01.123456789Z" level=error msg="fatal task error" error="task: non-zero exit (137)" module=node/agent/taskmanager node.id=x3k1l2m3n4o5 service.id=q1w2e3 task.id=a1b2c3` + "\n"
	tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Unparsed) != 1 || !strings.Contains(tl.Unparsed[0].Why, "Swarm") {
		t.Errorf("not named: %+v", tl.Unparsed)
	}
	if d := Run(tl, nil); len(d.Findings) != 0 {
		t.Errorf("findings %v", d.Findings)
	}
}

// earlyoom before 1.3 worded its kill otherwise (tags v0.12-v1.2 of rfjakob/earlyoom):
// "Killing process 'X' with signal 15, pid: N, badness: B, VmRSS: R MiB" (1.2), "Killing
// process: X, pid: N, ..." (1.1), "Killing process N X" (0.12-1.0, under earlyoom's tag
// only). Each is earlyoom's kill: oom-kill as a low-memory killer, the victim named.
func TestH25cEarlyoomOldKill(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Nov 30 10:30:01 deb10 earlyoom[701]: Killing process 'firefox-esr' with signal 15, pid: 4321, badness: 912, VmRSS: 3012 MiB\n", "firefox-esr (pid 4321)"},
		{"Nov 30 10:30:01 bionic earlyoom[701]: Killing process: chrome, pid: 4321, badness: 912, VmRSS: 3012 MiB\n", "chrome (pid 4321)"},
		{"Nov 30 10:30:01 bionic earlyoom[701]: Out of memory! avail: 120 MiB < min: 783 MiB\nNov 30 10:30:01 bionic earlyoom[701]: Killing process 4321 chrome\n", "chrome (pid 4321)"},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "oom-kill")
		if f == nil || !strings.Contains(f.Title, "earlyoom") || !strings.Contains(f.Title, "not the kernel's") || !strings.Contains(h25cText(f), c.want) {
			t.Errorf("%q: %+v", c.text, f)
		}
	}
	// Counter-cases: another supervisor's "Killing process N X", the same words bare.
	for _, text := range []string{
		"Nov 30 10:30:01 web supervisord[701]: Killing process 4321 chrome\n",
		"Killing process 4321 chrome\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: oom-kill fired", text)
		}
	}
}
