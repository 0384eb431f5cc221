package tune

// Trust: who may make headroom write to a host. The journal tells a root rollback which
// sysctls to set, to what, where, and which file to rewrite; whoever can write the journal
// can make root write. So the journal is believed only when nobody but the caller (or root)
// could have written it, and even then a rollback writes only what an apply could have
// written: bounded keys with values inside their bounds, in the sysctl tree and network
// namespace the entry was applied to, and a drop-in directly inside the --sysctl-dir of
// that apply. docs/tune.md "Trust" states the model.

import (
	"errors"
	"fmt"
	"headroom/plan"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"headroom/model"
)

// TrustError refuses a state directory, journal or entry that headroom must not act on.
type TrustError struct {
	Path    string
	Problem string
}

func (e *TrustError) Error() string {
	return fmt.Sprintf("refusing %s: %s", e.Path, e.Problem)
}

// checkOwner refuses what the caller should not trust, as OpenSSH's StrictModes and sudo
// do for their own files: owned by someone other than the caller or root, or writable by
// group or others (unless sticky, for a directory above the state directory: in a sticky
// directory such as /tmp only an entry's owner may rename or remove it; see inode(7),
// S_ISVTX).
func checkOwner(path string, fi os.FileInfo, sticky bool) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &TrustError{Path: path, Problem: "cannot tell its owner"}
	}
	euid := uint32(os.Geteuid())
	if st.Uid != euid && st.Uid != 0 {
		return &TrustError{Path: path, Problem: fmt.Sprintf("owned by uid %d, neither you (uid %d) nor root: another user could have planted what headroom would act on", st.Uid, euid)}
	}
	if fi.Mode().Perm()&0o022 != 0 && !(sticky && fi.Mode()&os.ModeSticky != 0) {
		return &TrustError{Path: path, Problem: fmt.Sprintf("writable by group or others (mode %04o): another user could have planted what headroom would act on; fix with chmod go-w", fi.Mode().Perm())}
	}
	return nil
}

