package netlab

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"headroom/internal/uniq"
	"headroom/kernel"

	"golang.org/x/sys/unix"
)

// Objects are the host objects of one run that are not network namespaces: cgroups, zram
// devices, the swap areas on them, and scratch files. Each is journaled in
// /run/headroom-lab/<runid>.objects.json *before* it is created, so whatever happens to the
// run (error, panic, SIGINT, SIGKILL) either Close or the sweeper (CleanupObjects, called
// by Cleanup's callers) finds and removes it. The owner is identified like a run's owner
// file (pid and process start time), and the sweeper only touches objects named in the
// journal of a dead run: cgroups named "hr-<runid>-...", zram devices whose swap label is
// "hr-<runid>" (or that were never formatted), files under the run's own directory.
type Objects struct {
	RunID string

	mu     sync.Mutex
	rec    objectsRecord
	closed bool
}

type objectsRecord struct {
	RunID      string   `json:"run_id"`
	PID        int      `json:"pid"`
	StartTicks uint64   `json:"start_ticks"`
	Cgroups    []string `json:"cgroups,omitempty"` // directories, removed in reverse order
	Zram       []int    `json:"zram,omitempty"`    // /dev/zramN created with hot_add
	Swaps      []string `json:"swaps,omitempty"`   // devices given to swapon
	Dirs       []string `json:"dirs,omitempty"`    // scratch directories, removed with their contents
	// Procs are processes the run started that must not outlive it (lab/vm's QEMU): killed
	// first, before anything they hold is removed.
	Procs []journaledProc `json:"procs,omitempty"`
}

// journaledProc identifies a process as an owner file does: pid and start time, so a sweep
// never kills a process that reused the pid.
type journaledProc struct {
	PID        int    `json:"pid"`
	StartTicks uint64 `json:"start_ticks"`
	Comm       string `json:"comm,omitempty"`
}

// objectsSuffix is not ".json" alone, so part 1's owner-file sweeper (which wants
// "<runid>.json") leaves these files to CleanupObjects.
const objectsSuffix = ".objects.json"

func objectsPath(runID string) string { return filepath.Join(ownerDir, runID+objectsSuffix) }

// scratchRoot holds the runs' scratch directories. It must be on a block-device file system
// (not tmpfs): page-cache-pressure reads a sparse file there, and only a disk-backed file
// fills the page cache (tmpfs pages are shmem, reclaimed by swapping).
var scratchRoot = "/var/tmp/headroom-lab"

// NewObjects starts the journal of run runID (the Lab's RunID).
func NewObjects(runID string) (*Objects, error) {
	if !isRunID(runID) {
		return nil, fmt.Errorf("lab: objects: bad run id %q", runID)
	}
	st, err := processStartTicks(os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("lab: own start time: %w", err)
	}
	o := &Objects{RunID: runID, rec: objectsRecord{RunID: runID, PID: os.Getpid(), StartTicks: st}}
	if err := o.save(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *Objects) save() error { return writeState(objectsPath(o.RunID), &o.rec) }

func (o *Objects) journal(f func(r *objectsRecord)) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return fmt.Errorf("lab: run %s: objects already released", o.RunID)
	}
	f(&o.rec)
	return o.save()
}

// NewCgroup creates cgroup "hr-<runid>-<name>" in the v1 memory hierarchy (or the v2 one
// when memory is a v2 controller) and, for its pressure file, in the v2 hierarchy.
func (o *Objects) NewCgroup(name string) (*Cgroup, error) {
	if name == "" || strings.ContainsAny(name, "/. \n") {
		return nil, fmt.Errorf("lab: bad cgroup name %q", name)
	}
	m, err := findCgroupMounts()
	if err != nil {
		return nil, err
	}
	full := NamePrefix + o.RunID + "-" + name
	c := &Cgroup{Name: full}
	if m.V1Memory != "" && !m.v2Memory() {
		c.V1Memory = filepath.Join(m.V1Memory, full)
	}
	if m.V2 != "" {
		c.V2 = filepath.Join(m.V2, full)
	}
	if c.V1Memory == "" && !m.v2Memory() {
		return nil, fmt.Errorf("lab: no memory cgroup controller mounted (v1 or v2)")
	}
	if err := o.journal(func(r *objectsRecord) { r.Cgroups = append(r.Cgroups, c.Dirs()...) }); err != nil {
		return nil, err
	}
	for _, d := range c.Dirs() {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, fmt.Errorf("lab: create cgroup %s: %w", d, err)
		}
	}
	return c, nil
}

