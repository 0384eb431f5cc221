package source

import (
	"fmt"
	"strconv"

	"headroom/kernel"
	"headroom/model"
)

// NetnsTarget names a network namespace to read beside the host: a name under /run/netns
// (`ip netns add`), or the namespace of a process (a pod's container), whose
// proc/PID/ns/net is found under procDir ("/proc", or "/host/proc" in a container with the
// host's /proc mounted).
type NetnsTarget struct {
	Name    string
	PID     int
	ProcDir string
}

func (t NetnsTarget) label() string {
	if t.PID > 0 {
		return "pid " + strconv.Itoa(t.PID)
	}
	return "netns " + t.Name
}

func (t NetnsTarget) path() (string, error) {
	switch {
	case t.PID > 0 && t.Name != "":
		return "", fmt.Errorf("give a namespace name or a pid, not both")
	case t.PID > 0:
		dir := t.ProcDir
		if dir == "" {
			dir = "/proc"
		}
		return dir + "/" + strconv.Itoa(t.PID) + "/ns/net", nil
	case t.Name != "":
		return t.Name, nil
	}
	return "", fmt.Errorf("no namespace named")
}

// ReadNetns enters the namespace (setns(2) needs CAP_SYS_ADMIN) on a thread of its own and
// reads what that namespace has of its own: the per-namespace TCP settings
// (kernel.NetnsSysctls) and its TCP counters. Files under /proc/sys/net show the
// namespace of the task that opens them, and the counters are read through
// /proc/thread-self/net (kernel.InNetns).
func ReadNetns(t NetnsTarget) (*model.NetnsView, error) {
	p, err := t.path()
	if err != nil {
		return nil, err
	}
	v := &model.NetnsView{Name: t.label()}
	err = kernel.InNetns(p, func(root kernel.Root) error {
		vals, unavail := kernel.ReadSysctls(root, kernel.NetnsSysctlKeys())
		v.Sysctls = vals
		for _, k := range kernel.NetnsSysctlKeys() {
			if err, ok := unavail[k]; ok {
				v.Unavailable = append(v.Unavailable, "sysctl "+k+": "+err.Error())
			}
		}
		if ss, err := kernel.ReadSockStat(root); err == nil {
			v.SockStat = ss
		} else {
			v.Unavailable = append(v.Unavailable, err.Error())
		}
		if ns, err := kernel.ReadNetStat(root); err == nil {
			v.Netstat = ns
		} else {
			v.Unavailable = append(v.Unavailable, err.Error())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