// CheckStateDir refuses a state directory that another user could have written: the
// directory itself, after resolving symbolic links, and every directory above it (a
// writable parent lets its owner swap the state directory for another).
func CheckStateDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	for p, first := real, true; ; p, first = filepath.Dir(p), false {
		fi, err := os.Lstat(p)
		if err != nil {
			return fmt.Errorf("state directory %s: %w", dir, err)
		}
		if first && !fi.IsDir() {
			return &TrustError{Path: p, Problem: "not a directory"}
		}
		if err := checkOwner(p, fi, !first); err != nil {
			return err
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// openTrusted opens a journal or lock file without following a symbolic link and checks,
// on the open descriptor, that it is a regular file the caller may trust.
func openTrusted(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &TrustError{Path: path, Problem: "a symbolic link"}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &TrustError{Path: path, Problem: "not a regular file"}
	}
	if err == nil {
		err = checkOwner(path, fi, false)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// HostNetnsIno is the inode of the calling thread's network namespace: the identity the
// kernel prints as net:[INODE] in /proc/PID/ns/net (namespaces(7)). The goroutine is
// locked to its thread while it looks, since a thread of this process may have entered
// another namespace (NetnsFS does).
func HostNetnsIno() (uint64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return statIno("/proc/thread-self/ns/net")
}

// NetnsIno is the identity of the network namespace name: the inode of /run/netns/NAME,
// a bind mount of the namespace's nsfs file (ip-netns(8)); "" is the caller's own.
func NetnsIno(name string) (uint64, error) {
	if name == "" {
		return HostNetnsIno()
	}
	if !ValidNetnsName(name) {
		return 0, fmt.Errorf("network namespace name %q is not valid", name)
	}
	ino, err := statIno(NetnsDir + "/" + name)
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("network namespace %q: %w", name, ErrNoNetns)
	}
	return ino, err
}

func statIno(path string) (uint64, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return st.Ino, nil
}

// procSysRoot is the sysctl tree fs writes: the --proc-sys directory of a ProcSys, made
// absolute, /proc/sys inside a namespace; "" for another SysctlFS (tests' fakes).
func procSysRoot(fs SysctlFS) string {
	switch f := fs.(type) {
	case ProcSys:
		if abs, err := filepath.Abs(f.Dir); err == nil {
			return abs
		}
		return filepath.Clean(f.Dir)
	case *NetnsFS:
		return filepath.Clean(f.proc.Dir)
	}
	return ""
}

// stampEntry records where an apply writes, before the entry is journaled: the sysctl
// tree, the network namespace's identity and the drop-in's directory. A --persist into a
// directory that does not exist fails here, before the first write.
func (a *Applier) stampEntry(e *Entry) error {
	e.ProcSys = procSysRoot(a.FS)
	var ino uint64
	var err error
	switch n := a.FS.(type) {
	case *NetnsFS:
		// Asked from the thread that writes: that is the namespace the writes reach.
		n.Do(func() { ino, err = statIno("/proc/thread-self/ns/net") })
	default:
		if a.Netns == "" {
			ino, err = HostNetnsIno()
		} // else a test's fake file system: no namespace to identify
	}
	if err != nil {
		return fmt.Errorf("identifying the network namespace to journal: %w", err)
	}
	e.NetnsIno = ino
	if e.Persist != nil {
		dir := filepath.Dir(e.Persist.Path)
		fi, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("--persist: sysctl directory %s: %w (nothing was changed)", dir, err)
		}
		if !fi.IsDir() {
			return fmt.Errorf("--persist: sysctl directory %s is not a directory (nothing was changed)", dir)
		}
		e.SysctlDir = dir
		// The journal lock serialises every headroom that writes this drop-in, so a
		// temporary file of it is a killed run's leftover.
		removeStaleTemps(dir, filepath.Base(e.Persist.Path))
	}
	return nil
}

// knownState and knownStatus list what this headroom writes. Anything else comes from a
// newer headroom or a damaged or planted journal: rollback cannot tell what it changed.
func knownState(s State) bool {
	switch s {
	case StatePending, StateApplied, StateFailedRestored, StateFailedIncomplete, StateRolledBack:
		return true
	}
	return false
}

func knownStatus(s string) bool {
	switch s {
	case StatusPlanned, StatusWritten, StatusFailed, StatusRestored, StatusRestoreFailed,
		StatusRolledBack, StatusUnchanged, StatusConflict:
		return true
	}
	return false
}

// checkKnown refuses an entry with a state or status this headroom does not know.
func checkKnown(e *Entry) error {
	if !knownState(e.State) {
		return fmt.Errorf("journal entry %d has the unknown state %q: headroom cannot tell what it changed, so it will not guess (its keys may still be changed; inspect the journal)", e.ID, e.State)
	}
	for _, r := range e.Changes {
		if !knownStatus(r.Status) {
			return fmt.Errorf("journal entry %d: change %s has the unknown status %q: headroom cannot tell whether it is in effect, so it will not guess (inspect the journal)", e.ID, r.Key, r.Status)
		}
	}
	if p := e.Persist; p != nil && !knownStatus(p.Status) {
		return fmt.Errorf("journal entry %d: drop-in %s has the unknown status %q (inspect the journal)", e.ID, p.Path, p.Status)
	}
	return nil
}

// checkRestorable refuses, before anything of the entry is written, a rollback that
// would write what an apply could not have: a sysctl without a bound or an old value
// outside it, a ring size that is not one, a namespace name that is not one, and a drop-in
// outside the sysctl directory recorded at apply time.
func checkRestorable(e *Entry, limits plan.Limits) error {
	if e.Netns != "" && !ValidNetnsName(e.Netns) {
		return fmt.Errorf("journal entry %d: network namespace name %q is not valid", e.ID, e.Netns)
	}
	for _, r := range e.Changes {
		if !needsUndo(r.Status) {
			continue
		}
		switch r.Kind {
		case model.ChangeSysctl:
			if err := plan.CheckBound(r.Key, r.Old, limits); err != nil {
				return fmt.Errorf("journal entry %d: restoring %s is refused: %w (restore it by hand if the old value is right)", e.ID, r.Key, err)
			}
		case model.ChangeEthtool:
			if n, err := strconv.Atoi(NormalizeValue(r.Old)); err != nil || n < 1 {
				return fmt.Errorf("journal entry %d: restoring ring %s to %q is refused: not a positive ring size", e.ID, r.Key, r.Old)
			}
		case model.ChangeTC:
		default:
			return fmt.Errorf("journal entry %d: change %s has kind %q, which headroom never applies", e.ID, r.Key, r.Kind)
		}
	}
	if p := e.Persist; p != nil && p.Status != StatusRolledBack && p.Status != StatusUnchanged {
		dir := e.SysctlDir
		if dir == "" {
			dir = DefaultSysctlDir // entries written before headroom recorded the directory
		}
		base := filepath.Base(p.Path)
		if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir || filepath.Clean(p.Path) != p.Path ||
			filepath.Dir(p.Path) != dir || strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".conf") {
			return fmt.Errorf("journal entry %d: drop-in %q is refused: rollback writes only a .conf file directly inside the sysctl directory of the apply (%s)", e.ID, p.Path, dir)
		}
		if strings.ContainsRune(p.OldContent, 0) {
			return fmt.Errorf("journal entry %d: the old content of %s holds a NUL byte, which no sysctl.d file has", e.ID, p.Path)
		}
	}
	return nil
}

