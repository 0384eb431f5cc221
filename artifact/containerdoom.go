package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// containerd's CRI plugin logs the OOM event of a container's task (h31d): its event monitor
// (internal/cri/server/events.go, before 1.7 pkg/cri/server/events.go) handles
// eventtypes.TaskOOM with log.L.Infof("TaskOOM event %+v", e) and then sets the
// container's Reason to OOMKilled, which the kubelet shows as the terminated state's reason.
// The shim publishes TaskOOM from the container's memory cgroup: v1, the eventfd on
// memory.oom_control; v2, memory.events' oom_kill count rising. The %+v is the event's Go
// value, two ways by containerd's protobuf library:
//
//	gogo (containerd ≤ 1.6): msg="TaskOOM event &TaskOOM{ContainerID:ID,XXX_unrecognized:[],}"
//	google (1.7, 2.x):       msg="TaskOOM event container_id:\"ID\""
//
// A kill the kernel made in the container's cgroup, the host's or the cgroup's killer not
// said (as the OOMKilled state): read through journald's prefix, bare, or -o json. A line
// that only names the event ("grep for TaskOOM event") carries no container id.
var reContainerdTaskOOM = lazyre.New(`TaskOOM event (?:&TaskOOM\{ContainerID:|container_id:\\*")([0-9a-f]{12,64})\b`)

const containerdTaskOOMNeedle = "TaskOOM event "

// containerdTaskOOMHanded: a program's line that may be containerd's TaskOOM event, which
// the streamed parse must not skip.
func containerdTaskOOMHanded(l *Line) bool {
	return !l.Kernel && strings.Contains(l.Text, containerdTaskOOMNeedle)
}

// containerdTaskOOM reads line i as containerd's TaskOOM event.
func (d *doc) containerdTaskOOM(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, containerdTaskOOMNeedle) || d.exampleLines[d.ls[i].No] {
		return false
	}
	m := reContainerdTaskOOM.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	d.used[i] = true
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: "containerd (TaskOOM event: the container's memory cgroup)", Container: m[1][:12],
		Source: fmt.Sprintf("line %d", d.ls[i].No)})
	return true
}