// NewDir creates the run's scratch directory /var/tmp/headroom-lab/<runid>/<name>.
func (o *Objects) NewDir(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, "/ \n") || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("lab: bad scratch directory name %q", name)
	}
	d := filepath.Join(scratchRoot, o.RunID, name)
	if err := o.journal(func(r *objectsRecord) { r.Dirs = append(r.Dirs, filepath.Join(scratchRoot, o.RunID)) }); err != nil {
		return "", err
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", fmt.Errorf("lab: create %s: %w", d, err)
	}
	return d, nil
}

// TrackProcess journals process pid (started by this run, e.g. with Pdeathsig) so that Close
// and the sweeper kill it if it is still running. Call it right after the process started.
func (o *Objects) TrackProcess(pid int) error {
	st, err := processStartTicks(pid)
	if err != nil {
		return fmt.Errorf("lab: process %d: %w", pid, err)
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	p := journaledProc{PID: pid, StartTicks: st, Comm: strings.TrimSpace(string(comm))}
	return o.journal(func(r *objectsRecord) { r.Procs = append(r.Procs, p) })
}

// killJournaled kills p if it is still the process that was journaled, and waits up to 5 s
// until it is gone (a zombie counts as gone: it holds no files, devices or memory).
func killJournaled(p journaledProc) error {
	ow := owner{PID: p.PID, StartTicks: p.StartTicks}
	if !ow.alive() {
		return nil
	}
	if err := unix.Kill(p.PID, unix.SIGKILL); err != nil && !errors.Is(err, unix.ESRCH) {
		return fmt.Errorf("lab: kill process %d (%s): %w", p.PID, p.Comm, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ow.alive(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("lab: process %d (%s) still alive 5s after SIGKILL", p.PID, p.Comm)
		}
	}
	return nil
}

// Zram device control (Documentation/admin-guide/blockdev/zram.rst): reading hot_add creates
// a device and prints its number; writing the number to hot_remove deletes it (EBUSY while
// it is open, e.g. as swap).
var zramControl = "/sys/class/zram-control"

// NewZramSwap creates a zram device of sizeBytes, writes a swap signature labelled
// "hr-<runid>" on it and enables it as swap with the given priority. It returns the device
// path. Close (or the sweeper) disables the swap and removes the device.
func (o *Objects) NewZramSwap(sizeBytes int64, priority int) (string, error) {
	if _, err := os.Stat(filepath.Join(zramControl, "hot_add")); err != nil {
		return "", fmt.Errorf("lab: zram hot_add (CONFIG_ZRAM, zram module loaded): %w", errors.Join(err, kernel.ErrNotSupported))
	}
	// Journaled as soon as the number is known; a crash between hot_add and the journal
	// write (microseconds) would leave an empty device the sweeper cannot attribute.
	b, err := os.ReadFile(filepath.Join(zramControl, "hot_add"))
	if err != nil {
		return "", fmt.Errorf("lab: zram hot_add: %w", err)
	}
	id, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return "", fmt.Errorf("lab: zram hot_add printed %q: %w", b, err)
	}
	if err := o.journal(func(r *objectsRecord) { r.Zram = append(r.Zram, id) }); err != nil {
		os.WriteFile(filepath.Join(zramControl, "hot_remove"), []byte(strconv.Itoa(id)), 0)
		return "", err
	}
	dev := fmt.Sprintf("/dev/zram%d", id)
	if err := os.WriteFile(fmt.Sprintf("/sys/block/zram%d/disksize", id), []byte(strconv.FormatInt(sizeBytes, 10)), 0); err != nil {
		return "", fmt.Errorf("lab: zram%d disksize %d: %w", id, sizeBytes, err)
	}
	if err := writeSwapHeader(dev, sizeBytes, swapLabel(o.RunID)); err != nil {
		return "", err
	}
	if err := o.journal(func(r *objectsRecord) { r.Swaps = append(r.Swaps, dev) }); err != nil {
		return "", err
	}
	if err := swapon(dev, priority); err != nil {
		return "", err
	}
	return dev, nil
}

func swapLabel(runID string) string { return NamePrefix + runID }

// writeSwapHeader writes what mkswap(8) writes (include/linux/swap.h union swap_header,
// checked by mm/swapfile.c read_swap_header): in the first page, at byte 1024, version 1,
// the last usable page, no bad pages, a UUID (left zero) and a 16-byte volume label; the
// magic "SWAPSPACE2" in the last 10 bytes of the page. Fields are native-endian (x86 and
// arm are little-endian; swapon rejects a header of the other endianness).
func writeSwapHeader(dev string, sizeBytes int64, label string) error {
	page := os.Getpagesize()
	pages := sizeBytes / int64(page)
	if pages < 10 {
		return fmt.Errorf("lab: swap on %s: %d bytes is too small", dev, sizeBytes)
	}
	hdr := make([]byte, page)
	ne := binary.NativeEndian
	ne.PutUint32(hdr[1024:], 1)                     // version
	ne.PutUint32(hdr[1028:], uint32(pages-1))       // last_page
	ne.PutUint32(hdr[1032:], 0)                     // nr_badpages
	copy(hdr[1024+12+16:1024+12+32], []byte(label)) // sws_volume, after sws_uuid[16]
	copy(hdr[page-10:], "SWAPSPACE2")
	f, err := os.OpenFile(dev, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("lab: open %s: %w", dev, err)
	}
	defer f.Close()
	if _, err := f.WriteAt(hdr, 0); err != nil {
		return fmt.Errorf("lab: write swap header to %s: %w", dev, err)
	}
	return f.Sync()
}

// readSwapLabel returns the volume label of a swap signature on dev, "" when dev has none.
func readSwapLabel(dev string) string {
	f, err := os.Open(dev)
	if err != nil {
		return ""
	}
	defer f.Close()
	page := os.Getpagesize()
	hdr := make([]byte, page)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		return ""
	}
	if string(hdr[page-10:]) != "SWAPSPACE2" {
		return ""
	}
	l := hdr[1024+12+16 : 1024+12+32]
	if i := strings.IndexByte(string(l), 0); i >= 0 {
		l = l[:i]
	}
	return string(l)
}

