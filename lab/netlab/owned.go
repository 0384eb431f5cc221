package netlab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// What lab runs leave on the host, for the leak checks of the tests of this package and of
// the packages built on it: every run must leave the host as it found it, also when it was
// interrupted or killed. Runs of other live processes (`go test ./...` runs the cmd
// package's lab test beside the lab's) are left out, so a check sees only its own runs.

// Owned is the lab's property on the host at one moment.
type Owned struct {
	Netns   []string // lab namespaces in /run/netns
	Owners  []string // owner files (<runid>.json) in /run/headroom-lab
	Cgroups []string // hr-<runid>-* directories in the cgroup hierarchies
	Swaps   []string // devices in /proc/swaps (all of them: a run's zram swap has no run id)
	Zram    []string // zram devices in /sys/block
	Scratch []string // run directories under the scratch root
	Objects []string // object journals (<runid>.objects.json)
}

// SnapshotOwned lists what the lab owns on the host now.
func SnapshotOwned() (Owned, error) {
	var o Owned
	o.Netns = ownNames(dirNames(netnsDir), func(n string) (string, bool) { return runIDOf(n) })
	o.Owners = ownNames(dirNames(ownerDir), func(n string) (string, bool) {
		id, ok := strings.CutSuffix(n, ".json")
		return id, ok && isRunID(id)
	})
	m, err := findCgroupMounts()
	if err != nil {
		return o, err
	}
	for _, root := range []string{m.V1Memory, m.V2} {
		if root == "" {
			continue
		}
		for _, n := range ownNames(dirNames(root), func(n string) (string, bool) { return runIDOf(n) }) {
			o.Cgroups = append(o.Cgroups, filepath.Join(root, n))
		}
	}
	if b, err := os.ReadFile("/proc/swaps"); err == nil {
		for _, line := range strings.Split(string(b), "\n")[1:] {
			if f := strings.Fields(line); len(f) > 0 {
				o.Swaps = append(o.Swaps, f[0])
			}
		}
	}
	for _, n := range dirNames("/sys/block") {
		if strings.HasPrefix(n, "zram") {
			o.Zram = append(o.Zram, n)
		}
	}
	o.Scratch = ownNames(dirNames(scratchRoot), func(n string) (string, bool) { return n, isRunID(n) })
	o.Objects = ownNames(dirNames(ownerDir), func(n string) (string, bool) {
		id, ok := strings.CutSuffix(n, objectsSuffix)
		return id, ok && isRunID(id)
	})
	return o, nil
}

// Changes says, one line per kind, what differs between o (before) and after.
func (o Owned) Changes(after Owned) []string {
	var out []string
	eq := func(what string, a, b []string) {
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			out = append(out, fmt.Sprintf("%s changed:\nbefore %q\nafter  %q", what, a, b))
		}
	}
	eq("namespaces in "+netnsDir, o.Netns, after.Netns)
	eq("owner files", o.Owners, after.Owners)
	eq("lab cgroups", o.Cgroups, after.Cgroups)
	eq("swap areas", o.Swaps, after.Swaps)
	eq("zram devices", o.Zram, after.Zram)
	eq("scratch directories", o.Scratch, after.Scratch)
	eq("object journals", o.Objects, after.Objects)
	return out
}

// RunChanges is Changes of the runs mine accepts (Only), without the swap areas and zram
// devices, which carry no run id: a test of a run that creates neither uses it, so that
// another process's swap coming or going while it runs does not count as its leak.
func (o Owned) RunChanges(after Owned, mine func(runID string) bool) []string {
	o, after = o.Only(mine), after.Only(mine)
	o.Swaps, o.Zram, after.Swaps, after.Zram = nil, nil, nil, nil
	return o.Changes(after)
}

// Only keeps the objects of the runs that mine accepts (Mine). Swap areas and zram devices
// carry no run id and are kept as they are: a check compares them only when no other run
// was live (Others).
func (o Owned) Only(mine func(runID string) bool) Owned {
	keep := func(names []string, id func(string) (string, bool)) []string {
		var out []string
		for _, n := range names {
			if run, ok := id(n); ok && mine(run) {
				out = append(out, n)
			}
		}
		return out
	}
	suffixed := func(suffix string) func(string) (string, bool) {
		return func(n string) (string, bool) { return strings.CutSuffix(filepath.Base(n), suffix) }
	}
	o.Netns = keep(o.Netns, runIDOf)
	o.Owners = keep(o.Owners, suffixed(".json"))
	o.Cgroups = keep(o.Cgroups, func(p string) (string, bool) { return runIDOf(filepath.Base(p)) })
	o.Scratch = keep(o.Scratch, func(n string) (string, bool) { return n, true })
	o.Objects = keep(o.Objects, suffixed(objectsSuffix))
	return o
}

