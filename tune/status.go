package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"headroom/model"
)

// KeyStatus is one sysctl the journal applied and is still in effect as far as the journal
// knows (its entry is applied and not rolled back): what it is now, and what the next boot
// sets it to.
type KeyStatus struct {
	Key     string    `json:"key"`
	Kind    string    `json:"kind"`
	Netns   string    `json:"netns,omitempty"`
	Entry   int       `json:"entry"`
	Time    time.Time `json:"time"`
	Old     string    `json:"old"`
	Applied string    `json:"applied"`
	Now     string    `json:"now"`
	NowErr  string    `json:"now_error,omitempty"`
	// Drifted: the value now is not the one headroom wrote.
	Drifted bool `json:"drifted"`
	// Cause is what can be known of who changed it: a boot file or TuneD profile that sets
	// the value found now, or a kernel mechanism known to change the key.
	Cause string `json:"cause,omitempty"`
	// Boot is every assignment of the key at the next boot, in order; the last one wins.
	Boot []BootSetting `json:"boot,omitempty"`
	// DropIn is headroom's drop-in for this key, when the entry persisted it.
	DropIn string `json:"drop_in,omitempty"`
	// AtBoot says in words what the next boot does with the key, and OursWins whether
	// headroom's drop-in sets the final value.
	AtBoot   string `json:"at_boot"`
	OursWins bool   `json:"ours_wins"`
	// Overridden: the drop-in sets the key, and a later file sets it again.
	Overridden bool `json:"overridden,omitempty"`
}

// StatusReport is `headroom tune --status`.
type StatusReport struct {
	Keys []KeyStatus `json:"keys"`
	// Verifications are the --verify comparisons of the journal's entries.
	Verifications []EntryVerification `json:"verifications,omitempty"`
	Problems      []string            `json:"problems,omitempty"`
}

// EntryVerification pairs an entry with its --verify comparison.
type EntryVerification struct {
	Entry  int           `json:"entry"`
	Netns  string        `json:"netns,omitempty"`
	State  State         `json:"state"`
	Verify *Verification `json:"verify"`
}

// Drifted is the keys whose value is no longer headroom's.
func (r *StatusReport) Drifted() []KeyStatus {
	var out []KeyStatus
	for _, k := range r.Keys {
		if k.Drifted {
			out = append(out, k)
		}
	}
	return out
}

// Overridden is the persisted keys that a later boot file sets again.
func (r *StatusReport) Overridden() []KeyStatus {
	var out []KeyStatus
	for _, k := range r.Keys {
		if k.Overridden {
			out = append(out, k)
		}
	}
	return out
}

// StatusOptions says where to look.
type StatusOptions struct {
	// OpenFS gives the sysctls of a namespace ("" for the host); ErrNoNetns when it is gone.
	OpenFS func(netns string) (SysctlFS, func(), error)
	// BootRoot is the directory the boot configuration is read under ("/" on a host).
	BootRoot string
	// Runner runs ethtool and tc in a namespace ("" for the host), for the NIC changes; nil
	// leaves their value now unknown.
	Runner func(netns string) Runner
	// SysctlDir is the --sysctl-dir: a drop-in named DropInName there is headroom's even when
	// no journal entry persisted it (as host paths, relative to BootRoot).
	SysctlDir string
}