// swapon(2) with SWAP_FLAG_PREFER when priority ≥ 0 (include/linux/swap.h: SWAP_FLAG_PREFER
// 0x8000, the priority in the low 15 bits).
func swapon(dev string, priority int) error {
	p, err := unix.BytePtrFromString(dev)
	if err != nil {
		return err
	}
	flags := 0
	if priority >= 0 {
		flags = 0x8000 | (priority & 0x7fff)
	}
	if _, _, e := unix.Syscall(unix.SYS_SWAPON, uintptr(unsafe.Pointer(p)), uintptr(flags), 0); e != 0 {
		return fmt.Errorf("lab: swapon %s: %w", dev, e)
	}
	return nil
}

func swapoff(dev string) error {
	p, err := unix.BytePtrFromString(dev)
	if err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SWAPOFF, uintptr(unsafe.Pointer(p)), 0, 0); e != 0 {
		if e == unix.EINVAL && !swapActive(dev) {
			return nil // not (or no longer) a swap area
		}
		return fmt.Errorf("lab: swapoff %s: %w", dev, e)
	}
	return nil
}

// swapActive reports whether dev is listed in /proc/swaps.
func swapActive(dev string) bool {
	b, err := os.ReadFile("/proc/swaps")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && f[0] == dev {
			return true
		}
	}
	return false
}

// Close releases everything journaled, in the order that frees what the next step needs:
// cgroups first (their helper processes are killed, which frees their memory, so swapoff
// has nothing to read back), then swap areas, zram devices and scratch directories; the
// journal goes last, and stays if something could not be released, for the sweeper.
func (o *Objects) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	if err := releaseObjects(&o.rec); err != nil {
		o.save()
		return err
	}
	if err := os.Remove(objectsPath(o.RunID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: remove %s: %w", objectsPath(o.RunID), err)
	}
	return nil
}

// releaseObjects removes what r names; what it released is dropped from r, so a second
// attempt retries only what failed.
func releaseObjects(r *objectsRecord) error {
	var errs []error
	var keepP []journaledProc
	for _, p := range r.Procs {
		if err := killJournaled(p); err != nil {
			errs = append(errs, err)
			keepP = append(keepP, p)
		}
	}
	r.Procs = keepP
	var keepCg []string
	for i := len(r.Cgroups) - 1; i >= 0; i-- {
		if err := removeCgroupDir(r.Cgroups[i]); err != nil {
			errs = append(errs, err)
			keepCg = append([]string{r.Cgroups[i]}, keepCg...)
		}
	}
	r.Cgroups = keepCg
	var keepSw []string
	for _, dev := range r.Swaps {
		if err := swapoff(dev); err != nil {
			errs = append(errs, err)
			keepSw = append(keepSw, dev)
		}
	}
	r.Swaps = keepSw
	var keepZ []int
	for _, id := range r.Zram {
		if err := removeZram(id, r.RunID); err != nil {
			errs = append(errs, err)
			keepZ = append(keepZ, id)
		}
	}
	r.Zram = keepZ
	var keepD []string
	for _, d := range uniq.Stable(r.Dirs) {
		if !strings.HasPrefix(d, scratchRoot+"/") {
			errs = append(errs, fmt.Errorf("lab: journaled directory %s is outside %s: not removing it", d, scratchRoot))
			continue
		}
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, fmt.Errorf("lab: remove %s: %w", d, err))
			keepD = append(keepD, d)
		}
	}
	r.Dirs = keepD
	return errors.Join(errs...)
}

