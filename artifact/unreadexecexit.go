package artifact

import "strings"

// A command run in a container by `kubectl exec` / `oc exec` that ended with status 137
// (fix49e, corpus 4108). The kubelet's exec stream reports a non-zero exit on its status
// channel (pkg/kubelet/server/remotecommand: Message "command terminated with non-zero exit
// code: %v", the runtime's exit error; the docker shim's is "Error executing in Docker
// Container: N"), and the client prints it: kubectl/oc before client-go's v4 protocol
// "command terminated with non-zero exit code: Error executing in Docker Container: 137",
// since then "command terminated with exit code 137" (client-go remotecommand). 137 is
// 128+9: the exec'd process (the shell of the session) died by SIGKILL: the kernel's OOM
// killer or a memory cgroup's sends it, and so does a container's stop, the session's end
// when the container is restarted, and any kill -9. The status says nothing of which; the
// kernel's kill line or the pod's OOMKilled state would. Named unread, no finding.

const execExit137Why = "an exec client's report that the command it ran in a container exited 137 (kubectl/oc exec: \"command terminated with non-zero exit code: Error executing in Docker Container: 137\" from the kubelet's docker shim, or client-go's \"command terminated with exit code 137\"; 128+9: the exec'd process, often the session's shell, died by SIGKILL): the kernel's OOM killer or a memory cgroup's sends SIGKILL, and so does the container's stop or restart and any kill -9; the status names no killer and the pod's OOMKilled state or the kernel's kill line is not in the text; headroom has no reader for this"

// execExitForms: the fixed words ahead of the status, each followed by the exit code.
var execExitForms = [...]string{
	"command terminated with non-zero exit code: Error executing in Docker Container: ",
	"command terminated with exit code ",
}

// execExit137Line reports whether t is an exec client's status line for an exit of 137.
// The GitLab Runner's "Job failed: command terminated with exit code 137" is
// buildKilledLine's; a condition or an example ("if you see ...") is not this host's.
func execExit137Line(t string) bool {
	if len(t) > maxErrnoLineBytes || !strings.Contains(t, "137") {
		return false
	}
	for _, w := range execExitForms {
		k := strings.Index(t, w)
		if k < 0 {
			continue
		}
		rest := t[k+len(w):]
		if !strings.HasPrefix(rest, "137") {
			continue
		}
		rest = strings.TrimRight(rest[3:], " \"'`")
		if rest != "" && rest != "." {
			continue // 1370, or the status quoted inside a longer sentence
		}
		if conditionLead(t[:k]) || strings.Contains(t[:k], "Job failed") {
			return false
		}
		return true
	}
	return false
}