// Status reads each key that the journal's applied entries wrote, newest entry per key.
func Status(ctx context.Context, jf *JournalFile, opt StatusOptions) *StatusReport {
	rep := &StatusReport{}
	type slot struct {
		e *Entry
		r Record
	}
	latest := map[string]slot{}
	var order []string
	entries := append([]*Entry(nil), jf.Entries...)
	sort.Slice(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	var ours []string
	if opt.SysctlDir != "" {
		ours = append(ours, hostPath(opt.BootRoot, filepath.Join(opt.SysctlDir, DropInName)))
	}
	for _, e := range entries {
		if e.Verify != nil {
			rep.Verifications = append(rep.Verifications, EntryVerification{Entry: e.ID, Netns: e.Netns, State: e.State, Verify: e.Verify})
		}
		if e.State != StateApplied {
			continue
		}
		if e.Persist != nil && e.Netns == "" {
			ours = append(ours, hostPath(opt.BootRoot, e.Persist.Path))
		}
		for _, r := range e.Changes {
			if r.Kind == model.ChangeOther || r.Status != StatusWritten {
				continue
			}
			id := e.Netns + "\x00" + r.Kind + "\x00" + r.Key
			if _, ok := latest[id]; !ok {
				order = append(order, id)
			}
			latest[id] = slot{e, r}
		}
	}
	boot := LoadBootConfig(opt.BootRoot, ours)
	rep.Problems = append(rep.Problems, boot.Problems...)
	fsByNetns := map[string]SysctlFS{}
	fsErr := map[string]error{}
	for _, id := range order {
		s := latest[id]
		ks := KeyStatus{Key: s.r.Key, Kind: s.r.Kind, Netns: s.e.Netns, Entry: s.e.ID, Time: s.e.Time, Old: NormalizeValue(s.r.Old), Applied: NormalizeValue(s.r.New)}
		if s.r.Kind != model.ChangeSysctl {
			nicStatus(ctx, &ks, opt.Runner)
			rep.Keys = append(rep.Keys, ks)
			continue
		}
		fs, seen := fsByNetns[s.e.Netns]
		if !seen && fsErr[s.e.Netns] == nil && opt.OpenFS != nil {
			f, release, err := opt.OpenFS(s.e.Netns)
			if err != nil {
				fsErr[s.e.Netns] = err
			} else {
				defer release()
				fsByNetns[s.e.Netns], fs = f, f
			}
		}
		switch {
		case fs != nil:
			v, err := fs.Read(s.r.Key)
			if err != nil {
				ks.NowErr = err.Error()
			} else {
				ks.Now = NormalizeValue(v)
				ks.Drifted = !SameValue(v, s.r.New)
			}
		case errors.Is(fsErr[s.e.Netns], ErrNoNetns):
			ks.NowErr = fmt.Sprintf("network namespace %s no longer exists", s.e.Netns)
		case fsErr[s.e.Netns] != nil:
			ks.NowErr = fsErr[s.e.Netns].Error()
		default:
			ks.NowErr = "no sysctl file system to read"
		}
		if s.e.Netns != "" {
			ks.AtBoot = "a network namespace starts from the kernel's defaults: nothing at boot sets it"
		} else {
			ks.Boot = boot.For(s.r.Key)
			describeBoot(&ks)
		}
		if ks.Drifted {
			ks.Cause = driftCause(ks)
		}
		rep.Keys = append(rep.Keys, ks)
	}
	return rep
}

// nicStatus reads a ring size or qdisc now. Neither is set by any boot file headroom knows:
// a ring size returns to the driver's default when the driver reloads or the host boots,
// and a qdisc to the kernel's default.
func nicStatus(ctx context.Context, ks *KeyStatus, runner func(string) Runner) {
	ks.AtBoot = "not persisted: the driver's default ring size returns at the next boot or driver reload (persist it with the distribution's network configuration or TuneD's [net] ring=)"
	if ks.Kind == model.ChangeTC {
		ks.AtBoot = "not persisted: the kernel's default qdisc returns at the next boot"
	}
	if runner == nil {
		ks.NowErr = "no command runner to read it"
		return
	}
	t, err := makeTarget(ks.Kind, ks.Key, nil, runner(ks.Netns))
	if err == nil {
		var cur string
		if cur, err = t.read(ctx); err == nil {
			ks.Now = NormalizeValue(cur)
			ks.Drifted = !t.isNew(cur, ks.Applied)
			if ks.Drifted {
				ks.Cause = "unknown: a driver reload, a link reset that re-initialised the device, or another tool"
			}
		}
	}
	if err != nil {
		ks.NowErr = err.Error()
	}
}

// hostPath turns a path under the test root back into the host's path.
func hostPath(root, p string) string {
	p = filepath.Clean(p)
	if root == "" || root == "/" {
		return p
	}
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return "/" + rel
	}
	return p
}

