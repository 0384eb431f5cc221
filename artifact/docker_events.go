package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// KindDockerOOM is a `docker events` line that reports an OOM in a container: the daemon
// turns the container's memory cgroup OOM notification (v1: an eventfd on
// memory.oom_control; v2: memory.events "oom") into the event "container oom", so the
// container's cgroup reached its limit and the kernel's memory-cgroup OOM killer ran in it.
const KindDockerOOM = "docker_oom"

// DockerOOM is one such event.
type DockerOOM struct {
	Time  string `json:"time,omitempty"` // as printed (RFC 3339 with nanoseconds)
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Image string `json:"image,omitempty"`
}

var (
	// Since Docker 1.10: "2019-05-04T18:05:45.011072877-05:00 container oom ID (k=v, ...)"
	// (daemon/events: type, action, actor ID, attributes).
	reDockerOOM = lazyre.New(`^container oom ([0-9a-f]{12,64})(?:\s+\((.*))?$`)
	// Before 1.10: "2014-05-10T17:42:14.999999999Z07:00 4386fb97867d: (from ubuntu:14.04) oom".
	reDockerOOMOld = lazyre.New(`^([0-9a-f]{12,64}): \(from ([^)]*)\) oom$`)
	// name= comes last of the attributes; a container the kubelet started also carries its
	// pod's container name in io.kubernetes.container.name, earlier in the line.
	reDockerAttrName = lazyre.New(`(?:^|, )name=([^,)\s]+)`)
	reDockerAttrK8s  = lazyre.New(`(?:^|, )io\.kubernetes\.container\.name=([^,)\s]+)`)
	reDockerAttrImg  = lazyre.New(`(?:^|, )image=([^,)\s]+)`)
	// docker events --format '{{json .}}'.
	reDockerJSONID   = lazyre.New(`"id":"([0-9a-f]{12,64})"`)
	reDockerJSONName = lazyre.New(`"name":"([^"]+)"`)
	reDockerJSONImg  = lazyre.New(`"image":"([^"]+)"`)
	// The documented Go template of `docker events --format` (docs: "Format the output"):
	// 'Type={{.Type}}  Status={{.Status}}  ID={{.ID}}', Status (or Action) "oom" being the
	// event; fields after the ID (From=image, ...) may follow.
	reDockerTmpl = lazyre.New(`^Type=container\s+(?:Status|Action)=oom\s+ID=([0-9a-f]{12,64})(?:\s|$)`)
)

// dockerOOMOf reads an event from the text after its time stamp, or from a JSON event.
func dockerOOMOf(t string) (DockerOOM, bool) {
	t = strings.TrimSpace(t)
	if strings.HasPrefix(t, "{") {
		if !strings.Contains(t, `"Type":"container"`) || !strings.Contains(t, `"Action":"oom"`) {
			return DockerOOM{}, false
		}
		e := DockerOOM{}
		if m := reDockerJSONID.FindStringSubmatch(t); m != nil {
			e.ID = m[1]
		}
		if m := reDockerJSONName.FindStringSubmatch(t); m != nil {
			e.Name = m[1]
		}
		if m := reDockerJSONImg.FindStringSubmatch(t); m != nil {
			e.Image = m[1]
		}
		return e, e.ID != ""
	}
	if m := reDockerOOM.FindStringSubmatch(t); m != nil {
		e := DockerOOM{ID: m[1]}
		if n := reDockerAttrName.FindStringSubmatch(m[2]); n != nil {
			e.Name = n[1]
		} else if n := reDockerAttrK8s.FindStringSubmatch(m[2]); n != nil {
			e.Name = n[1]
		}
		if n := reDockerAttrImg.FindStringSubmatch(m[2]); n != nil {
			e.Image = n[1]
		}
		return e, true
	}
	if strings.HasPrefix(t, "Type=") {
		if m := reDockerTmpl.FindStringSubmatch(t); m != nil {
			return DockerOOM{ID: m[1]}, true
		}
		return DockerOOM{}, false
	}
	if m := reDockerOOMOld.FindStringSubmatch(t); m != nil {
		return DockerOOM{ID: m[1], Image: m[2]}, true
	}
	return DockerOOM{}, false
}

// mayBeDockerOOM: a line whose stamp the line reader took for a syslog prefix and that may
// be a docker OOM event (dockerOOMLine), which the streamed parse must not skip.
func mayBeDockerOOM(l *Line) bool {
	return l.Syslog && l.Tag == "" && (l.Host == "container" && strings.HasPrefix(l.Text, "oom ") || strings.HasSuffix(l.Text, ") oom"))
}

// dockerOOMLine reads line i as a docker event when the line reader took its RFC 3339 stamp
// for a syslog prefix (the event's type, "container", as the host name).
func (d *doc) dockerOOMLine(i int) bool {
	l := &d.ls[i]
	if !strings.Contains(l.Stamp, "T") || l.Tag != "" {
		return false
	}
	e, ok := dockerOOMOf(l.Host + " " + l.Text)
	if !ok {
		return false
	}
	e.Time = l.Stamp
	d.addDockerOOM(e, l.No)
	return true
}

// tryDockerOOM reads a docker event without its stamp, or one printed as JSON.
func (d *doc) tryDockerOOM(i int) int {
	e, ok := dockerOOMOf(d.ls[i].Text)
	if !ok {
		return 0
	}
	d.addDockerOOM(e, d.ls[i].No)
	return 1
}

func (d *doc) addDockerOOM(e DockerOOM, no int) {
	d.segSeq++
	d.addArtifact(KindDockerOOM, no, no, e)
	ctr := e.Name
	if ctr == "" {
		ctr = e.ID[:min(12, len(e.ID))]
	}
	d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: "docker events (container oom)", Container: ctr,
		Source: fmt.Sprintf("docker event at line %d", no)})
}