// startedHere holds the run ids New picked in this process.
var startedHere sync.Map

// Mine is the filter of a leak check: a run is the check's own when New started it in this
// process or when it is one of children, the run ids of the child processes the test
// started. Another process's run (another `go test` beside this one, a helper's `lab run`)
// is not, also after it was killed and before its guardian swept it: its leftovers are
// that run's business, not a leak of this test.
func Mine(children ...string) func(runID string) bool {
	return func(id string) bool {
		if _, ok := startedHere.Load(id); ok {
			return true
		}
		return slices.Contains(children, id)
	}
}

// RunsOnHost lists the run ids that have an owner file now (live runs, and killed runs
// that no sweep has removed yet), each with the global sysctls its journal names, as
// /proc/sys paths. A leak check polls it while it watches (Others).
func RunsOnHost() map[string][]string {
	out := map[string][]string{}
	for _, n := range dirNames(ownerDir) {
		id, ok := strings.CutSuffix(n, ".json")
		if !ok || !isRunID(id) {
			continue
		}
		var keys []string
		if o, err := readOwner(id); err == nil {
			for _, j := range o.Sysctls {
				if p, err := SysctlPath(j.Key); err == nil {
					keys = append(keys, p)
				}
			}
		}
		out[id] = keys
	}
	return out
}

// RunOf extracts <runid> from a lab namespace or cgroup name, "hr-<runid>-<host>".
func RunOf(name string) (runID string, ok bool) { return runIDOf(name) }

// OtherLiveRun reports whether runID belongs to a lab run of another process that is still
// alive.
func OtherLiveRun(runID string) bool {
	o, err := readOwner(runID)
	return err == nil && o.PID != os.Getpid() && o.alive()
}

// ownNames keeps the names that id recognises as a run's and that no other live process
// owns, sorted.
func ownNames(names []string, id func(string) (string, bool)) []string {
	var out []string
	for _, n := range names {
		if run, ok := id(n); ok && !OtherLiveRun(run) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func dirNames(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// WaitGuardianReport waits up to within for the guardian of the killed run runID to write
// its report (guardian.go), returns it and removes it.
func WaitGuardianReport(runID string, within time.Duration) (GuardianReport, error) {
	return waitGuardianReport(runID, within, true)
}

// waitGuardianReport is WaitGuardianReport that leaves the report for the next sweep to
// print when remove is false.
func waitGuardianReport(runID string, within time.Duration, remove bool) (GuardianReport, error) {
	p := filepath.Join(ownerDir, runID+guardianSuffix)
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		b, err := os.ReadFile(p)
		if err == nil {
			var rep GuardianReport
			if err := json.Unmarshal(b, &rep); err != nil {
				return rep, fmt.Errorf("lab: %s: %w", p, err)
			}
			if remove {
				err = os.Remove(p)
			}
			return rep, err
		}
		if time.Now().After(deadline) {
			return GuardianReport{}, fmt.Errorf("lab: no guardian report %s within %v", p, within)
		}
	}
}

// SwapActive reports whether dev is in use as swap.
func SwapActive(dev string) bool { return swapActive(dev) }

// CgroupProcs lists the processes in the cgroup directory dir.
func CgroupProcs(dir string) []int { return cgroupProcs(dir) }

// ZramAvailable says why NewZramSwap cannot work here (nil: it can).
func ZramAvailable() error {
	_, err := os.Stat(filepath.Join(zramControl, "hot_add"))
	return err
}

// JournaledSysctl is what run runID's journal says of the global sysctl key: its value before
// the run and the values the run wrote (ok false: no live journal of the run names key). A
// test that changes a global in a child process checks the change against it, not against
// a value it read itself, which another process's run may have changed in the meantime.
func JournaledSysctl(runID, key string) (old string, set []string, ok bool) {
	o, err := readOwner(runID)
	if err != nil {
		return "", nil, false
	}
	for _, j := range o.Sysctls {
		if j.Key == key {
			return j.Old, j.Set, true
		}
	}
	return "", nil, false
}