func describeBoot(ks *KeyStatus) {
	oursAt := -1
	for i, b := range ks.Boot {
		if b.Ours {
			oursAt = i
			ks.DropIn = b.File
		}
	}
	if len(ks.Boot) == 0 {
		ks.AtBoot = "not persisted: nothing sets it at boot, so it reverts to the kernel's default (" + "headroom tune --apply --persist keeps it)"
		return
	}
	last := ks.Boot[len(ks.Boot)-1]
	switch {
	case oursAt == len(ks.Boot)-1:
		ks.OursWins = SameValue(last.Value, ks.Applied)
		ks.AtBoot = fmt.Sprintf("headroom's drop-in wins: %s:%d sets %s last", last.File, last.Line, last.Value)
		if !ks.OursWins {
			ks.AtBoot += fmt.Sprintf(", not the %s headroom applied", ks.Applied)
		}
	case oursAt >= 0:
		ks.Overridden = true
		ks.AtBoot = fmt.Sprintf("OVERRIDDEN at boot: %s:%d sets %s after headroom's drop-in %s:%d (%s)",
			last.File, last.Line, last.Value, ks.Boot[oursAt].File, ks.Boot[oursAt].Line, last.By)
	default:
		ks.AtBoot = fmt.Sprintf("not persisted by headroom: %s:%d sets %s at boot (%s)", last.File, last.Line, last.Value, last.By)
	}
}

// driftCause says what is known of who changed a key: a boot file or profile that sets the
// value found now (re-applied by `sysctl --system`, systemd-sysctl or TuneD), or a kernel
// mechanism.
func driftCause(ks KeyStatus) string {
	for i := len(ks.Boot) - 1; i >= 0; i-- {
		if b := ks.Boot[i]; SameValue(b.Value, ks.Now) && !b.Ours {
			return fmt.Sprintf("the value %s:%d sets (%s): that file was applied again after headroom", b.File, b.Line, b.By)
		}
	}
	if ks.Key == "vm.min_free_kbytes" && ks.Netns == "" {
		// khugepaged's set_recommended_min_free_kbytes (mm/khugepaged.c) raises
		// min_free_kbytes when transparent hugepages are enabled or khugepaged starts.
		return "unknown; khugepaged raises it when transparent hugepages are enabled (set_recommended_min_free_kbytes, mm/khugepaged.c)"
	}
	if SameValue(ks.Now, ks.Old) {
		return "unknown: it holds the value from before headroom again (a reboot without --persist, or someone restored it)"
	}
	return "unknown: neither a boot file nor the value from before headroom"
}

// WriteStatus prints the report for people.
func WriteStatus(w io.Writer, rep *StatusReport) error {
	var b strings.Builder
	if len(rep.Keys) == 0 {
		b.WriteString("no applied settings in the journal\n")
	}
	for _, k := range rep.Keys {
		where := ""
		if k.Netns != "" {
			where = " (network namespace " + k.Netns + ")"
		}
		name := k.Key
		if k.Kind != "" && k.Kind != model.ChangeSysctl {
			name = k.Kind + " " + k.Key
		}
		fmt.Fprintf(&b, "%s%s: entry %d set %s → %s\n", name, where, k.Entry, orUnknown(k.Old), k.Applied)
		switch {
		case k.NowErr != "":
			fmt.Fprintf(&b, "  now: unknown (%s)\n", k.NowErr)
		case k.Drifted:
			fmt.Fprintf(&b, "  now: %s  DRIFTED from %s; changed by: %s\n", k.Now, k.Applied, k.Cause)
		default:
			fmt.Fprintf(&b, "  now: %s  (as applied)\n", k.Now)
		}
		fmt.Fprintf(&b, "  next boot: %s\n", k.AtBoot)
		for _, s := range k.Boot {
			mark := ""
			if s.Ours {
				mark = "  [headroom]"
			}
			fmt.Fprintf(&b, "    %s:%d  %s = %s  (%s)%s\n", s.File, s.Line, s.Key, s.Value, s.By, mark)
		}
	}
	for _, v := range rep.Verifications {
		fmt.Fprintf(&b, "entry %d verification (%s):\n", v.Entry, v.State)
		writeVerification(&b, v.Verify, "  ")
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "could not read: %s\n", p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
