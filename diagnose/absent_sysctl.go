package diagnose

import (
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// A suggested command must run on the host it is for: `sysctl -w vm.swappiness=10` on a 2.4
// kernel fails with "cannot stat /proc/sys/vm/swappiness". Rules suggest keys without asking
// which kernel has them; this finishing step, run once over every finding and the story
// (Run, Retell), takes out each change and step whose sysctl the Timeline's kernel lacks
// (kernel.SysctlExists, the one table of when keys came and went) and leaves in the finding
// one line that says so and names the older equivalent, if any. Renderers print commands from
// the changes and steps that remain, so none of them prints the missing key.

// AbsentSysctl reports whether the kernel of tl's host lacks key, with the line that says so.
// It is false for anything that is not a sysctl, for an unknown kernel, for a key whose
// history is not established, and for a key the input shows on the host itself (a vendor
// kernel that backported it: its own value, or a pasted `sysctl -a` that lists it). Renderers
// ask it before printing a command of their own.
func AbsentSysctl(tl *model.Timeline, key string) (string, bool) {
	if tl == nil {
		return "", false
	}
	v, _ := tl.Host.KernelVersion()
	return absentSysctl(tl, v, key)
}

func absentSysctl(tl *model.Timeline, v kernel.KernelVersion, key string) (string, bool) {
	if tl == nil || !v.Known || !(strings.HasPrefix(key, "vm.") || strings.HasPrefix(key, "net.")) {
		return "", false
	}
	if _, _, ok := tl.Sysctl(key); ok {
		return "", false
	}
	for _, m := range tl.Settings {
		if m.Form == "sysctl-a" && m.Names() == key {
			return "", false
		}
	}
	exists, why := kernel.SysctlExists(key, v, true)
	return why, !exists
}

// dropAbsentSysctls removes from each finding the changes whose sysctl the kernel lacks and
// adds, per removed key, one evidence line saying why no command is offered.
func dropAbsentSysctls(tl *model.Timeline, findings []Finding) {
	if tl == nil {
		return
	}
	v, ok := tl.Host.KernelVersion()
	if !ok {
		return
	}
	for i := range findings {
		f := &findings[i]
		var kept []model.Change
		dropped := false
		for _, c := range f.Changes {
			why, absent := absentSysctl(tl, v, c.Key)
			if !absent {
				kept = append(kept, c)
				continue
			}
			dropped = true
			f.Evidence = append(f.Evidence, Evidence{What: "not offered: " + c.Key, Value: why, Source: "kernel " + tl.Host.Kernel})
		}
		if dropped {
			f.Changes = kept
		}
	}
}

// DropAbsentSteps removes from the story the commands whose sysctl the kernel lacks (the remedies
// a mechanism calls for are not findings' changes, so dropAbsentSysctls does not see them); a
// first change that goes is replaced by the next step. It never writes through s into the
// slices it shares with another Story.
func DropAbsentSteps(tl *model.Timeline, s *Story) {
	if tl == nil {
		return
	}
	v, ok := tl.Host.KernelVersion()
	if !ok {
		return
	}
	absent := func(st *Step) bool {
		if st == nil || st.Command == "" {
			return false // advice without a command ("after the upgrade (it exists from 4.6)")
		}
		_, gone := absentSysctl(tl, v, st.Key)
		return gone
	}
	var then []Step
	for i := range s.Then {
		if !absent(&s.Then[i]) {
			then = append(then, s.Then[i])
		}
	}
	s.Then = then
	if s.FirstChange != nil && absent(s.FirstChange) {
		s.FirstChange = nil
		if len(s.Then) > 0 {
			first := s.Then[0]
			s.FirstChange, s.Then = &first, s.Then[1:]
		}
	}
	s.Chains = slices.Clone(s.Chains)
	for i := range s.Chains {
		if c := s.Chains[i].Change; c != nil && absent(c) {
			s.Chains[i].Change = nil
		}
	}
	if len(s.Chains) > 0 && s.FirstChange != nil {
		s.Chains[0].Change = s.FirstChange
	}
}
