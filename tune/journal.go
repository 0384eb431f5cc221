package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultStateDir holds the journal on a live host. /var/lib survives reboots (FHS 3.0 §5.8:
// "state information ... that persists between invocations and reboots"), which is what
// lets --rollback work after a reboot.
const DefaultStateDir = "/var/lib/headroom"

// JournalName is the journal's file name inside the state directory.
const JournalName = "journal.json"

// JournalSchema is the version of the journal's JSON layout.
const JournalSchema = 1

// State of a journal entry.
type State string

const (
	// StatePending is written, and fsynced, before the first change. An entry still
	// pending when read means the process died during the apply; rollback compares each
	// key's current value with the old and the new to see what, if anything, happened.
	StatePending State = "pending"
	// StateApplied: every change was written and read back.
	StateApplied State = "applied"
	// StateFailedRestored: a write failed, and every change already written was restored.
	StateFailedRestored State = "failed-restored"
	// StateFailedIncomplete: a write failed, and restoring at least one earlier change
	// failed too; rollback retries it.
	StateFailedIncomplete State = "failed-restore-incomplete"
	// StateRolledBack: undone by --rollback (or found to have nothing to undo).
	StateRolledBack State = "rolled-back"
)

// Status of one change in an entry.
const (
	StatusPlanned       = "planned"        // in the journal, not yet written
	StatusWritten       = "written"        // written and read back
	StatusFailed        = "failed"         // the write (or its read-back) failed
	StatusRestored      = "restored"       // written, then restored after a later failure
	StatusRestoreFailed = "restore-failed" // written, and restoring it failed
	StatusRolledBack    = "rolled-back"    // restored by --rollback
	StatusUnchanged     = "unchanged"      // rollback found the old value already there
	StatusConflict      = "conflict"       // rollback found neither the old nor the new value
)

// Record is one change inside a journal entry.
type Record struct {
	Kind   string `json:"kind"`
	Key    string `json:"key"`
	Old    string `json:"old"`
	New    string `json:"new"`
	Why    string `json:"why"`
	Rule   string `json:"rule,omitempty"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// PersistRecord is the sysctl.d drop-in an entry wrote, with what was there before.
type PersistRecord struct {
	Path       string `json:"path"`
	Existed    bool   `json:"existed"`
	OldContent string `json:"old_content,omitempty"`
	NewContent string `json:"new_content"`
	Status     string `json:"status"`
	Error      string `json:"error,omitempty"`
}

// Entry is one apply: what was asked, what was there before, and what happened.
type Entry struct {
	ID    int       `json:"id"`
	Time  time.Time `json:"time"`
	Netns string    `json:"netns,omitempty"`
	// ProcSys is the sysctl tree the entry wrote (the --proc-sys directory, /proc/sys on a
	// live host) and NetnsIno the inode of the network namespace it wrote in (nsfs inode,
	// as /proc/PID/ns/net shows it): rollback refuses to write anywhere else. Empty or 0
	// in entries written before headroom recorded them (see trust.go).
	ProcSys  string `json:"proc_sys,omitempty"`
	NetnsIno uint64 `json:"netns_ino,omitempty"`
	// SysctlDir is the --sysctl-dir of an apply with --persist: rollback writes or removes
	// a drop-in only directly inside it.
	SysctlDir  string         `json:"sysctl_dir,omitempty"`
	State      State          `json:"state"`
	Changes    []Record       `json:"changes"`
	Persist    *PersistRecord `json:"persist,omitempty"`
	Error      string         `json:"error,omitempty"`
	Notes      []string       `json:"notes,omitempty"`
	Updated    time.Time      `json:"updated"`
	RolledBack *time.Time     `json:"rolled_back,omitempty"`
	// Verify is the --verify comparison of the guards before and after the apply.
	Verify *Verification `json:"verify,omitempty"`
}

// JournalFile is the whole journal.
type JournalFile struct {
	Schema  int      `json:"schema"`
	Entries []*Entry `json:"entries"`
}

// Find returns the entry with id, or nil.
func (jf *JournalFile) Find(id int) *Entry {
	for _, e := range jf.Entries {
		if e.ID == id {
			return e
		}
	}
	return nil
}

func (jf *JournalFile) nextID() int {
	id := 0
	for _, e := range jf.Entries {
		if e.ID > id {
			id = e.ID
		}
	}
	return id + 1
}

// Journal is the journal in a state directory, locked for one process at a time.
type Journal struct {
	dir  string
	lock *os.File
}

// OpenJournal creates the state directory if needed and takes its lock, so that two
// headroom processes never interleave applies and rollbacks.
func OpenJournal(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := CheckStateDir(dir); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	lockPath := filepath.Join(dir, "journal.lock")
	f, err := openTrusted(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("journal %s: another headroom tune holds the lock", lockPath)
		}
		return nil, fmt.Errorf("journal: lock %s: %w", lockPath, err)
	}
	// Under the lock no other headroom is writing: a temporary file left here is from a
	// run that was killed between writing it and renaming it.
	removeStaleTemps(dir, JournalName)
	return &Journal{dir: dir, lock: f}, nil
}

// Path is the journal file's path.
func (j *Journal) Path() string { return filepath.Join(j.dir, JournalName) }

// Close releases the lock.
func (j *Journal) Close() error {
	if j.lock == nil {
		return nil
	}
	err := j.lock.Close() // closing the descriptor drops the flock
	j.lock = nil
	return err
}

// Load reads the journal; a missing journal is an empty one.
func (j *Journal) Load() (*JournalFile, error) {
	return ReadJournal(j.Path())
}

// ReadJournal reads a journal file without taking the lock (for --print and inspection).
// A journal that another user could have written is refused (trust.go).
func ReadJournal(path string) (*JournalFile, error) {
	f, err := openTrusted(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return &JournalFile{Schema: JournalSchema}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var jf JournalFile
	if err := json.Unmarshal(data, &jf); err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if jf.Schema != JournalSchema {
		return nil, fmt.Errorf("journal %s: schema %d, this headroom reads schema %d", path, jf.Schema, JournalSchema)
	}
	return &jf, nil
}

// Save writes the journal atomically and durably.
func (j *Journal) Save(jf *JournalFile) error {
	jf.Schema = JournalSchema
	data, err := json.MarshalIndent(jf, "", "  ")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := WriteFileAtomic(j.Path(), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// WriteFileAtomic replaces path with data so that a crash at any moment leaves either the
// old file or the new one, never a mix: write a temporary file in the same directory, fsync
// it, rename it over path, then fsync the directory so the rename itself is on disk
// (rename(2) is atomic, but durable only once the directory is synced).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern(filepath.Base(path)))
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmpName, path); err != nil {
		return err
	}
	ok = true
	return syncDir(dir)
}

// tempPattern is the name os.CreateTemp gives WriteFileAtomic's temporary file of base.
func tempPattern(base string) string { return "." + base + ".tmp-*" }

// removeStaleTemps removes the temporary files of base in dir that WriteFileAtomic left
// behind when its process was killed before the rename. The caller must hold the lock
// that serialises writers of base, so no live writer's file is removed.
func removeStaleTemps(dir, base string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, tempPattern(base)))
	var removed []string
	for _, n := range names {
		if fi, err := os.Lstat(n); err == nil && fi.Mode().IsRegular() && os.Remove(n) == nil {
			removed = append(removed, n)
		}
	}
	return removed
}

// RemoveFileDurable removes path and syncs its directory.
func RemoveFileDurable(path string) error {
	if err := os.Remove(path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
