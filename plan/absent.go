package plan

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// dropAbsentSettings leaves out every sysctl setting the target kernel does not have
// (kernel.SysctlExists: vm.min_free_kbytes on 2.4, net.core.netdev_budget_usecs before
// 4.12, …) and says so in a note, so that `headroom plan --kernel X` and the sysctl.d file it
// writes hold only keys X has. A key with a current value (--current, or this host's
// /proc/sys) exists whatever the release says: a vendor kernel may have backported it.
func (p *Plan) dropAbsentSettings(kver kernel.KernelVersion) {
	if !kver.Known {
		return
	}
	kept := p.Settings[:0:0]
	for _, c := range p.Settings {
		if c.Kind == model.ChangeSysctl {
			if _, has := p.Input.Current[c.Key]; !has {
				if ok, why := kernel.SysctlExists(c.Key, kver, true); !ok {
					p.Notes = append(p.Notes, "left out "+c.Key+" "+strings.TrimSpace(c.Recommended)+": "+why)
					continue
				}
			}
		}
		kept = append(kept, c)
	}
	p.Settings = kept
}
