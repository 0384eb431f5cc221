// Package tune turns a set of changes (model.Change, from diagnose or plan) into action, and
// makes every action undoable:
//
//   - a journal entry (time, namespace, key, old value, new value, reason) is written to a
//     state file and fsynced before anything on the host changes (journal.go);
//   - sysctls are written straight to /proc/sys, each with a single write(2), and read back
//     (sysctlfs.go), optionally inside a network namespace entered on a throwaway, locked OS
//     thread (netns.go);
//   - a failed write restores the values already written, and the journal says which write
//     failed and why (apply.go);
//   - a sysctl.d drop-in makes the change survive a reboot (persist.go);
//   - rollback restores from the journal, newest entry first, also after a reboot
//     (rollback.go);
//   - NIC ring sizes (ethtool -G) and rate limits (tc) go through the same journal, but only
//     when asked for explicitly, since they can reset a link (nic.go);
//   - safety bounds (bounds.go) and the per-network-namespace table of sysctls (scope.go) are
//     checked before the journal is written;
//   - the same changes render as a shell script, a sysctl.d file, or a TuneD profile
//     (render.go).
//
// The package decides nothing about what to change: that is diagnose's and plan's job.
// Nothing here prints; callers get results and errors, and every change is logged through
// the caller's slog.Logger, one line per change, old → new, with its reason.
package tune