// needsUndo reports whether rollback visits a change of this status.
func needsUndo(status string) bool {
	switch status {
	case StatusPlanned, StatusWritten, StatusRestoreFailed, StatusFailed, StatusConflict:
		return true
	}
	return false
}

// errNetnsRecreated says that the namespace of an entry's name is another one now: the one
// headroom wrote was deleted, and its settings with it.
var errNetnsRecreated = errors.New("network namespace recreated")

// checkWhere refuses a rollback that would write somewhere other than where the entry was
// applied: another sysctl tree (--proc-sys) or another network namespace. A named
// namespace that was deleted and made again under the same name returns
// errNetnsRecreated: nothing of the entry is left in it to undo.
func checkWhere(e *Entry, fs SysctlFS) error {
	if fs != nil && e.ProcSys != "" {
		if cur := procSysRoot(fs); cur != e.ProcSys {
			return fmt.Errorf("journal entry %d was applied to the sysctl tree %s; this rollback would write %s: refusing (pass --proc-sys %s)", e.ID, e.ProcSys, orUnknown(cur), e.ProcSys)
		}
	}
	if e.NetnsIno == 0 {
		return nil // written before headroom recorded the namespace
	}
	ino, err := NetnsIno(e.Netns)
	if err != nil {
		return fmt.Errorf("journal entry %d: %w", e.ID, err)
	}
	if ino == e.NetnsIno {
		return nil
	}
	if e.Netns != "" {
		return fmt.Errorf("%w: %q is net:[%d] now, the entry wrote net:[%d]", errNetnsRecreated, e.Netns, ino, e.NetnsIno)
	}
	return fmt.Errorf("journal entry %d was applied in network namespace net:[%d]; this rollback runs in net:[%d]: refusing to write into another namespace (run it where the apply ran)", e.ID, e.NetnsIno, ino)
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown tree"
	}
	return s
}

// Renderable splits changes into those a renderer (--format shell, sysctl, tuned) may
// write and those --apply would refuse, so that a rendered file never carries a value
// headroom itself would not write: sysctls pass CheckBound as on apply; a ring size must
// be a positive integer (the driver's maximum needs the device, which a renderer does not
// read); tc parameters must be plain tokens with a rate.
func Renderable(changes []model.Change, l plan.Limits) (ok []model.Change, refused []Item) {
	for _, c := range changes {
		var err error
		switch c.Kind {
		case model.ChangeSysctl:
			err = plan.CheckBound(c.Key, c.Recommended, l)
		case model.ChangeEthtool:
			if _, _, err = ParseEthtoolKey(c.Key); err == nil {
				if n, aerr := strconv.Atoi(NormalizeValue(c.Recommended)); aerr != nil || n < 1 {
					err = &plan.BoundError{Key: c.Key, Value: c.Recommended, Problem: "not a positive ring size"}
				}
			}
		case model.ChangeTC:
			if _, _, err = ParseTCKey(c.Key); err == nil {
				err = checkTCParams(c.Recommended)
			}
		}
		if err != nil {
			refused = append(refused, Item{Change: c, Action: ActionRefused, Reason: err.Error()})
			continue
		}
		ok = append(ok, c)
	}
	return ok, refused
}
