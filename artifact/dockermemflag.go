package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// docker's memory limit on its command line (fix38a): "docker run -m 500m IMAGE",
// "docker run --memory=2g ...", "docker container run/create", "docker update --memory 1g"
// (docker CLI's -m/--memory, the container's memory cgroup limit: memory.max, or
// memory.limit_in_bytes on cgroup v1). The figure is a limit the reporter set on one
// container, not the host's memory and not a usage: it is named with its figure and listed
// as unread, so a text that states it runs, and no rule reads it as the host's.
// Counter-cases: a docker command without the flag, --memory-swap or --memory-reservation
// alone, a -m of the image's own command after the image (python -m module) that has no
// figure, and a sentence without "docker run/create/update".
var reDockerMemFlag = lazyre.New(`\bdocker (?:container )?(?:run|create|update)\b[^` + "`" + `|;&]*?\s(?:-m|--memory)(?:=|\s+)(\d+(?:\.\d+)?[bkmgBKMG]?)(?:\s|$|` + "`" + `)`)

// dockerMemFlag says why t is a docker command that sets a container's memory limit.
func dockerMemFlag(t string) (string, bool) {
	if !strings.Contains(t, "docker ") || !strings.Contains(t, "-m") {
		return "", false
	}
	m := reDockerMemFlag.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return "docker's memory limit on one container (docker run/create/update -m/--memory " + m[1] + "): the container's memory cgroup limit (memory.max, memory.limit_in_bytes on cgroup v1), a limit the reporter set, not the host's memory and not a usage; a process in the container over it is killed by the kernel's OOM killer in that cgroup (the container's OOMKilled state and the kernel's \"Memory cgroup out of memory\" line would show it); headroom has no reader for this command", true
}
