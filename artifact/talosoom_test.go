package artifact

import "testing"

// Talos's userspace OOM controller (runtime.OOMController, oom.go reapCg) logs its kills to
// /dev/kmsg under the user facility; talosctl dmesg prints them. Each is a low-memory
// killer's kill (RuntimeOOM), not the kernel's OOM killer. Before: the line was another
// program's log line, and a sentence about "the OOM killer" became a stated kernel OOM.
// Counter-cases: the same message under the kern facility or in prose, and the controller's
// other lines ("OOM controller triggered", "victim processes:").
func TestTalosOOMControllerKill(t *testing.T) {
	const kill = `user: warning: [2026-01-12T20:27:31.913975631Z]: [talos] Sending SIGKILL to cgroup {"component": "controller-runtime", "controller": "runtime.OOMController", "cgroup": "/sys/fs/cgroup/kubepods/besteffort/pod1234"}`
	for name, text := range map[string]string{
		"talosctl dmesg":         kill + "\n",
		"talosctl with its node": "10.5.0.2: " + kill + "\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(tl.RuntimeOOMs) != 1 || tl.RuntimeOOMs[0].Victim != "/sys/fs/cgroup/kubepods/besteffort/pod1234" || tl.RuntimeOOMs[0].Reporter != "Talos's runtime.OOMController" {
			t.Errorf("%s: runtime OOMs %+v", name, tl.RuntimeOOMs)
		}
		sameAsWhole(t, name, text)
	}
	for name, text := range map[string]string{
		"kern facility": `kern: warning: [2026-01-12T20:27:31.913975631Z]: [talos] Sending SIGKILL to cgroup {"cgroup": "/sys/fs/cgroup/x"}` + "\n",
		"prose":         `Talos then logs "Sending SIGKILL to cgroup" for every pod it kills.` + "\n",
		"trigger line":  `user: warning: [2026-01-12T20:27:30.1Z]: [talos] OOM controller triggered {"component": "controller-runtime", "controller": "runtime.OOMController"}` + "\n",
		"victims line":  `user: warning: [2026-01-12T20:27:31.9Z]: [talos] victim processes: {"controller": "runtime.OOMController", "processes": []}` + "\n",
	} {
		if tl := ParseString(text, "p", Options{}); len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%s: read as a kill: %+v", name, tl.RuntimeOOMs)
		}
	}
}