// removeZram deletes zram device id if it is still the run's: labelled "hr-<runid>", or
// never formatted (disksize 0 or no swap signature yet). A device with another signature was
// not made by this run (its number was reused after someone else removed ours) and is left.
func removeZram(id int, runID string) error {
	sys := fmt.Sprintf("/sys/block/zram%d", id)
	if _, err := os.Stat(sys); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	dev := fmt.Sprintf("/dev/zram%d", id)
	if l := readSwapLabel(dev); l != "" && l != swapLabel(runID) {
		return nil
	}
	if swapActive(dev) {
		if err := swapoff(dev); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(zramControl, "hot_remove"), []byte(strconv.Itoa(id)), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: zram hot_remove %d: %w", id, err)
	}
	return nil
}

// CleanupObjects releases the objects of dead runs whose run id starts with the id part of
// prefix (NamePrefix for all runs, NamePrefix+runID+"-" for one). A live run's objects are
// left alone. It returns what it removed, for `headroom lab cleanup`.
func CleanupObjects(prefix string) ([]string, error) {
	if !strings.HasPrefix(prefix, NamePrefix) {
		return nil, fmt.Errorf("lab: cleanup prefix %q must start with %q", prefix, NamePrefix)
	}
	want := strings.TrimSuffix(strings.TrimPrefix(prefix, NamePrefix), "-")
	es, err := os.ReadDir(ownerDir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("lab: read %s: %w", ownerDir, err)
	}
	var removed []string
	var errs []error
	for _, e := range es {
		id, ok := strings.CutSuffix(e.Name(), objectsSuffix)
		if !ok || !isRunID(id) || !strings.HasPrefix(id, want) {
			continue
		}
		b, err := os.ReadFile(objectsPath(id))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var r objectsRecord
		if err := json.Unmarshal(b, &r); err != nil {
			errs = append(errs, fmt.Errorf("lab: %s: %w", objectsPath(id), err))
			continue
		}
		ow := owner{PID: r.PID, StartTicks: r.StartTicks}
		if r.RunID != id || ow.alive() {
			continue
		}
		// Only objects named like this run's: a corrupted or foreign journal must not make the
		// sweeper remove someone else's cgroup.
		var cg []string
		for _, d := range r.Cgroups {
			if strings.HasPrefix(filepath.Base(d), NamePrefix+id+"-") {
				cg = append(cg, d)
			}
		}
		r.Cgroups = cg
		desc := describeObjects(&r)
		if err := releaseObjects(&r); err != nil {
			// Two sweepers of one dead run (its guardian, and the start of another
			// process's run) race: when the other has released the objects and removed
			// the journal meanwhile, what failed here was gone already. Writing the journal
			// back would leave a journal of nothing (seen beside another make check:
			// 5786e772.objects.json after its guardian had swept the run).
			if _, serr := os.Stat(objectsPath(id)); errors.Is(serr, os.ErrNotExist) {
				continue
			}
			errs = append(errs, err)
			b, _ := json.Marshal(&r)
			os.WriteFile(objectsPath(id), b, 0o644)
			continue
		}
		removed = append(removed, desc...)
		if err := os.Remove(objectsPath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}

func describeObjects(r *objectsRecord) []string {
	var out []string
	for _, p := range r.Procs {
		if (&owner{PID: p.PID, StartTicks: p.StartTicks}).alive() {
			out = append(out, fmt.Sprintf("process %d (%s)", p.PID, p.Comm))
		}
	}
	for _, c := range r.Cgroups {
		out = append(out, "cgroup "+c)
	}
	for _, s := range r.Swaps {
		out = append(out, "swap "+s)
	}
	for _, z := range r.Zram {
		out = append(out, fmt.Sprintf("zram device %d", z))
	}
	for _, d := range uniq.Stable(r.Dirs) {
		out = append(out, "directory "+d)
	}
	return out
}

// CleanupAll is what `headroom lab cleanup` and every run's start do: the namespaces and
// global sysctls of dead runs (Cleanup) and their other objects (CleanupObjects).
// It also returns what the guardians of killed runs did (guardian.go) since the last sweep.
func CleanupAll(prefix string) ([]string, error) {
	removed, err := Cleanup(prefix)
	more, err2 := CleanupObjects(prefix)
	removed = append(removed, more...)
	var err3 error
	if prefix == NamePrefix {
		var reports []string
		reports, err3 = collectGuardianReports()
		removed = append(reports, removed...)
	}
	return removed, errors.Join(err, err2, err3)
}
